/* SPDX-License-Identifier: MIT */
/* Image formats: the specification's format rules and the texels a fill writes. */
#include "image.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

bool lanes_image_type_valid(cl_mem_object_type type)
{
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D: return true;
    }
    return false;
}

/* Bytes of one channel; for packed types, of the whole texel (negated). */
static int type_size(cl_channel_type t)
{
    switch (t) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8: return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT: return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT: return 4;
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555: return -2;
    case CL_UNORM_INT_101010:
    case CL_UNORM_INT_101010_2:
    case CL_UNORM_INT24: return -4;
    }
    return 0;
}

/*
 * The colour components each channel of an order stores, in memory order
 * (0 to 3: r, g, b, a; 4: padding), and how many channels.
 */
static int order_components(cl_channel_order o, int comp[4])
{
    static const struct {
        cl_channel_order order;
        int n, comp[4];
    } table[] = {
        {CL_R, 1, {0}},
        {CL_A, 1, {3}},
        {CL_RG, 2, {0, 1}},
        {CL_RA, 2, {0, 3}},
        {CL_RGB, 3, {0, 1, 2}},
        {CL_RGBA, 4, {0, 1, 2, 3}},
        {CL_BGRA, 4, {2, 1, 0, 3}},
        {CL_ARGB, 4, {3, 0, 1, 2}},
        {CL_ABGR, 4, {3, 2, 1, 0}},
        {CL_INTENSITY, 1, {0}},
        {CL_LUMINANCE, 1, {0}},
        {CL_Rx, 2, {0, 4}},
        {CL_RGx, 3, {0, 1, 4}},
        {CL_RGBx, 4, {0, 1, 2, 4}},
        {CL_DEPTH, 1, {0}},
        {CL_DEPTH_STENCIL, 2, {0, 4}},
        {CL_sRGB, 3, {0, 1, 2}},
        {CL_sRGBx, 4, {0, 1, 2, 4}},
        {CL_sRGBA, 4, {0, 1, 2, 3}},
        {CL_sBGRA, 4, {2, 1, 0, 3}},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].order == o) {
            memcpy(comp, table[i].comp, sizeof table[i].comp);
            return table[i].n;
        }
    }
    return 0;
}

int lanes_image_channels(cl_channel_order order)
{
    int comp[4];
    return order_components(order, comp);
}

static bool is_srgb(cl_channel_order o)
{
    return o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
}

/* The pairings the specification's channel order table allows. */
static bool pairing_valid(cl_channel_order o, cl_channel_type t)
{
    bool packed3 = t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
    bool int8 =
        t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
    switch (o) {
    case CL_RGB:
    case CL_RGBx: return packed3;
    case CL_INTENSITY:
    case CL_LUMINANCE:
        return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 ||
               t == CL_SNORM_INT16 || t == CL_HALF_FLOAT || t == CL_FLOAT;
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR: return int8;
    case CL_sRGB:
    case CL_sRGBx:
    case CL_sRGBA:
    case CL_sBGRA: return t == CL_UNORM_INT8;
    case CL_DEPTH: return t == CL_UNORM_INT16 || t == CL_FLOAT;
    case CL_DEPTH_STENCIL: return t == CL_UNORM_INT24 || t == CL_FLOAT;
    case CL_RGBA: return type_size(t) > 0 || t == CL_UNORM_INT_101010_2;
    }
    return type_size(t) > 0; /* R, A, RG, RA, Rx, RGx: any type of whole channels */
}

size_t lanes_image_elem_size(const cl_image_format *f)
{
    int comp[4];
    int n = order_components(f->image_channel_order, comp);
    int size = type_size(f->image_channel_data_type);
    if (!n || !size || !pairing_valid(f->image_channel_order, f->image_channel_data_type))
        return 0;
    if (f->image_channel_order == CL_DEPTH_STENCIL)
        return f->image_channel_data_type == CL_FLOAT ? 8 : 4;
    return size < 0 ? (size_t)-size : (size_t)(n * size);
}

/* The channel types every full profile device lists for R, RG and RGBA. */
static const cl_channel_type every_type[] = {
    CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SNORM_INT8,   CL_SNORM_INT16,
    CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT,
};

#define NUM_TYPES (sizeof every_type / sizeof every_type[0])

/*
 * The supported formats in one list: R, RG and RGBA of every type, BGRA and
 * ABGR of UNORM_INT8; sRGBA (UNORM_INT8) for images kernels only read,
 * since writing sRGB is an extension; DEPTH (UNORM_INT16, FLOAT) for 2D
 * images and 2D arrays.
 */
cl_uint lanes_image_formats(cl_mem_object_type type, cl_mem_flags flags, cl_image_format *out,
                            cl_uint max)
{
    cl_image_format all[3 * NUM_TYPES + 5];
    cl_uint n = 0;
    static const cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA};
    for (size_t o = 0; o < 3; o++)
        for (size_t t = 0; t < NUM_TYPES; t++)
            all[n++] = (cl_image_format){orders[o], every_type[t]};
    all[n++] = (cl_image_format){CL_BGRA, CL_UNORM_INT8};
    all[n++] = (cl_image_format){CL_ABGR, CL_UNORM_INT8};
    bool kernel_writes =
        (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_KERNEL_READ_AND_WRITE)) ||
        !(flags & CL_MEM_READ_ONLY);
    if (!kernel_writes)
        all[n++] = (cl_image_format){CL_sRGBA, CL_UNORM_INT8};
    if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY) {
        all[n++] = (cl_image_format){CL_DEPTH, CL_UNORM_INT16};
        all[n++] = (cl_image_format){CL_DEPTH, CL_FLOAT};
    }
    if (out)
        memcpy(out, all, (max < n ? max : n) * sizeof *out);
    return n;
}

bool lanes_image_format_supported(cl_mem_object_type type, cl_mem_flags flags,
                                  const cl_image_format *format)
{
    cl_image_format all[3 * NUM_TYPES + 5];
    cl_uint n = lanes_image_formats(type, flags, all, sizeof all / sizeof all[0]);
    for (cl_uint i = 0; i < n; i++)
        if (all[i].image_channel_order == format->image_channel_order &&
            all[i].image_channel_data_type == format->image_channel_data_type)
            return true;
    return false;
}

unsigned short lanes_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
    if (e == 0xff) /* infinity, or a quiet NaN */
        return (unsigned short)(sign | 0x7c00 | (m ? 0x200 : 0));
    int exp = (int)e - 127 + 15;
    if (exp >= 31)
        return (unsigned short)(sign | 0x7c00);
    if (exp <= 0) {
        /* A subnormal half (or 0): shift the mantissa with its implicit 1 in. */
        if (exp < -10)
            return (unsigned short)sign;
        m |= 0x800000;
        int shift = 14 - exp;
        uint32_t h = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rest > half || (rest == half && (h & 1)))
            h++;
        return (unsigned short)(sign | h);
    }
    uint32_t h = ((uint32_t)exp << 10) | (m >> 13), rest = m & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        h++; /* a carry into the exponent is right, up to infinity */
    return (unsigned short)(sign | h);
}

static float clampf(float v, float lo, float hi)
{
    return isnan(v) ? 0.0f : v < lo ? lo : v > hi ? hi : v;
}

/* A normalized value to an integer of `scale` steps, rounded to nearest even. */
static long unorm(float v, float scale)
{
    return lrintf(clampf(v, 0.0f, 1.0f) * scale);
}

static long snorm(float v, float scale)
{
    return lrintf(clampf(v, -1.0f, 1.0f) * scale);
}

static float linear_to_srgb(float c)
{
    c = clampf(c, 0.0f, 1.0f);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static int64_t sat(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void lanes_image_pack(const cl_image_format *format, const void *color, unsigned char texel[16])
{
    cl_channel_type t = format->image_channel_data_type;
    cl_channel_order o = format->image_channel_order;
    int comp[4];
    int n = order_components(o, comp);
    float f[5] = {0};
    int32_t i[5] = {0};
    uint32_t u[5] = {0};
    int count = o == CL_DEPTH ? 1 : 4; /* a depth image's fill colour is one float */
    memcpy(f, color, count * sizeof(float));
    memcpy(i, color, count * sizeof(int32_t));
    memcpy(u, color, count * sizeof(uint32_t));
    if (is_srgb(o))
        for (int c = 0; c < 3; c++)
            f[c] = linear_to_srgb(f[c]);
    memset(texel, 0, 16);
    switch (t) {
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555: {
        int gbits = t == CL_UNORM_SHORT_565 ? 6 : 5;
        uint16_t v = (uint16_t)(unorm(f[0], 31) << (5 + gbits) |
                                unorm(f[1], (float)((1 << gbits) - 1)) << 5 | unorm(f[2], 31));
        memcpy(texel, &v, 2);
        return;
    }
    case CL_UNORM_INT_101010: {
        uint32_t v =
            (uint32_t)(unorm(f[0], 1023) << 20 | unorm(f[1], 1023) << 10 | unorm(f[2], 1023));
        memcpy(texel, &v, 4);
        return;
    }
    case CL_UNORM_INT_101010_2: {
        uint32_t v = (uint32_t)(unorm(f[0], 1023) << 22 | unorm(f[1], 1023) << 12 |
                                unorm(f[2], 1023) << 2 | unorm(f[3], 3));
        memcpy(texel, &v, 4);
        return;
    }
    }
    int size = type_size(t);
    for (int c = 0; c < n && size > 0; c++) {
        int k = comp[c];
        unsigned char *p = texel + c * size;
        union {
            uint8_t u8;
            int8_t s8;
            uint16_t u16;
            int16_t s16;
            uint32_t u32;
            int32_t s32;
            float f32;
        } v = {0};
        switch (t) {
        case CL_UNORM_INT8: v.u8 = (uint8_t)unorm(f[k], 255); break;
        case CL_UNORM_INT16: v.u16 = (uint16_t)unorm(f[k], 65535); break;
        case CL_SNORM_INT8: v.s8 = (int8_t)sat(snorm(f[k], 127), -128, 127); break;
        case CL_SNORM_INT16: v.s16 = (int16_t)sat(snorm(f[k], 32767), -32768, 32767); break;
        case CL_SIGNED_INT8: v.s8 = (int8_t)sat(i[k], INT8_MIN, INT8_MAX); break;
        case CL_SIGNED_INT16: v.s16 = (int16_t)sat(i[k], INT16_MIN, INT16_MAX); break;
        case CL_SIGNED_INT32: v.s32 = i[k]; break;
        case CL_UNSIGNED_INT8: v.u8 = (uint8_t)(u[k] > UINT8_MAX ? UINT8_MAX : u[k]); break;
        case CL_UNSIGNED_INT16: v.u16 = (uint16_t)(u[k] > UINT16_MAX ? UINT16_MAX : u[k]); break;
        case CL_UNSIGNED_INT32: v.u32 = u[k]; break;
        case CL_HALF_FLOAT: v.u16 = lanes_float_to_half(f[k]); break;
        case CL_FLOAT: v.f32 = f[k]; break;
        }
        memcpy(p, &v, (size_t)size);
    }
}
