/* SPDX-License-Identifier: MIT */
/*
 * The disk cache of built programs: $XDG_CACHE_HOME/lanes (or ~/.cache/lanes),
 * one file per (source, options, language, Lanes version, CPU). LANES_CACHE=0
 * turns it off. An entry that fails any check is ignored and rebuilt.
 */
#ifndef LANES_COMPILER_CACHE_H
#define LANES_COMPILER_CACHE_H

#include "program.h"

/* The key of one build: what makes two builds produce the same module. */
struct lanes_cache_key {
    unsigned char digest[32];
};

/* Hashes everything a build depends on into a key. */
void lanes_cache_key(struct lanes_cache_key *key, const char *source, size_t size,
                     const struct lanes_options *options, const struct lanes_language *lang);

/* The cached module and its build log, or NULL on a miss (or a bad entry). */
struct lanes_program_module *lanes_cache_load(const struct lanes_cache_key *key, char **log);

/* Stores a module and its log; failures are silent (the cache is an optimization). */
void lanes_cache_store(const struct lanes_cache_key *key, const struct lanes_program_module *m,
                       const char *log);

#endif
