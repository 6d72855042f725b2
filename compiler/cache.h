/* SPDX-License-Identifier: MIT */
/*
 * The disk cache: $XDG_CACHE_HOME/lanes (or ~/.cache/lanes), one file per
 * entry, LANES_CACHE=0 turns it off. It holds built programs (so a rebuild
 * skips Clang) and launchers' object code (so another process skips
 * optimization and code generation). Keys cover the Lanes version and the
 * host CPU; a program's entry also lists the files its build read from
 * disk, with their digests. An entry that fails any check (a header edited
 * since among them) is ignored and rebuilt.
 */
#ifndef LANES_COMPILER_CACHE_H
#define LANES_COMPILER_CACHE_H

#include "module.h"
#include "options.h"

/* The key of one entry: what makes two builds produce the same result. */
struct lanes_cache_key {
    unsigned char digest[32];
};

/* A key over `n` byte strings, the Lanes version and the host CPU's ISA key. */
void lanes_cache_key_of(struct lanes_cache_key *key, const void *const *parts, const size_t *sizes,
                        size_t n);

/* The key of a program build: source, options and language. */
void lanes_cache_key(struct lanes_cache_key *key, const char *source, size_t size,
                     const struct lanes_options *options, const struct lanes_language *lang);

/*
 * The cached module and its build log, or NULL on a miss, a bad entry, or
 * an entry one of whose files (headers read from disk) changed since.
 */
struct lanes_program_module *lanes_cache_load(const struct lanes_cache_key *key, char **log);

/*
 * Stores a module, its log and the files its build read from disk (`deps`,
 * lanes_frontend_result's lines); failures are silent (the cache is an
 * optimization).
 */
void lanes_cache_store(const struct lanes_cache_key *key, const struct lanes_program_module *m,
                       const char *log, const char *deps);

/* The bytes of an object-code entry (malloc'd), or NULL on a miss or a bad entry. */
void *lanes_cache_load_object(const struct lanes_cache_key *key, size_t *size);

/* Stores object code; failures are silent. */
void lanes_cache_store_object(const struct lanes_cache_key *key, const void *data, size_t size);

#endif
