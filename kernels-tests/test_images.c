/* SPDX-License-Identifier: MIT */
/*
 * The image built-ins of OpenCL C against a sampler written here from the
 * specification (OpenCL 3.0 environment specification, "Image Addressing
 * and Filtering"): read_image{f,i,ui} through a sampler argument, a
 * program-scope sampler, a sampler declared in the kernel and a literal in
 * the call, with float and int coordinates; the sampler-less reads;
 * write_image{f,i,ui} compared byte for byte with a host packing; a
 * read_write image; every image query. Each format the driver lists
 * (runtime/image.c, lanes_image_formats) on 1D, 1D buffer, 1D array, 2D,
 * 2D array and 3D images of small odd sizes with random texels; formats the
 * platform does not list are skipped and named.
 *
 * Reads run over 61 work-items or a 13 x 7 range, so sub-groups are partial,
 * and one work-item in 7 skips its read (its output must stay untouched);
 * writes cover every texel once, a permutation, one work-item in 5 (4 for
 * read_write) skipping its own (that texel must keep its bytes).
 * Coordinates include fractions, negatives and values past the edges (for
 * CLK_ADDRESS_NONE only values inside the image, where the result is
 * defined); array layers are rounded with rint and clamped when read
 * through a sampler, whatever the sampler's normalization. read_imagef runs
 * on every kind, read_imagei/ui on three kinds each (int_reads_sampled,
 * int_reads_plain) and through the samplers in the source on the others.
 *
 * Checked against PoCL with KT_PLATFORM=Portable (OCL_ICD_VENDORS naming
 * its ICD): what PoCL cannot run or gets wrong is in one list
 * (pocl_deviations), counted apart there, so that such a run checks the
 * references here.
 *
 * Tolerances, from the specification's words:
 * - unnormalized coordinates, nearest filter, clamp/clamp-to-edge/none: the
 *   texel is "computed without any loss of precision", so coordinates there
 *   include exact texel edges; for every other sampler the precision of the
 *   addressing is "not defined", so nearest reads keep their coordinates at
 *   least a tenth of a texel from an edge (and from the seams of repeat and
 *   mirrored repeat), and linear reads (continuous in the coordinate) are
 *   compared with an absolute tolerance of 1e-3 times the largest magnitude
 *   among the texels filtered (at least 1), which any filter with float
 *   weights meets and an 8-bit fixed-point filter would not;
 * - normalized integer to float: "<= 1.5 ulp" of x/255, x/65535,
 *   max(-1, x/127), max(-1, x/32767), the end points (0, 255, 65535, -128,
 *   -127, 127, ...) exactly; half and float texels exactly (none is NaN,
 *   infinite or denormal); integer texels exactly;
 * - sRGBA reads: |x - 255 c_sRGB(y)| <= 0.5 for the byte x and the value y
 *   read;
 * - writes of floats to normalized formats: the preferred rounding
 *   (round_to_nearest_even of the saturated product, computed exactly here)
 *   or, as "implementations may choose to approximate the rounding mode",
 *   any integer within 0.6 of the exact product (counted and printed);
 *   half: round to nearest even or toward zero (both allowed; counted);
 *   float: the same bits; integers saturate (clamp).
 */
#include "kernels.h"

enum cls { CF, CI, CU }; /* read_imagef, read_imagei, read_imageui */
static const char *const sfx[] = {"f", "i", "ui"};
static const char *const vec4[] = {"float4", "int4", "uint4"};

/* ---- formats ------------------------------------------------------------ */

struct format {
    cl_channel_order order;
    cl_channel_type type;
};

static const cl_channel_type every_type[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                             CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                             CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                             CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
static const char *const type_names[] = {"UNORM_INT8",     "UNORM_INT16",   "SNORM_INT8",
                                         "SNORM_INT16",    "SIGNED_INT8",   "SIGNED_INT16",
                                         "SIGNED_INT32",   "UNSIGNED_INT8", "UNSIGNED_INT16",
                                         "UNSIGNED_INT32", "HALF_FLOAT",    "FLOAT"};
#define NUM_TYPES (sizeof every_type / sizeof *every_type)
enum { MAX_FORMATS = 3 * NUM_TYPES + 5 };

static const char *type_name(cl_channel_type t)
{
    for (size_t i = 0; i < NUM_TYPES; i++)
        if (every_type[i] == t)
            return type_names[i];
    return "?";
}

static const char *order_name(cl_channel_order o)
{
    switch (o) {
    case CL_R: return "R";
    case CL_RG: return "RG";
    case CL_RGBA: return "RGBA";
    case CL_BGRA: return "BGRA";
    case CL_ABGR: return "ABGR";
    case CL_sRGBA: return "sRGBA";
    case CL_DEPTH: return "DEPTH";
    }
    return "?";
}

/* The formats Lanes lists, in its order. */
static unsigned all_formats(struct format *out)
{
    unsigned n = 0;
    static const cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA};
    for (size_t o = 0; o < 3; o++)
        for (size_t t = 0; t < NUM_TYPES; t++)
            out[n++] = (struct format){orders[o], every_type[t]};
    out[n++] = (struct format){CL_BGRA, CL_UNORM_INT8};
    out[n++] = (struct format){CL_ABGR, CL_UNORM_INT8};
    out[n++] = (struct format){CL_sRGBA, CL_UNORM_INT8};
    out[n++] = (struct format){CL_DEPTH, CL_UNORM_INT16};
    out[n++] = (struct format){CL_DEPTH, CL_FLOAT};
    return n;
}

static unsigned type_size(cl_channel_type t)
{
    switch (t) {
    case CL_UNORM_INT8:
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8: return 1;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT: return 4;
    default: return 2;
    }
}

static enum cls type_class(cl_channel_type t)
{
    switch (t) {
    case CL_SIGNED_INT8:
    case CL_SIGNED_INT16:
    case CL_SIGNED_INT32: return CI;
    case CL_UNSIGNED_INT8:
    case CL_UNSIGNED_INT16:
    case CL_UNSIGNED_INT32: return CU;
    default: return CF;
    }
}

static bool normalized(cl_channel_type t)
{
    return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16;
}

static unsigned channels(cl_channel_order o)
{
    return o == CL_R || o == CL_DEPTH ? 1 : o == CL_RG ? 2 : 4;
}

/* The component (r, g, b, a = 0..3) that channel m of a texel in memory holds. */
static unsigned component(cl_channel_order o, unsigned m)
{
    static const unsigned bgra[] = {2, 1, 0, 3}, abgr[] = {3, 2, 1, 0};
    return o == CL_BGRA ? bgra[m] : o == CL_ABGR ? abgr[m] : m;
}

/* CLAMP's border colour is (0, 0, 0, 0) when the order has alpha (or is DEPTH: 0). */
static bool border_alpha_zero(cl_channel_order o)
{
    return o != CL_R && o != CL_RG;
}

/* ---- image kinds -------------------------------------------------------- */

struct kind {
    const char *name, *type, *depth_type;
    cl_mem_object_type mt;
    size_t dims[3]; /* width, then height or layers, then depth or layers */
    unsigned spatial;
    int layer_axis;
    const char *swizzle; /* of an int4/float4 coordinate */
    bool sampled, nd2;   /* reads with a sampler; a 13 x 7 range */
};

enum { K1D, K1DBUF, K1DARR, K2D, K2DARR, K3D, NUM_KINDS };
static const struct kind kinds[NUM_KINDS] = {
    {"1d", "image1d_t", NULL, CL_MEM_OBJECT_IMAGE1D, {61, 1, 1}, 1, -1, ".x", true, false},
    {"1dbuf",
     "image1d_buffer_t",
     NULL,
     CL_MEM_OBJECT_IMAGE1D_BUFFER,
     {61, 1, 1},
     1,
     -1,
     ".x",
     false,
     false},
    {"1darr",
     "image1d_array_t",
     NULL,
     CL_MEM_OBJECT_IMAGE1D_ARRAY,
     {13, 3, 1},
     1,
     1,
     ".xy",
     true,
     false},
    {"2d",
     "image2d_t",
     "image2d_depth_t",
     CL_MEM_OBJECT_IMAGE2D,
     {13, 7, 1},
     2,
     -1,
     ".xy",
     true,
     true},
    {"2darr",
     "image2d_array_t",
     "image2d_array_depth_t",
     CL_MEM_OBJECT_IMAGE2D_ARRAY,
     {7, 5, 3},
     2,
     2,
     "",
     true,
     true},
    {"3d", "image3d_t", NULL, CL_MEM_OBJECT_IMAGE3D, {7, 5, 3}, 3, -1, "", true, true},
};

static size_t texel_count(const struct kind *k)
{
    return k->dims[0] * k->dims[1] * k->dims[2];
}

/*
 * read_imagei/ui, whose conversions do not depend on the image's kind, run
 * on some kinds only (the samplers in the source cover 1D and 2D): each
 * kernel costs the driver a compile of its own, and these are many.
 */
static bool int_reads_sampled(int ki)
{
    return ki == K1DARR || ki == K2DARR || ki == K3D;
}

static bool int_reads_plain(int ki)
{
    return ki == K1DBUF || ki == K2D || ki == K3D;
}

struct image {
    const struct kind *k;
    struct format f;
    size_t elem;
    uint8_t *data; /* tightly packed */
};

/* ---- conversions -------------------------------------------------------- */

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* A finite float to half, rounded to nearest even or toward zero. */
static uint16_t float_to_half(float f, bool rtz)
{
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    double a = fabs((double)f);
    unsigned lo = 0, hi = 0x7bff; /* the largest half magnitude <= a */
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (half_value((uint16_t)mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    double vlo = half_value((uint16_t)lo),
           vhi = lo == 0x7bff ? 65536.0 : half_value((uint16_t)(lo + 1));
    if (vlo == a || rtz)
        return (uint16_t)(sign | lo);
    double mid = (vlo + vhi) / 2;
    bool up = a > mid || (a == mid && (lo & 1));
    return (uint16_t)(sign | (up ? lo + 1 : lo));
}

static double srgb_to_linear(double r)
{
    return r <= 0.04045 ? r / 12.92 : pow((r + 0.055) / 1.055, 2.4);
}

static double linear_to_srgb(double y)
{
    return y < 0.0031308 ? 12.92 * y : 1.055 * pow(y, 1 / 2.4) - 0.055;
}

static uint32_t load_bits(const uint8_t *p, unsigned size)
{
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    switch (size) {
    case 1: memcpy(&b1, p, 1); return b1;
    case 2: memcpy(&b2, p, 2); return b2;
    default: memcpy(&b4, p, 4); return b4;
    }
}

static void store_bits(uint8_t *p, unsigned size, uint32_t v)
{
    uint8_t b1 = (uint8_t)v;
    uint16_t b2 = (uint16_t)v;
    switch (size) {
    case 1: memcpy(p, &b1, 1); break;
    case 2: memcpy(p, &b2, 2); break;
    default: memcpy(p, &v, 4);
    }
}

/* The value of one channel as read_image{f,i,ui} defines it (exactly, in a double). */
static double decode(cl_channel_type t, const uint8_t *p)
{
    uint32_t u = load_bits(p, type_size(t));
    switch (t) {
    case CL_UNORM_INT8: return u / 255.0;
    case CL_UNORM_INT16: return u / 65535.0;
    case CL_SNORM_INT8: return fmax(-1.0, (int8_t)u / 127.0);
    case CL_SNORM_INT16: return fmax(-1.0, (int16_t)u / 32767.0);
    case CL_SIGNED_INT8: return (int8_t)u;
    case CL_SIGNED_INT16: return (int16_t)u;
    case CL_SIGNED_INT32: return (int32_t)u;
    case CL_HALF_FLOAT: return half_value((uint16_t)u);
    case CL_FLOAT: return kt_bits_float(u);
    default: return u;
    }
}

/* Random channel bits: finite normal halves and floats, the integer types' ends now and then. */
static uint32_t random_channel(cl_channel_type t)
{
    uint64_t r = kt_random();
    if (t == CL_HALF_FLOAT) {
        if (r % 16 == 0)
            return 0;
        return (uint32_t)(((r >> 8) & 0x8000) | (1 + (r >> 20) % 30) << 10 | ((r >> 32) & 0x3ff));
    }
    if (t == CL_FLOAT) {
        if (r % 16 == 0)
            return 0;
        return (uint32_t)(((r >> 8) & 0x80000000u) | (uint32_t)(107 + (r >> 20) % 40) << 23 |
                          ((r >> 32) & 0x7fffff));
    }
    unsigned bits = 8 * type_size(t);
    uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
    /* 0, the largest, the signed largest and smallest and the one above it, 1 */
    const uint32_t ends[] = {0, mask, mask >> 1, (mask >> 1) + 1, (mask >> 1) + 2, 1};
    if (r % 8 == 0)
        return ends[(r >> 8) % 6];
    return (uint32_t)(r >> 32) & mask;
}

static void fill_random(struct image *im)
{
    unsigned ts = type_size(im->f.type), ch = channels(im->f.order);
    size_t n = texel_count(im->k);
    for (size_t i = 0; i < n; i++)
        for (unsigned m = 0; m < ch; m++)
            store_bits(im->data + i * im->elem + m * ts, ts, random_channel(im->f.type));
}

/* ---- the sampler -------------------------------------------------------- */

struct smp {
    bool norm;
    cl_addressing_mode addr;
    cl_filter_mode filter;
};

static const char *smp_text(const struct smp *s)
{
    static char buf[96];
    if (!s)
        return "no sampler";
    const char *a = s->addr == CL_ADDRESS_NONE            ? "none"
                    : s->addr == CL_ADDRESS_CLAMP_TO_EDGE ? "clamp_to_edge"
                    : s->addr == CL_ADDRESS_CLAMP         ? "clamp"
                    : s->addr == CL_ADDRESS_REPEAT        ? "repeat"
                                                          : "mirrored_repeat";
    snprintf(buf, sizeof buf, "%s %s %s", s->norm ? "normalized" : "unnormalized", a,
             s->filter == CL_FILTER_LINEAR ? "linear" : "nearest");
    return buf;
}

/* The value of the texel at (x, y, z) as read (sRGB made linear), or the border colour. */
static void texel(const struct image *im, const long *xyz, double v[4])
{
    const struct kind *k = im->k;
    bool in = true;
    for (int d = 0; d < 3; d++)
        in &= xyz[d] >= 0 && xyz[d] < (long)k->dims[d];
    v[0] = v[1] = v[2] = 0;
    if (!in) {
        v[3] = border_alpha_zero(im->f.order) ? 0 : 1;
        return;
    }
    v[3] = 1;
    const uint8_t *p =
        im->data +
        (((size_t)xyz[2] * k->dims[1] + (size_t)xyz[1]) * k->dims[0] + (size_t)xyz[0]) * im->elem;
    unsigned ts = type_size(im->f.type);
    for (unsigned m = 0; m < channels(im->f.order); m++)
        v[component(im->f.order, m)] = decode(im->f.type, p + m * ts);
    if (im->f.order == CL_sRGBA)
        for (int c = 0; c < 3; c++)
            v[c] = srgb_to_linear(v[c]);
}

/* One axis: the texel(s) it selects and the weight a of the second. */
struct axis {
    long i0, i1;
    double a;
};

static long clampl(long v, long lo, long hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static long address_mode(long i, long n, cl_addressing_mode m)
{
    return m == CL_ADDRESS_CLAMP           ? clampl(i, -1, n)
           : m == CL_ADDRESS_CLAMP_TO_EDGE ? clampl(i, 0, n - 1)
                                           : i;
}

static struct axis address(double s, long n, const struct smp *sm)
{
    struct axis r = {0, 0, 0};
    bool lin = sm->filter == CL_FILTER_LINEAR;
    double u;
    if (sm->addr == CL_ADDRESS_REPEAT) {
        u = (s - floor(s)) * n;
        if (!lin) {
            r.i0 = (long)floor(u);
            if (r.i0 > n - 1)
                r.i0 -= n;
            return r;
        }
        r.i0 = (long)floor(u - 0.5);
        r.i1 = r.i0 + 1;
        if (r.i0 < 0)
            r.i0 += n;
        if (r.i1 > n - 1)
            r.i1 -= n;
        r.a = (u - 0.5) - floor(u - 0.5);
        return r;
    }
    if (sm->addr == CL_ADDRESS_MIRRORED_REPEAT) {
        double sp = fabs(s - 2.0 * rint(0.5 * s));
        u = sp * n;
        if (!lin) {
            r.i0 = (long)floor(u);
            if (r.i0 > n - 1)
                r.i0 = n - 1;
            return r;
        }
        r.i0 = (long)floor(u - 0.5);
        r.i1 = r.i0 + 1;
        if (r.i0 < 0)
            r.i0 = 0;
        if (r.i1 > n - 1)
            r.i1 = n - 1;
        r.a = (u - 0.5) - floor(u - 0.5);
        return r;
    }
    u = sm->norm ? s * n : s;
    if (!lin) {
        r.i0 = address_mode((long)floor(u), n, sm->addr);
        return r;
    }
    long f = (long)floor(u - 0.5);
    r.i0 = address_mode(f, n, sm->addr);
    r.i1 = address_mode(f + 1, n, sm->addr);
    r.a = (u - 0.5) - floor(u - 0.5);
    return r;
}

/*
 * What sampler `sm` (NULL: a sampler-less read) reads at `coord`, and the
 * largest magnitude among the texels it filters; false where the result is
 * undefined (addressing NONE outside the image).
 */
static bool ref_read(const struct image *im, const struct smp *sm, const double *coord,
                     double out[4], double *maxabs)
{
    static const struct smp none = {false, CL_ADDRESS_NONE, CL_FILTER_NEAREST};
    const struct kind *k = im->k;
    if (!sm)
        sm = &none;
    bool lin = sm->filter == CL_FILTER_LINEAR;
    long i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
    double a[3] = {0, 0, 0};
    for (unsigned d = 0; d < 3; d++) {
        long n = (long)k->dims[d];
        if (d < k->spatial) {
            struct axis ax = address(coord[d], n, sm);
            i0[d] = ax.i0;
            i1[d] = lin ? ax.i1 : ax.i0;
            a[d] = ax.a;
            if (sm->addr == CL_ADDRESS_NONE && (i0[d] < 0 || i0[d] >= n || i1[d] < 0 || i1[d] >= n))
                return false;
        } else if ((int)d == k->layer_axis) {
            i0[d] = i1[d] = clampl((long)rint(coord[d]), 0, n - 1);
        }
    }
    out[0] = out[1] = out[2] = out[3] = 0;
    *maxabs = 0;
    unsigned corners = lin ? 1u << k->spatial : 1;
    for (unsigned c = 0; c < corners; c++) {
        long xyz[3];
        double w = 1, v[4];
        for (unsigned d = 0; d < 3; d++) {
            bool second = (c >> d) & 1;
            xyz[d] = second ? i1[d] : i0[d];
            if (lin && d < k->spatial)
                w *= second ? a[d] : 1 - a[d];
        }
        texel(im, xyz, v);
        for (int j = 0; j < 4; j++) {
            out[j] += w * v[j];
            *maxabs = fmax(*maxabs, fabs(v[j]));
        }
    }
    return true;
}

/* ---- coordinates -------------------------------------------------------- */

static double rnd_unit(void)
{
    return (double)(kt_random() >> 11) * 0x1p-53;
}

static long rnd_int(long lo, long hi)
{
    return lo + (long)(kt_random() % (uint64_t)(hi - lo + 1));
}

/* A fraction for exact addressing: texel edges, the middle, just below the next edge. */
static double exact_fraction(void)
{
    static const double f[] = {0, 0.25, 0.5, 0.75, 0x1.fffcp-1};
    uint64_t r = kt_random() % 6;
    return r < 5 ? f[r] : (double)(float)(rnd_unit() * 0.999);
}

/* A spatial coordinate along an axis of n texels for sampler sm, or an int one. */
static float gen_axis(long n, const struct smp *sm, bool int_coord)
{
    bool lin = sm->filter == CL_FILTER_LINEAR, none = sm->addr == CL_ADDRESS_NONE;
    if (int_coord)
        return (float)(none ? rnd_int(0, n - 1) : rnd_int(-2, n + 1));
    if (sm->addr == CL_ADDRESS_REPEAT || sm->addr == CL_ADDRESS_MIRRORED_REPEAT) {
        if (lin)
            return (float)(rnd_unit() * 5 - 2.5);
        long m = rnd_int(-1, 1);
        double t = ((double)rnd_int(0, n - 1) + 0.1 + 0.8 * rnd_unit()) / (double)n;
        if (sm->addr == CL_ADDRESS_REPEAT)
            return (float)((double)m + t);
        return (float)(2.0 * (double)m + ((kt_random() & 1) ? t : -t));
    }
    double u;
    if (lin && none)
        u = 0.5 + 1.0 / 64 + rnd_unit() * ((double)n - 1 - 1.0 / 32);
    else if (lin)
        u = (kt_random() & 1) ? (double)rnd_int(-8, 4 * n + 8) / 4
                              : rnd_unit() * (double)(n + 4) - 2;
    else if (sm->norm)
        u = (double)(none ? rnd_int(0, n - 1) : rnd_int(-3, n + 2)) + 0.1 + 0.8 * rnd_unit();
    else
        u = (double)(none ? rnd_int(0, n - 1) : rnd_int(-3, n + 2)) + exact_fraction();
    return (float)(sm->norm ? u / (double)n : u);
}

/* An array layer: rounded with rint and clamped when read through a sampler. */
static float gen_layer(long layers, const struct smp *sm, bool int_coord)
{
    static const double f[] = {-0.3, 0, 0.3, 0.45};
    bool none = !sm || sm->addr == CL_ADDRESS_NONE;
    long l = none ? rnd_int(0, layers - 1) : rnd_int(-1, layers);
    if (int_coord || !sm)
        return (float)l;
    double v = (double)l + f[kt_random() % 4];
    if (none && (v < 0 || v > (double)layers - 1))
        v = (double)l;
    return (float)v;
}

/* Coordinates of items [0, n) for sampler sm (NULL: sampler-less, in range); w is junk. */
static void gen_coords(const struct kind *k, const struct smp *sm, bool int_coord, size_t n,
                       float (*fc)[4], int32_t (*ic)[4])
{
    static const struct smp none = {false, CL_ADDRESS_NONE, CL_FILTER_NEAREST};
    for (size_t i = 0; i < n; i++) {
        for (unsigned d = 0; d < 4; d++) {
            float v = 3.0f;
            if (d < k->spatial)
                v = gen_axis((long)k->dims[d], sm ? sm : &none, int_coord || !sm);
            else if ((int)d == k->layer_axis)
                v = gen_layer((long)k->dims[d], sm, int_coord);
            fc[i][d] = v;
            ic[i][d] = (int32_t)v;
        }
    }
}

/* ---- the device side ---------------------------------------------------- */

static cl_program main_prog, depth_prog;
static bool writes_3d, rw_images;
static cl_mem coord_buf, out_buf, val_buf;
enum { MAX_ITEMS = 128, QUERY_INTS = 12 };

static unsigned checks_nearest, checks_linear, checks_written, checks_queries, launches;
static unsigned approx_roundings, rtz_halves;

/*
 * PoCL (3.1, Debian), against which this test and its references are
 * checked (KT_PLATFORM=Portable), in one place: kernels it cannot run at all
 * (skipped there, so that the rest runs), and where it departs from the
 * specification, as failure groups it is expected to show (counted apart;
 * one it no longer shows is reported, so that the list stays true).
 */
static const struct {
    const char *kernel, *why;
} pocl_gaps[] = {
    {"q_1dbuf", "its kernel library lacks get_image_channel_data_type/order(image1d_buffer_t): "
                "the kernel does not load and PoCL aborts"},
};
static struct pocl_deviation {
    const char *all[3]; /* substrings of a failure group's key, all present */
    const char *why;
    unsigned seen;
} pocl_deviations[] = {
    {{" R_", " c3]", NULL},
     "CL_R: the border colour is (0,0,0,0), not (0,0,0,1); read_imagei/ui return alpha 0, not 1",
     0},
    {{" R_HALF_FLOAT", NULL, NULL}, "CL_R CL_HALF_FLOAT: reads and writes the wrong bits", 0},
    {{"darr_", " normalized ", NULL},
     "normalized samplers on arrays scale the layer by the array size (the spec: the array "
     "coordinate is always unnormalized)",
     0},
};
#define NUM_DEVIATIONS (sizeof pocl_deviations / sizeof *pocl_deviations)
static bool on_pocl;

/*
 * Failures grouped by what failed (kernel, image, format, sampler, what was
 * compared): the first of each group is printed, all are counted.
 */
enum { MAX_GROUPS = 400 };
static char group_keys[MAX_GROUPS][112];
static unsigned group_counts[MAX_GROUPS], num_groups;

static void group_fail(const char *key, const char *fmt, ...)
{
    char bracketed[128];
    snprintf(bracketed, sizeof bracketed, " %s]", key);
    for (size_t d = 0; on_pocl && d < NUM_DEVIATIONS; d++) {
        struct pocl_deviation *dv = &pocl_deviations[d];
        bool all = true;
        for (int j = 0; j < 3 && dv->all[j]; j++)
            all &= strstr(bracketed, dv->all[j]) != NULL;
        if (all) {
            dv->seen++;
            return;
        }
    }
    kt_failures++;
    unsigned g = 0;
    while (g < num_groups && strcmp(group_keys[g], key) != 0)
        g++;
    if (g < num_groups) {
        group_counts[g]++;
        return;
    }
    if (num_groups == MAX_GROUPS)
        return;
    snprintf(group_keys[g], sizeof group_keys[g], "%s", key);
    group_counts[num_groups++] = 1;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL [%s]: ", key);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/*
 * The read kernels of a program: rs_<kind>_<f|i|ui>_<f|i> through a sampler
 * argument with float or int coordinates, rn_<kind>_<f|i|ui> without a
 * sampler; w_<kind>_<f|i|ui> write; q_<kind> query. One work-item in 7 (5
 * for writes) takes the other branch and leaves its output alone.
 */
static char *program_source(bool depth)
{
    char *s = NULL;
    kt_append(&s,
              "#define ID size_t i = get_global_id(0) + get_global_id(1) * get_global_size(0)\n");
    if (!depth) /* depth image types need no pragma in OpenCL C 3.0 */
        kt_append(&s, "#ifdef cl_khr_3d_image_writes\n"
                      "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n#endif\n");
    for (int ki = 0; ki < NUM_KINDS; ki++) {
        const struct kind *k = &kinds[ki];
        const char *type = depth ? k->depth_type : k->type;
        if (!type)
            continue;
        for (int c = 0; c < 3; c++) {
            if (depth && c != CF)
                continue;
            /* a depth read returns a float: kept in x */
            const char *wrap_l = depth ? "(float4)(" : "", *wrap_r = depth ? ", 0, 0, 0)" : "";
            if (k->sampled && (c == CF || int_reads_sampled(ki)))
                for (int ct = 0; ct < 2; ct++)
                    kt_append(&s,
                              "kernel void rs_%s_%s_%s(read_only %s img, sampler_t smp,\n"
                              "        global const %s *c, global %s *o) {\n"
                              "    ID;\n"
                              "    if (i %% 7 != 3) o[i] = %sread_image%s(img, smp, c[i]%s)%s;\n"
                              "}\n",
                              k->name, sfx[c], ct ? "i" : "f", type, ct ? "int4" : "float4",
                              vec4[c], wrap_l, sfx[c], k->swizzle, wrap_r);
            if (c == CF || int_reads_plain(ki))
                kt_append(&s,
                          "kernel void rn_%s_%s(read_only %s img, global const int4 *c,\n"
                          "        global %s *o) {\n"
                          "    ID;\n"
                          "    if (i %% 7 != 3) o[i] = %sread_image%s(img, c[i]%s)%s;\n"
                          "}\n",
                          k->name, sfx[c], type, vec4[c], wrap_l, sfx[c], k->swizzle, wrap_r);
            if (ki == K3D)
                kt_append(&s, "#if defined(__opencl_c_3d_image_writes) || "
                              "defined(cl_khr_3d_image_writes)\n");
            kt_append(&s,
                      "kernel void w_%s_%s(write_only %s img, global const int4 *c,\n"
                      "        global const %s *v) {\n"
                      "    ID;\n"
                      "    if (i %% 5 != 2) write_image%s(img, c[i]%s, v[i]%s);\n"
                      "}\n",
                      k->name, sfx[c], type, vec4[c], sfx[c], k->swizzle, depth ? ".x" : "");
            if (ki == K3D)
                kt_append(&s, "#endif\n");
        }
        kt_append(&s,
                  "kernel void q_%s(read_only %s img, global int *o) {\n"
                  "    ID;\n"
                  "    if (i %% 3 == 1) return;\n"
                  "    global int *r = o + i * %d;\n"
                  "    for (int j = 0; j < %d; j++) r[j] = -1;\n"
                  "    r[0] = get_image_width(img);\n",
                  k->name, type, QUERY_INTS, QUERY_INTS);
        if (ki >= K2D)
            kt_append(&s, "    r[1] = get_image_height(img);\n");
        if (ki == K3D)
            kt_append(&s, "    r[2] = get_image_depth(img);\n"
                          "    int4 d = get_image_dim(img);\n"
                          "    r[4] = d.x; r[5] = d.y; r[6] = d.z; r[7] = d.w;\n");
        if (ki == K2D || ki == K2DARR)
            kt_append(&s, "    int2 d = get_image_dim(img);\n    r[4] = d.x; r[5] = d.y;\n");
        if (ki == K1DARR || ki == K2DARR)
            kt_append(&s, "    r[3] = (int)get_image_array_size(img);\n");
        kt_append(&s, "    r[8] = get_image_channel_data_type(img);\n"
                      "    r[9] = get_image_channel_order(img);\n"
                      "}\n");
    }
    if (depth)
        return s;
    /* Samplers in the source: at program scope, in the kernel, a literal in the call. */
    kt_append(
        &s, "%s",
        "const sampler_t ps_lin = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT |\n"
        "                         CLK_FILTER_LINEAR;\n"
        "const sampler_t ps_clamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |\n"
        "                           CLK_FILTER_NEAREST;\n"
        "kernel void ps_2d_f(read_only image2d_t img, global const float4 *c, global float4 *o) {\n"
        "    ID;\n"
        "    if (i % 7 != 3) o[i] = read_imagef(img, ps_lin, c[i].xy);\n"
        "}\n"
        "kernel void ps_1darr_i(read_only image1d_array_t img, global const int4 *c,\n"
        "        global int4 *o) {\n"
        "    ID;\n"
        "    if (i % 7 != 3) o[i] = read_imagei(img, ps_clamp, c[i].xy);\n"
        "}\n"
        "kernel void lit_2darr_f(read_only image2d_array_t img, global const float4 *c,\n"
        "        global float4 *o) {\n"
        "    ID;\n"
        "    if (i % 7 != 3)\n"
        "        o[i] = read_imagef(img, CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT "
        "|\n"
        "                                CLK_FILTER_NEAREST, c[i]);\n"
        "}\n"
        "kernel void lit_1d_ui(read_only image1d_t img, global const int4 *c, global uint4 *o) {\n"
        "    ID;\n"
        "    if (i % 7 != 3)\n"
        "        o[i] = read_imageui(img, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE "
        "|\n"
        "                                 CLK_FILTER_NEAREST, c[i].x);\n"
        "}\n"
        "kernel void loc_2d_i(read_only image2d_t img, global const float4 *c, global int4 *o) {\n"
        "    const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT |\n"
        "                        CLK_FILTER_NEAREST;\n"
        "    ID;\n"
        "    if (i % 7 != 3) o[i] = read_imagei(img, s, c[i].xy);\n"
        "}\n"
        "#ifdef __opencl_c_read_write_images\n"
        "kernel void rw_2d_f(read_write image2d_t img, global const int4 *c, float4 a, float4 b) "
        "{\n"
        "    ID;\n"
        "    if (i % 4 != 1) write_imagef(img, c[i].xy, a * read_imagef(img, c[i].xy) + b);\n"
        "}\n"
        "kernel void rw_2d_i(read_write image2d_t img, global const int4 *c, int4 a, int4 b) {\n"
        "    ID;\n"
        "    if (i % 4 != 1) write_imagei(img, c[i].xy, (read_imagei(img, c[i].xy) ^ a) + b);\n"
        "}\n"
        "kernel void rw_2d_ui(read_write image2d_t img, global const int4 *c, uint4 a, uint4 b) {\n"
        "    ID;\n"
        "    if (i % 4 != 1) write_imageui(img, c[i].xy, (read_imageui(img, c[i].xy) ^ a) + b);\n"
        "}\n"
        "#endif\n");
    return s;
}

/* A sampler in the source: its kernel, image kind, class and sampler, and whether coordinates are
 * int. */
struct fixed {
    const char *kernel;
    int kind;
    enum cls c;
    struct smp s;
    bool int_coord;
};
static const struct fixed fixed_samplers[] = {
    {"ps_2d_f", K2D, CF, {true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}, false},
    {"ps_1darr_i", K1DARR, CI, {false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST}, true},
    {"lit_2darr_f", K2DARR, CF, {true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST}, false},
    {"lit_1d_ui", K1D, CU, {false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST}, true},
    {"loc_2d_i", K2D, CI, {true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST}, false},
};

struct arg {
    size_t size;
    const void *value;
};

/* Runs kernel `name` of p over `global` (dim 1 or 2); false (recorded) when it did not run. */
static bool run(cl_program p, const char *name, cl_uint dim, const size_t *global,
                const struct arg *args, unsigned num_args)
{
    static struct {
        cl_program p;
        char name[32];
        cl_kernel k;
    } cache[128];
    static unsigned cached;
    cl_kernel k = NULL;
    for (size_t i = 0; on_pocl && i < sizeof pocl_gaps / sizeof *pocl_gaps; i++)
        if (strcmp(pocl_gaps[i].kernel, name) == 0)
            return false;
    for (unsigned i = 0; i < cached && !k; i++)
        if (cache[i].p == p && strcmp(cache[i].name, name) == 0)
            k = cache[i].k;
    cl_int err;
    if (!k) {
        k = clCreateKernel(p, name, &err);
        if (err != CL_SUCCESS) {
            KT_FAIL("clCreateKernel(%s) = %d", name, err);
            return false;
        }
        if (cached < 128) {
            cache[cached].p = p;
            snprintf(cache[cached].name, sizeof cache[cached].name, "%s", name);
            cache[cached++].k = k;
        }
    }
    for (unsigned i = 0; i < num_args; i++) {
        err = clSetKernelArg(k, i, args[i].size, args[i].value);
        if (err != CL_SUCCESS) {
            KT_FAIL("clSetKernelArg(%s, %u) = %d", name, i, err);
            return false;
        }
    }
    err = clEnqueueNDRangeKernel(kt.queue, k, dim, NULL, global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(kt.queue);
    if (err != CL_SUCCESS) {
        KT_FAIL("kernel %s: error %d", name, err);
        return false;
    }
    launches++;
    return true;
}

static void write_buf(cl_mem b, const void *data, size_t size)
{
    KT_CHECK_CL(clEnqueueWriteBuffer(kt.queue, b, CL_TRUE, 0, size, data, 0, NULL, NULL));
}

static void read_buf(cl_mem b, void *data, size_t size)
{
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, b, CL_TRUE, 0, size, data, 0, NULL, NULL));
}

/* An image of kind k and format f holding data (a 1D buffer image: over a new buffer). */
static cl_mem make_image(const struct image *im, cl_mem_flags flags, cl_mem *buffer)
{
    const struct kind *k = im->k;
    cl_image_format fmt = {im->f.order, im->f.type};
    cl_image_desc desc = {0};
    desc.image_type = k->mt;
    desc.image_width = k->dims[0];
    if (k->mt == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        desc.image_array_size = k->dims[1];
    else
        desc.image_height = k->dims[1];
    if (k->mt == CL_MEM_OBJECT_IMAGE2D_ARRAY)
        desc.image_array_size = k->dims[2];
    else if (k->mt == CL_MEM_OBJECT_IMAGE3D)
        desc.image_depth = k->dims[2];
    if (k->mt != CL_MEM_OBJECT_IMAGE2D && k->mt != CL_MEM_OBJECT_IMAGE2D_ARRAY &&
        k->mt != CL_MEM_OBJECT_IMAGE3D)
        desc.image_height = 0;
    cl_int err;
    void *host = im->data;
    *buffer = NULL;
    if (k->mt == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        *buffer = clCreateBuffer(kt.ctx, flags | CL_MEM_COPY_HOST_PTR, texel_count(k) * im->elem,
                                 im->data, &err);
        KT_CHECK_CL(err);
        desc.buffer = *buffer;
        host = NULL;
    }
    cl_mem img =
        clCreateImage(kt.ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), &fmt, &desc, host, &err);
    if (err != CL_SUCCESS) {
        KT_FAIL("clCreateImage(%s %s_%s) = %d", k->name, order_name(im->f.order),
                type_name(im->f.type), err);
        if (*buffer)
            clReleaseMemObject(*buffer);
        return NULL;
    }
    return img;
}

static void release(cl_mem img, cl_mem buffer)
{
    if (img)
        clReleaseMemObject(img);
    if (buffer)
        clReleaseMemObject(buffer);
}

static float ulp_of(float x)
{
    float a = fabsf(x);
    return nextafterf(a, INFINITY) - a;
}

/* Compares what item i read with the reference; reports the first few mismatches. */
static void check_read(const struct image *im, const struct smp *sm, const char *kernel,
                       size_t item, const float *fc, const void *got_v)
{
    double coord[4] = {fc[0], fc[1], fc[2], fc[3]}, want[4], maxabs;
    if (!ref_read(im, sm, coord, want, &maxabs))
        return; /* NONE outside the image: never generated */
    enum cls c = type_class(im->f.type);
    bool lin = sm && sm->filter == CL_FILTER_LINEAR;
    unsigned comps = im->f.order == CL_DEPTH ? 1 : 4;
    if (lin)
        checks_linear++;
    else
        checks_nearest++;
    for (unsigned j = 0; j < comps; j++) {
        bool ok;
        double got;
        if (c == CF) {
            float g;
            memcpy(&g, (const char *)got_v + 4 * j, 4);
            got = g;
            float wf = (float)want[j];
            if (lin)
                ok = fabs(got - want[j]) <= 1e-3 * fmax(1.0, maxabs);
            else if (im->f.order == CL_sRGBA && j < 3)
                ok = fabs(255 * linear_to_srgb(got) - 255 * linear_to_srgb(want[j])) <= 0.5 + 1e-9;
            else if (normalized(im->f.type) && (double)wf != want[j])
                ok = fabs(got - want[j]) <= 1.5 * (double)ulp_of(wf);
            else
                ok = g == wf;
        } else {
            int32_t g;
            memcpy(&g, (const char *)got_v + 4 * j, 4);
            got = c == CI ? (double)g : (double)(uint32_t)g;
            ok = got == want[j];
        }
        if (!ok) {
            char key[112];
            snprintf(key, sizeof key, "%s %s_%s %s c%u", kernel, order_name(im->f.order),
                     type_name(im->f.type), smp_text(sm), j);
            group_fail(key, "item %zu at (%a, %a, %a): component %u is %.9g, want %.9g", item,
                       fc[0], fc[1], fc[2], j, got, want[j]);
            return;
        }
    }
}

static const uint8_t UNTOUCHED = 0xcd;

/* Runs read kernel `name` on img with coordinates for sm (and the sampler if given) and checks it.
 */
static void read_and_check(const struct image *im, cl_mem img, cl_program p, const char *name,
                           const struct smp *sm, cl_sampler sampler, bool int_coord)
{
    const struct kind *k = im->k;
    size_t global[2] = {k->nd2 ? 13 : 61, k->nd2 ? 7 : 1}, n = global[0] * global[1];
    static float fc[MAX_ITEMS][4];
    static int32_t ic[MAX_ITEMS][4];
    static uint8_t out[MAX_ITEMS][16];
    gen_coords(k, sm, int_coord, n, fc, ic);
    write_buf(coord_buf, int_coord || !sm ? (void *)ic : (void *)fc, n * 16);
    memset(out, UNTOUCHED, sizeof out);
    write_buf(out_buf, out, n * 16);
    struct arg args[4] = {{sizeof img, &img}};
    unsigned na = 1;
    if (sampler)
        args[na++] = (struct arg){sizeof sampler, &sampler};
    args[na++] = (struct arg){sizeof coord_buf, &coord_buf};
    args[na++] = (struct arg){sizeof out_buf, &out_buf};
    if (!run(p, name, k->nd2 ? 2 : 1, global, args, na))
        return;
    read_buf(out_buf, out, n * 16);
    for (size_t i = 0; i < n; i++) {
        if (i % 7 == 3) {
            for (int b = 0; b < 16; b++)
                if (out[i][b] != UNTOUCHED) {
                    group_fail(name, "item %zu skipped its read but wrote its output", i);
                    break;
                }
            continue;
        }
        check_read(im, sm, name, i, fc[i], out[i]);
    }
}

static struct smp samplers[16];
static cl_sampler sampler_objs[16];
static unsigned num_samplers;

static void test_reads(const struct image *im, cl_mem img)
{
    const struct kind *k = im->k;
    enum cls c = type_class(im->f.type);
    bool depth = im->f.order == CL_DEPTH;
    cl_program p = depth ? depth_prog : main_prog;
    char name[48];
    int ki = (int)(k - kinds);
    if (k->sampled && (c == CF || int_reads_sampled(ki))) {
        for (unsigned s = 0; s < num_samplers; s++) {
            const struct smp *sm = &samplers[s];
            if (c != CF && sm->filter == CL_FILTER_LINEAR)
                continue; /* read_imagei/ui: nearest only */
            for (int ct = 0; ct < 2; ct++) {
                if (ct && (sm->norm || sm->filter == CL_FILTER_LINEAR))
                    continue; /* int coordinates: unnormalized, nearest, no repeat */
                snprintf(name, sizeof name, "rs_%s_%s_%s", k->name, sfx[c], ct ? "i" : "f");
                read_and_check(im, img, p, name, sm, sampler_objs[s], ct);
            }
        }
    }
    snprintf(name, sizeof name, "rn_%s_%s", k->name, sfx[c]);
    if (c == CF || int_reads_plain(ki))
        read_and_check(im, img, p, name, NULL, NULL, true);
    if (depth)
        return;
    for (size_t i = 0; i < sizeof fixed_samplers / sizeof *fixed_samplers; i++) {
        const struct fixed *fx = &fixed_samplers[i];
        if (&kinds[fx->kind] == k && fx->c == c)
            read_and_check(im, img, p, fx->kernel, &fx->s, NULL, fx->int_coord);
    }
}

static void test_queries(const struct image *im, cl_mem img)
{
    const struct kind *k = im->k;
    cl_program p = im->f.order == CL_DEPTH ? depth_prog : main_prog;
    size_t global = 29;
    static int32_t out[MAX_ITEMS * QUERY_INTS];
    memset(out, UNTOUCHED, sizeof out);
    write_buf(out_buf, out, global * QUERY_INTS * 4);
    struct arg args[] = {{sizeof img, &img}, {sizeof out_buf, &out_buf}};
    char name[32];
    snprintf(name, sizeof name, "q_%s", k->name);
    if (!run(p, name, 1, &global, args, 2))
        return;
    read_buf(out_buf, out, global * QUERY_INTS * 4);
    int32_t want[QUERY_INTS];
    for (int j = 0; j < QUERY_INTS; j++)
        want[j] = -1;
    want[0] = (int32_t)k->dims[0];
    int ki = (int)(k - kinds);
    if (ki >= K2D)
        want[1] = (int32_t)k->dims[1];
    if (ki == K3D) {
        want[2] = (int32_t)k->dims[2];
        want[4] = (int32_t)k->dims[0], want[5] = (int32_t)k->dims[1];
        want[6] = (int32_t)k->dims[2], want[7] = 0;
    }
    if (ki == K2D || ki == K2DARR)
        want[4] = (int32_t)k->dims[0], want[5] = (int32_t)k->dims[1];
    if (ki == K1DARR)
        want[3] = (int32_t)k->dims[1];
    if (ki == K2DARR)
        want[3] = (int32_t)k->dims[2];
    want[8] = (int32_t)im->f.type;
    want[9] = (int32_t)im->f.order;
    static const char *const what[QUERY_INTS] = {"width",         "height", "depth",
                                                 "array_size",    "dim.x",  "dim.y",
                                                 "dim.z",         "dim.w",  "channel_data_type",
                                                 "channel_order", "-",      "-"};
    for (size_t i = 0; i < global; i++) {
        for (int j = 0; j < QUERY_INTS; j++) {
            int32_t w = i % 3 == 1 ? (int32_t)0xcdcdcdcd : want[j];
            if (out[i * QUERY_INTS + j] != w) {
                char key[112];
                snprintf(key, sizeof key, "%s %s_%s %s", name, order_name(im->f.order),
                         type_name(im->f.type), what[j]);
                group_fail(key, "item %zu: %d (0x%x), want %d (0x%x)", i, out[i * QUERY_INTS + j],
                           (unsigned)out[i * QUERY_INTS + j], w, (unsigned)w);
                return;
            }
        }
        checks_queries++;
    }
}

/* ---- writes ------------------------------------------------------------- */

static double norm_scale(cl_channel_type t)
{
    return t == CL_UNORM_INT8    ? 255
           : t == CL_UNORM_INT16 ? 65535
           : t == CL_SNORM_INT8  ? 127
                                 : 32767;
}

/* A float to write to a channel of type t: exact steps, near-ties, ties, saturation. */
static float gen_write_float(cl_channel_type t)
{
    uint64_t r = kt_random();
    static const float special[] = {0.5f, -0.5f, 1.5f,  -1.5f, 0.0f,   1.0f,    -1.0f,
                                    2.0f, 1e6f,  -1e6f, 0.25f, 1e-30f, -1e-30f, 0.75f};
    if (t == CL_FLOAT)
        return kt_bits_float(random_channel(CL_FLOAT));
    if (t == CL_HALF_FLOAT) {
        static const float hspecial[] = {
            65504.0f, 65519.0f, 65520.0f,  65535.0f,        1e6f,
            -1e6f,    0x1p-14f, -0x1p-14f, 1.0f + 0x1p-11f, 1.0f + 0x3p-11f};
        uint16_t h = (uint16_t)random_channel(CL_HALF_FLOAT);
        switch (r % 5) {
        case 0: return (float)half_value(h);
        case 1: /* the midpoint to the next half: a tie */
            if ((h & 0x7fff) >= 0x7bff)
                h = (uint16_t)(h - 1);
            return (float)((half_value(h) + half_value((uint16_t)(h + 1))) / 2);
        case 2: return hspecial[(r >> 8) % (sizeof hspecial / sizeof *hspecial)];
        default:
            return ldexpf((float)(rnd_unit() + 1), (int)rnd_int(-14, 16)) * ((r & 64) ? -1 : 1);
        }
    }
    double scale = norm_scale(t);
    bool sn = t == CL_SNORM_INT8 || t == CL_SNORM_INT16;
    long k = rnd_int(sn ? -(long)scale : 0, (long)scale);
    switch (r % 6) {
    case 0: return (float)((double)k / scale);
    case 1: return (float)(((double)k + 0.5) / scale);
    case 2: return special[(r >> 8) % (sizeof special / sizeof *special)];
    default: return (float)(rnd_unit() * 3 - 1.5);
    }
}

static int32_t gen_write_int(void)
{
    static const int32_t special[] = {0,     1,         -1,        127,   128,    -128,   -129,
                                      255,   256,       32767,     32768, -32768, -32769, 65535,
                                      65536, INT32_MAX, INT32_MIN, 200,   -200};
    uint64_t r = kt_random();
    if (r % 3 == 0)
        return special[(r >> 8) % (sizeof special / sizeof *special)];
    if (r % 3 == 1)
        return (int32_t)rnd_int(-300, 70000);
    return (int32_t)(r >> 32);
}

/*
 * Whether channel bits `got` are what writing v (a float, or the int bits of
 * one) to a channel of type t gives; counts the approximations allowed.
 */
static bool check_written_channel(cl_channel_type t, const void *v, uint32_t got)
{
    float f;
    int32_t i;
    memcpy(&f, v, 4);
    memcpy(&i, v, 4);
    switch (t) {
    case CL_UNORM_INT8:
    case CL_UNORM_INT16:
    case CL_SNORM_INT8:
    case CL_SNORM_INT16: {
        double s = norm_scale(t), lo = s == 127 ? -128 : s == 32767 ? -32768 : 0;
        double x = fmin(s, fmax(lo, s * (double)f)); /* exact */
        double g = t == CL_SNORM_INT8    ? (double)(int8_t)got
                   : t == CL_SNORM_INT16 ? (double)(int16_t)got
                                         : (double)got;
        if (g == rint(x))
            return true;
        if (fabs(x - g) <= 0.6) {
            approx_roundings++;
            return true;
        }
        return false;
    }
    case CL_HALF_FLOAT:
        if (got == float_to_half(f, false))
            return true;
        if (got == float_to_half(f, true)) {
            rtz_halves++;
            return true;
        }
        return false;
    case CL_FLOAT: return got == kt_float_bits(f);
    case CL_SIGNED_INT8: return (int8_t)got == clampl(i, -128, 127);
    case CL_SIGNED_INT16: return (int16_t)got == clampl(i, -32768, 32767);
    case CL_SIGNED_INT32: return (int32_t)got == i;
    case CL_UNSIGNED_INT8: return got == ((uint32_t)i > 255 ? 255 : (uint32_t)i);
    case CL_UNSIGNED_INT16: return got == ((uint32_t)i > 65535 ? 65535 : (uint32_t)i);
    default: return got == (uint32_t)i;
    }
}

/* Reads img back and compares it, texel by texel, with what the kernel wrote over `initial`. */
static void check_image(const struct image *im, cl_mem img, const char *name, size_t n,
                        const int32_t (*coords)[4], const uint8_t (*vals)[16], const bool *wrote)
{
    const struct kind *k = im->k;
    size_t bytes = texel_count(k) * im->elem;
    uint8_t *got = malloc(bytes);
    size_t origin[3] = {0, 0, 0}, region[3] = {k->dims[0], k->dims[1], k->dims[2]};
    KT_CHECK_CL(
        clEnqueueReadImage(kt.queue, img, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
    bool *written = calloc(texel_count(k), sizeof *written);
    unsigned ts = type_size(im->f.type);
    for (size_t i = 0; i < n; i++) {
        if (!wrote[i])
            continue;
        size_t t = ((size_t)coords[i][2] * k->dims[1] + (size_t)coords[i][1]) * k->dims[0] +
                   (size_t)coords[i][0];
        if (k->layer_axis == 1)
            t = (size_t)coords[i][1] * k->dims[0] + (size_t)coords[i][0];
        written[t] = true;
        for (unsigned m = 0; m < channels(im->f.order); m++) {
            unsigned comp = component(im->f.order, m);
            uint32_t g = load_bits(got + t * im->elem + m * ts, ts);
            checks_written++;
            if (!check_written_channel(im->f.type, vals[i] + 4 * comp, g)) {
                float f;
                int32_t iv;
                memcpy(&f, vals[i] + 4 * comp, 4);
                memcpy(&iv, vals[i] + 4 * comp, 4);
                char key[112];
                snprintf(key, sizeof key, "%s %s %s_%s c%u", name, k->name, order_name(im->f.order),
                         type_name(im->f.type), comp);
                group_fail(key, "item %zu wrote %a (int %d) as 0x%x at texel %zu", i, f, iv, g, t);
            }
        }
    }
    for (size_t t = 0; t < texel_count(k); t++)
        if (!written[t] && memcmp(got + t * im->elem, im->data + t * im->elem, im->elem) != 0) {
            char key[112];
            snprintf(key, sizeof key, "%s %s %s_%s unwritten", name, k->name,
                     order_name(im->f.order), type_name(im->f.type));
            group_fail(key, "texel %zu changed though no item wrote it", t);
        }
    free(written);
    free(got);
}

/* A random permutation of the texels of kind k as coordinates (w: junk). */
static void texel_coords(const struct kind *k, int32_t (*coords)[4])
{
    size_t n = texel_count(k);
    size_t *perm = malloc(n * sizeof *perm);
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = kt_random() % i, t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; i++) {
        size_t t = perm[i];
        coords[i][0] = (int32_t)(t % k->dims[0]);
        coords[i][1] = (int32_t)(t / k->dims[0] % k->dims[1]);
        coords[i][2] = (int32_t)(t / (k->dims[0] * k->dims[1]));
        coords[i][3] = 3;
    }
    free(perm);
}

static void test_writes(struct image *im)
{
    const struct kind *k = im->k;
    enum cls c = type_class(im->f.type);
    size_t n = texel_count(k);
    size_t global[2] = {k->nd2 && k->dims[2] == 1 ? 13 : n, k->nd2 && k->dims[2] == 1 ? 7 : 1};
    static int32_t coords[MAX_ITEMS][4];
    static uint8_t vals[MAX_ITEMS][16];
    bool wrote[MAX_ITEMS];
    texel_coords(k, coords);
    for (size_t i = 0; i < n; i++) {
        wrote[i] = i % 5 != 2;
        for (int j = 0; j < 4; j++) {
            if (c == CF) {
                float f = gen_write_float(im->f.type);
                memcpy(vals[i] + 4 * j, &f, 4);
            } else {
                int32_t v = gen_write_int();
                memcpy(vals[i] + 4 * j, &v, 4);
            }
        }
    }
    fill_random(im);
    cl_mem buffer;
    cl_mem img = make_image(im, CL_MEM_WRITE_ONLY, &buffer);
    if (!img)
        return;
    write_buf(coord_buf, coords, n * 16);
    write_buf(val_buf, vals, n * 16);
    struct arg args[] = {
        {sizeof img, &img}, {sizeof coord_buf, &coord_buf}, {sizeof val_buf, &val_buf}};
    char name[32];
    snprintf(name, sizeof name, "w_%s_%s", k->name, sfx[c]);
    if (run(im->f.order == CL_DEPTH ? depth_prog : main_prog, name, global[1] > 1 ? 2 : 1, global,
            args, 3))
        check_image(im, img, name, n, (const int32_t(*)[4])coords, (const uint8_t(*)[16])vals,
                    wrote);
    release(img, buffer);
}

/* read_write image2d_t: each item reads its texel and writes a function of it back. */
static void test_read_write(struct image *im)
{
    enum cls c = type_class(im->f.type);
    size_t n = texel_count(im->k), global[2] = {13, 7};
    static int32_t coords[MAX_ITEMS][4];
    static uint8_t vals[MAX_ITEMS][16];
    bool wrote[MAX_ITEMS];
    texel_coords(im->k, coords);
    fill_random(im);
    /* a * v + b (float: 1 - v for unsigned normalized, -v otherwise); (v ^ a) + b (ints) */
    float fa[4] = {-1, -1, -1, -1}, fb[4] = {0, 0, 0, 0};
    int32_t ia[4] = {-1, -1, -1, -1}, ib[4] = {0, 0, 0, 0};
    if (im->f.type == CL_UNORM_INT8 || im->f.type == CL_UNORM_INT16)
        fb[0] = fb[1] = fb[2] = fb[3] = 1;
    if (c == CU) {
        uint32_t m =
            type_size(im->f.type) == 4 ? 0xffffffffu : (1u << (8 * type_size(im->f.type))) - 1;
        for (int j = 0; j < 4; j++)
            ia[j] = (int32_t)m;
    }
    unsigned ts = type_size(im->f.type);
    for (size_t i = 0; i < n; i++) {
        wrote[i] = i % 4 != 1;
        const uint8_t *p =
            im->data + ((size_t)coords[i][1] * im->k->dims[0] + (size_t)coords[i][0]) * im->elem;
        double v[4] = {0, 0, 0, 1};
        for (unsigned m = 0; m < channels(im->f.order); m++)
            v[component(im->f.order, m)] = decode(im->f.type, p + m * ts);
        for (int j = 0; j < 4; j++) {
            if (c == CF) {
                float f = (float)((double)fa[j] * v[j] + (double)fb[j]);
                memcpy(vals[i] + 4 * j, &f, 4);
            } else {
                int32_t x = (int32_t)(c == CI ? (int64_t)v[j] : (int64_t)(uint32_t)v[j]);
                x = (int32_t)((uint32_t)(x ^ ia[j]) + (uint32_t)ib[j]);
                memcpy(vals[i] + 4 * j, &x, 4);
            }
        }
    }
    cl_mem buffer;
    cl_mem img = make_image(im, CL_MEM_READ_WRITE, &buffer);
    if (!img)
        return;
    write_buf(coord_buf, coords, n * 16);
    struct arg args[] = {{sizeof img, &img},
                         {sizeof coord_buf, &coord_buf},
                         {16, c == CF ? (const void *)fa : ia},
                         {16, c == CF ? (const void *)fb : ib}};
    char name[32];
    snprintf(name, sizeof name, "rw_2d_%s", sfx[c]);
    if (run(main_prog, name, 2, global, args, 4))
        check_image(im, img, name, n, (const int32_t(*)[4])coords, (const uint8_t(*)[16])vals,
                    wrote);
    release(img, buffer);
}

/* ---- main --------------------------------------------------------------- */

static bool listed(const cl_image_format *list, cl_uint n, const struct format *f)
{
    for (cl_uint i = 0; i < n; i++)
        if (list[i].image_channel_order == f->order && list[i].image_channel_data_type == f->type)
            return true;
    return false;
}

static cl_uint supported(cl_mem_flags flags, cl_mem_object_type t, cl_image_format *list)
{
    cl_uint n = 0;
    if (clGetSupportedImageFormats(kt.ctx, flags, t, 256, list, &n) != CL_SUCCESS)
        return 0;
    return n < 256 ? n : 256;
}

static void check_build_log(cl_program p)
{
    size_t size = 0;
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = calloc(1, size + 1);
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    if (strstr(log, "internal error"))
        KT_FAIL("the vectorizer's internal error:\n%s", log);
    free(log);
}

/*
 * Intel's block reads and writes on 2D images (cl_intel_subgroups, _short,
 * _char, _long), at and past the image's edges: lane l's value k is the T
 * at byte x + l * sizeof(T) of row y + k, reads clamped to the edge in
 * bytes and rows, writes outside dropped. Each sub-group's block starts at
 * a byte offset dx from its lanes' own position and dy rows from its rows.
 */
#define BLOCK_W 24 /* texels of 4 bytes: 96 bytes per row */
#define BLOCK_H 7
static void test_image_blocks(void)
{
    static const struct {
        const char *ext, *suffix, *type;
        unsigned size;
    } forms[] = {{"cl_intel_subgroups", "", "uint", 4},
                 {"cl_intel_subgroups_short", "_us", "ushort", 2},
                 {"cl_intel_subgroups_char", "_uc", "uchar", 1},
                 {"cl_intel_subgroups_long", "_ul", "ulong", 8}};
    static const int offsets[][2] = {{0, 0}, {4, 1}, {-8, -1}, {40, 5}, {-200, 3}, {88, -9}};
    cl_image_format rgba8 = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_int err;
    for (size_t fi = 0; fi < sizeof forms / sizeof *forms; fi++) {
        if (!kt_has_extension(forms[fi].ext))
            continue;
        const char *sz = forms[fi].suffix, *t = forms[fi].type;
        unsigned size = forms[fi].size;
        char *src = kt_format(
            "#pragma OPENCL EXTENSION %s : enable\n"
            "kernel void blocks(read_only image2d_t in, write_only image2d_t out,\n"
            "                   global %s *got, int dx, int dy) {\n"
            "    int base = (int)(get_global_id(0) - get_sub_group_local_id()) * %u;\n"
            "    int y = (int)get_global_id(1) * 2;\n"
            "    %s2 v = intel_sub_group_block_read%s2(in, (int2)(base + dx, y + dy));\n"
            "    size_t i = (get_global_id(1) * get_global_size(0) + get_global_id(0)) * 3;\n"
            "    got[i] = v.x;\n"
            "    got[i + 1] = v.y;\n"
            "    got[i + 2] = intel_sub_group_block_read%s(in, (int2)(base + dx, y + dy));\n"
            "    intel_sub_group_block_write%s2(out, (int2)(base + (dx & ~3), y + dy), v);\n"
            "}\n",
            forms[fi].ext, t, size, t, sz, sz, sz);
        cl_program p = kt_build(src, "");
        free(src);
        uint8_t in[BLOCK_H][BLOCK_W * 4];
        for (size_t i = 0; i < sizeof in; i++)
            (&in[0][0])[i] = (uint8_t)kt_random();
        cl_image_desc desc = {
            .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = BLOCK_W, .image_height = BLOCK_H};
        cl_mem a =
            clCreateImage(kt.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8, &desc, in, &err);
        KT_CHECK_CL(err);
        /* Lanes across 96 / size values of a row, and a few past it; 4 pairs of rows. */
        size_t gx = (BLOCK_W * 4 / size + 16 + 15) / 16 * 16, gy = (BLOCK_H + 1) / 2 + 1;
        size_t global[2] = {gx, gy}, local[2] = {16, 1};
        for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
            int dx = offsets[o][0], dy = offsets[o][1];
            uint8_t zero[BLOCK_H][BLOCK_W * 4] = {{0}}, out[BLOCK_H][BLOCK_W * 4];
            cl_mem b = clCreateImage(kt.ctx, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8,
                                     &desc, zero, &err);
            KT_CHECK_CL(err);
            size_t n = gx * gy * 3; /* per lane: read2's two values, then read's one */
            cl_mem got = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, n * size, NULL, &err);
            KT_CHECK_CL(err);
            cl_kernel k = clCreateKernel(p, "blocks", &err);
            KT_CHECK_CL(err);
            KT_CHECK_CL(clSetKernelArg(k, 0, sizeof a, &a));
            KT_CHECK_CL(clSetKernelArg(k, 1, sizeof b, &b));
            KT_CHECK_CL(clSetKernelArg(k, 2, sizeof got, &got));
            KT_CHECK_CL(clSetKernelArg(k, 3, sizeof dx, &dx));
            KT_CHECK_CL(clSetKernelArg(k, 4, sizeof dy, &dy));
            KT_CHECK_CL(clEnqueueNDRangeKernel(kt.queue, k, 2, NULL, global, local, 0, NULL, NULL));
            uint8_t *values = malloc(n * size);
            KT_CHECK_CL(
                clEnqueueReadBuffer(kt.queue, got, CL_TRUE, 0, n * size, values, 0, NULL, NULL));
            size_t origin[3] = {0, 0, 0}, region[3] = {BLOCK_W, BLOCK_H, 1};
            KT_CHECK_CL(
                clEnqueueReadImage(kt.queue, b, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
            uint8_t ref[BLOCK_H][BLOCK_W * 4] = {{0}};
            long row_bytes = BLOCK_W * 4;
            for (size_t y = 0; y < gy; y++)
                for (size_t x = 0; x < gx; x++)
                    for (int v = 0; v < 2; v++) {
                        long bx = (long)x * size + dx, by = (long)y * 2 + dy + v;
                        long cx = bx < 0 ? 0 : bx > row_bytes - size ? row_bytes - size : bx;
                        long cy = by < 0 ? 0 : by >= BLOCK_H ? BLOCK_H - 1 : by;
                        const uint8_t *want = &in[cy][cx];
                        const uint8_t *have = values + ((y * gx + x) * 3 + v) * size;
                        if (memcmp(want, have, size) != 0)
                            KT_FAIL("block read%s2 dx %d dy %d: lane at (%zu, %zu) value %d is "
                                    "not the texel bytes at (%ld, %ld)",
                                    sz, dx, dy, x, y, v, cx, cy);
                        /* The one-row read is the two-row read's first row. */
                        if (v == 0 && memcmp(want, have + 2 * size, size) != 0)
                            KT_FAIL("block read%s dx %d dy %d: lane at (%zu, %zu) is not the "
                                    "texel bytes at (%ld, %ld)",
                                    sz, dx, dy, x, y, cx, cy);
                        long wx = (long)x * size + (dx & ~3), wy = (long)y * 2 + dy + v;
                        if (wx >= 0 && wx + size <= row_bytes && wy >= 0 && wy < BLOCK_H)
                            memcpy(&ref[wy][wx], have, size);
                    }
            if (memcmp(ref, out, sizeof out) != 0)
                KT_FAIL("block write%s2 dx %d dy %d: the image differs from the lanes' values "
                        "where they fall inside it (and zeros elsewhere)",
                        sz, dx, dy);
            free(values);
            clReleaseKernel(k);
            clReleaseMemObject(got);
            clReleaseMemObject(b);
        }
        clReleaseMemObject(a);
        clReleaseProgram(p);
        printf("image block reads and writes%s: 1 and 2 rows at %zu offsets\n", sz,
               sizeof offsets / sizeof *offsets);
    }
}

int main(void)
{
    kt_setup();
    cl_bool images = CL_FALSE;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (!images) {
        fprintf(stderr, "FATAL: the device has no image support (LANES_IMAGES unset?)\n");
        return 1;
    }
    writes_3d =
        kt_has_feature("__opencl_c_3d_image_writes") || kt_has_extension("cl_khr_3d_image_writes");
    rw_images = kt_has_feature("__opencl_c_read_write_images");
    cl_platform_id platform;
    char platform_name[256] = "";
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL));
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL);
    on_pocl = strstr(platform_name, "Portable Computing Language") != NULL;
    for (size_t i = 0; on_pocl && i < sizeof pocl_gaps / sizeof *pocl_gaps; i++)
        printf("not run on PoCL: %s (%s)\n", pocl_gaps[i].kernel, pocl_gaps[i].why);

    static cl_image_format lists[NUM_KINDS][3][256];
    cl_uint counts[NUM_KINDS][3];
    static const cl_mem_flags flags[3] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                          CL_MEM_KERNEL_READ_AND_WRITE};
    bool any_depth = false;
    struct format formats[MAX_FORMATS];
    unsigned num_formats = all_formats(formats);
    for (int k = 0; k < NUM_KINDS; k++)
        for (int f = 0; f < 3; f++)
            counts[k][f] = supported(flags[f], kinds[k].mt, lists[k][f]);
    for (unsigned f = 0; f < num_formats; f++)
        if (formats[f].order == CL_DEPTH)
            any_depth |= listed(lists[K2D][0], counts[K2D][0], &formats[f]) ||
                         listed(lists[K2DARR][0], counts[K2DARR][0], &formats[f]);

    cl_int err;
    char *source = program_source(false);
    main_prog = kt_build(source, "-cl-std=CL3.0");
    free(source);
    if (any_depth) {
        /* a failure here (the device lists CL_DEPTH without its built-ins) spares the rest */
        source = program_source(true);
        depth_prog = clCreateProgramWithSource(kt.ctx, 1, (const char **)&source, NULL, &err);
        KT_CHECK_CL(err);
        if (clBuildProgram(depth_prog, 1, &kt.dev, "-cl-std=CL3.0", NULL, NULL) != CL_SUCCESS) {
            size_t size = 0;
            clGetProgramBuildInfo(depth_prog, kt.dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
            char *log = calloc(1, size + 1);
            clGetProgramBuildInfo(depth_prog, kt.dev, CL_PROGRAM_BUILD_LOG, size, log, NULL);
            KT_FAIL("the device lists CL_DEPTH formats, but the depth image kernels do not "
                    "build; depth formats not tested. The log begins:\n%.1500s",
                    log);
            free(log);
            clReleaseProgram(depth_prog);
            depth_prog = NULL;
        }
        free(source);
    }
    coord_buf = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, MAX_ITEMS * 16, NULL, &err);
    KT_CHECK_CL(err);
    out_buf = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, MAX_ITEMS * QUERY_INTS * 4, NULL, &err);
    KT_CHECK_CL(err);
    val_buf = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, MAX_ITEMS * 16, NULL, &err);
    KT_CHECK_CL(err);

    static const cl_addressing_mode addrs[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                               CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                               CL_ADDRESS_MIRRORED_REPEAT};
    for (int norm = 0; norm < 2; norm++)
        for (int a = 0; a < 5; a++)
            for (int f = 0; f < 2; f++) {
                if (!norm && a >= 3)
                    continue; /* repeat modes need normalized coordinates */
                struct smp s = {norm, addrs[a], f ? CL_FILTER_LINEAR : CL_FILTER_NEAREST};
                cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                 (cl_bool)norm,
                                                 CL_SAMPLER_ADDRESSING_MODE,
                                                 s.addr,
                                                 CL_SAMPLER_FILTER_MODE,
                                                 s.filter,
                                                 0};
                samplers[num_samplers] = s;
                sampler_objs[num_samplers] = clCreateSamplerWithProperties(kt.ctx, props, &err);
                KT_CHECK_CL(err);
                num_samplers++;
            }

    char *skipped = NULL;
    unsigned images_read = 0, images_written = 0, rw_tested = 0;
    for (unsigned fi = 0; fi < num_formats; fi++) {
        const struct format *f = &formats[fi];
        for (int ki = 0; ki < NUM_KINDS; ki++) {
            const struct kind *k = &kinds[ki];
            if (f->order == CL_DEPTH && (!k->depth_type || !depth_prog))
                continue;
            struct image im = {k, *f, channels(f->order) * type_size(f->type), NULL};
            im.data = malloc(texel_count(k) * im.elem);
            if (listed(lists[ki][0], counts[ki][0], f)) {
                fill_random(&im);
                cl_mem buffer;
                cl_mem img = make_image(&im, CL_MEM_READ_ONLY, &buffer);
                if (img) {
                    test_reads(&im, img);
                    test_queries(&im, img);
                    images_read++;
                }
                release(img, buffer);
            } else {
                kt_append(&skipped, " %s:%s_%s", k->name, order_name(f->order), type_name(f->type));
            }
            bool writable = f->order != CL_sRGBA && (ki != K3D || writes_3d);
            if (writable && listed(lists[ki][1], counts[ki][1], f)) {
                test_writes(&im);
                images_written++;
            } else if (writable) {
                kt_append(&skipped, " %s:%s_%s(write)", k->name, order_name(f->order),
                          type_name(f->type));
            }
            if (ki == K2D && rw_images && f->order != CL_sRGBA && f->order != CL_DEPTH &&
                listed(lists[ki][2], counts[ki][2], f)) {
                test_read_write(&im);
                rw_tested++;
            }
            free(im.data);
        }
    }
    if (!on_pocl)
        test_image_blocks();
    for (size_t d = 0; on_pocl && d < NUM_DEVIATIONS; d++) {
        printf("PoCL's known deviation, %u failures: %s\n", pocl_deviations[d].seen,
               pocl_deviations[d].why);
        if (!pocl_deviations[d].seen)
            KT_FAIL("PoCL no longer shows: %s", pocl_deviations[d].why);
    }
    for (unsigned g = 0; g < num_groups; g++)
        fprintf(stderr, "%6u x [%s]\n", group_counts[g], group_keys[g]);
    check_build_log(main_prog);
    if (depth_prog)
        check_build_log(depth_prog);
    printf("skipped (not listed by the platform):%s\n", skipped ? skipped : " none");
    free(skipped);
    printf("%u images read, %u written, %u read_write; %u launches\n", images_read, images_written,
           rw_tested, launches);
    printf("compared: %u nearest reads (exactly, or within 1.5 ulp), %u linear reads (within "
           "1e-3), %u written channels, %u query sets\n",
           checks_nearest, checks_linear, checks_written, checks_queries);
    printf("normalized writes rounded approximately (within 0.6): %u; halves rounded toward zero: "
           "%u\n",
           approx_roundings, rtz_halves);
    for (unsigned s = 0; s < num_samplers; s++)
        clReleaseSampler(sampler_objs[s]);
    clReleaseMemObject(coord_buf);
    clReleaseMemObject(out_buf);
    clReleaseMemObject(val_buf);
    clReleaseProgram(main_prog);
    if (depth_prog)
        clReleaseProgram(depth_prog);
    return kt_teardown();
}
