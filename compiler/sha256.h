/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4), for cache keys and binary checksums. */
#ifndef LANES_COMPILER_SHA256_H
#define LANES_COMPILER_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct lanes_sha256 {
    uint32_t state[8];
    uint64_t length; /* bytes hashed so far */
    unsigned char block[64];
    size_t used; /* bytes waiting in `block` */
};

void lanes_sha256_init(struct lanes_sha256 *h);

/* Adds `size` bytes to the hash. */
void lanes_sha256_update(struct lanes_sha256 *h, const void *data, size_t size);

/* Finishes the hash into 32 bytes. */
void lanes_sha256_final(struct lanes_sha256 *h, unsigned char out[32]);

#endif
