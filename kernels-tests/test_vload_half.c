/* SPDX-License-Identifier: MIT */
/*
 * vload_half(n), vloada_halfn, vstore_half(n) and vstorea_halfn with every
 * rounding mode, at every width, compared exactly with float <-> half
 * conversions written here in C. Loads read __global, __constant, __local
 * and __private memory, stores write __global, __local and __private memory,
 * the unaligned forms one half past an aligned address; vstorea_half3 must
 * leave the fourth half of its half4 untouched. The programs are built as
 * OpenCL C 1.2 (the named address-space overloads) and 3.0 (the generic
 * ones when the device has the generic address space).
 *
 * Inputs: every half bit pattern (loads) or the value of every half, every
 * midpoint between neighbouring halves (ties), special values and random
 * floats around and beyond the half range (stores). NaNs convert to quiet
 * NaNs with their sign and the high bits of their payload.
 *
 * With cl_khr_fp64, the stores of doubles too: rounded once, directly from
 * the double (inputs a double ulp either side of each midpoint, which a
 * conversion through float would round to the midpoint and then to even).
 */
#include "kernels.h"

enum { COUNT = 3 * 16 * 4096, LOCAL = 16, SENTINEL = 0xa5a5 };

static const char *const modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
enum { NUM_MODES = 5 };
enum rounding { RTE, RTZ, RTP, RTN };
static const enum rounding mode_rounding[NUM_MODES] = {RTE, RTE, RTZ, RTP, RTN};

/* ---- host references ------------------------------------------------------ */

/* The value of a finite half. */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

static uint32_t half_to_float_ref(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    if ((h & 0x7c00) == 0x7c00) /* infinity, or a quiet NaN with its payload */
        return sign | 0x7f800000u | (uint32_t)(h & 0x3ff) << 13 | ((h & 0x3ff) ? 0x400000u : 0);
    return kt_float_bits((float)half_value(h));
}

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double bits_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/*
 * double -> half in rounding mode r: the largest half magnitude at most |d|
 * by binary search over the (ordered) bit patterns, then the next one up
 * (65536 after HALF_MAX: the overflow threshold of rounding to nearest is
 * their midpoint 65520) as the mode says. NaNs stay quiet NaNs with their
 * sign and the top bits of their payload.
 */
static uint16_t double_to_half_ref(double d, enum rounding r)
{
    uint64_t u = double_bits(d);
    uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
    if (isnan(d))
        return (uint16_t)(sign | 0x7e00 | ((u >> 42) & 0x3ff));
    if (isinf(d))
        return sign | 0x7c00;
    double a = fabs(d);
    unsigned lo = 0, hi = 0x7bff; /* half_value(lo) <= a */
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (half_value((uint16_t)mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    double vlo = half_value((uint16_t)lo),
           vhi = lo == 0x7bff ? 65536.0 : half_value((uint16_t)(lo + 1));
    if (vlo == a)
        return (uint16_t)(sign | lo);
    bool up = false;
    switch (r) {
    case RTE: {
        double mid = (vlo + vhi) / 2; /* exact: 12 significant bits */
        up = a > mid || (a == mid && (lo & 1));
        break;
    }
    case RTZ: up = false; break;
    case RTP: up = !sign; break;
    case RTN: up = sign; break;
    }
    return (uint16_t)(sign | (up ? lo + 1 : lo)); /* 0x7bff + 1 is infinity */
}

/* float -> half: exactly as from the same value as a double (NaNs by their bits). */
static uint16_t float_to_half_ref(float f, enum rounding r)
{
    uint32_t u = kt_float_bits(f);
    if (isnan(f))
        return (uint16_t)(((u >> 16) & 0x8000) | 0x7e00 | ((u >> 13) & 0x3ff));
    return double_to_half_ref((double)f, r);
}

/* ---- inputs ------------------------------------------------------------- */

static uint16_t half_in[COUNT];
static float float_in[COUNT];
/* Their conversions, the same for every width and address space. */
static uint32_t want_float[COUNT];
static uint16_t want_half[4][COUNT];
static double double_in[COUNT];
static uint16_t want_half_double[4][COUNT];

/* Floats the stores must get right, before the random ones. */
static const uint32_t store_specials[] = {
    0x7f800001, 0xff800001, 0x7fc00000, 0xffc00000, 0x7f802000, 0x7fbfffff, 0x7f800fff, /* NaNs */
    0x7f800000, 0xff800000, 0x7f7fffff, 0xff7fffff,             /* infinities, FLT_MAX */
    0x477fe000, 0x477fefff, 0x477ff000, 0xc77ff000, 0x47800000, /* HALF_MAX, 65520, 2^16 */
    0x00000001, 0x80000001, 0x007fffff, 0x00800000,             /* float subnormals */
    0x33000000, 0x33000001, 0xb3000000, 0x33800000, 0x33c00000, /* 2^-25, 2^-24, 3 2^-25 */
    0x387fffff, 0x38800000, 0x387fc000, 0x387fe000, 0x00000000, 0x80000000};
#define NUM_STORE_SPECIALS (sizeof store_specials / sizeof *store_specials)

/* Doubles the stores must round once: the float inputs' kinds, at a double's precision. */
static void fill_doubles(void)
{
    for (unsigned i = 0; i < COUNT; i++) {
        uint64_t r = kt_random();
        uint16_t h = (uint16_t)(i & 0xffff);
        double d;
        if (i < 65536) { /* every half's value (NaNs with their payload) */
            d = (h & 0x7fff) > 0x7c00
                    ? bits_double((uint64_t)(h & 0x8000) << 48 | 0x7ff8000000000000u |
                                  (uint64_t)(h & 0x3ff) << 42)
                    : (double)kt_bits_float(half_to_float_ref(h));
        } else if (i < 2 * 65536) { /* every midpoint, or a double ulp beside it */
            d = (h & 0x7fff) >= 0x7c00 ? bits_double(r)
                                       : (half_value(h) + half_value((uint16_t)(h + 1))) / 2;
            if ((r & 3) != 0 && !isnan(d))
                d = nextafter(d, (r & 1) ? INFINITY : 0.0);
        } else {
            switch (r & 3) {
            case 0: { /* a midpoint and less than a float ulp either side */
                uint16_t m = (uint16_t)((r >> 8) % 0x7c00);
                double mid = (half_value(m) + half_value((uint16_t)(m + 1))) / 2;
                d = mid * (1 + ldexp((double)((r >> 32) & 0xfffff) + 1, -50) * ((r & 4) ? 1 : -1));
                if (r & 8)
                    d = -d;
                break;
            }
            case 1: d = bits_double(r); break; /* any double */
            default: { /* exponents from 2^-40 to 2^20: subnormal halves to overflow */
                int e = (int)((r >> 8) % 61) - 40;
                d = ldexp(1.0 + ldexp((double)(kt_random() & 0xfffffffffffff), -52), e);
                if (r & 4)
                    d = -d;
            }
            }
        }
        static const uint64_t specials[] = {
            0x7ff0000000000001, 0xfff0000000000001, 0x7ff8000000000000, 0x7ff0040000000000,
            0x7ff003ffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7fefffffffffffff,
            0x0000000000000001, 0x800fffffffffffff, 0x3e60000000000000, 0x3e60000000000001,
            0x3e5fffffffffffff, 0x3e70000000000000, 0x3e78000000000000, 0x40effc0000000000,
            0x40effe0000000000, 0x40effdffffffffff, 0xc0effe0000000001, 0x40f0000000000000,
            0x3f0ff80000000000, 0x3f0ff7ffffffffff, 0x3f10000000000000, 0x0000000000000000,
            0x8000000000000000, 0x3ff0020000000001, 0x3ff0020000000000, 0x3ff005ffffffffff};
        if (i >= 2 * 65536 && i - 2 * 65536 < sizeof specials / sizeof *specials)
            d = bits_double(specials[i - 2 * 65536]);
        double_in[i] = d;
    }
}

static void fill(void)
{
    fill_doubles();
    for (unsigned i = 0; i < COUNT; i++)
        half_in[i] = i < 65536 ? (uint16_t)i : (uint16_t)kt_random();
    for (unsigned i = 0; i < COUNT; i++) {
        uint64_t r = kt_random();
        uint16_t h = (uint16_t)(i & 0xffff);
        float f;
        if (i < 65536) { /* every half's value (NaNs with their payload) */
            f = kt_bits_float(half_to_float_ref(h));
        } else if (i < 2 * 65536) { /* every midpoint: ties */
            if ((h & 0x7fff) >= 0x7c00)
                f = kt_bits_float((uint32_t)(r >> 32)); /* random bits */
            else
                f = (float)((half_value(h) + half_value((uint16_t)(h + 1))) / 2);
        } else {
            switch (r & 3) {
            case 0: { /* a midpoint and a float ulp either side */
                uint16_t m = (uint16_t)((r >> 8) % 0x7c00);
                float mid = (float)((half_value(m) + half_value((uint16_t)(m + 1))) / 2);
                f = nextafterf(mid, (r & 4) ? INFINITY : 0.0f);
                if (r & 8)
                    f = -f;
                break;
            }
            case 1: f = kt_bits_float((uint32_t)(r >> 32)); break; /* any float */
            default: { /* exponents from 2^-40 to 2^20: subnormal halves to overflow */
                int e = (int)((r >> 8) % 61) - 40;
                f = ldexpf(1.0f + (float)((r >> 32) & 0x7fffff) * 0x1p-23f, e);
                if (r & 4)
                    f = -f;
            }
            }
        }
        if (i >= 2 * 65536 && i - 2 * 65536 < NUM_STORE_SPECIALS)
            f = kt_bits_float(store_specials[i - 2 * 65536]);
        float_in[i] = f;
    }
    for (unsigned i = 0; i < COUNT; i++) {
        want_float[i] = half_to_float_ref(half_in[i]);
        for (enum rounding r = RTE; r <= RTN; r++)
            want_half_double[r][i] = double_to_half_ref(double_in[i], r);
        for (enum rounding r = RTE; r <= RTN; r++)
            want_half[r][i] = float_to_half_ref(float_in[i], r);
    }
}

/* ---- programs ------------------------------------------------------------- */

/*
 * Width n (1: the scalar), aligned or not: S halves per element in memory
 * (4 for vloada_half3 / vstorea_half3), starting OFF halves in.
 */
struct layout {
    unsigned n, s, off;
    bool aligned;
};

/* t_store_<type>: every store of the layout's width, of values of that type. */
static void append_store_kernel(char **s, struct layout L, const char *type)
{
    char fn[32];
    kt_append(s,
              "kernel void t_store_%s(global const %s *a, global half *g, global ushort *o) {\n"
              "    size_t i = get_global_id(0), l = get_local_id(0);\n"
              "    VEC(%s) v = LOAD(i, a);\n"
              "    local ushort16 lbuf[%u];\n"
              "    ushort16 pbuf[3];\n"
              "    local ushort *lq = (local ushort *)lbuf;\n"
              "    ushort *pq = (ushort *)pbuf;\n"
              "    global ushort *gq = (global ushort *)g;\n",
              type, type, type, LOCAL + 1);
    for (unsigned m = 0; m < NUM_MODES; m++) {
        if (L.n == 1)
            snprintf(fn, sizeof fn, "vstore_half%s", modes[m]);
        else
            snprintf(fn, sizeof fn, "vstore%s_half%u%s", L.aligned ? "a" : "", L.n, modes[m]);
        kt_append(
            s,
            "    %s(v, i, (global half *)(gq + %u * SEC + OFF));\n"
            "    for (int j = 0; j < S; j++) lq[OFF + l * S + j] = %u, pq[OFF + S + j] = %u;\n"
            "    %s(v, l, (local half *)(lq + OFF));\n"
            "    %s(v, 1, (private half *)(pq + OFF));\n"
            "    for (int j = 0; j < S; j++) {\n"
            "        o[%u * SEC + i * S + j] = lq[OFF + l * S + j];\n"
            "        o[%u * SEC + i * S + j] = pq[OFF + S + j];\n"
            "    }\n",
            fn, m, SENTINEL, SENTINEL, fn, fn, 2 * m, 2 * m + 1);
    }
    kt_append(s, "}\n");
}

static char *program_source(struct layout L)
{
    char *s = NULL;
    kt_append(&s, "%s", kt_preamble());
    kt_append(&s,
              "#define S %u\n#define OFF %u\n#define SEC (get_global_size(0) * S + 16)\n"
              "kernel void t_load(global const half *g, constant half *c, global float *r) {\n"
              "    size_t i = get_global_id(0), l = get_local_id(0), n = get_global_size(0);\n"
              "    local ushort16 lbuf[%u];\n"
              "    ushort16 pbuf[3];\n"
              "    local ushort *lq = (local ushort *)lbuf;\n"
              "    ushort *pq = (ushort *)pbuf;\n"
              "    const global ushort *gq = (const global ushort *)g;\n"
              "    for (int j = 0; j < S; j++) {\n"
              "        lq[OFF + l * S + j] = gq[OFF + i * S + j];\n"
              "        pq[OFF + S + j] = gq[OFF + i * S + j];\n"
              "    }\n",
              L.s, L.off, LOCAL + 1);
    char fn[32];
    if (L.n == 1)
        snprintf(fn, sizeof fn, "vload_half");
    else
        snprintf(fn, sizeof fn, "vload%s_half%u", L.aligned ? "a" : "", L.n);
    kt_append(&s,
              "    STORE(%s(i, (const global half *)(gq + OFF)), i, r);\n"
              "    STORE(%s(i, (constant half *)((constant ushort *)c + OFF)), i + n, r);\n"
              "    STORE(%s(l, (local half *)(lq + OFF)), i + 2 * n, r);\n"
              "    STORE(%s(1, (private half *)(pq + OFF)), i + 3 * n, r);\n"
              "}\n",
              fn, fn, fn, fn);
    append_store_kernel(&s, L, "float");
    if (kt_has_extension("cl_khr_fp64")) {
        kt_append(&s, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
        append_store_kernel(&s, L, "double");
    }
    return s;
}

static const char *const load_spaces[] = {"__global", "__constant", "__local", "__private"};
static const char *const store_spaces[] = {"__global", "__local", "__private"};

static void test_loads(cl_program p, struct layout L, const char *std, unsigned *checked)
{
    size_t elems = COUNT / L.n, halves = elems * L.s + 1;
    uint16_t *in = malloc(halves * sizeof *in);
    for (size_t i = 0; i < halves; i++)
        in[i] = SENTINEL;
    for (size_t e = 0; e < COUNT; e++)
        in[L.off + e / L.n * L.s + e % L.n] = half_in[e];
    float *r = calloc(4 * (size_t)COUNT, sizeof *r);
    struct kt_arg args[] = {{.data = in, .size = halves * sizeof *in},
                            {.data = in, .size = halves * sizeof *in},
                            {.data = r, .size = 4 * (size_t)COUNT * sizeof *r}};
    size_t local = LOCAL;
    if (kt_run_local(p, "t_load", elems, &local, args, 3) != CL_SUCCESS) {
        KT_FAIL("loads (width %u, %s) did not run", L.n, std);
    } else {
        for (unsigned sp = 0; sp < 4; sp++) {
            unsigned reported = 0;
            for (size_t e = 0; e < COUNT; e++) {
                uint32_t got = kt_float_bits(r[sp * (size_t)COUNT + e]);
                uint32_t want = want_float[e];
                (*checked)++;
                if (got != want && reported++ < 3)
                    KT_FAIL("vload%s_half%u (%s, %s): half 0x%04x gives 0x%08x, want 0x%08x",
                            L.aligned ? "a" : "", L.n, load_spaces[sp], std, half_in[e], got, want);
            }
        }
    }
    free(in);
    free(r);
}

/* Stores of float_in (as float) or double_in, compared with want_half or want_half_double. */
static void test_stores(cl_program p, struct layout L, const char *std, bool dbl, unsigned *checked)
{
    const char *type = dbl ? "double" : "float";
    size_t elems = COUNT / L.n, sec = elems * L.s + 16; /* sections stay aligned */
    uint16_t *g = malloc(NUM_MODES * sec * sizeof *g);
    uint16_t *o = malloc(2 * NUM_MODES * sec * sizeof *o);
    for (size_t i = 0; i < NUM_MODES * sec; i++)
        g[i] = SENTINEL;
    memset(o, 0, 2 * NUM_MODES * sec * sizeof *o);
    struct kt_arg args[] = {{.data = dbl ? (void *)double_in : (void *)float_in,
                             .size = dbl ? sizeof double_in : sizeof float_in},
                            {.data = g, .size = NUM_MODES * sec * sizeof *g},
                            {.data = o, .size = 2 * NUM_MODES * sec * sizeof *o}};
    size_t local = LOCAL;
    char kernel[32];
    snprintf(kernel, sizeof kernel, "t_store_%s", type);
    if (kt_run_local(p, kernel, elems, &local, args, 3) != CL_SUCCESS) {
        KT_FAIL("stores of %s (width %u, %s) did not run", type, L.n, std);
        free(g);
        free(o);
        return;
    }
    for (unsigned m = 0; m < NUM_MODES; m++) {
        for (unsigned sp = 0; sp < 3; sp++) {
            /* the halves of element e in this space's copy */
            const uint16_t *mem = sp == 0 ? g + m * sec + L.off : o + (2 * m + sp - 1) * sec;
            unsigned reported = 0;
            for (size_t e = 0; e < COUNT; e++) {
                uint16_t want = (dbl ? want_half_double : want_half)[mode_rounding[m]][e];
                uint16_t got = mem[e / L.n * L.s + e % L.n];
                (*checked)++;
                if (got != want && reported++ < 3)
                    KT_FAIL("vstore%s_half%u%s (%s %s, %s): %a gives 0x%04x, want 0x%04x",
                            L.aligned ? "a" : "", L.n, modes[m], type, store_spaces[sp], std,
                            dbl ? double_in[e] : (double)float_in[e], got, want);
                if (L.s != L.n && e % L.n == 0 && mem[e / L.n * L.s + 3] != SENTINEL &&
                    reported++ < 3)
                    KT_FAIL("vstorea_half3%s (%s, %s) wrote the fourth half (0x%04x)", modes[m],
                            store_spaces[sp], std, mem[e / L.n * L.s + 3]);
            }
            if (sp == 0 && L.off && g[m * sec] != SENTINEL)
                KT_FAIL("vstore_half%u%s (%s) wrote before its address", L.n, modes[m], std);
        }
    }
    free(g);
    free(o);
}

int main(void)
{
    kt_setup();
    fill();
    cl_ulong constant_size = 0;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof constant_size,
                                &constant_size, NULL));
    if (constant_size < (COUNT / 3 * 4 + 1) * sizeof(uint16_t)) {
        fprintf(stderr, "FATAL: constant buffers of %llu bytes are too small for this test\n",
                (unsigned long long)constant_size);
        return 1;
    }
    static const char *const stds[] = {"CL1.2", "CL3.0"};
    unsigned loads = 0, stores = 0, double_stores = 0;
    for (size_t sd = 0; sd < 2; sd++) {
        for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
            for (int aligned = 0; aligned < 2; aligned++) {
                unsigned n = kt_widths[w];
                if (aligned && n == 1)
                    continue; /* there is no vloada_half / vstorea_half */
                struct layout L = {n, aligned && n == 3 ? 4 : n, aligned ? 0 : 1, aligned};
                char *source = program_source(L);
                char options[64];
                snprintf(options, sizeof options, "-cl-std=%s -DN=%u", stds[sd], n);
                cl_program p = kt_build(source, options);
                test_loads(p, L, stds[sd], &loads);
                test_stores(p, L, stds[sd], false, &stores);
                if (kt_has_extension("cl_khr_fp64"))
                    test_stores(p, L, stds[sd], true, &double_stores);
                clReleaseProgram(p);
                free(source);
            }
        }
    }
    printf("generic address space: %s\n",
           kt_has_feature("__opencl_c_generic_address_space")
               ? "offered, the OpenCL C 3.0 programs called the generic overloads"
               : "not offered, both builds called the named overloads");
    printf("%u loads, %u stores of floats and %u of doubles (5 rounding suffixes) compared "
           "exactly\n",
           loads, stores, double_stores);
    return kt_teardown();
}
