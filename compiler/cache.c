/* SPDX-License-Identifier: MIT */
/*
 * An entry is "LANESLOG", the log size (8 bytes, little-endian), the log,
 * then a binary container (compiler/binary.h) whose own checks (version, CPU,
 * checksum) guard the module. Entries are written to a temporary file and
 * renamed, so readers never see half an entry.
 */
#include "cache.h"

#include "binary.h"
#include "host.h"
#include "sha256.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char log_magic[8] = "LANESLOG";

/* The cache directory (created), or false when the cache is off or unusable. */
static bool cache_dir(char *out, size_t size)
{
    /* Off for "0", "no", "off" and "false"; on when unset or anything else (README). */
    const char *v = getenv("LANES_CACHE");
    if (v && (strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0 ||
              strcasecmp(v, "false") == 0))
        return false;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(out, size, "%s/lanes", xdg);
    else if (home && home[0] == '/')
        n = snprintf(out, size, "%s/.cache/lanes", home);
    else
        return false;
    if (n < 0 || (size_t)n >= size)
        return false;
    /* Make the parents too: ~/.cache may not exist yet. */
    for (char *p = out + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(out, 0700);
            *p = '/';
        }
    }
    return mkdir(out, 0700) == 0 || errno == EEXIST;
}

static bool entry_path(const struct lanes_cache_key *key, char *out, size_t size)
{
    char dir[4096];
    if (!cache_dir(dir, sizeof dir))
        return false;
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", key->digest[i]);
    int n = snprintf(out, size, "%s/%s.bin", dir, hex);
    return n > 0 && (size_t)n < size;
}

/* Hashes a length and the bytes, so that fields cannot run into each other. */
static void hash_field(struct lanes_sha256 *h, const void *data, size_t size)
{
    uint64_t n = size;
    lanes_sha256_update(h, &n, sizeof n);
    lanes_sha256_update(h, data, size);
}

void lanes_cache_key(struct lanes_cache_key *key, const char *source, size_t size,
                     const struct lanes_options *options, const struct lanes_language *lang)
{
    struct lanes_sha256 h;
    lanes_sha256_init(&h);
    hash_field(&h, "lanes-cache-1", 13);
    hash_field(&h, LANES_VERSION_STRING, strlen(LANES_VERSION_STRING));
    const char *isa = lanes_host()->isa_key;
    hash_field(&h, isa, strlen(isa));
    hash_field(&h, source, size);
    for (size_t i = 0; i < options->num_clang_args; i++)
        hash_field(&h, options->clang_args[i], strlen(options->clang_args[i]));
    hash_field(&h, &options->kernel_arg_info, sizeof options->kernel_arg_info);
    for (size_t i = 0; i < lang->num_extensions; i++)
        hash_field(&h, lang->extensions[i].name, strlen(lang->extensions[i].name));
    for (size_t i = 0; i < lang->num_features; i++)
        hash_field(&h, lang->features[i].name, strlen(lang->features[i].name));
    lanes_sha256_final(&h, key->digest);
}

/* Reads a whole file into a malloc'd buffer. */
static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *data = NULL;
    long n;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)n)) && fread(data, 1, (size_t)n, f) == (size_t)n) {
        *size = (size_t)n;
    } else {
        free(data);
        data = NULL;
    }
    fclose(f);
    return data;
}

struct lanes_program_module *lanes_cache_load(const struct lanes_cache_key *key, char **log)
{
    char path[4352];
    size_t size;
    unsigned char *data = entry_path(key, path, sizeof path) ? read_file(path, &size) : NULL;
    if (!data)
        return NULL;
    struct lanes_program_module *m = NULL;
    uint64_t log_size = 0;
    if (size >= 16 && memcmp(data, log_magic, 8) == 0) {
        memcpy(&log_size, data + 8, 8);
        if (log_size <= size - 16) {
            struct lanes_binary_info info;
            const char *reason;
            m = lanes_binary_decode(data + 16 + log_size, size - 16 - log_size, &info, &reason);
        }
    }
    if (m && (*log = malloc(log_size + 1))) {
        memcpy(*log, data + 16, log_size);
        (*log)[log_size] = '\0';
    } else {
        lanes_program_module_free(m);
        m = NULL;
    }
    free(data);
    return m;
}

void lanes_cache_store(const struct lanes_cache_key *key, const struct lanes_program_module *m,
                       const char *log)
{
    char path[4352], tmp[4400];
    if (!entry_path(key, path, sizeof path))
        return;
    size_t bin_size;
    struct lanes_binary_info info = {CL_PROGRAM_BINARY_TYPE_EXECUTABLE, false, false};
    void *bin = lanes_binary_encode(m, info, &bin_size);
    if (!bin)
        return;
    /* A name no other thread or process writes to. */
    static atomic_uint counter;
    snprintf(tmp, sizeof tmp, "%s.%ld.%u.tmp", path, (long)getpid(), atomic_fetch_add(&counter, 1));
    FILE *f = fopen(tmp, "wb");
    uint64_t log_size = log ? strlen(log) : 0;
    bool ok = f && fwrite(log_magic, 1, 8, f) == 8 && fwrite(&log_size, 8, 1, f) == 1 &&
              fwrite(log ? log : "", 1, log_size, f) == log_size &&
              fwrite(bin, 1, bin_size, f) == bin_size;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
    free(bin);
}
