/* SPDX-License-Identifier: MIT */
/*
 * The float math built-ins with integer arguments or results and those with
 * an output pointer (frexp, ilogb, ldexp with intn and int exponents, fract,
 * modf, sincos, lgamma_r, remquo, pown, rootn) at every width, against
 * references computed on the host in C: the worst error in ulp per function
 * is printed and checked against the bound of the OpenCL C 3.0 specification
 * (7.4, full profile), integer results exactly.
 *
 * Each pointer function writes through a pointer to __global, __local and
 * __private memory. The programs are built as OpenCL C 1.2, which calls the
 * overloads of the named address spaces, and as 3.0, which calls the
 * generic overloads when the device has the generic address space.
 */
#include "kt_math.h"

#include <limits.h>

enum { COUNT = 16 * 3 * 512, LOCAL = 16 };

/* The functions: what the kernel computes and how the host checks it. */
enum out { F_OUT, I_OUT }; /* type of the second result */
struct fn {
    const char *name;
    const char *call; /* OpenCL C expression of x, y, k (and P: the output pointer) */
    bool pointer;     /* writes a second result through P */
    enum out out;     /* its type, when there is one */
    bool int_result;  /* the result is an int (ilogb) */
    double ulp;       /* bound of the first result */
    double ulp2;      /* bound of a float second result */
};
static const struct fn fns[] = {
    {"frexp", "frexp(x, P)", true, I_OUT, false, 0, 0},
    {"fract", "fract(x, P)", true, F_OUT, false, 0, 0},
    {"modf", "modf(x, P)", true, F_OUT, false, 0, 0},
    {"sincos", "sincos(x, P)", true, F_OUT, false, 4, 4},
    {"lgamma_r", "lgamma_r(x, P)", true, I_OUT, false, INFINITY, 0}, /* no bound */
    {"remquo", "remquo(x, y, P)", true, I_OUT, false, 0, 0},
    {"ilogb", "ilogb(x)", false, I_OUT, true, 0, 0},
    {"ldexp", "ldexp(x, k)", false, F_OUT, false, 0, 0},
    {"ldexp_int", "ldexp(x, kk[i * N])", false, F_OUT, false, 0, 0}, /* ldexp(floatn, int) */
    {"pown", "pown(x, k)", false, F_OUT, false, 16, 0},
    {"rootn", "rootn(x, k)", false, F_OUT, false, 16, 0},
};
#define NUM_FNS (sizeof fns / sizeof *fns)
enum { FREXP, FRACT, MODF, SINCOS, LGAMMA_R, REMQUO, ILOGB, LDEXP, LDEXP_INT, POWN, ROOTN };

/* Memory the pointer of a pointer function points to, in the order of the outputs. */
static const char *const spaces[] = {"__global", "__local", "__private"};
enum { NUM_SPACES = 3 };

/*
 * One kernel per function. x, y, k are element i of a, b, kk; the first
 * result goes to r, the second to o, once per address space (section s of
 * each output at s * COUNT). ldexp_int passes the first k of the vector.
 */
static char *program_source(void)
{
    char *s = NULL;
    kt_append(&s, "%s", kt_preamble());
    for (size_t f = 0; f < NUM_FNS; f++) {
        const struct fn *fn = &fns[f];
        const char *ot = fn->out == I_OUT ? "int" : "float";
        const char *call = fn->call;
        kt_append(&s,
                  "kernel void t_%s(global const float *a, global const float *b,\n"
                  "                 global const int *kk, global float *r, global %s *o,\n"
                  "                 global VEC(%s) *scratch) {\n"
                  "    size_t i = get_global_id(0), l = get_local_id(0), n = get_global_size(0);\n"
                  "    VEC(float) x = LOAD(i, a), y = LOAD(i, b);\n"
                  "    VEC(int) k = LOAD(i, kk);\n"
                  "    (void)y; (void)k; (void)scratch; (void)l; (void)n;\n",
                  fn->name, ot, ot);
        if (!fn->pointer) {
            kt_append(&s, "    STORE(%s, i, %s);\n", call, fn->int_result ? "o" : "r");
            if (f == ILOGB) /* the device's constants, for the reference */
                kt_append(&s, "    if (i == 0) { o[2 * COUNT] = FP_ILOGB0; "
                              "o[2 * COUNT + 1] = FP_ILOGBNAN; }\n");
        } else {
            kt_append(&s, "    local VEC(%s) loc[%d];\n    VEC(%s) priv;\n", ot, LOCAL, ot);
            const char *ptr[NUM_SPACES] = {"&scratch[i]", "&loc[l]", "&priv"};
            const char *val[NUM_SPACES] = {"scratch[i]", "loc[l]", "priv"};
            for (unsigned sp = 0; sp < NUM_SPACES; sp++) {
                char *c = NULL;
                /* P replaced by the pointer */
                for (const char *p = call; *p; p++)
                    if (*p == 'P')
                        kt_append(&c, "%s", ptr[sp]);
                    else
                        kt_append(&c, "%c", *p);
                kt_append(&s, "    /* %s */\n    STORE(%s, i + %u * n, r);\n", spaces[sp], c, sp);
                kt_append(&s, "    STORE(%s, i + %u * n, o);\n", val[sp], sp);
                free(c);
            }
        }
        kt_append(&s, "}\n");
    }
    return s;
}

/* ---- host references ---------------------------------------------------- */

static float frexp_ref(float x, int *e)
{
    *e = 0;
    if (x == 0 || !isfinite(x))
        return x;
    return frexpf(x, e);
}

static int ilogb_ref(float x, int ilogb0, int ilogbnan)
{
    if (isnan(x))
        return ilogbnan;
    if (x == 0)
        return ilogb0;
    if (isinf(x))
        return INT_MAX;
    int e;
    frexpl(x, &e);
    return e - 1;
}

static float ldexp_ref(float x, int k)
{
    if (x == 0 || !isfinite(x))
        return x;
    if (k > 1000)
        k = 1000;
    if (k < -1000)
        k = -1000;
    return (float)ldexpl(x, k); /* exact in long double, rounded once */
}

/* fmin(x - floor(x), 0x1.fffffep-1f); zeros and infinities give zeros of their sign. */
static float fract_ref(float x, float *ip)
{
    if (isnan(x)) {
        *ip = x;
        return x;
    }
    *ip = floorf(x);
    if (isinf(x))
        return copysignf(0.0f, x);
    if (x == 0)
        return x;
    float f = (float)((long double)x - floorf(x));
    return fminf(f, 0x1.fffffep-1f);
}

/*
 * remquo by integer arithmetic on the significands: |x| = mx 2^ex,
 * |y| = my 2^ey. The quotient's low bits come from mx 2^(ex-ey) modulo
 * 256 my (doubling modulo that), the remainder from the rest. *quo gets
 * the low seven bits of the quotient with the sign of x/y.
 */
static float remquo_ref(float x, float y, int *quo)
{
    *quo = 0;
    if (isnan(x) || isnan(y) || isinf(x) || y == 0)
        return NAN;
    if (isinf(y))
        return x;
    int ex, ey;
    uint64_t mx = (uint64_t)ldexpf(frexpf(fabsf(x), &ex), 24), my;
    my = (uint64_t)ldexpf(frexpf(fabsf(y), &ey), 24);
    if (x == 0)
        return x;
    uint64_t q, rem, d;
    int scale; /* the remainder is rem 2^scale */
    if (ex >= ey) {
        uint64_t mod = 256 * my, t = mx % mod;
        for (int i = 0; i < ex - ey; i++)
            t = (2 * t) % mod;
        q = t / my;
        rem = t % my;
        d = my;
        scale = ey - 24;
    } else if (ey - ex <= 36) {
        d = my << (ey - ex);
        q = mx / d;
        rem = mx % d;
        scale = ex - 24;
    } else { /* |x| < 2^-12 |y|: quotient 0 */
        return x;
    }
    if (2 * rem > d || (2 * rem == d && (q & 1))) {
        q++;
        rem = d - rem;
        /* the remainder is negative: r = -(d - rem) */
        float r = (float)ldexpl(-(long double)rem, scale);
        *quo = (int)(q & 127) * ((!signbit(x) != !signbit(y)) ? -1 : 1);
        return signbit(x) ? -r : r;
    }
    float r = (float)ldexpl((long double)rem, scale);
    *quo = (int)(q & 127) * ((!signbit(x) != !signbit(y)) ? -1 : 1);
    return signbit(x) ? -r : r;
}

static long double pown_ref(float x, int k)
{
    if (k == 0)
        return 1;
    return powl(x, k);
}

static long double rootn_ref(float x, int k)
{
    bool odd = k & 1;
    if (k == 0 || isnan(x) || (x < 0 && !odd))
        return NAN;
    long double sign = odd && signbit(x) ? -1 : 1;
    if (x == 0)
        return k > 0 ? sign * 0.0L : sign * (long double)INFINITY;
    if (isinf(x))
        return k > 0 ? sign * (long double)INFINITY : sign * 0.0L;
    return sign * exp2l(log2l(fabsl(x)) / k);
}

/* The error in ulp of `got`; a zero of the wrong sign is as bad as a wrong infinity. */
static double ulp_error(float got, long double want)
{
    return kt_ulp_error_float(got, want, true);
}

/* ---- inputs --------------------------------------------------------------- */

static const float specials[] = {0.0f,
                                 -0.0f,
                                 1.0f,
                                 -1.0f,
                                 0.5f,
                                 -0.5f,
                                 2.0f,
                                 -2.0f,
                                 3.0f,
                                 -3.0f,
                                 0x1p-149f,
                                 -0x1p-149f,
                                 0x1p-127f,
                                 -0x1.8p-130f,
                                 0x1p-126f,
                                 -0x1p-126f,
                                 0x1.fffffep127f,
                                 -0x1.fffffep127f,
                                 INFINITY,
                                 -INFINITY,
                                 NAN,
                                 1.5f,
                                 -2.5f,
                                 3.14159265f,
                                 100.0f,
                                 -103.0f,
                                 1e-10f,
                                 1e10f,
                                 0.1f,
                                 0x1.fffffep-1f,
                                 0x1.000002p0f,
                                 -0x1.fffffep-1f,
                                 7.0f,
                                 -0.75f,
                                 65504.0f};
#define NUM_SPECIALS (sizeof specials / sizeof *specials)
static const int special_ints[] = {
    0,    1,    -1,    2,       -2,      3,         -3,         4,         5,         7,
    -8,   24,   127,   128,     -126,    -149,      -150,       149,       150,       254,
    -277, 1000, -1000, INT_MAX, INT_MIN, 0x1000001, -0x1000001, 0x7fffff1, -0x7ffffff};
#define NUM_SPECIAL_INTS (sizeof special_ints / sizeof *special_ints)

/* Half random bit patterns, half moderate values. */
static float random_float(void)
{
    uint64_t r = kt_random();
    if (r & 1)
        return kt_bits_float((uint32_t)(r >> 32));
    return (float)((double)(int32_t)(r >> 32) / 2147483648.0 * 64.0);
}

static int random_int(unsigned f)
{
    uint64_t r = kt_random();
    int32_t big = (int32_t)(r >> 32);
    switch (f) {
    case LDEXP:
    case LDEXP_INT: return (r & 7) == 0 ? big : (int)((r >> 8) % 601) - 300;
    case POWN: return (r & 3) == 0 ? big : (int)((r >> 8) % 81) - 40;
    case ROOTN: return (r & 7) == 0 ? big : (int)((r >> 8) % 41) - 20;
    default: return big;
    }
}

/* x, y, k for function f: the special values crossed first, then random ones. */
static void fill(unsigned f, float *a, float *b, int *k)
{
    for (unsigned i = 0; i < COUNT; i++) {
        if (i < NUM_SPECIALS * NUM_SPECIALS) {
            a[i] = specials[i % NUM_SPECIALS];
            b[i] = specials[i / NUM_SPECIALS];
            k[i] = special_ints[(i / NUM_SPECIALS) % NUM_SPECIAL_INTS];
            continue;
        }
        a[i] = random_float();
        b[i] = random_float();
        k[i] = random_int(f);
        uint64_t r = kt_random();
        if (f == REMQUO && (r & 3) == 0) /* moderate quotients, every quo bit */
            b[i] =
                a[i] / (float)((r >> 8) % 1000 + 1) * (1.0f + (float)((r >> 20) & 0xff) * 0x1p-9f);
        if (f == POWN && (r & 3) == 0) {
            /* a few ulp from 1 with k up to 2^31 and x^k = e^t, |t| < 88: finite results */
            float j = (float)((r >> 4) % 32 + 1);
            a[i] = (r & 4) ? 1.0f + j * 0x1p-23f : 1.0f - j * 0x1p-24f;
            double t = (double)(int32_t)(r >> 32) / 2147483648.0 * 88.0;
            k[i] = (int)fmax(fmin(t / log((double)a[i]), 2147483647.0), -2147483647.0);
        }
        if (f == ROOTN && (r & 3) == 0) /* near 1 */
            a[i] = 1.0f + (float)(int32_t)(r >> 32) * 0x1p-45f;
        if (f == ROOTN && (r & 3) == 2) { /* extreme x, small k: log x / k is large */
            uint32_t sel = (uint32_t)(r >> 6) % 3, e = (uint32_t)(r >> 9) % 4;
            uint32_t exponent = sel == 0 ? 251 + e : sel == 1 ? 1 + e : 0; /* 0: subnormal */
            a[i] = kt_bits_float(((uint32_t)(r >> 32) & 0x807fffffu) | exponent << 23);
            k[i] = (int)((r >> 8) % 11) + 2;
            if (r & 64)
                k[i] = -k[i];
        }
        if (f == ROOTN && (r & 3) == 1) /* x = y^k exactly representable, or nearly */
            a[i] = (float)pown_ref(b[i] == 0 ? 1.5f : fmodf(b[i], 8.0f), k[i] % 9 ? k[i] % 9 : 3);
    }
}

/* ---- the run ------------------------------------------------------------ */

struct worst {
    double ulp, ulp2;
    bool int_wrong;
};

static void check(unsigned f, unsigned n, const char *std, unsigned space, const float *a,
                  const float *b, const int *kk, const float *r, const void *o, int ilogb0,
                  int ilogbnan, struct worst *w)
{
    const struct fn *fn = &fns[f];
    const float *of = o;
    const int *oi = o;
    unsigned reported = 0;
    for (unsigned i = 0; i < COUNT; i++) {
        float x = a[i], y = b[i];
        int k = f == LDEXP_INT ? kk[i / n * n] : kk[i];
        long double want = 0;
        long double want2 = 0; /* float second result */
        int iwant = 0;         /* int second result */
        bool icheck = fn->out == I_OUT && (fn->pointer || fn->int_result);
        switch (f) {
        case FREXP: want = frexp_ref(x, &iwant); break;
        case FRACT: {
            float ip;
            want = fract_ref(x, &ip);
            want2 = ip;
            break;
        }
        case MODF: {
            float ip;
            want = modff(x, &ip);
            want2 = ip;
            break;
        }
        case SINCOS:
            want = sinl(x);
            want2 = cosl(x);
            break;
        case LGAMMA_R: {
            bool defined;
            want = lgammal(x);
            iwant = kt_gamma_sign(x, &defined);
            icheck = defined;
            break;
        }
        case REMQUO: {
            want = remquo_ref(x, y, &iwant);
            icheck = !(isnan(x) || isnan(y) || isinf(x) || y == 0);
            break;
        }
        case ILOGB: iwant = ilogb_ref(x, ilogb0, ilogbnan); break;
        case LDEXP:
        case LDEXP_INT: want = ldexp_ref(x, k); break;
        case POWN: want = pown_ref(x, k); break;
        case ROOTN: want = rootn_ref(x, k); break;
        }
        if (!fn->int_result) {
            double err = ulp_error(r[i], want);
            /* lgamma has no bound, but its special values must be right */
            bool bad = isinf(fn->ulp) ? isinf(err) : err > fn->ulp;
            if (!isinf(err) && err > w->ulp)
                w->ulp = err;
            if (isinf(err) && !isinf(fn->ulp))
                w->ulp = INFINITY;
            if (bad && reported++ < 3)
                KT_FAIL("%s width %u %s %s: f(%a, %a, %d) = %a, want %La (%.1f ulp > %.0f)",
                        fn->name, n, std, spaces[space], x, y, k, r[i], want, err, fn->ulp);
        }
        if (fn->pointer && fn->out == F_OUT) {
            double err = ulp_error(of[i], want2);
            if (err > w->ulp2)
                w->ulp2 = err;
            if (err > fn->ulp2 && reported++ < 3)
                KT_FAIL("%s width %u %s %s: second result of f(%a) = %a, want %La (%.1f ulp)",
                        fn->name, n, std, spaces[space], x, of[i], want2, err);
        }
        if (icheck) {
            int got = oi[i];
            bool ok = got == iwant;
            if (f == REMQUO) /* the low seven bits and the sign of x/y */
                ok = (abs(got) & 127) == abs(iwant) &&
                     (got == 0 || (got < 0) == (!signbit(x) != !signbit(y)));
            if (!ok) {
                w->int_wrong = true;
                if (reported++ < 3)
                    KT_FAIL("%s width %u %s %s: f(%a, %a) gives %d, want %d", fn->name, n, std,
                            spaces[space], x, y, got, iwant);
            }
        }
    }
}

int main(void)
{
    kt_setup();
    static float a[COUNT], b[COUNT], r[NUM_SPACES * COUNT];
    static int k[COUNT];
    static int o[NUM_SPACES * COUNT]; /* int or float second results */
    static float scratch[4 * COUNT];  /* VEC(T) per work-item: 16 bytes for 3 */
    struct worst worst[NUM_FNS] = {0};
    char *source = program_source();
    static const char *const stds[] = {"CL1.2", "CL3.0"};
    bool generic = kt_has_feature("__opencl_c_generic_address_space");
    for (size_t sd = 0; sd < 2; sd++) {
        for (size_t wi = 0; wi < KT_NUM_WIDTHS; wi++) {
            unsigned n = kt_widths[wi];
            char options[64];
            snprintf(options, sizeof options, "-cl-std=%s -DN=%u -DCOUNT=%u", stds[sd], n,
                     (unsigned)COUNT);
            cl_program p = kt_build(source, options);
            for (unsigned f = 0; f < NUM_FNS; f++) {
                if (f == LDEXP_INT && n == 1)
                    continue; /* the same function as ldexp */
                fill(f, a, b, k);
                memset(r, 0, sizeof r);
                memset(o, 0, sizeof o);
                struct kt_arg args[] = {
                    {.data = a, .size = sizeof a}, {.data = b, .size = sizeof b},
                    {.data = k, .size = sizeof k}, {.data = r, .size = sizeof r},
                    {.data = o, .size = sizeof o}, {.data = scratch, .size = sizeof scratch}};
                char kname[64];
                snprintf(kname, sizeof kname, "t_%s", fns[f].name);
                size_t local = LOCAL;
                if (kt_run_local(p, kname, COUNT / n, &local, args, 6) != CL_SUCCESS) {
                    KT_FAIL("%s (width %u, %s) did not run", fns[f].name, n, stds[sd]);
                    continue;
                }
                int ilogb0 = 0, ilogbnan = 0;
                if (f == ILOGB) {
                    ilogb0 = o[2 * COUNT];
                    ilogbnan = o[2 * COUNT + 1];
                    if (ilogb0 != INT_MIN && ilogb0 != -INT_MAX)
                        KT_FAIL("FP_ILOGB0 is %d", ilogb0);
                    if (ilogbnan != INT_MIN && ilogbnan != INT_MAX)
                        KT_FAIL("FP_ILOGBNAN is %d", ilogbnan);
                }
                unsigned num_spaces = fns[f].pointer ? NUM_SPACES : 1;
                for (unsigned s = 0; s < num_spaces; s++)
                    check(f, n, stds[sd], s, a, b, k, r + s * COUNT, o + s * COUNT, ilogb0,
                          ilogbnan, &worst[f]);
            }
            clReleaseProgram(p);
        }
    }
    free(source);
    printf("generic address space: %s\n",
           generic ? "offered, the OpenCL C 3.0 programs called the generic overloads"
                   : "not offered, both builds called the named overloads");
    printf("%-10s %10s %8s %12s %8s %s\n", "function", "worst ulp", "bound", "2nd result", "bound",
           "int result");
    for (size_t f = 0; f < NUM_FNS; f++) {
        const struct fn *fn = &fns[f];
        char second[32] = "-", bound2[16] = "-";
        if (fn->pointer && fn->out == F_OUT) {
            snprintf(second, sizeof second, "%.3f", worst[f].ulp2);
            snprintf(bound2, sizeof bound2, "%.1f", fn->ulp2);
        }
        char first[32] = "-", bound[16] = "-";
        if (!fn->int_result) {
            snprintf(first, sizeof first, "%.3f", worst[f].ulp);
            snprintf(bound, sizeof bound, isinf(fn->ulp) ? "none" : "%.1f", fn->ulp);
        }
        const char *ints = fn->out == I_OUT && (fn->pointer || fn->int_result)
                               ? (worst[f].int_wrong ? "WRONG" : "exact")
                               : "-";
        printf("%-10s %10s %8s %12s %8s %s\n", fn->name, first, bound, second, bound2, ints);
    }
    return kt_teardown();
}
