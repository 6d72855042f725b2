/* SPDX-License-Identifier: MIT */
/*
 * The API-sequence fuzzer: random OpenCL calls straight into liblanes.so
 * through its dispatch table (a loader would read every handle itself
 * first), with live, released, mistyped and garbage handles, extreme sizes,
 * origins, pitches, flags and parameter names, random wait lists, callbacks
 * and releases. A call must return, with CL_SUCCESS or one of the
 * specification's error codes; a crash, a hang or any other value is a
 * finding.
 *
 *   api_fuzz LIBLANES.so [--seed S] [--calls N] [--seconds S] [--trace]
 *
 * The fuzzer only makes calls whose behaviour the specification defines
 * for any argument Lanes can check. It never passes what no driver can
 * check: host pointers to less memory than a call is told to read or write
 * (all host memory is one arena, and a call that would reach past it is
 * skipped), a wait on a user event nobody will set (every user event is
 * set before a blocking call), kernels that write out of bounds (the
 * kernels write one byte through a pointer they test first), valid
 * NDRanges of billions of work-items (slow, not wrong: skipped), and SVM
 * pointers that were freed.
 *
 * On a crash the signal handler prints the seed and the last calls made;
 * --trace prints every call before it is made. Replaying a seed makes the
 * same choices as long as the calls return the same results.
 */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum kind { CONTEXT, QUEUE, MEM, PROGRAM, KERNEL, EVENT, SAMPLER, KINDS };

#define LIVE_MAX 24
#define DEAD_MAX 64
#define ARENA (4u << 20)

static const cl_icd_dispatch *t;
static cl_platform_id platform;
static cl_device_id device;
static size_t max_alloc;

/* Handles the fuzzer holds (one reference each) and handles it released. */
static struct {
    void *live[LIVE_MAX];
    unsigned n_live;
    void *dead[DEAD_MAX];
    unsigned n_dead;
} pool[KINDS];

static unsigned char *arena;  /* all host memory handed to Lanes */
static void *unreadable;      /* a page that faults on any access */
static void *scribble;        /* readable memory full of pointers to itself */
static cl_context ctx0;       /* a context the fuzzer never releases before the end */
static void *svm_fixed;       /* an SVM allocation in it that lives until the end */
static void *svm[8];          /* SVM allocations the fuzzer frees at random */
static void *mapped[16];      /* pointers returned by maps */
static cl_mem mapped_mem[16]; /* and their memory objects */
static cl_command_queue mapped_queue[16];

static uint64_t rng_state;
static uint64_t calls, successes, kernels_run, errors_seen[80], skipped;
static bool trace;
static bool spirv; /* LANES_SPIRV is set: SPIR-V programs too (f_il) */

/* splitmix64 */
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
    return n ? (unsigned)(rnd() % n) : 0;
}

static bool chance(unsigned percent)
{
    return below(100) < percent;
}

/* The last calls, for the crash report. */
#define RING 32
static const char *ring[RING];
static uint64_t ring_seed;

static void crash_handler(int sig)
{
    char buf[160];
    int n = snprintf(buf, sizeof buf,
                     "api_fuzz: signal %d after %" PRIu64 " calls (seed %" PRIu64
                     "); last calls, oldest first:\n",
                     sig, calls, ring_seed);
    if (write(2, buf, (size_t)n) < 0)
        _exit(128 + sig);
    for (uint64_t i = calls > RING ? calls - RING : 0; i < calls; i++) {
        const char *s = ring[i % RING];
        if (s && (write(2, "  ", 2) < 0 || write(2, s, strlen(s)) < 0 || write(2, "\n", 1) < 0))
            break;
    }
    _exit(128 + sig);
}

/* Checks that `err` is CL_SUCCESS or an error code of the specification. */
static void check(const char *call, cl_int err)
{
    bool known = err <= 0 && (err >= -72 || (err <= -1000 && err >= -1150));
    if (!known) {
        fprintf(stderr, "api_fuzz: %s returned %d, no OpenCL error code (seed %" PRIu64 ")\n", call,
                err, ring_seed);
        exit(1);
    }
    if (err == CL_SUCCESS)
        successes++;
    else if (-err < 80)
        errors_seen[-err]++;
}

static void begin(const char *call)
{
    ring[calls % RING] = call;
    calls++;
    if (trace)
        fprintf(stderr, "%" PRIu64 " %s\n", calls, call);
}

/* ---- Choosing arguments -------------------------------------------------- */

static void *garbage(void)
{
    static int on_data;
    switch (below(7)) {
    case 0: return NULL;
    case 1: return (void *)(uintptr_t)1;
    case 2: return (void *)(uintptr_t)-1;
    case 3: return unreadable;
    case 4: return scribble;
    case 5: return &on_data;
    default: return arena + below(ARENA);
    }
}

/* A handle for a `k` argument: mostly a live one, else released, mistyped or garbage. */
static void *handle(enum kind k)
{
    unsigned r = below(100);
    if (r < 75 && pool[k].n_live)
        return pool[k].live[below(pool[k].n_live)];
    if (r < 85 && pool[k].n_dead)
        return pool[k].dead[below(pool[k].n_dead)];
    if (r < 93) {
        enum kind other = (enum kind)below(KINDS);
        if (pool[other].n_live)
            return pool[other].live[below(pool[other].n_live)];
    }
    return garbage();
}

static void release_kind(enum kind k, void *h);

static void *live(enum kind k)
{
    return pool[k].n_live ? pool[k].live[below(pool[k].n_live)] : NULL;
}

static void keep(enum kind k, void *h)
{
    if (!h)
        return;
    if (pool[k].n_live == LIVE_MAX) {
        /* Full: release the oldest to make room. */
        void *old = pool[k].live[0];
        memmove(pool[k].live, pool[k].live + 1, (LIVE_MAX - 1) * sizeof(void *));
        pool[k].n_live--;
        release_kind(k, old);
    }
    pool[k].live[pool[k].n_live++] = h;
}

static void forget(enum kind k, void *h)
{
    for (unsigned i = 0; i < pool[k].n_live; i++)
        if (pool[k].live[i] == h) {
            pool[k].live[i] = pool[k].live[--pool[k].n_live];
            if (pool[k].n_dead == DEAD_MAX)
                pool[k].n_dead--;
            memmove(pool[k].dead + 1, pool[k].dead, pool[k].n_dead * sizeof(void *));
            pool[k].dead[0] = h;
            pool[k].n_dead++;
            return;
        }
}

/* Sizes: the edges of every range a size is checked against. */
static size_t size(void)
{
    static const size_t edge[] = {0,
                                  1,
                                  2,
                                  3,
                                  4,
                                  7,
                                  8,
                                  16,
                                  63,
                                  64,
                                  100,
                                  128,
                                  256,
                                  1000,
                                  4096,
                                  65536,
                                  ARENA,
                                  (size_t)1 << 31,
                                  (size_t)1 << 32,
                                  (size_t)1 << 40,
                                  (size_t)1 << 62,
                                  SIZE_MAX / 2 + 1,
                                  SIZE_MAX - 7,
                                  SIZE_MAX};
    unsigned r = below(100);
    if (r < 60)
        return edge[below(sizeof edge / sizeof *edge)];
    if (r < 85)
        return below(257);
    return below(ARENA);
}

/* A size for host memory: never past the arena. */
static size_t host_size(void)
{
    size_t s = size();
    return s > ARENA ? ARENA : s;
}

static cl_ulong flags(void)
{
    static const cl_ulong bit[] = {CL_MEM_READ_WRITE,      CL_MEM_WRITE_ONLY,
                                   CL_MEM_READ_ONLY,       CL_MEM_USE_HOST_PTR,
                                   CL_MEM_ALLOC_HOST_PTR,  CL_MEM_COPY_HOST_PTR,
                                   CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                   CL_MEM_HOST_NO_ACCESS,  CL_MEM_KERNEL_READ_AND_WRITE,
                                   (cl_ulong)1 << 40};
    cl_ulong f = 0;
    unsigned n = below(4);
    for (unsigned i = 0; i < n; i++)
        f |= bit[below(sizeof bit / sizeof *bit)];
    return chance(3) ? rnd() : f;
}

/* A wait list: live, released and foreign events, sometimes garbage. */
static cl_event wait_list[8];
static cl_uint waits(const cl_event **list)
{
    cl_uint n = below(100) < 60 ? 0 : below(9);
    for (cl_uint i = 0; i < n; i++)
        wait_list[i] = handle(EVENT);
    *list = chance(5) ? NULL : wait_list;
    return n;
}

static cl_event out_event;
static cl_event *want_event(void)
{
    out_event = NULL;
    return chance(50) ? &out_event : NULL;
}

static void took_event(cl_int err)
{
    if (err == CL_SUCCESS && out_event)
        keep(EVENT, out_event);
}

/* ---- Releases and blocking ----------------------------------------------- */

static cl_int release_any(enum kind k, void *h)
{
    switch (k) {
    case CONTEXT: return t->clReleaseContext(h);
    case QUEUE: return t->clReleaseCommandQueue(h);
    case MEM: return t->clReleaseMemObject(h);
    case PROGRAM: return t->clReleaseProgram(h);
    case KERNEL: return t->clReleaseKernel(h);
    case EVENT: return t->clReleaseEvent(h);
    default: return t->clReleaseSampler(h);
    }
}

static void release_kind(enum kind k, void *h)
{
    check("release", release_any(k, h));
}

/* User events the fuzzer created and has not set. */
static cl_event unset[LIVE_MAX];
static unsigned n_unset;

/* Sets every user event, so nothing a blocking call waits for stays blocked. */
static void set_user_events(void)
{
    for (unsigned i = 0; i < n_unset; i++) {
        check("clSetUserEventStatus",
              t->clSetUserEventStatus(unset[i], chance(80) ? CL_COMPLETE : -5));
        check("clReleaseEvent(user)", t->clReleaseEvent(unset[i]));
    }
    n_unset = 0;
}

/* ---- Callbacks ------------------------------------------------------------- */

static volatile int callbacks_ran;
static void CL_CALLBACK on_event(cl_event e, cl_int s, void *p)
{
    (void)e, (void)s, (void)p;
    __atomic_add_fetch(&callbacks_ran, 1, __ATOMIC_RELAXED);
}
static void CL_CALLBACK on_program(cl_program p, void *d)
{
    (void)p, (void)d;
    __atomic_add_fetch(&callbacks_ran, 1, __ATOMIC_RELAXED);
}
static void CL_CALLBACK on_mem(cl_mem m, void *d)
{
    (void)m, (void)d;
    __atomic_add_fetch(&callbacks_ran, 1, __ATOMIC_RELAXED);
}
static void CL_CALLBACK on_context(const char *s, const void *i, size_t n, void *d)
{
    (void)s, (void)i, (void)n, (void)d;
}
static void CL_CALLBACK on_native(void *args)
{
    (void)args;
    __atomic_add_fetch(&callbacks_ran, 1, __ATOMIC_RELAXED);
}

/* ---- The calls ------------------------------------------------------------ */

/* Kernels that write one byte through a pointer they test first. */
static const char *const source[] = {
    "kernel void a(global char *x, int n) { if (x && get_global_id(0) == 0 && n > 0) x[0] = "
    "(char)n; }\n"
    "kernel void b(global char *x, local char *l) {\n"
    "  if (get_local_id(0) == 0) l[0] = 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (x && get_global_id(0) == 0) x[0] = l[0]; }\n"
    "kernel void c(sampler_t s, global char *x) {\n"
    "  if (x && get_global_id(0) == 0) x[0] = 2; }\n"
    "kernel void d(global char *x) {\n"
    "  int s = sub_group_reduce_add((int)get_sub_group_local_id());\n"
    "  if (x && get_global_id(0) == 0) x[0] = (char)s; }\n"
    "kernel void e(global char *x, constant char *y, float f, long4 v) {\n"
    "  if (x && y && get_global_id(0) == 0) x[0] = y[0] + (char)f + (char)v.w; }\n",
    "kernel void f(global char *x) { if (x && get_global_id(0) == 0) x[0] = 1; }\n",
    "kernel void g(global char *x) { x[0] = undefined_function(); }\n", /* fails to build */
    "#include \"nowhere.h\"\n",
    "kernel void h(global char *x, int n) { for (int i = 0; i < n && i < 64; i++)\n"
    "  if (x && get_global_id(0) == 0) x[0] += (char)i; }\n",
};
static const char *const kernel_names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "", "zz"};

static const char *options(void)
{
    static const char *const opt[] = {NULL,
                                      "",
                                      "-cl-std=CL3.0",
                                      "-cl-std=CL1.2",
                                      "-cl-fast-relaxed-math",
                                      "-cl-opt-disable",
                                      "-Werror",
                                      "-w",
                                      "-D N=3",
                                      "-cl-std=CL9.9",
                                      "--garbage",
                                      "-cl-kernel-arg-info",
                                      "-I /nonexistent",
                                      "-cl-denorms-are-zero -cl-mad-enable",
                                      "-x c++"};
    return opt[below(sizeof opt / sizeof *opt)];
}

static void f_context(void)
{
    begin("clCreateContext");
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context_properties bad[] = {(cl_context_properties)rnd(), (cl_context_properties)rnd(), 0};
    cl_device_id devs[3] = {device, chance(80) ? device : handle(QUEUE), device};
    cl_int err = 1;
    cl_context c =
        t->clCreateContext(chance(70)   ? NULL
                           : chance(70) ? props
                                        : bad,
                           chance(95) ? 1 + below(3) : 0, chance(97) ? devs : NULL,
                           chance(50) ? on_context : NULL, NULL, chance(90) ? &err : NULL);
    if (c)
        keep(CONTEXT, c);
    if (err != 1)
        check("clCreateContext", err);
}

static void f_queue(void)
{
    begin("clCreateCommandQueueWithProperties");
    cl_queue_properties props[7] = {0};
    unsigned n = 0;
    if (chance(60)) {
        props[n++] = CL_QUEUE_PROPERTIES;
        props[n++] = below(4) == 0 ? rnd() : (cl_queue_properties)below(4);
    }
    if (chance(10)) {
        props[n++] = chance(50) ? CL_QUEUE_SIZE : (cl_queue_properties)rnd();
        props[n++] = size();
    }
    cl_int err;
    cl_command_queue q = t->clCreateCommandQueueWithProperties(
        handle(CONTEXT), chance(95) ? device : handle(MEM), chance(90) ? props : NULL, &err);
    check("clCreateCommandQueueWithProperties", err);
    if (q)
        keep(QUEUE, q);
}

static void f_buffer(void)
{
    begin("clCreateBuffer");
    size_t s = size();
    if (s > ARENA && s <= max_alloc)
        s = ARENA; /* valid, only big */
    cl_int err;
    cl_mem m = t->clCreateBuffer(handle(CONTEXT), flags(), s,
                                 chance(70) || s > ARENA ? NULL : arena, &err);
    check("clCreateBuffer", err);
    if (m) {
        keep(MEM, m);
        if (chance(20))
            check("clSetMemObjectDestructorCallback",
                  t->clSetMemObjectDestructorCallback(m, on_mem, NULL));
    }
}

static void f_sub_buffer(void)
{
    begin("clCreateSubBuffer");
    cl_buffer_region r = {size(), size()};
    cl_int err;
    cl_mem m = t->clCreateSubBuffer(handle(MEM), chance(70) ? 0 : flags(),
                                    chance(95) ? CL_BUFFER_CREATE_TYPE_REGION : (cl_uint)rnd(),
                                    chance(95) ? &r : NULL, &err);
    check("clCreateSubBuffer", err);
    if (m)
        keep(MEM, m);
}

static void f_image(void)
{
    begin("clCreateImage");
    static const cl_channel_order orders[] = {CL_R,     CL_RG,        CL_RGBA,      CL_BGRA,
                                              CL_A,     CL_INTENSITY, CL_LUMINANCE, CL_sRGBA,
                                              CL_DEPTH, 0x10ff};
    static const cl_channel_type types[] = {
        CL_UNORM_INT8, CL_SNORM_INT16,     CL_UNSIGNED_INT32,   CL_FLOAT,
        CL_HALF_FLOAT, CL_UNORM_SHORT_565, CL_UNORM_INT_101010, 0x10ff};
    static const cl_mem_object_type kinds[] = {
        CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE2D,
        CL_MEM_OBJECT_IMAGE3D,       CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE1D_BUFFER,
        CL_MEM_OBJECT_BUFFER,        0x10ff};
    cl_image_format f = {orders[below(10)], types[below(8)]};
    cl_image_desc d = {0};
    d.image_type = kinds[below(8)];
    d.image_width = chance(70) ? 1 + below(64) : size();
    d.image_height = chance(70) ? below(64) : size();
    d.image_depth = chance(70) ? below(16) : size();
    d.image_array_size = chance(70) ? below(8) : size();
    d.image_row_pitch = chance(80) ? 0 : size();
    d.image_slice_pitch = chance(80) ? 0 : size();
    d.num_mip_levels = chance(95) ? 0 : below(3);
    if (d.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER || chance(5))
        d.buffer = handle(MEM);
    /* Host memory only when the image, at 16 bytes a pixel and its pitches, fits the arena. */
    unsigned __int128 row =
        d.image_row_pitch ? d.image_row_pitch : (unsigned __int128)d.image_width * 16;
    unsigned __int128 slice =
        d.image_slice_pitch ? d.image_slice_pitch : row * (d.image_height + 1);
    unsigned __int128 extent = slice * (d.image_depth + 1) * (d.image_array_size + 1);
    bool host = extent <= ARENA && chance(40);
    cl_int err;
    cl_mem m = t->clCreateImage(
        handle(CONTEXT), flags() & ~(cl_ulong)(chance(50) ? CL_MEM_USE_HOST_PTR : 0),
        chance(97) ? &f : NULL, chance(97) ? &d : NULL, host ? arena : NULL, &err);
    check("clCreateImage", err);
    if (m)
        keep(MEM, m);
}

static void f_sampler(void)
{
    begin("clCreateSamplerWithProperties");
    cl_sampler_properties p[7] = {CL_SAMPLER_NORMALIZED_COORDS,
                                  below(3),
                                  CL_SAMPLER_ADDRESSING_MODE,
                                  0x1130 + below(6),
                                  CL_SAMPLER_FILTER_MODE,
                                  0x1140 + below(3),
                                  0};
    if (chance(10))
        p[2 * below(3)] = (cl_sampler_properties)rnd();
    cl_int err;
    cl_sampler s = t->clCreateSamplerWithProperties(handle(CONTEXT), chance(95) ? p : NULL, &err);
    check("clCreateSamplerWithProperties", err);
    if (s)
        keep(SAMPLER, s);
}

/*
 * With LANES_SPIRV=1 (fuzz.api.spirv): SPIR-V programs of a header, mostly
 * well-formed, and random words (which the translator mostly refuses at the
 * build: its process must fail the build, never the fuzzer), and
 * specialization constants set on any program.
 */
static void f_il(void)
{
    if (chance(30)) {
        begin("clSetProgramSpecializationConstant");
        uint64_t v = rnd();
        check("clSetProgramSpecializationConstant",
              t->clSetProgramSpecializationConstant(handle(PROGRAM), below(16),
                                                    chance(90) ? 1u << below(4) : below(100),
                                                    chance(95) ? &v : NULL));
        return;
    }
    begin("clCreateProgramWithIL");
    uint32_t w[16] = {chance(95) ? 0x07230203u : (uint32_t)rnd(),
                      chance(90) ? 0x00010000u + (below(7) << 8) : (uint32_t)rnd(), 0, below(64),
                      0};
    unsigned n = 5 + below(12);
    for (unsigned i = 5; i < n; i++) /* instructions of 1 to 4 words, or anything */
        w[i] = chance(60) ? (1 + below(4)) << 16 | below(400) : (uint32_t)rnd();
    size_t len = chance(90) ? n * 4 : below(n * 4 + 1);
    cl_int err;
    cl_program p = t->clCreateProgramWithIL(handle(CONTEXT), chance(97) ? w : NULL, len, &err);
    check("clCreateProgramWithIL", err);
    if (p)
        keep(PROGRAM, p);
}

static void f_program(void)
{
    if (spirv && chance(25)) { /* draws nothing more without LANES_SPIRV: seeds replay alike */
        f_il();
        return;
    }
    begin("clCreateProgramWithSource");
    const char *src[2] = {source[below(sizeof source / sizeof *source)], "\n"};
    size_t len[2] = {chance(80) ? 0 : strlen(src[0]), chance(50) ? 0 : 1};
    cl_int err;
    cl_program p =
        t->clCreateProgramWithSource(handle(CONTEXT), chance(98) ? 1 + below(2) : 0,
                                     chance(98) ? src : NULL, chance(50) ? len : NULL, &err);
    check("clCreateProgramWithSource", err);
    if (p)
        keep(PROGRAM, p);
}

static void f_binary(void)
{
    begin("clCreateProgramWithBinary");
    cl_program from = live(PROGRAM);
    if (!from)
        return;
    size_t n = 0;
    if (t->clGetProgramInfo(from, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL) != CL_SUCCESS ||
        n == 0 || n > ARENA / 2)
        return;
    unsigned char *bin = arena + ARENA / 2;
    unsigned char *bins[1] = {bin};
    if (t->clGetProgramInfo(from, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS)
        return;
    /* Mutate: flip bytes, truncate. */
    unsigned flips = chance(30) ? 0 : 1 + below(8);
    for (unsigned i = 0; i < flips; i++)
        bin[below((unsigned)n)] ^= (unsigned char)(1u << below(8));
    size_t len = chance(80) ? n : below((unsigned)n + 1);
    const unsigned char *cbins[1] = {bin};
    cl_int status = 1, err;
    cl_program p =
        t->clCreateProgramWithBinary(handle(CONTEXT), 1, &device, &len, chance(97) ? cbins : NULL,
                                     chance(50) ? &status : NULL, &err);
    check("clCreateProgramWithBinary", err);
    if (status != 1)
        check("clCreateProgramWithBinary status", status);
    if (p)
        keep(PROGRAM, p);
}

static void f_build(void)
{
    begin("clBuildProgram");
    cl_device_id devs[2] = {device, handle(CONTEXT)};
    cl_uint n = chance(70) ? 0 : below(3);
    check("clBuildProgram", t->clBuildProgram(handle(PROGRAM), n, n && chance(95) ? devs : NULL,
                                              options(), chance(30) ? on_program : NULL, NULL));
}

static void f_compile_link(void)
{
    begin("clCompileProgram");
    cl_program p = handle(PROGRAM);
    check("clCompileProgram", t->clCompileProgram(p, 0, NULL, options(), 0, NULL, NULL,
                                                  chance(30) ? on_program : NULL, NULL));
    begin("clLinkProgram");
    cl_program in[3] = {p, handle(PROGRAM), handle(PROGRAM)};
    cl_int err;
    cl_program l =
        t->clLinkProgram(handle(CONTEXT), 0, NULL, chance(50) ? "-create-library" : options(),
                         1 + below(3), in, chance(30) ? on_program : NULL, NULL, &err);
    check("clLinkProgram", err);
    if (l)
        keep(PROGRAM, l);
}

static void f_kernel(void)
{
    begin("clCreateKernel");
    cl_int err;
    cl_kernel k;
    if (chance(10)) {
        cl_kernel ks[8];
        cl_uint n = 0;
        err = t->clCreateKernelsInProgram(handle(PROGRAM), chance(50) ? 8 : below(3),
                                          chance(90) ? ks : NULL, &n);
        check("clCreateKernelsInProgram", err);
        if (err == CL_SUCCESS)
            for (cl_uint i = 0; i < n && i < 8; i++)
                keep(KERNEL, ks[i]);
        return;
    }
    if (chance(10)) {
        k = t->clCloneKernel(handle(KERNEL), &err);
    } else {
        const char *name =
            chance(97) ? kernel_names[below(sizeof kernel_names / sizeof *kernel_names)] : NULL;
        k = t->clCreateKernel(handle(PROGRAM), name, &err);
    }
    check("clCreateKernel", err);
    if (k)
        keep(KERNEL, k);
}

static void f_arg(void)
{
    begin("clSetKernelArg");
    cl_kernel k = handle(KERNEL);
    cl_uint index = chance(95) ? below(5) : (cl_uint)rnd();
    void *h[2];
    size_t s;
    const void *value;
    switch (below(6)) {
    case 0: /* a memory object, sometimes released or garbage */
        h[0] = handle(MEM);
        value = h;
        s = chance(90) ? sizeof(cl_mem) : size();
        break;
    case 1:
        h[0] = handle(SAMPLER);
        value = h;
        s = chance(90) ? sizeof(cl_sampler) : size();
        break;
    case 2: /* local memory, or a NULL buffer */
        value = NULL;
        s = chance(50) ? sizeof(cl_mem) : size();
        break;
    case 3: /* a scalar or vector from the arena */
        value = arena;
        s = chance(70) ? (size_t)1 << below(6) : host_size();
        break;
    case 4:
        value = garbage();
        if (value != arena && value != NULL) /* a value Lanes reads: only at valid sizes */
            value = arena;
        s = size() > ARENA ? size() : host_size();
        if (s > ARENA && value) /* read only if the size were right: it never is */
            s = chance(50) ? s : ARENA;
        break;
    default:
        check("clSetKernelArgSVMPointer",
              t->clSetKernelArgSVMPointer(k, index, chance(80) ? svm_fixed : NULL));
        return;
    }
    check("clSetKernelArg", t->clSetKernelArg(k, index, s, value));
}

/*
 * A launch meant to succeed: a live kernel, a queue of its context and
 * every argument set for its name (the calls around it then disturb
 * arguments, buffers and queues at random). Without it nearly every random
 * launch fails its checks and the launch path is never reached.
 */
static void well_formed_launch(void)
{
    begin("clEnqueueNDRangeKernel(well-formed)");
    cl_kernel k = live(KERNEL);
    cl_context c = NULL;
    char name[8] = "";
    if (!k || t->clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof c, &c, NULL) != CL_SUCCESS ||
        t->clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL) != CL_SUCCESS)
        return;
    cl_command_queue q = NULL;
    for (unsigned i = 0; i < pool[QUEUE].n_live && !q; i++) {
        cl_context qc = NULL;
        if (t->clGetCommandQueueInfo(pool[QUEUE].live[i], CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL) ==
                CL_SUCCESS &&
            qc == c)
            q = pool[QUEUE].live[i];
    }
    cl_mem m[2] = {NULL, NULL};
    for (unsigned i = 0; i < pool[MEM].n_live; i++) {
        cl_context mc = NULL;
        cl_mem_object_type type = 0;
        if (t->clGetMemObjectInfo(pool[MEM].live[i], CL_MEM_CONTEXT, sizeof mc, &mc, NULL) ==
                CL_SUCCESS &&
            mc == c &&
            t->clGetMemObjectInfo(pool[MEM].live[i], CL_MEM_TYPE, sizeof type, &type, NULL) ==
                CL_SUCCESS &&
            type == CL_MEM_OBJECT_BUFFER)
            m[m[0] ? 1 : 0] = pool[MEM].live[i];
    }
    /* None of the kernel's context yet: make them (they join the pools). */
    cl_int err;
    if (!q && (q = t->clCreateCommandQueueWithProperties(c, device, NULL, &err)))
        keep(QUEUE, q);
    if (!m[0] && (m[0] = t->clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &err)))
        keep(MEM, m[0]);
    if (!q || !m[0])
        return;
    if (!m[1])
        m[1] = m[0];
    int n = (int)below(100);
    float f = 1.5f;
    cl_long v[4] = {1, 2, 3, 4};
    cl_sampler s = live(SAMPLER);
    switch (name[0]) {
    case 'a':
    case 'h':
        check("arg", t->clSetKernelArg(k, 0, sizeof(cl_mem), &m[0]));
        check("arg", t->clSetKernelArg(k, 1, sizeof n, &n));
        break;
    case 'b':
        check("arg", t->clSetKernelArg(k, 0, sizeof(cl_mem), &m[0]));
        check("arg", t->clSetKernelArg(k, 1, 1 + below(4096), NULL));
        break;
    case 'c':
        if (!s)
            return;
        check("arg", t->clSetKernelArg(k, 0, sizeof s, &s));
        check("arg", t->clSetKernelArg(k, 1, sizeof(cl_mem), &m[0]));
        break;
    case 'e':
        check("arg", t->clSetKernelArg(k, 0, sizeof(cl_mem), &m[0]));
        check("arg", t->clSetKernelArg(k, 1, sizeof(cl_mem), &m[1]));
        check("arg", t->clSetKernelArg(k, 2, sizeof f, &f));
        check("arg", t->clSetKernelArg(k, 3, sizeof v, v));
        break;
    default: /* d, f */ check("arg", t->clSetKernelArg(k, 0, sizeof(cl_mem), &m[0]));
    }
    size_t local = (size_t)1 << below(7), global = local * (1 + below(64));
    err = t->clEnqueueNDRangeKernel(q, k, 1, NULL, &global, chance(70) ? &local : NULL, 0, NULL,
                                    want_event());
    check("clEnqueueNDRangeKernel", err);
    kernels_run += err == CL_SUCCESS;
    took_event(err);
}

static void f_ndrange(void)
{
    if (chance(50)) {
        well_formed_launch();
        return;
    }
    begin("clEnqueueNDRangeKernel");
    cl_uint dim = chance(95) ? 1 + below(3) : below(5);
    size_t g[4], l[4], o[4];
    unsigned __int128 items = 1;
    for (unsigned i = 0; i < 4; i++) {
        g[i] = chance(80) ? 1 + below(chance(50) ? 300 : 8) : size();
        l[i] = chance(70) ? 1 + below(chance(50) ? 32 : 300) : size();
        o[i] = chance(85) ? 0 : size();
        if (i < dim)
            items *= g[i];
    }
    /* Valid but slow NDRanges are no finding: at most 2^22 work-items. */
    if (items > ((unsigned __int128)1 << 22) && items <= UINT64_MAX) {
        skipped++;
        return;
    }
    const cl_event *list;
    cl_uint n = waits(&list);
    cl_int err = t->clEnqueueNDRangeKernel(handle(QUEUE), handle(KERNEL), dim,
                                           chance(90) ? o : NULL, chance(98) ? g : NULL,
                                           chance(60) ? l : NULL, n, list, want_event());
    check("clEnqueueNDRangeKernel", err);
    kernels_run += err == CL_SUCCESS;
    took_event(err);
}

/* Host extent of a rectangle, or 0 when it does not fit the arena. */
static bool rect_fits(const size_t *origin, const size_t *region, size_t row, size_t slice)
{
    unsigned __int128 r = row ? row : region[0];
    unsigned __int128 s = slice ? slice : r * region[1];
    unsigned __int128 end = origin[0] + origin[1] * r + origin[2] * s;
    if (region[0] && region[1] && region[2])
        end += region[0] + (region[1] - 1) * r + (region[2] - 1) * s;
    return end <= ARENA;
}

static void rect_point(size_t *p, bool region)
{
    for (int i = 0; i < 3; i++)
        p[i] = chance(85) ? (region ? 1 + below(i ? 4 : 64) : below(8)) : size();
}

static void f_transfer(void)
{
    cl_command_queue q = handle(QUEUE);
    cl_mem m = handle(MEM), m2 = handle(MEM);
    cl_bool blocking = chance(40);
    if (blocking)
        set_user_events();
    const cl_event *list;
    cl_uint n = waits(&list);
    cl_int err;
    size_t off = chance(80) ? below(64) : size(), s = host_size();
    switch (below(10)) {
    case 0:
        begin("clEnqueueReadBuffer");
        if (off > ARENA - s)
            off = 0;
        err = t->clEnqueueReadBuffer(q, m, blocking, off, s, arena, n, list, want_event());
        break;
    case 1:
        begin("clEnqueueWriteBuffer");
        if (off > ARENA - s)
            off = 0;
        err = t->clEnqueueWriteBuffer(q, m, blocking, off, s, arena, n, list, want_event());
        break;
    case 2:
        begin("clEnqueueCopyBuffer");
        err = t->clEnqueueCopyBuffer(q, m, m2, off, chance(80) ? below(64) : size(), size(), n,
                                     list, want_event());
        break;
    case 3: {
        begin("clEnqueueFillBuffer");
        size_t ps = chance(80) ? (size_t)1 << below(8) : size();
        err = t->clEnqueueFillBuffer(q, m, arena, ps > ARENA ? ARENA : ps, off, size(), n, list,
                                     want_event());
        break;
    }
    case 4:
    case 5: {
        size_t bo[3], ho[3], r[3];
        rect_point(bo, false), rect_point(ho, false), rect_point(r, true);
        size_t brp = chance(70) ? 0 : size(), bsp = chance(70) ? 0 : size();
        size_t hrp = chance(70) ? 0 : size(), hsp = chance(70) ? 0 : size();
        if (!rect_fits(ho, r, hrp, hsp)) {
            ho[0] = ho[1] = ho[2] = 0, hrp = hsp = 0;
            if (!rect_fits(ho, r, hrp, hsp)) {
                skipped++;
                return;
            }
        }
        if (below(2)) {
            begin("clEnqueueReadBufferRect");
            err = t->clEnqueueReadBufferRect(q, m, blocking, bo, ho, r, brp, bsp, hrp, hsp, arena,
                                             n, list, want_event());
        } else {
            begin("clEnqueueWriteBufferRect");
            err = t->clEnqueueWriteBufferRect(q, m, blocking, bo, ho, r, brp, bsp, hrp, hsp, arena,
                                              n, list, want_event());
        }
        break;
    }
    case 6: {
        begin("clEnqueueCopyBufferRect");
        size_t so[3], d[3], r[3];
        rect_point(so, false), rect_point(d, false), rect_point(r, true);
        err = t->clEnqueueCopyBufferRect(q, m, m2, so, d, r, chance(70) ? 0 : size(),
                                         chance(70) ? 0 : size(), chance(70) ? 0 : size(),
                                         chance(70) ? 0 : size(), n, list, want_event());
        break;
    }
    case 7: {
        size_t o[3], r[3];
        rect_point(o, false), rect_point(r, true);
        size_t rp = chance(70) ? 0 : size(), sp = chance(70) ? 0 : size();
        /* Host side: at most 16 bytes a pixel. */
        size_t bytes_r[3] = {r[0] > SIZE_MAX / 16 ? SIZE_MAX : r[0] * 16, r[1], r[2]};
        size_t zero[3] = {0, 0, 0};
        if (!rect_fits(zero, bytes_r, rp, sp)) {
            rp = sp = 0;
            if (!rect_fits(zero, bytes_r, rp, sp)) {
                skipped++;
                return;
            }
        }
        switch (below(4)) {
        case 0:
            begin("clEnqueueReadImage");
            err = t->clEnqueueReadImage(q, m, blocking, o, r, rp, sp, arena, n, list, want_event());
            break;
        case 1:
            begin("clEnqueueWriteImage");
            err =
                t->clEnqueueWriteImage(q, m, blocking, o, r, rp, sp, arena, n, list, want_event());
            break;
        case 2:
            begin("clEnqueueFillImage");
            err = t->clEnqueueFillImage(q, m, arena, o, r, n, list, want_event());
            break;
        default: {
            begin("clEnqueueCopyImage");
            size_t d[3];
            rect_point(d, false);
            err = t->clEnqueueCopyImage(q, m, m2, o, d, r, n, list, want_event());
        }
        }
        break;
    }
    case 8: {
        size_t o[3], r[3];
        rect_point(o, false), rect_point(r, true);
        if (below(2)) {
            begin("clEnqueueCopyImageToBuffer");
            err = t->clEnqueueCopyImageToBuffer(q, m, m2, o, r, off, n, list, want_event());
        } else {
            begin("clEnqueueCopyBufferToImage");
            err = t->clEnqueueCopyBufferToImage(q, m, m2, off, o, r, n, list, want_event());
        }
        break;
    }
    default: {
        begin("clEnqueueMigrateMemObjects");
        cl_mem ms[3] = {m, m2, handle(MEM)};
        err = t->clEnqueueMigrateMemObjects(
            q, chance(95) ? 1 + below(3) : 0, chance(97) ? ms : NULL,
            chance(80) ? 0 : (cl_mem_migration_flags)rnd(), n, list, want_event());
    }
    }
    check("transfer", err);
    took_event(err);
}

static void f_map(void)
{
    cl_command_queue q = handle(QUEUE);
    unsigned slot = below(16);
    if (mapped[slot]) {
        begin("clEnqueueUnmapMemObject");
        cl_int err = t->clEnqueueUnmapMemObject(
            chance(90) ? mapped_queue[slot] : q, chance(90) ? mapped_mem[slot] : handle(MEM),
            chance(90) ? mapped[slot] : garbage(), 0, NULL, want_event());
        check("clEnqueueUnmapMemObject", err);
        took_event(err);
        if (err == CL_SUCCESS || chance(10))
            mapped[slot] = NULL; /* unmapped, or its object is probably gone */
        return;
    }
    cl_mem m = handle(MEM);
    cl_bool blocking = chance(50);
    if (blocking)
        set_user_events();
    cl_map_flags f = chance(90) ? (cl_map_flags)below(8) : (cl_map_flags)rnd();
    cl_int err;
    void *p;
    if (chance(70)) {
        begin("clEnqueueMapBuffer");
        p = t->clEnqueueMapBuffer(q, m, blocking, f, chance(80) ? below(64) : size(), size(), 0,
                                  NULL, want_event(), &err);
    } else {
        begin("clEnqueueMapImage");
        size_t o[3], r[3], rp, sp;
        rect_point(o, false), rect_point(r, true);
        p = t->clEnqueueMapImage(q, m, blocking, f, o, r, &rp, chance(50) ? &sp : NULL, 0, NULL,
                                 want_event(), &err);
    }
    check("map", err);
    took_event(err);
    if (err == CL_SUCCESS) {
        mapped[slot] = p;
        mapped_mem[slot] = m;
        mapped_queue[slot] = q;
    }
}

static void f_sync(void)
{
    cl_command_queue q = handle(QUEUE);
    const cl_event *list;
    cl_uint n;
    cl_int err;
    switch (below(9)) {
    case 0:
        begin("clEnqueueMarkerWithWaitList");
        n = waits(&list);
        err = t->clEnqueueMarkerWithWaitList(q, n, list, want_event());
        took_event(err);
        break;
    case 1:
        begin("clEnqueueBarrierWithWaitList");
        n = waits(&list);
        err = t->clEnqueueBarrierWithWaitList(q, n, list, want_event());
        took_event(err);
        break;
    case 2:
        begin("clFinish");
        set_user_events();
        err = t->clFinish(q);
        break;
    case 3:
        begin("clFlush");
        err = t->clFlush(q);
        break;
    case 4:
        begin("clWaitForEvents");
        set_user_events();
        n = waits(&list);
        err = t->clWaitForEvents(n, list);
        break;
    case 5: {
        begin("clCreateUserEvent");
        cl_event e = t->clCreateUserEvent(handle(CONTEXT), &err);
        if (e && n_unset < LIVE_MAX) {
            check("clRetainEvent", t->clRetainEvent(e));
            unset[n_unset++] = e;
        }
        if (e)
            keep(EVENT, e);
        break;
    }
    case 6:
        begin("clSetUserEventStatus");
        err = t->clSetUserEventStatus(handle(EVENT), chance(50) ? CL_COMPLETE : (cl_int)rnd());
        break;
    case 7:
        begin("clSetEventCallback");
        err = t->clSetEventCallback(handle(EVENT), chance(90) ? (cl_int)below(4) : (cl_int)rnd(),
                                    chance(95) ? on_event : NULL, NULL);
        break;
    default: {
        begin("clEnqueueNativeKernel");
        /* Args holding two memory objects; their locations inside the args. */
        struct {
            cl_mem a, b;
            int x;
        } args = {handle(MEM), handle(MEM), 1};
        cl_mem ms[2] = {args.a, args.b};
        const void *loc[2] = {&args.a, &args.b};
        n = waits(&list);
        cl_uint nm = below(3);
        err = t->clEnqueueNativeKernel(
            q, chance(95) ? on_native : NULL, &args, chance(90) ? sizeof args : below(8), nm,
            nm && chance(95) ? ms : NULL, nm && chance(95) ? loc : NULL, n, list, want_event());
        took_event(err);
    }
    }
    check("sync", err);
}

static void f_svm(void)
{
    unsigned slot = below(8);
    cl_int err = CL_SUCCESS;
    if (!svm[slot] || chance(20)) {
        if (svm[slot]) {
            begin("clSVMFree");
            set_user_events(); /* nothing may still use it */
            for (unsigned i = 0; i < pool[QUEUE].n_live; i++)
                check("clFinish", t->clFinish(pool[QUEUE].live[i]));
            t->clSVMFree(ctx0, svm[slot]);
            svm[slot] = NULL;
            return;
        }
        begin("clSVMAlloc");
        size_t s = size();
        if (s > ARENA && s <= max_alloc)
            s = ARENA;
        if (s && s < 64)
            s = 64; /* fills and copies go up to 3 bytes into it */
        /* Only allocations of ctx0 are kept: a context's release frees its allocations. */
        cl_context c = handle(CONTEXT);
        void *p = t->clSVMAlloc(c, chance(90) ? CL_MEM_READ_WRITE : flags(), s,
                                chance(90) ? 0 : (cl_uint)size());
        if (c == ctx0)
            svm[slot] = p;
        else if (p)
            t->clSVMFree(c, p);
        return;
    }
    /* Copies and fills inside the allocation only: an SVM pointer is not checked. */
    cl_command_queue q = handle(QUEUE);
    const cl_event *list;
    cl_uint n = waits(&list);
    switch (below(3)) {
    case 0:
        begin("clEnqueueSVMMemcpy");
        err = t->clEnqueueSVMMemcpy(q, CL_FALSE, svm[slot], svm_fixed, chance(90) ? 1 : 0, n, list,
                                    want_event());
        break;
    case 1:
        begin("clEnqueueSVMMemFill");
        /* Sizes Lanes can refuse (0, not a multiple of the pattern) or 1 byte: never past it. */
        err = t->clEnqueueSVMMemFill(q, svm[slot], arena, chance(80) ? 1 : below(300),
                                     chance(80) ? 1 : below(4) * 3 % 4, n, list, want_event());
        break;
    default:
        begin("clEnqueueSVMFree");
        err = t->clEnqueueSVMFree(q, chance(90) ? 0 : 1, NULL, NULL, NULL, n, list, want_event());
    }
    check("svm", err);
    took_event(err);
}

/* Info queries: random parameter names near the valid ranges, random sizes. */
static void f_info(void)
{
    cl_uint base[] = {0x1000, 0x1010, 0x1040, 0x1080, 0x1090, 0x10a0, 0x1100, 0x1110,
                      0x1150, 0x1160, 0x1180, 0x1190, 0x11b0, 0x11d0, 0x1190, 0x4000};
    cl_uint param = chance(95) ? base[below(16)] + below(0x40) : (cl_uint)rnd();
    size_t s = chance(60) ? host_size() : below(16);
    void *v = chance(80) ? arena : NULL;
    size_t ret;
    size_t *r = chance(70) ? &ret : NULL;
    cl_int err;
    switch (below(12)) {
    case 0:
        begin("clGetPlatformInfo");
        err = t->clGetPlatformInfo(chance(90) ? platform : handle(QUEUE), param, s, v, r);
        break;
    case 1:
        begin("clGetDeviceInfo");
        err = t->clGetDeviceInfo(chance(90) ? device : handle(MEM), param, s, v, r);
        break;
    case 2:
        begin("clGetContextInfo");
        err = t->clGetContextInfo(handle(CONTEXT), param, s, v, r);
        break;
    case 3:
        begin("clGetCommandQueueInfo");
        err = t->clGetCommandQueueInfo(handle(QUEUE), param, s, v, r);
        break;
    case 4:
        begin("clGetMemObjectInfo");
        err = chance(50) ? t->clGetMemObjectInfo(handle(MEM), param, s, v, r)
                         : t->clGetImageInfo(handle(MEM), param, s, v, r);
        break;
    case 5:
        begin("clGetProgramInfo");
        /* CL_PROGRAM_BINARIES writes through the pointers the value holds: give it none. */
        if (param == CL_PROGRAM_BINARIES)
            v = NULL;
        err = t->clGetProgramInfo(handle(PROGRAM), param, s, v, r);
        break;
    case 6:
        begin("clGetProgramBuildInfo");
        err = t->clGetProgramBuildInfo(handle(PROGRAM), chance(90) ? device : handle(KERNEL), param,
                                       s, v, r);
        break;
    case 7:
        begin("clGetKernelInfo");
        err = t->clGetKernelInfo(handle(KERNEL), param, s, v, r);
        break;
    case 8:
        begin("clGetKernelArgInfo");
        err = t->clGetKernelArgInfo(handle(KERNEL), below(6), param, s, v, r);
        break;
    case 9:
        begin("clGetKernelWorkGroupInfo");
        err =
            t->clGetKernelWorkGroupInfo(handle(KERNEL), chance(90) ? device : NULL, param, s, v, r);
        break;
    case 10: {
        begin("clGetKernelSubGroupInfo");
        size_t in[3] = {size(), size(), size()};
        if (chance(70))
            in[0] = 1 + below(256), in[1] = 1, in[2] = 1;
        err =
            t->clGetKernelSubGroupInfo(handle(KERNEL), chance(90) ? device : NULL,
                                       0x2033 + below(4) + (chance(10) ? below(0x100) : 0),
                                       chance(90) ? 8 * (1 + below(3)) : size() % 64, in, s, v, r);
        break;
    }
    default:
        begin("clGetEventInfo");
        err = chance(50) ? t->clGetEventInfo(handle(EVENT), param, s, v, r)
                         : t->clGetEventProfilingInfo(handle(EVENT), param, s, v, r);
    }
    check("info", err);
}

static void f_retain_release(void)
{
    enum kind k = (enum kind)below(KINDS);
    void *h = handle(k);
    bool ours = false;
    for (unsigned i = 0; i < pool[k].n_live; i++)
        ours |= pool[k].live[i] == h;
    if (chance(40)) {
        begin("clRetain*");
        cl_int err;
        switch (k) {
        case CONTEXT: err = t->clRetainContext(h); break;
        case QUEUE: err = t->clRetainCommandQueue(h); break;
        case MEM: err = t->clRetainMemObject(h); break;
        case PROGRAM: err = t->clRetainProgram(h); break;
        case KERNEL: err = t->clRetainKernel(h); break;
        case EVENT: err = t->clRetainEvent(h); break;
        default: err = t->clRetainSampler(h);
        }
        check("retain", err);
        if (err == CL_SUCCESS)
            check("release", release_any(k, h)); /* the fuzzer keeps one reference */
        return;
    }
    /* Release what the fuzzer holds, or something it does not (which must be refused). */
    if (!ours && pool[k].n_live && chance(50))
        return;
    /* A handle in a live list was never released by the fuzzer; others may be reused addresses. */
    if (!ours) {
        bool dead = false;
        for (unsigned i = 0; i < pool[k].n_dead; i++)
            dead |= pool[k].dead[i] == h;
        for (enum kind o = 0; o < KINDS; o++)
            for (unsigned i = 0; i < pool[o].n_live; i++)
                if (pool[o].live[i] == h)
                    return; /* another kind's live handle: leave it to its owner */
        if (!dead && h != NULL && h != unreadable && h != scribble)
            return;
    }
    if (k == EVENT)
        for (unsigned i = 0; i < n_unset; i++)
            if (unset[i] == h)
                return; /* the unset list holds its own reference */
    if (k == MEM)
        for (unsigned i = 0; i < 16; i++)
            if (mapped[i] && mapped_mem[i] == h)
                mapped[i] = NULL; /* unmapped by nobody: Lanes frees it with the object */
    begin("clRelease*");
    cl_int err = release_any(k, h);
    check("release", err);
    if (ours && err == CL_SUCCESS)
        forget(k, h);
}

static void f_subdevices(void)
{
    begin("clCreateSubDevices");
    cl_device_partition_property p[6] = {0};
    switch (below(4)) {
    case 0: p[0] = CL_DEVICE_PARTITION_EQUALLY, p[1] = (cl_device_partition_property)size(); break;
    case 1:
        p[0] = CL_DEVICE_PARTITION_BY_COUNTS, p[1] = below(3), p[2] = below(3),
        p[3] = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
        break;
    case 2:
        p[0] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
        p[1] = (cl_device_partition_property)rnd() & 0x3f;
        break;
    default: p[0] = (cl_device_partition_property)rnd();
    }
    cl_device_id out[8];
    cl_uint n = 0;
    cl_int err = t->clCreateSubDevices(chance(90) ? device : handle(QUEUE), p,
                                       chance(50) ? 8 : below(2), chance(80) ? out : NULL, &n);
    check("clCreateSubDevices", err);
    if (err == CL_SUCCESS)
        for (cl_uint i = 0; i < n && i < 8; i++)
            if (chance(97) || !out[i]) /* mostly released at once */
                check("clReleaseDevice", out[i] ? t->clReleaseDevice(out[i]) : CL_SUCCESS);
}

static void (*const calls_table[])(void) = {f_context,
                                            f_queue,
                                            f_queue,
                                            f_buffer,
                                            f_buffer,
                                            f_buffer,
                                            f_sub_buffer,
                                            f_image,
                                            f_sampler,
                                            f_program,
                                            f_program,
                                            f_binary,
                                            f_build,
                                            f_build,
                                            f_compile_link,
                                            f_kernel,
                                            f_kernel,
                                            f_arg,
                                            f_arg,
                                            f_arg,
                                            f_arg,
                                            f_ndrange,
                                            f_ndrange,
                                            f_ndrange,
                                            f_transfer,
                                            f_transfer,
                                            f_transfer,
                                            f_map,
                                            f_map,
                                            f_sync,
                                            f_sync,
                                            f_sync,
                                            f_svm,
                                            f_info,
                                            f_info,
                                            f_info,
                                            f_retain_release,
                                            f_retain_release,
                                            f_subdevices};

/* ---- Set-up and the run ---------------------------------------------------- */

static int setup(const char *library)
{
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "api_fuzz: %s\n", dlerror());
        return 1;
    }
    typedef cl_int (*get_ids_fn)(cl_uint, cl_platform_id *, cl_uint *);
    get_ids_fn get_ids = (get_ids_fn)dlsym(lib, "clIcdGetPlatformIDsKHR");
    if (!get_ids || get_ids(1, &platform, NULL) != CL_SUCCESS)
        return 1;
    t = *(const cl_icd_dispatch *const *)platform;
    if (t->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS)
        return 1;
    cl_ulong m = 0;
    t->clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof m, &m, NULL);
    max_alloc = (size_t)m;
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    arena = aligned_alloc(4096, ARENA);
    scribble = malloc(256);
    if (p == MAP_FAILED || !arena || !scribble)
        return 1;
    memset(arena, 0, ARENA);
    unreadable = p + 64;
    for (size_t i = 0; i < 256 / sizeof(void *); i++)
        ((void **)scribble)[i] = scribble;
    /* A first context, queue, program and kernel, so that calls go deep from the start. */
    cl_int err;
    cl_context c = t->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!c)
        return 1;
    keep(CONTEXT, c);
    ctx0 = c;
    t->clRetainContext(ctx0);
    keep(QUEUE, t->clCreateCommandQueueWithProperties(c, device, NULL, &err));
    const char *src = source[0];
    cl_program prog = t->clCreateProgramWithSource(c, 1, &src, NULL, &err);
    if (!prog || t->clBuildProgram(prog, 0, NULL, "", NULL, NULL) != CL_SUCCESS) {
        char log[4096] = "";
        t->clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "api_fuzz: the first program does not build:\n%s\n", log);
        return 1;
    }
    keep(PROGRAM, prog);
    keep(KERNEL, t->clCreateKernel(prog, "a", &err));
    svm_fixed = t->clSVMAlloc(ctx0, CL_MEM_READ_WRITE, 4096, 0);
    return svm_fixed == NULL;
}

static void teardown(void)
{
    set_user_events();
    for (unsigned i = 0; i < pool[QUEUE].n_live; i++)
        check("clFinish", t->clFinish(pool[QUEUE].live[i]));
    for (unsigned i = 0; i < 8; i++)
        if (svm[i])
            t->clSVMFree(ctx0, svm[i]);
    t->clSVMFree(ctx0, svm_fixed);
    check("clReleaseContext", t->clReleaseContext(ctx0));
    for (int k = KINDS - 1; k >= 0; k--)
        while (pool[k].n_live) {
            void *h = pool[k].live[pool[k].n_live - 1];
            check("release", release_any((enum kind)k, h));
            forget((enum kind)k, h);
        }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr,
                "usage: api_fuzz LIBLANES.so [--seed S] [--calls N] [--seconds S] [--trace]\n");
        return 2;
    }
    uint64_t seed = 1, max_calls = 100000;
    double seconds = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
            max_calls = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "--trace"))
            trace = true;
        else {
            fprintf(stderr, "api_fuzz: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    const char *il = getenv("LANES_SPIRV");
    spirv = il && strcmp(il, "1") == 0;
    signal(SIGSEGV, crash_handler);
    signal(SIGBUS, crash_handler);
    signal(SIGABRT, crash_handler);
    signal(SIGFPE, crash_handler);
    signal(SIGILL, crash_handler);
    if (setup(argv[1])) {
        fprintf(stderr, "api_fuzz: set-up failed\n");
        return 1;
    }
    rng_state = ring_seed = seed;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    unsigned n_calls = sizeof calls_table / sizeof *calls_table;
    while (calls < max_calls) {
        calls_table[below(n_calls)]();
        if (seconds > 0 && (calls & 255) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if ((double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec) >
                seconds)
                break;
        }
    }
    teardown();
    clock_gettime(CLOCK_MONOTONIC, &now);
    double took =
        (double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec);
    printf("api_fuzz: seed %" PRIu64 ": %" PRIu64 " calls in %.1f s, %" PRIu64
           " succeeded (%" PRIu64 " kernel launches), %" PRIu64
           " skipped as only slow; no crash, no unknown code\n",
           seed, calls, took, successes, kernels_run, skipped);
    printf("errors returned:");
    for (int i = 1; i < 80; i++)
        if (errors_seen[i])
            printf(" %d x%" PRIu64, -i, errors_seen[i]);
    printf("\n");
    return 0;
}
