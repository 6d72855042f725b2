/* SPDX-License-Identifier: MIT */
#include "binary.h"

#include "modules.h"

#include "host.h"
#include "sha256.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    OFF_VERSION = 8,
    OFF_TYPE = 12,
    OFF_FLAGS = 16,
    OFF_LANES = 24,
    OFF_ISA = 40,
    OFF_SIZE = 136,
    OFF_DIGEST = 144,
    HEADER = 176,
};
static const char magic[8] = "LANESBC";

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Copies a string into a zeroed field, leaving at least one NUL. */
static void put_string(unsigned char *field, size_t size, const char *s)
{
    size_t n = strlen(s);
    memcpy(field, s, n < size ? n : size - 1);
}

static void digest(const void *data, size_t size, unsigned char out[32])
{
    struct lanes_sha256 h;
    lanes_sha256_init(&h);
    lanes_sha256_update(&h, data, size);
    lanes_sha256_final(&h, out);
}

void *lanes_binary_encode(const struct lanes_program_module *m, struct lanes_binary_info info,
                          size_t *size)
{
    *size = HEADER + m->bitcode_size;
    unsigned char *b = calloc(1, *size);
    if (!b)
        return NULL;
    memcpy(b, magic, sizeof magic);
    put32(b + OFF_VERSION, LANES_BINARY_VERSION);
    put32(b + OFF_TYPE, (uint32_t)info.type);
    put32(b + OFF_FLAGS, (info.kernel_arg_info ? 1u : 0u) | (info.uniform_work_groups ? 2u : 0u));
    put_string(b + OFF_LANES, OFF_ISA - OFF_LANES, LANES_VERSION_STRING);
    put_string(b + OFF_ISA, OFF_SIZE - OFF_ISA, lanes_host()->isa_key);
    put32(b + OFF_SIZE, (uint32_t)m->bitcode_size);
    put32(b + OFF_SIZE + 4, (uint32_t)((uint64_t)m->bitcode_size >> 32));
    memcpy(b + OFF_DIGEST, m->bitcode_digest, sizeof m->bitcode_digest);
    memcpy(b + HEADER, m->bitcode, m->bitcode_size);
    return b;
}

struct lanes_program_module *lanes_binary_decode(const void *data, size_t size,
                                                 struct lanes_binary_info *info,
                                                 const char **reason)
{
    const unsigned char *b = data;
    if (!data || size < HEADER || memcmp(b, magic, sizeof magic) != 0) {
        *reason = "not a Lanes program binary";
        return NULL;
    }
    if (get32(b + OFF_VERSION) != LANES_BINARY_VERSION ||
        strncmp((const char *)b + OFF_LANES, LANES_VERSION_STRING, OFF_ISA - OFF_LANES) != 0) {
        *reason = "a binary of another Lanes version";
        return NULL;
    }
    if (strncmp((const char *)b + OFF_ISA, lanes_host()->isa_key, OFF_SIZE - OFF_ISA) != 0) {
        *reason = "a binary built for another CPU";
        return NULL;
    }
    uint64_t n = get32(b + OFF_SIZE) | (uint64_t)get32(b + OFF_SIZE + 4) << 32;
    unsigned char d[32];
    if (n != size - HEADER) {
        *reason = "a truncated binary";
        return NULL;
    }
    digest(b + HEADER, (size_t)n, d);
    if (memcmp(d, b + OFF_DIGEST, sizeof d) != 0) {
        *reason = "a corrupt binary (checksum mismatch)";
        return NULL;
    }
    uint32_t type = get32(b + OFF_TYPE);
    if (type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && type != CL_PROGRAM_BINARY_TYPE_LIBRARY &&
        type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        *reason = "a binary of unknown type";
        return NULL;
    }
    struct lanes_program_module *m = lanes_program_module_from_bitcode(b + HEADER, (size_t)n);
    if (!m) {
        *reason = "a binary whose module cannot be read";
        return NULL;
    }
    info->type = type;
    info->kernel_arg_info = get32(b + OFF_FLAGS) & 1;
    info->uniform_work_groups = (get32(b + OFF_FLAGS) & 2) != 0;
    return m;
}
