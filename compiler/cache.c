/* SPDX-License-Identifier: MIT */
/*
 * An entry is a kind tag (8 bytes: "LANESPRG" or "LANESOBJ"), the payload
 * size (8 bytes, little-endian), the payload's SHA-256, then the payload: for
 * a program the log size, the log and a binary container (compiler/binary.h,
 * which has checks of its own); for a launcher the object file, or a short
 * record (compiler/launcher.c: the code a program's launcher compiled to,
 * or why it could not be vectorized). Entries are
 * written to a temporary file and renamed, so readers never see half of one.
 */
#include "cache.h"

#include "binary.h"
#include "modules.h"
#include "host.h"
#include "sha256.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char program_kind[8] = "LANESPR2", object_kind[8] = "LANESOBJ";
enum { HEADER = 8 + 8 + 32 };

/* This library's GNU build ID (the linker's hash of its contents), found once. */
static struct {
    pthread_once_t once;
    unsigned char bytes[64];
    size_t size; /* 0: none found */
} build_id = {.once = PTHREAD_ONCE_INIT};

static int find_build_id(struct dl_phdr_info *info, size_t size, void *self_base)
{
    (void)size;
    if ((void *)info->dlpi_addr != self_base)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            const char *desc = p + sizeof *nh + ((nh->n_namesz + 3) & ~3u);
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
                memcmp(p + sizeof *nh, "GNU", 4) == 0 && nh->n_descsz <= sizeof build_id.bytes &&
                desc + nh->n_descsz <= end) {
                memcpy(build_id.bytes, desc, nh->n_descsz);
                build_id.size = nh->n_descsz;
                return 1;
            }
            p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
    return 1;
}

static void read_build_id(void)
{
    Dl_info info;
    if (dladdr((void *)read_build_id, &info) && info.dli_fbase)
        dl_iterate_phdr(find_build_id, info.dli_fbase);
}

/* The cache directory (created), or false when the cache is off or unusable. */
static bool cache_dir(char *out, size_t size)
{
    /* Without a build ID two builds of one version could not be told apart: no cache. */
    pthread_once(&build_id.once, read_build_id);
    if (!build_id.size)
        return false;
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

void lanes_cache_key_of(struct lanes_cache_key *key, const void *const *parts, const size_t *sizes,
                        size_t n)
{
    struct lanes_sha256 h;
    lanes_sha256_init(&h);
    hash_field(&h, "lanes-cache-3", 13); /* bumped when a build's output changes */
    hash_field(&h, LANES_VERSION_STRING, strlen(LANES_VERSION_STRING));
    /* The build, not only the version: a rebuilt library (built-ins changed) must miss. */
    pthread_once(&build_id.once, read_build_id);
    hash_field(&h, build_id.bytes, build_id.size);
    const char *isa = lanes_host()->isa_key;
    hash_field(&h, isa, strlen(isa));
    for (size_t i = 0; i < n; i++)
        hash_field(&h, parts[i], sizes[i]);
    lanes_sha256_final(&h, key->digest);
}

void lanes_cache_key(struct lanes_cache_key *key, const char *source, size_t size,
                     const struct lanes_options *options, const struct lanes_language *lang)
{
    /* Everything the build depends on, hashed into one part. */
    struct lanes_sha256 h;
    lanes_sha256_init(&h);
    hash_field(&h, source, size);
    for (size_t i = 0; i < options->num_clang_args; i++)
        hash_field(&h, options->clang_args[i], strlen(options->clang_args[i]));
    hash_field(&h, &options->kernel_arg_info, sizeof options->kernel_arg_info);
    for (size_t i = 0; i < lang->num_extensions; i++)
        hash_field(&h, lang->extensions[i].name, strlen(lang->extensions[i].name));
    for (size_t i = 0; i < lang->num_features; i++)
        hash_field(&h, lang->features[i].name, strlen(lang->features[i].name));
    hash_field(&h, &lang->opencl_version, sizeof lang->opencl_version);
    unsigned char digest[32];
    lanes_sha256_final(&h, digest);
    const void *parts[] = {"program", digest};
    const size_t sizes[] = {7, sizeof digest};
    lanes_cache_key_of(key, parts, sizes, 2);
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

/*
 * The size limit: LANES_CACHE_SIZE MiB, 1 GiB by default. Past it, a
 * process that stores entries deletes the least recently used ones (an
 * entry's mtime is its last use: loads touch it) down to three quarters of
 * the limit. Each process checks at its first store and then after every
 * eighth of the limit it writes; processes racing to delete the same
 * entries are harmless (a reader keeps a file it has opened).
 */
static uint64_t size_limit(void)
{
    const char *v = getenv("LANES_CACHE_SIZE");
    char *end;
    unsigned long long mib = v ? strtoull(v, &end, 10) : 0;
    return v && *v && !*end && mib > 0 && mib < (1ull << 40) ? mib << 20 : (uint64_t)1 << 30;
}

struct entry_use {
    uint64_t used; /* ns */
    uint64_t bytes;
    char name[80];
};

static int by_use(const void *a, const void *b)
{
    const struct entry_use *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used;
}

/* Deletes the least recently used entries of `dir` past the limit, and temporaries an hour old. */
static void trim(const char *dir)
{
    uint64_t limit = size_limit(), total = 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct entry_use *all = NULL;
    size_t n = 0, cap = 0;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        bool tmp = len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0;
        if (len >= sizeof all->name || (!tmp && (len < 5 || strcmp(e->d_name + len - 4, ".bin"))))
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (tmp) { /* left by a process that died while writing */
            if (now - st.st_mtime > 3600)
                unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        if (n == cap) {
            struct entry_use *grown = realloc(all, (cap = cap ? 2 * cap : 256) * sizeof *all);
            if (!grown)
                break;
            all = grown;
        }
        all[n].used = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
        all[n].bytes = (uint64_t)st.st_size;
        memcpy(all[n].name, e->d_name, len + 1);
        total += all[n++].bytes;
    }
    if (total > limit) {
        qsort(all, n, sizeof *all, by_use);
        for (size_t i = 0; i < n && total > limit / 4 * 3; i++)
            if (unlinkat(dirfd(d), all[i].name, 0) == 0 || errno == ENOENT)
                total -= all[i].bytes;
    }
    free(all);
    closedir(d);
}

/* Counts a store of `bytes`; trims the cache at this process's first store and every limit / 8. */
static void count_store(const char *path, uint64_t bytes)
{
    static atomic_uint_fast64_t written, trimmed_at;
    static atomic_bool started;
    uint64_t now = atomic_fetch_add(&written, bytes) + bytes;
    if (atomic_exchange(&started, true) && now - atomic_load(&trimmed_at) < size_limit() / 8)
        return;
    atomic_store(&trimmed_at, now); /* two threads trimming at once is harmless */
    char dir[4352];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        trim(dir);
    }
}

/* The payload of the entry of `kind` under `key` (malloc'd), or NULL. */
static unsigned char *load(const struct lanes_cache_key *key, const char kind[8], size_t *size)
{
    char path[4352];
    size_t n;
    unsigned char *data = entry_path(key, path, sizeof path) ? read_file(path, &n) : NULL;
    if (!data)
        return NULL;
    uint64_t payload;
    unsigned char digest[32];
    if (n >= HEADER && memcmp(data, kind, 8) == 0) {
        memcpy(&payload, data + 8, 8);
        if (payload == n - HEADER) {
            struct lanes_sha256 h;
            lanes_sha256_init(&h);
            lanes_sha256_update(&h, data + HEADER, payload);
            lanes_sha256_final(&h, digest);
            if (memcmp(digest, data + 16, 32) == 0) {
                utimensat(AT_FDCWD, path, NULL, 0); /* used now: the last to be evicted */
                memmove(data, data + HEADER, payload);
                *size = payload;
                return data;
            }
        }
    }
    free(data);
    return NULL;
}

/* Writes an entry of `kind` whose payload is `a` then `b`. */
static void store(const struct lanes_cache_key *key, const char kind[8], const void *a,
                  size_t a_size, const void *b, size_t b_size)
{
    char path[4352], tmp[4400];
    if (!entry_path(key, path, sizeof path))
        return;
    uint64_t payload = a_size + b_size;
    unsigned char digest[32];
    struct lanes_sha256 h;
    lanes_sha256_init(&h);
    lanes_sha256_update(&h, a, a_size);
    lanes_sha256_update(&h, b, b_size);
    lanes_sha256_final(&h, digest);
    /* A name no other thread or process writes to. */
    static atomic_uint counter;
    snprintf(tmp, sizeof tmp, "%s.%ld.%u.tmp", path, (long)getpid(), atomic_fetch_add(&counter, 1));
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(kind, 1, 8, f) == 8 && fwrite(&payload, 8, 1, f) == 1 &&
              fwrite(digest, 1, 32, f) == 32 && fwrite(a, 1, a_size, f) == a_size &&
              fwrite(b, 1, b_size, f) == b_size;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
    else
        count_store(path, HEADER + payload);
}

/*
 * Whether every file of `deps` (lines "<sha256 hex> <path>", n bytes) still
 * holds what the build read: a header edited since (found through -I) makes
 * the entry stale.
 */
static bool deps_current(const char *deps, size_t n)
{
    const char *p = deps, *end = deps + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl || nl - p < 66 || p[64] != ' ')
            return false;
        char path[4096];
        size_t len = (size_t)(nl - p - 65);
        if (len >= sizeof path)
            return false;
        memcpy(path, p + 65, len);
        path[len] = '\0';
        size_t size = 0;
        unsigned char *data = read_file(path, &size), digest[32];
        FILE *f = data ? NULL : fopen(path, "rb"); /* read_file refuses empty files */
        if (!data && !f)
            return false;
        if (f)
            fclose(f);
        struct lanes_sha256 h;
        lanes_sha256_init(&h);
        lanes_sha256_update(&h, data ? data : (unsigned char *)"", size);
        lanes_sha256_final(&h, digest);
        free(data);
        char hex[65];
        for (int i = 0; i < 32; i++)
            snprintf(hex + 2 * i, 3, "%02x", digest[i]);
        if (memcmp(hex, p, 64) != 0)
            return false;
        p = nl + 1;
    }
    return true;
}

/* Payload: log size (8 bytes), log, deps size (8 bytes), deps, binary. */
struct lanes_program_module *lanes_cache_load(const struct lanes_cache_key *key, char **log)
{
    size_t size;
    unsigned char *data = load(key, program_kind, &size);
    if (!data)
        return NULL;
    struct lanes_program_module *m = NULL;
    uint64_t log_size = 0, deps_size = 0;
    if (size >= 16) {
        memcpy(&log_size, data, 8);
        if (log_size <= size - 16)
            memcpy(&deps_size, data + 8 + log_size, 8);
        if (log_size <= size - 16 && deps_size <= size - 16 - log_size &&
            deps_current((const char *)data + 16 + log_size, deps_size)) {
            struct lanes_binary_info info;
            const char *reason;
            size_t at = 16 + log_size + deps_size;
            m = lanes_binary_decode(data + at, size - at, &info, &reason);
        }
    }
    if (m && (*log = malloc(log_size + 1))) {
        memcpy(*log, data + 8, log_size);
        (*log)[log_size] = '\0';
    } else {
        lanes_program_module_free(m);
        m = NULL;
    }
    free(data);
    return m;
}

void lanes_cache_store(const struct lanes_cache_key *key, const struct lanes_program_module *m,
                       const char *log, const char *deps)
{
    size_t bin_size;
    struct lanes_binary_info info = {CL_PROGRAM_BINARY_TYPE_EXECUTABLE, false, false};
    unsigned char *bin = lanes_binary_encode(m, info, &bin_size);
    uint64_t log_size = log ? strlen(log) : 0, deps_size = deps ? strlen(deps) : 0;
    unsigned char *head = bin ? malloc(16 + log_size + deps_size) : NULL;
    if (head) {
        memcpy(head, &log_size, 8);
        memcpy(head + 8, log ? log : "", log_size);
        memcpy(head + 8 + log_size, &deps_size, 8);
        memcpy(head + 16 + log_size, deps ? deps : "", deps_size);
        store(key, program_kind, head, 16 + log_size + deps_size, bin, bin_size);
    }
    free(head);
    free(bin);
}

void *lanes_cache_load_object(const struct lanes_cache_key *key, size_t *size)
{
    return load(key, object_kind, size);
}

void lanes_cache_store_object(const struct lanes_cache_key *key, const void *data, size_t size)
{
    store(key, object_kind, data, size, "", 0);
}
