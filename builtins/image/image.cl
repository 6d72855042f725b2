// SPDX-License-Identifier: MIT
// Image built-ins (OpenCL C 3.0 6.15.15): read_image{f,i,ui,h} with and
// without a sampler, write_image{f,i,ui,h}, the image queries, on every image
// type and access qualifier (the half forms, cl_khr_fp16, are the float ones
// rounded to half and of the half exactly as a float). Written for one work-item; at W > 1 the
// vectorizer runs this code over the lanes like the kernel's own (it is
// inlined before): the descriptor and the sampler are uniform, so the
// switches on format and addressing stay branches, and coordinates, texel
// addresses and conversions become vector code with gathers and scatters.
//
// Addressing and filtering follow the specification's formulas (OpenCL
// 3.0, "Image Addressing and Filtering"). Where it leaves a result
// undefined (coordinates out of range with CLK_ADDRESS_NONE or without a
// sampler, REPEAT with unnormalized coordinates, reads of formats a
// function does not take), the texel is clamped to the image: no access
// ever leaves it. Writes outside the image are dropped.
#include "lanes_builtins.h"
#include "lanes_image.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// The handles (handles.cl).
#define DECLARE_HANDLES(T)                                                                         \
    __global const lanes_image *OVL __lanes_image(read_only T);                                    \
    __global const lanes_image *OVL __lanes_image(write_only T);                                   \
    __global const lanes_image *OVL __lanes_image(read_write T);
DECLARE_HANDLES(image1d_t)
DECLARE_HANDLES(image1d_buffer_t)
DECLARE_HANDLES(image1d_array_t)
DECLARE_HANDLES(image2d_t)
DECLARE_HANDLES(image2d_array_t)
DECLARE_HANDLES(image3d_t)
DECLARE_HANDLES(image2d_depth_t)
DECLARE_HANDLES(image2d_array_depth_t)
uint OVL __lanes_sampler(sampler_t);

float4 OVL lanes_half_to_float(ushort4);
ushort4 OVL lanes_float_to_half_rte(float4);

#define SAMPLER_NORMALIZED 1u
#define SAMPLER_ADDRESS 0xeu
#define SAMPLER_LINEAR 0x20u
// What a read without a sampler does: the texel at integer coordinates.
#define NO_SAMPLER (CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST)

static __global uchar *row_of(__global const lanes_image *im, int y, int z)
{
    return im->data + (ulong)y * im->pitch[0] + (ulong)z * im->pitch[1];
}

// ---- Texels as stored: channels in memory order, the missing ones 0 ----

#define LOAD_CHANNELS(T, row, x, n, out)                                                           \
    do {                                                                                           \
        __global T *p_ = (__global T *)(row);                                                      \
        if ((n) == 4)                                                                              \
            out = vload4((x), p_);                                                                 \
        else if ((n) == 2)                                                                         \
            out = (T##4)(vload2((x), p_), 0, 0);                                                   \
        else                                                                                       \
            out = (T##4)(p_[(x)], 0, 0, 0);                                                        \
    } while (0)

// x / d, correctly rounded, for the integers of a channel type (|x| <= 65535): a product
// and two FMAs where the ISA has FMA (checked against the division for every such x and d
// of 255, 65535, 127 and 32767), a fifth the cost of a vector division.
static float4 over(float4 x, float d)
{
#if LANES_ISA >= 3
    float r = 1.0f / d;
    float4 q = x * r;
    return fma(fma(-q, d, x), r, q);
#else
    return x / d;
#endif
}

static float4 load_float(__global const lanes_image *im, int x, int y, int z)
{
    __global uchar *row = row_of(im, y, z);
    int n = im->channels;
    switch (im->type) {
    case CLK_UNORM_INT8: {
        uchar4 v;
        LOAD_CHANNELS(uchar, row, x, n, v);
        return over(convert_float4(v), 255.0f);
    }
    case CLK_UNORM_INT16: {
        ushort4 v;
        LOAD_CHANNELS(ushort, row, x, n, v);
        return over(convert_float4(v), 65535.0f);
    }
    case CLK_SNORM_INT8: {
        char4 v;
        LOAD_CHANNELS(char, row, x, n, v);
        return fmax(over(convert_float4(v), 127.0f), -1.0f);
    }
    case CLK_SNORM_INT16: {
        short4 v;
        LOAD_CHANNELS(short, row, x, n, v);
        return fmax(over(convert_float4(v), 32767.0f), -1.0f);
    }
    case CLK_HALF_FLOAT: {
        ushort4 v;
        LOAD_CHANNELS(ushort, row, x, n, v);
        return lanes_half_to_float(v);
    }
    case CLK_FLOAT: {
        float4 v;
        LOAD_CHANNELS(float, row, x, n, v);
        return v;
    }
    // Integer formats through read_imagef: undefined; their values.
    case CLK_SIGNED_INT8: {
        char4 v;
        LOAD_CHANNELS(char, row, x, n, v);
        return convert_float4(v);
    }
    case CLK_SIGNED_INT16: {
        short4 v;
        LOAD_CHANNELS(short, row, x, n, v);
        return convert_float4(v);
    }
    case CLK_UNSIGNED_INT8: {
        uchar4 v;
        LOAD_CHANNELS(uchar, row, x, n, v);
        return convert_float4(v);
    }
    case CLK_UNSIGNED_INT16: {
        ushort4 v;
        LOAD_CHANNELS(ushort, row, x, n, v);
        return convert_float4(v);
    }
    default: { // 32-bit integers
        int4 v;
        LOAD_CHANNELS(int, row, x, n, v);
        return convert_float4(v);
    }
    }
}

// Integer texels; unsigned ones keep their bits (read_imageui reinterprets).
static int4 load_int(__global const lanes_image *im, int x, int y, int z)
{
    __global uchar *row = row_of(im, y, z);
    int n = im->channels;
    switch (im->type) {
    case CLK_SIGNED_INT8:
    case CLK_SNORM_INT8: {
        char4 v;
        LOAD_CHANNELS(char, row, x, n, v);
        return convert_int4(v);
    }
    case CLK_UNSIGNED_INT8:
    case CLK_UNORM_INT8: {
        uchar4 v;
        LOAD_CHANNELS(uchar, row, x, n, v);
        return convert_int4(v);
    }
    case CLK_SIGNED_INT16:
    case CLK_SNORM_INT16: {
        short4 v;
        LOAD_CHANNELS(short, row, x, n, v);
        return convert_int4(v);
    }
    case CLK_UNSIGNED_INT16:
    case CLK_UNORM_INT16:
    case CLK_HALF_FLOAT: {
        ushort4 v;
        LOAD_CHANNELS(ushort, row, x, n, v);
        return convert_int4(v);
    }
    default: { // 32-bit integers and floats
        int4 v;
        LOAD_CHANNELS(int, row, x, n, v);
        return v;
    }
    }
}

// ---- Channel orders ----

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float c)
{
    if (isnan(c))
        return 0.0f;
    c = clamp(c, 0.0f, 1.0f);
    return c <= 0.0031308f ? c * 12.92f : 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
}

static bool has_alpha(uint order)
{
    switch (order) {
    case CLK_A:
    case CLK_RA:
    case CLK_RGBA:
    case CLK_BGRA:
    case CLK_ARGB:
    case CLK_ABGR:
    case CLK_INTENSITY:
    case CLK_sRGBA:
    case CLK_sBGRA: return true;
    }
    return false;
}

// Stored channels (c.x first in memory) as (r, g, b, a): missing colours 0, alpha 1.
#define FROM_ORDER(T, order, c, one)                                                               \
    switch (order) {                                                                               \
    case CLK_R:                                                                                    \
    case CLK_Rx:                                                                                   \
    case CLK_DEPTH: return (T)(c.x, 0, 0, one);                                                    \
    case CLK_A: return (T)(0, 0, 0, c.x);                                                          \
    case CLK_RG:                                                                                   \
    case CLK_RGx: return (T)(c.x, c.y, 0, one);                                                    \
    case CLK_RA: return (T)(c.x, 0, 0, c.y);                                                       \
    case CLK_INTENSITY: return c.xxxx;                                                             \
    case CLK_LUMINANCE: return (T)(c.x, c.x, c.x, one);                                            \
    case CLK_BGRA: return c.zyxw;                                                                  \
    case CLK_ARGB: return c.yzwx;                                                                  \
    case CLK_ABGR: return c.wzyx;                                                                  \
    }                                                                                              \
    return c;

static float4 from_order_float(uint order, float4 c)
{
    if (order == CLK_sRGBA)
        return (float4)(srgb_to_linear(c.x), srgb_to_linear(c.y), srgb_to_linear(c.z), c.w);
    if (order == CLK_sBGRA)
        return (float4)(srgb_to_linear(c.z), srgb_to_linear(c.y), srgb_to_linear(c.x), c.w);
    FROM_ORDER(float4, order, c, 1.0f)
}

static int4 from_order_int(uint order, int4 c)
{
    FROM_ORDER(int4, order, c, 1)
}

// (r, g, b, a) as stored channels, the inverse of FROM_ORDER.
#define TO_ORDER(order, v)                                                                         \
    switch (order) {                                                                               \
    case CLK_A: return v.wwww;                                                                     \
    case CLK_RA: return v.xwzy;                                                                    \
    case CLK_BGRA: return v.zyxw;                                                                  \
    case CLK_ARGB: return v.wxyz;                                                                  \
    case CLK_ABGR: return v.wzyx;                                                                  \
    }                                                                                              \
    return v;

static float4 to_order_float(uint order, float4 v)
{
    if (order == CLK_sRGBA || order == CLK_sBGRA) {
        float4 s = (float4)(linear_to_srgb(v.x), linear_to_srgb(v.y), linear_to_srgb(v.z), v.w);
        return order == CLK_sBGRA ? s.zyxw : s;
    }
    TO_ORDER(order, v)
}

static int4 to_order_int(uint order, int4 v)
{
    TO_ORDER(order, v)
}

// ---- Texels as the kernel sees them ----

static float4 texel_float(__global const lanes_image *im, int x, int y, int z)
{
    return from_order_float(im->order, load_float(im, x, y, z));
}

static int4 texel_int(__global const lanes_image *im, int x, int y, int z)
{
    return from_order_int(im->order, load_int(im, x, y, z));
}

static float4 border_float(uint order)
{
    return (float4)(0.0f, 0.0f, 0.0f, has_alpha(order) ? 0.0f : 1.0f);
}

static int4 border_int(uint order)
{
    return (int4)(0, 0, 0, has_alpha(order) ? 0 : 1);
}

// ---- Addressing ----

// The texel along an axis of `size` for coordinate `s` (nearest); *outside
// is set for a texel outside the image under CLK_ADDRESS_CLAMP (the border).
static int nearest_index(float s, int size, uint smp, bool *outside)
{
    uint mode = smp & SAMPLER_ADDRESS;
    float fs = (float)size;
    if (mode == CLK_ADDRESS_REPEAT) {
        float u = fmin(fmax((s - floor(s)) * fs, 0.0f), fs); // NaN and infinities to 0
        int i = (int)floor(u);
        return i > size - 1 ? i - size : i;
    }
    if (mode == CLK_ADDRESS_MIRRORED_REPEAT) {
        float t = fabs(s - 2.0f * rint(0.5f * s));
        float u = fmin(fmax(t * fs, 0.0f), fs);
        return min((int)floor(u), size - 1);
    }
    float u = (smp & SAMPLER_NORMALIZED) ? s * fs : s;
    int i = (int)floor(fmin(fmax(u, -1.0f), fs)); // within [-1, size]: no overflow
    if (mode == CLK_ADDRESS_CLAMP && (i < 0 || i >= size))
        *outside = true;
    return clamp(i, 0, size - 1);
}

static int nearest_index_int(int c, int size, uint smp, bool *outside)
{
    if ((smp & SAMPLER_ADDRESS) == CLK_ADDRESS_CLAMP && (c < 0 || c >= size))
        *outside = true;
    return clamp(c, 0, size - 1);
}

// The two texels of linear filtering along an axis and the weight of the second;
// *outside tells which of them are outside the image under CLK_ADDRESS_CLAMP.
static int2 linear_index(float s, int size, uint smp, float *weight, int2 *outside)
{
    uint mode = smp & SAMPLER_ADDRESS;
    float fs = (float)size, u;
    if (mode == CLK_ADDRESS_REPEAT)
        u = (s - floor(s)) * fs;
    else if (mode == CLK_ADDRESS_MIRRORED_REPEAT)
        u = fabs(s - 2.0f * rint(0.5f * s)) * fs;
    else
        u = (smp & SAMPLER_NORMALIZED) ? s * fs : s;
    u = fmin(fmax(u, -2.0f), fs + 2.0f); // NaN to -2; no overflow below
    float t = u - 0.5f, f = floor(t);
    *weight = t - f;
    int i0 = (int)f, i1 = i0 + 1;
    if (mode == CLK_ADDRESS_REPEAT) {
        if (i0 < 0)
            i0 += size;
        if (i1 > size - 1)
            i1 -= size;
    } else if (mode == CLK_ADDRESS_MIRRORED_REPEAT) {
        i0 = max(i0, 0);
        i1 = min(i1, size - 1);
    } else if (mode == CLK_ADDRESS_CLAMP) {
        outside->x = i0 < 0 || i0 >= size;
        outside->y = i1 < 0 || i1 >= size;
    }
    return (int2)(clamp(i0, 0, size - 1), clamp(i1, 0, size - 1));
}

// The layer of an array image: the coordinate rounded, within the layers.
static int layer_index(float c, int layers)
{
    return clamp((int)rint(fmin(fmax(c, -1.0f), (float)layers)), 0, layers - 1);
}

// ---- Reads ----
// `axes` coordinates are addressed (1, 2 or 3); when `layered`, the next one
// is the layer (box dimension `axes`).

static float4 read_float(__global const lanes_image *im, uint smp, float4 c, int axes,
                         bool layered)
{
    int n[3] = {0, 0, 0};
    float cs[4] = {c.x, c.y, c.z, c.w};
    if (layered)
        n[axes] = layer_index(cs[axes], im->dims[axes]);
    if (!(smp & SAMPLER_LINEAR)) {
        bool outside = false;
        for (int a = 0; a < axes; a++)
            n[a] = nearest_index(cs[a], im->dims[a], smp, &outside);
        return outside ? border_float(im->order) : texel_float(im, n[0], n[1], n[2]);
    }
    int2 i[3] = {(int2)(n[0]), (int2)(n[1]), (int2)(n[2])};
    float w[3] = {0.0f, 0.0f, 0.0f};
    int2 out[3] = {(int2)(0), (int2)(0), (int2)(0)};
    for (int a = 0; a < axes; a++)
        i[a] = linear_index(cs[a], im->dims[a], smp, &w[a], &out[a]);
    float4 sum = 0.0f;
    for (int k = 0; k < (1 << axes); k++) {
        int x = k & 1 ? i[0].y : i[0].x, y = k & 2 ? i[1].y : i[1].x, z = k & 4 ? i[2].y : i[2].x;
        bool o = (k & 1 ? out[0].y : out[0].x) || (k & 2 ? out[1].y : out[1].x) ||
                 (k & 4 ? out[2].y : out[2].x);
        float weight = (k & 1 ? w[0] : 1.0f - w[0]);
        if (axes > 1)
            weight *= k & 2 ? w[1] : 1.0f - w[1];
        if (axes > 2)
            weight *= k & 4 ? w[2] : 1.0f - w[2];
        sum += weight * (o ? border_float(im->order) : texel_float(im, x, y, z));
    }
    return sum;
}

static int4 read_int(__global const lanes_image *im, uint smp, float4 c, int axes, bool layered)
{
    int n[3] = {0, 0, 0};
    float cs[4] = {c.x, c.y, c.z, c.w};
    if (layered)
        n[axes] = layer_index(cs[axes], im->dims[axes]);
    bool outside = false;
    for (int a = 0; a < axes; a++)
        n[a] = nearest_index(cs[a], im->dims[a], smp, &outside);
    return outside ? border_int(im->order) : texel_int(im, n[0], n[1], n[2]);
}

// Integer coordinates: the texel itself (nearest, unnormalized).
static int3 at_int(__global const lanes_image *im, uint smp, int4 c, int axes, bool layered,
                   bool *outside)
{
    int n[3] = {0, 0, 0};
    int cs[4] = {c.x, c.y, c.z, c.w};
    if (layered)
        n[axes] = clamp(cs[axes], 0, im->dims[axes] - 1);
    for (int a = 0; a < axes; a++)
        n[a] = nearest_index_int(cs[a], im->dims[a], smp, outside);
    return (int3)(n[0], n[1], n[2]);
}

static float4 read_float_at(__global const lanes_image *im, uint smp, int4 c, int axes,
                            bool layered)
{
    bool outside = false;
    int3 n = at_int(im, smp, c, axes, layered, &outside);
    return outside ? border_float(im->order) : texel_float(im, n.x, n.y, n.z);
}

static int4 read_int_at(__global const lanes_image *im, uint smp, int4 c, int axes, bool layered)
{
    bool outside = false;
    int3 n = at_int(im, smp, c, axes, layered, &outside);
    return outside ? border_int(im->order) : texel_int(im, n.x, n.y, n.z);
}

// ---- Writes ----

#define STORE_CHANNELS(T, row, x, n, v)                                                            \
    do {                                                                                           \
        __global T *p_ = (__global T *)(row);                                                      \
        if ((n) == 4)                                                                              \
            vstore4((v), (x), p_);                                                                 \
        else if ((n) == 2)                                                                         \
            vstore2((v).xy, (x), p_);                                                              \
        else                                                                                       \
            p_[(x)] = (v).x;                                                                       \
    } while (0)

// The texel a write at `c` reaches, false when it is outside the image.
static bool write_at(__global const lanes_image *im, int4 c, int axes, bool layered, int3 *at)
{
    int cs[4] = {c.x, c.y, c.z, c.w}, n[3] = {0, 0, 0};
    int dims = axes + (layered ? 1 : 0);
    for (int a = 0; a < dims; a++) {
        if (cs[a] < 0 || cs[a] >= im->dims[a])
            return false;
        n[a] = cs[a];
    }
    *at = (int3)(n[0], n[1], n[2]);
    return true;
}

static void write_float(__global const lanes_image *im, int4 c, int axes, bool layered, float4 v)
{
    int3 at;
    if (!write_at(im, c, axes, layered, &at))
        return;
    __global uchar *row = row_of(im, at.y, at.z);
    int x = at.x, n = im->channels;
    float4 s = to_order_float(im->order, v);
    switch (im->type) {
    case CLK_UNORM_INT8: {
        uchar4 b = convert_uchar4_sat_rte(s * 255.0f);
        STORE_CHANNELS(uchar, row, x, n, b);
        break;
    }
    case CLK_UNORM_INT16: {
        ushort4 b = convert_ushort4_sat_rte(s * 65535.0f);
        STORE_CHANNELS(ushort, row, x, n, b);
        break;
    }
    case CLK_SNORM_INT8: {
        char4 b = convert_char4_sat_rte(s * 127.0f);
        STORE_CHANNELS(char, row, x, n, b);
        break;
    }
    case CLK_SNORM_INT16: {
        short4 b = convert_short4_sat_rte(s * 32767.0f);
        STORE_CHANNELS(short, row, x, n, b);
        break;
    }
    case CLK_HALF_FLOAT: {
        ushort4 b = lanes_float_to_half_rte(s);
        STORE_CHANNELS(ushort, row, x, n, b);
        break;
    }
    case CLK_FLOAT: STORE_CHANNELS(float, row, x, n, s); break;
    }
}

static void write_int(__global const lanes_image *im, int4 c, int axes, bool layered, int4 v,
                      bool is_unsigned)
{
    int3 at;
    if (!write_at(im, c, axes, layered, &at))
        return;
    __global uchar *row = row_of(im, at.y, at.z);
    int x = at.x, n = im->channels;
    int4 s = to_order_int(im->order, v);
    uint4 u = as_uint4(s);
    switch (im->type) {
    case CLK_SIGNED_INT8: {
        char4 b = is_unsigned ? convert_char4_sat(u) : convert_char4_sat(s);
        STORE_CHANNELS(char, row, x, n, b);
        break;
    }
    case CLK_SIGNED_INT16: {
        short4 b = is_unsigned ? convert_short4_sat(u) : convert_short4_sat(s);
        STORE_CHANNELS(short, row, x, n, b);
        break;
    }
    case CLK_UNSIGNED_INT8: {
        uchar4 b = is_unsigned ? convert_uchar4_sat(u) : convert_uchar4_sat(s);
        STORE_CHANNELS(uchar, row, x, n, b);
        break;
    }
    case CLK_UNSIGNED_INT16: {
        ushort4 b = is_unsigned ? convert_ushort4_sat(u) : convert_ushort4_sat(s);
        STORE_CHANNELS(ushort, row, x, n, b);
        break;
    }
    case CLK_SIGNED_INT32:
    case CLK_UNSIGNED_INT32: STORE_CHANNELS(int, row, x, n, s); break;
    }
}

// ---- The built-ins ----

static int4 OVL as4(int c)
{
    return (int4)(c, 0, 0, 0);
}
static int4 OVL as4(int2 c)
{
    return (int4)(c, 0, 0);
}
static int4 OVL as4(int4 c)
{
    return c;
}
static float4 OVL as4(float c)
{
    return (float4)(c, 0.0f, 0.0f, 0.0f);
}
static float4 OVL as4(float2 c)
{
    return (float4)(c, 0.0f, 0.0f);
}
static float4 OVL as4(float4 c)
{
    return c;
}

// Reads with a sampler (read_only images), at integer and float coordinates.
#define SAMPLED(T, IC, FC, axes, layered)                                                          \
    float4 OVL read_imagef(read_only T img, sampler_t s, IC c)                                     \
    {                                                                                              \
        return read_float_at(__lanes_image(img), __lanes_sampler(s), as4(c), axes, layered);       \
    }                                                                                              \
    float4 OVL read_imagef(read_only T img, sampler_t s, FC c)                                     \
    {                                                                                              \
        return read_float(__lanes_image(img), __lanes_sampler(s), as4(c), axes, layered);          \
    }                                                                                              \
    int4 OVL read_imagei(read_only T img, sampler_t s, IC c)                                       \
    {                                                                                              \
        return read_int_at(__lanes_image(img), __lanes_sampler(s), as4(c), axes, layered);         \
    }                                                                                              \
    int4 OVL read_imagei(read_only T img, sampler_t s, FC c)                                       \
    {                                                                                              \
        return read_int(__lanes_image(img), __lanes_sampler(s), as4(c), axes, layered);            \
    }                                                                                              \
    uint4 OVL read_imageui(read_only T img, sampler_t s, IC c)                                     \
    {                                                                                              \
        return as_uint4(read_int_at(__lanes_image(img), __lanes_sampler(s), as4(c), axes, layered)); \
    }                                                                                              \
    uint4 OVL read_imageui(read_only T img, sampler_t s, FC c)                                     \
    {                                                                                              \
        return as_uint4(read_int(__lanes_image(img), __lanes_sampler(s), as4(c), axes, layered));  \
    }                                                                                              \
    half4 OVL read_imageh(read_only T img, sampler_t s, IC c)                                      \
    {                                                                                              \
        return convert_half4(read_imagef(img, s, c));                                              \
    }                                                                                              \
    half4 OVL read_imageh(read_only T img, sampler_t s, FC c)                                      \
    {                                                                                              \
        return convert_half4(read_imagef(img, s, c));                                              \
    }

// Reads without a sampler, for one access qualifier.
#define UNSAMPLED(Q, T, IC, axes, layered)                                                         \
    float4 OVL read_imagef(Q T img, IC c)                                                          \
    {                                                                                              \
        return read_float_at(__lanes_image(img), NO_SAMPLER, as4(c), axes, layered);               \
    }                                                                                              \
    int4 OVL read_imagei(Q T img, IC c)                                                            \
    {                                                                                              \
        return read_int_at(__lanes_image(img), NO_SAMPLER, as4(c), axes, layered);                 \
    }                                                                                              \
    uint4 OVL read_imageui(Q T img, IC c)                                                          \
    {                                                                                              \
        return as_uint4(read_int_at(__lanes_image(img), NO_SAMPLER, as4(c), axes, layered));      \
    }                                                                                              \
    half4 OVL read_imageh(Q T img, IC c)                                                           \
    {                                                                                              \
        return convert_half4(read_imagef(img, c));                                                 \
    }

#define WRITES(Q, T, IC, axes, layered)                                                            \
    void OVL write_imagef(Q T img, IC c, float4 v)                                                 \
    {                                                                                              \
        write_float(__lanes_image(img), as4(c), axes, layered, v);                                 \
    }                                                                                              \
    void OVL write_imagei(Q T img, IC c, int4 v)                                                   \
    {                                                                                              \
        write_int(__lanes_image(img), as4(c), axes, layered, v, false);                            \
    }                                                                                              \
    void OVL write_imageui(Q T img, IC c, uint4 v)                                                 \
    {                                                                                              \
        write_int(__lanes_image(img), as4(c), axes, layered, as_int4(v), true);                    \
    }                                                                                              \
    void OVL write_imageh(Q T img, IC c, half4 v)                                                  \
    {                                                                                              \
        write_float(__lanes_image(img), as4(c), axes, layered, convert_float4(v));                 \
    }

// Depth images: one float.
#define DEPTH_SAMPLED(T, IC, FC, axes, layered)                                                    \
    float OVL read_imagef(read_only T img, sampler_t s, IC c)                                      \
    {                                                                                              \
        return read_float_at(__lanes_image(img), __lanes_sampler(s), as4(c), axes, layered).x;     \
    }                                                                                              \
    float OVL read_imagef(read_only T img, sampler_t s, FC c)                                      \
    {                                                                                              \
        return read_float(__lanes_image(img), __lanes_sampler(s), as4(c), axes, layered).x;        \
    }
#define DEPTH_ACCESS(Q, T, IC, axes, layered)                                                      \
    float OVL read_imagef(Q T img, IC c)                                                           \
    {                                                                                              \
        return read_float_at(__lanes_image(img), NO_SAMPLER, as4(c), axes, layered).x;             \
    }
#define DEPTH_WRITE(Q, T, IC, axes, layered)                                                       \
    void OVL write_imagef(Q T img, IC c, float v)                                                  \
    {                                                                                              \
        write_float(__lanes_image(img), as4(c), axes, layered, (float4)(v, 0.0f, 0.0f, 1.0f));    \
    }

// Every image type: sampled reads, unsampled reads (read_only, read_write), writes (write_only,
// read_write).
#define IMAGE_TYPE(T, IC, FC, axes, layered)                                                       \
    SAMPLED(T, IC, FC, axes, layered)                                                              \
    UNSAMPLED(read_only, T, IC, axes, layered)                                                     \
    UNSAMPLED(read_write, T, IC, axes, layered)                                                    \
    WRITES(write_only, T, IC, axes, layered)                                                       \
    WRITES(read_write, T, IC, axes, layered)

IMAGE_TYPE(image1d_t, int, float, 1, false)
IMAGE_TYPE(image1d_array_t, int2, float2, 1, true)
IMAGE_TYPE(image2d_t, int2, float2, 2, false)
IMAGE_TYPE(image2d_array_t, int4, float4, 2, true)
IMAGE_TYPE(image3d_t, int4, float4, 3, false)
UNSAMPLED(read_only, image1d_buffer_t, int, 1, false)
UNSAMPLED(read_write, image1d_buffer_t, int, 1, false)
WRITES(write_only, image1d_buffer_t, int, 1, false)
WRITES(read_write, image1d_buffer_t, int, 1, false)

#define DEPTH_TYPE(T, IC, FC, axes, layered)                                                       \
    DEPTH_SAMPLED(T, IC, FC, axes, layered)                                                        \
    DEPTH_ACCESS(read_only, T, IC, axes, layered)                                                  \
    DEPTH_ACCESS(read_write, T, IC, axes, layered)                                                 \
    DEPTH_WRITE(write_only, T, IC, axes, layered)                                                  \
    DEPTH_WRITE(read_write, T, IC, axes, layered)

DEPTH_TYPE(image2d_depth_t, int2, float2, 2, false)
DEPTH_TYPE(image2d_array_depth_t, int4, float4, 2, true)

// ---- Queries ----

#define QUERIES_1(Q, T)                                                                            \
    int OVL get_image_width(Q T img)                                                               \
    {                                                                                              \
        return __lanes_image(img)->dims[0];                                                        \
    }                                                                                              \
    int OVL get_image_channel_data_type(Q T img)                                                   \
    {                                                                                              \
        return (int)__lanes_image(img)->type;                                                      \
    }                                                                                              \
    int OVL get_image_channel_order(Q T img)                                                       \
    {                                                                                              \
        return (int)__lanes_image(img)->order;                                                     \
    }
#define QUERIES_2(Q, T)                                                                            \
    QUERIES_1(Q, T)                                                                                \
    int OVL get_image_height(Q T img)                                                              \
    {                                                                                              \
        return __lanes_image(img)->dims[1];                                                        \
    }                                                                                              \
    int2 OVL get_image_dim(Q T img)                                                                \
    {                                                                                              \
        __global const lanes_image *im = __lanes_image(img);                                       \
        return (int2)(im->dims[0], im->dims[1]);                                                   \
    }
#define QUERIES(M, T)                                                                              \
    M(read_only, T)                                                                                \
    M(write_only, T)                                                                               \
    M(read_write, T)

#define QUERIES_1D_ARRAY(Q, T)                                                                     \
    QUERIES_1(Q, T)                                                                                \
    size_t OVL get_image_array_size(Q T img)                                                       \
    {                                                                                              \
        return (size_t)__lanes_image(img)->dims[1];                                                \
    }
#define QUERIES_2D_ARRAY(Q, T)                                                                     \
    QUERIES_2(Q, T)                                                                                \
    size_t OVL get_image_array_size(Q T img)                                                       \
    {                                                                                              \
        return (size_t)__lanes_image(img)->dims[2];                                                \
    }
#define QUERIES_3D(Q, T)                                                                           \
    QUERIES_1(Q, T)                                                                                \
    int OVL get_image_height(Q T img)                                                              \
    {                                                                                              \
        return __lanes_image(img)->dims[1];                                                        \
    }                                                                                              \
    int OVL get_image_depth(Q T img)                                                               \
    {                                                                                              \
        return __lanes_image(img)->dims[2];                                                        \
    }                                                                                              \
    int4 OVL get_image_dim(Q T img)                                                                \
    {                                                                                              \
        __global const lanes_image *im = __lanes_image(img);                                       \
        return (int4)(im->dims[0], im->dims[1], im->dims[2], 0);                                   \
    }

QUERIES(QUERIES_1, image1d_t)
QUERIES(QUERIES_1, image1d_buffer_t)
QUERIES(QUERIES_1D_ARRAY, image1d_array_t)
QUERIES(QUERIES_2, image2d_t)
QUERIES(QUERIES_2D_ARRAY, image2d_array_t)
QUERIES(QUERIES_3D, image3d_t)
QUERIES(QUERIES_2, image2d_depth_t)
QUERIES(QUERIES_2D_ARRAY, image2d_array_depth_t)

// ---- Intel's block reads and writes on 2D images ----
// (cl_intel_subgroups and its _short, _char, _long companions.) Value k of
// lane l is the T at byte x + l * sizeof(T) of row y + k, without format
// conversion. Reads clamp to the image's edge (rows, and the bytes of a row
// less one T); writes outside the image are dropped. A block wholly inside
// is a row of consecutive lanes: one vector access per row.

#define BLOCK_LANE get_sub_group_local_id()
#define BLOCK_MAX get_max_sub_group_size()

// The T at byte x of row y, as bytes (a block may start at any byte).
#define BLOCK_LOAD(T, p) as_##T(vload##T##_BYTES(0, (__global const uchar *)(p)))
#define vloaduchar_BYTES(i, p) (p)[i]
#define vloadushort_BYTES vload2
#define vloaduint_BYTES vload4
#define vloadulong_BYTES vload8
#define BLOCK_STORE(T, v, p) vstore##T##_BYTES(as_##T##_bytes(v), 0, (__global uchar *)(p))
#define vstoreuchar_BYTES(v, i, p) ((p)[i] = (v))
#define vstoreushort_BYTES vstore2
#define vstoreuint_BYTES vstore4
#define vstoreulong_BYTES vstore8
#define as_uchar_bytes(v) (v)
#define as_ushort_bytes(v) as_uchar2(v)
#define as_uint_bytes(v) as_uchar4(v)
#define as_ulong_bytes(v) as_uchar8(v)

#define BLOCK_READ_ONE(T)                                                                          \
    static T block_read_##T(__global const lanes_image *im, int2 c, int k)                         \
    {                                                                                              \
        long width = (long)im->dims[0] * im->elem_size, x = (long)c.x;                             \
        int y = clamp(c.y + k, 0, im->dims[1] - 1);                                                \
        __global const uchar *row = im->data + (ulong)y * im->pitch[0];                            \
        if (x >= 0 && x + (long)(BLOCK_MAX * sizeof(T)) <= width)                                  \
            return BLOCK_LOAD(T, row + x + BLOCK_LANE * sizeof(T));                                \
        long at = clamp(x + (long)(BLOCK_LANE * sizeof(T)), 0L, max(width - (long)sizeof(T), 0L)); \
        return BLOCK_LOAD(T, row + at);                                                            \
    }                                                                                              \
    static void block_write_##T(__global const lanes_image *im, int2 c, int k, T v)                \
    {                                                                                              \
        long width = (long)im->dims[0] * im->elem_size, x = (long)c.x;                             \
        int y = c.y + k;                                                                           \
        if (y < 0 || y >= im->dims[1])                                                             \
            return;                                                                                \
        __global uchar *row = im->data + (ulong)y * im->pitch[0];                                  \
        long at = x + (long)(BLOCK_LANE * sizeof(T));                                              \
        if (at >= 0 && at + (long)sizeof(T) <= width)                                              \
            BLOCK_STORE(T, v, row + at);                                                           \
    }

BLOCK_READ_ONE(uchar)
BLOCK_READ_ONE(ushort)
BLOCK_READ_ONE(uint)
BLOCK_READ_ONE(ulong)

#define IMAGE_BLOCK_1(T, SUFFIX, Q)                                                                \
    OVL T intel_sub_group_block_read##SUFFIX(Q image2d_t img, int2 byte_coord)                     \
    {                                                                                              \
        return block_read_##T(__lanes_image(img), byte_coord, 0);                                  \
    }
#define IMAGE_BLOCK_N(T, SUFFIX, n, Q)                                                             \
    OVL T##n intel_sub_group_block_read##SUFFIX##n(Q image2d_t img, int2 byte_coord)               \
    {                                                                                              \
        __global const lanes_image *im = __lanes_image(img);                                       \
        T##n r;                                                                                    \
        for (int k = 0; k < n; k++)                                                                \
            r[k] = block_read_##T(im, byte_coord, k);                                              \
        return r;                                                                                  \
    }
#define IMAGE_BLOCK_W1(T, SUFFIX, Q)                                                               \
    OVL void intel_sub_group_block_write##SUFFIX(Q image2d_t img, int2 byte_coord, T data)         \
    {                                                                                              \
        block_write_##T(__lanes_image(img), byte_coord, 0, data);                                  \
    }
#define IMAGE_BLOCK_WN(T, SUFFIX, n, Q)                                                            \
    OVL void intel_sub_group_block_write##SUFFIX##n(Q image2d_t img, int2 byte_coord, T##n data)   \
    {                                                                                              \
        __global const lanes_image *im = __lanes_image(img);                                       \
        for (int k = 0; k < n; k++)                                                                \
            block_write_##T(im, byte_coord, k, data[k]);                                           \
    }
#define IMAGE_BLOCKS_Q(T, SUFFIX, R, W)                                                            \
    IMAGE_BLOCK_1(T, SUFFIX, R)                                                                    \
    IMAGE_BLOCK_N(T, SUFFIX, 2, R)                                                                 \
    IMAGE_BLOCK_N(T, SUFFIX, 4, R)                                                                 \
    IMAGE_BLOCK_N(T, SUFFIX, 8, R)                                                                 \
    IMAGE_BLOCK_W1(T, SUFFIX, W)                                                                   \
    IMAGE_BLOCK_WN(T, SUFFIX, 2, W) IMAGE_BLOCK_WN(T, SUFFIX, 4, W) IMAGE_BLOCK_WN(T, SUFFIX, 8, W)
#define IMAGE_BLOCKS(T, SUFFIX)                                                                    \
    IMAGE_BLOCKS_Q(T, SUFFIX, read_only, write_only)                                               \
    IMAGE_BLOCKS_Q(T, SUFFIX, read_write, read_write)

IMAGE_BLOCKS(uint, )
IMAGE_BLOCKS(uint, _ui)
IMAGE_BLOCKS(ushort, _us)
IMAGE_BLOCKS(uchar, _uc)
IMAGE_BLOCKS(ulong, _ul)
