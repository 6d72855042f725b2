/* SPDX-License-Identifier: MIT */
/*
 * Formats the printf records a kernel command wrote (layout in
 * compiler/printf.h) with the C library's printf, one conversion at a time,
 * following OpenCL C 3.0 §6.15.14: vector conversions (%v<n> with hh, h, hl
 * or l) print their elements separated by commas, `l` is 64-bit, %s reads a
 * string from the kernel's memory.
 */
#include "printf.h"

#include "../compiler/printf.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* One argument of a record. */
struct arg {
    unsigned kind, size, count;
    const unsigned char *data;
};

/* The IEEE binary16 value `h` as a double (exact). */
static double half_to_double(uint16_t h)
{
    int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v = exp == 0    ? ldexp(mant, -24)
               : exp == 31 ? (mant ? NAN : INFINITY)
                           : ldexp(mant | 0x400, exp - 25);
    return h & 0x8000 ? -v : v;
}

static double float_at(const struct arg *a, unsigned i)
{
    const unsigned char *p = a->data + (size_t)i * a->size;
    if (a->size == 2) {
        uint16_t h;
        memcpy(&h, p, 2);
        return half_to_double(h);
    }
    if (a->size == 4) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double d;
    memcpy(&d, p, 8);
    return d;
}

/* Element i of an integer argument, sign-extended from its stored size. */
static int64_t int_at(const struct arg *a, unsigned i)
{
    const unsigned char *p = a->data + (size_t)i * a->size;
    switch (a->size) {
    case 1: return (int8_t)p[0];
    case 2: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

/*
 * Prints element i of `a` with the C conversion `spec` (flags, width and
 * precision, no length) ending in conversion character `conv`, for OpenCL
 * length `len`: 0 none, 'H' hh, 'h' h, 'l' l, 'L' hl.
 */
static void print_element(FILE *out, const char *spec, char conv, char len, const struct arg *a,
                          unsigned i)
{
    char fmt[64];
    switch (conv) {
    case 'd':
    case 'i': {
        int64_t v = a->kind == LANES_PRINTF_FLOAT ? (int64_t)float_at(a, i) : int_at(a, i);
        if (len == 'H')
            v = (int8_t)v;
        else if (len == 'h')
            v = (int16_t)v;
        else if (len != 'l')
            v = (int32_t)v;
        snprintf(fmt, sizeof fmt, "%sll%c", spec, conv);
        fprintf(out, fmt, (long long)v);
        return;
    }
    case 'o':
    case 'u':
    case 'x':
    case 'X': {
        uint64_t v = (uint64_t)int_at(a, i);
        if (len == 'H')
            v = (uint8_t)v;
        else if (len == 'h')
            v = (uint16_t)v;
        else if (len != 'l')
            v = (uint32_t)v;
        snprintf(fmt, sizeof fmt, "%sll%c", spec, conv);
        fprintf(out, fmt, (unsigned long long)v);
        return;
    }
    case 'c':
        snprintf(fmt, sizeof fmt, "%sc", spec);
        fprintf(out, fmt, (int)(unsigned char)int_at(a, i));
        return;
    case 'p': {
        uint64_t v;
        memcpy(&v, a->data, 8);
        snprintf(fmt, sizeof fmt, "%sp", spec);
        fprintf(out, fmt, (void *)(uintptr_t)v);
        return;
    }
    case 's': {
        uint64_t v;
        memcpy(&v, a->data, 8);
        snprintf(fmt, sizeof fmt, "%ss", spec);
        fprintf(out, fmt, v ? (const char *)(uintptr_t)v : "(null)");
        return;
    }
    default: { /* f F e E g G a A */
        double v = a->kind == LANES_PRINTF_FLOAT ? float_at(a, i) : (double)int_at(a, i);
        snprintf(fmt, sizeof fmt, "%s%c", spec, conv);
        fprintf(out, fmt, v);
        return;
    }
    }
}

/* Prints one record's format with its arguments. */
static void print_record(FILE *out, const char *format, const struct arg *args, unsigned num_args)
{
    unsigned next = 0;
    for (const char *p = format; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            fwrite(p, 1, n, out);
            p += n;
            continue;
        }
        if (p[1] == '%') {
            fputc('%', out);
            p += 2;
            continue;
        }
        /* %[flags][width][.precision][vn][length]conversion */
        const char *start = p++;
        char spec[48] = "%";
        size_t s = 1;
        while (*p && strchr("-+ #0", *p) && s < 16)
            spec[s++] = *p++;
        while (*p >= '0' && *p <= '9' && s < 32)
            spec[s++] = *p++;
        if (*p == '.') {
            spec[s++] = *p++;
            while (*p >= '0' && *p <= '9' && s < 44)
                spec[s++] = *p++;
        }
        spec[s] = '\0';
        unsigned vec = 0;
        if (*p == 'v') {
            p++;
            while (*p >= '0' && *p <= '9')
                vec = vec * 10 + (unsigned)(*p++ - '0');
        }
        char len = 0;
        if (p[0] == 'h' && p[1] == 'h')
            len = 'H', p += 2;
        else if (p[0] == 'h' && p[1] == 'l')
            len = 'L', p += 2;
        else if (*p == 'h' || *p == 'l')
            len = *p++;
        char conv = *p ? *p++ : '\0';
        if (!conv || !strchr("diouxXfFeEgGaAcsp", conv) || next >= num_args) {
            /* Not a conversion OpenCL C has, or no argument for it: printed as written. */
            fwrite(start, 1, (size_t)(p - start), out);
            continue;
        }
        const struct arg *a = &args[next++];
        unsigned count = vec ? vec : 1;
        if (count > a->count)
            count = a->count;
        for (unsigned i = 0; i < count; i++) {
            if (i)
                fputc(',', out);
            print_element(out, spec, conv, len, a, i);
        }
    }
}

void lanes_printf_flush(const struct lanes_printf_buffer *buf, FILE *out)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    uint64_t used = buf->used < buf->capacity ? buf->used : buf->capacity;
    /* Commands completing at once print whole buffers, never interleaved. */
    pthread_mutex_lock(&lock);
    flockfile(out);
    for (uint64_t pos = 0; pos + 16 <= used;) {
        const unsigned char *r = (const unsigned char *)buf->data + pos;
        uint32_t size, num_args;
        uint64_t format;
        memcpy(&size, r, 4);
        memcpy(&num_args, r + 4, 4);
        memcpy(&format, r + 8, 8);
        if (size < 16 || size % 8 || size > used - pos)
            break; /* a record cut by the end of the buffer (dropped) */
        struct arg args[64];
        unsigned n = 0;
        for (uint64_t at = 16; n < num_args && n < 64 && at + 8 <= size; n++) {
            uint32_t tag;
            memcpy(&tag, r + at, 4);
            args[n] = (struct arg){LANES_PRINTF_TAG_KIND(tag), LANES_PRINTF_TAG_SIZE(tag),
                                   LANES_PRINTF_TAG_COUNT(tag), r + at + 8};
            at += 8 + ((uint64_t)args[n].size * args[n].count + 7) / 8 * 8;
        }
        print_record(out, (const char *)(uintptr_t)format, args, n);
        pos += size;
    }
    fflush(out);
    funlockfile(out);
    pthread_mutex_unlock(&lock);
}
