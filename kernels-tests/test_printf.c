/* SPDX-License-Identifier: MIT */
/*
 * printf in kernels: what a kernel prints is captured (stdout redirected to
 * a file around the command) and compared with the C library's printf of
 * the same values on the host, conversion by conversion: integers with
 * every length modifier, floats in every notation, vectors (%v), %c, %s,
 * %p, %%, flags, widths and precisions; per-work-item order, printf in a
 * called function and in a kernel with barriers; the return value when the
 * buffer (CL_DEVICE_PRINTF_BUFFER_SIZE) is full.
 */
#include "kernels.h"

#include <unistd.h>

/* Runs kernel `name` of `p` over `global` items (work-groups of `local`) and returns its output. */
static char *capture(cl_program p, const char *name, size_t global, size_t local, cl_mem arg)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    KT_CHECK_CL(err);
    if (arg)
        KT_CHECK_CL(clSetKernelArg(k, 0, sizeof arg, &arg));
    fflush(stdout);
    char path[] = "/tmp/lanes-printf-XXXXXX";
    int fd = mkstemp(path);
    int saved = dup(1);
    if (fd < 0 || saved < 0 || dup2(fd, 1) < 0) {
        fprintf(stderr, "FATAL: cannot redirect stdout\n");
        exit(1);
    }
    err = clEnqueueNDRangeKernel(kt.queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    cl_int fin = clFinish(kt.queue);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    KT_CHECK_CL(err);
    KT_CHECK_CL(fin);
    off_t size = lseek(fd, 0, SEEK_END);
    char *text = malloc((size_t)size + 1);
    if (pread(fd, text, (size_t)size, 0) != size) {
        fprintf(stderr, "FATAL: cannot read the captured output\n");
        exit(1);
    }
    text[size] = '\0';
    close(fd);
    unlink(path);
    clReleaseKernel(k);
    return text;
}

static cl_program build(const char *src)
{
    return kt_build(src, "-cl-std=CL3.0");
}

/* Scalars: every conversion and length the host printf shares with OpenCL C. */
static void test_scalars(void)
{
    cl_program p = build(
        "kernel void k() {\n"
        "  printf(\"%d %i %u %x %X %o|\", -42, 7, 4000000000u, 0xbeef, 0xbeef, 8);\n"
        "  printf(\"%hhd %hhu %hd %hu %ld %lu %lx|\", (char)-5, (uchar)250, (short)-300,\n"
        "         (ushort)65000, -9000000000000L, 18000000000000000000UL, 0xfedcba9876543210UL);\n"
        "  printf(\"%+05d|%-6x|%#o|% d|%08.3f|%-10.2e|\", 42, 255, 8, 5, 3.14159f, -12345.678f);\n"
        "  printf(\"%f %e %E %g %G %a %A|\", 0.1f, 1e-10f, 3e30f, 100000.0f, 1e-5f, 1.0f, -0.5f);\n"
        "  printf(\"%f %f %f %g|\", INFINITY, -INFINITY, 0.0f, -0.0f);\n"
        "  printf(\"%c%c%c %s %5s %-5s| 100%% %.2s\\n\", 'a', 66, '!', \"str\", \"ab\", \"cd\", "
        "\"xyz\");\n"
        "}\n");
    char *got = capture(p, "k", 1, 1, NULL);
    char want[1024];
    int n =
        snprintf(want, sizeof want, "%d %i %u %x %X %o|", -42, 7, 4000000000u, 0xbeef, 0xbeef, 8);
    n += snprintf(want + n, sizeof want - (size_t)n, "%hhd %hhu %hd %hu %lld %llu %llx|",
                  (signed char)-5, (unsigned char)250, (short)-300, (unsigned short)65000,
                  -9000000000000LL, 18000000000000000000ULL, 0xfedcba9876543210ULL);
    n += snprintf(want + n, sizeof want - (size_t)n, "%+05d|%-6x|%#o|% d|%08.3f|%-10.2e|", 42, 255,
                  8, 5, (double)3.14159f, (double)-12345.678f);
    n += snprintf(want + n, sizeof want - (size_t)n, "%f %e %E %g %G %a %A|", (double)0.1f,
                  (double)1e-10f, (double)3e30f, 100000.0, (double)1e-5f, 1.0, -0.5);
    n += snprintf(want + n, sizeof want - (size_t)n, "%f %f %f %g|", (double)INFINITY,
                  (double)-INFINITY, 0.0, -0.0);
    snprintf(want + n, sizeof want - (size_t)n, "%c%c%c %s %5s %-5s| 100%% %.2s\n", 'a', 66, '!',
             "str", "ab", "cd", "xyz");
    if (strcmp(got, want) != 0)
        KT_FAIL("scalars:\n got  %s\n want %s", got, want);
    free(got);
    clReleaseProgram(p);
}

/* Vectors: %v<n> with each length modifier; elements separated by commas. */
static void test_vectors(void)
{
    cl_program p = build("kernel void k() {\n"
                         "  printf(\"%v4hlf|\", (float4)(1.5f, -2.0f, 0.25f, 1e6f));\n"
                         "  printf(\"%v2hld|%v3hlx|\", (int2)(-1, 2), (uint3)(10, 11, 12));\n"
                         "  printf(\"%v8hhu|\", (uchar8)(0, 1, 2, 3, 250, 251, 254, 255));\n"
                         "  printf(\"%v16hhd|\", (char16)(-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, "
                         "2, 3, 4, 5, 6, 7));\n"
                         "  printf(\"%v4hd|%v2ld|%#v2lx|\", (short4)(-300, 300, 0, 1),\n"
                         "         (long2)(-5000000000L, 7), (ulong2)(255, 4096));\n"
                         "  printf(\"%10.3v2hle|%v4hlg\\n\", (float2)(1.0f, -2.5f), (float4)(0.1f, "
                         "100.0f, 1e-7f, 1e7f));\n"
                         "}\n");
    char *got = capture(p, "k", 1, 1, NULL);
    char want[1024];
    int n = snprintf(want, sizeof want, "%f,%f,%f,%f|", 1.5, -2.0, 0.25, 1e6);
    n += snprintf(want + n, sizeof want - (size_t)n, "-1,2|a,b,c|0,1,2,3,250,251,254,255|");
    n += snprintf(want + n, sizeof want - (size_t)n, "-8,-7,-6,-5,-4,-3,-2,-1,0,1,2,3,4,5,6,7|");
    n += snprintf(want + n, sizeof want - (size_t)n, "-300,300,0,1|-5000000000,7|0xff,0x1000|");
    snprintf(want + n, sizeof want - (size_t)n, "%10.3e,%10.3e|%g,%g,%g,%g\n", 1.0, -2.5,
             (double)0.1f, 100.0, (double)1e-7f, (double)1e7f);
    if (strcmp(got, want) != 0)
        KT_FAIL("vectors:\n got  %s\n want %s", got, want);
    free(got);
    clReleaseProgram(p);
}

/* %p of a buffer made from host memory prints that host address. */
static void test_pointer(void)
{
    cl_program p = build("kernel void k(global int *x) { printf(\"%p\\n\", x); }\n");
    static int host[16];
    cl_int err;
    cl_mem m =
        clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    KT_CHECK_CL(err);
    char *got = capture(p, "k", 1, 1, m);
    char want[64];
    snprintf(want, sizeof want, "%p\n", (void *)host);
    if (strcmp(got, want) != 0)
        KT_FAIL("pointer: got %s want %s", got, want);
    free(got);
    clReleaseMemObject(m);
    clReleaseProgram(p);
}

/*
 * Many work-items, each printing three lines from a called function across
 * two barriers: every line appears once and each work-item's lines in order.
 */
static void test_order(void)
{
    cl_program p = build("void say(int i, int step) { printf(\"wi %d step %d\\n\", i, step); }\n"
                         "kernel void k() {\n"
                         "  int i = (int)get_global_id(0);\n"
                         "  say(i, 0);\n"
                         "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "  say(i, 1);\n"
                         "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "  say(i, 2);\n"
                         "}\n");
    enum { N = 512 };
    char *got = capture(p, "k", N, 64, NULL);
    int next[N] = {0}, lines = 0;
    for (char *line = strtok(got, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        int i, step;
        if (sscanf(line, "wi %d step %d", &i, &step) != 2 || i < 0 || i >= N) {
            KT_FAIL("order: unexpected line '%s'", line);
            break;
        }
        if (step != next[i])
            KT_FAIL("order: work-item %d printed step %d, expected %d", i, step, next[i]);
        next[i] = step + 1;
    }
    if (lines != 3 * N)
        KT_FAIL("order: %d lines, want %d", lines, 3 * N);
    free(got);
    clReleaseProgram(p);
}

/* Past CL_DEVICE_PRINTF_BUFFER_SIZE, printf returns -1 and prints nothing; earlier calls print. */
static void test_full_buffer(void)
{
    size_t buffer_size = 0;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof buffer_size,
                                &buffer_size, NULL));
    cl_program p = build("kernel void k(global int *ok) {\n"
                         "  for (int r = 0; r < 64; r++)\n"
                         "    if (printf(\"%d\\n\", r) == 0) atomic_inc(ok);\n"
                         "}\n");
    /* Each record is 32 bytes, 64 per work-item: enough work-items to fill the buffer 4 times over.
     */
    size_t items = buffer_size * 4 / (32 * 64) / 64 * 64;
    int ok = 0;
    cl_int err;
    cl_mem m =
        clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof ok, &ok, &err);
    KT_CHECK_CL(err);
    char *got = capture(p, "k", items, 64, m);
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, m, CL_TRUE, 0, sizeof ok, &ok, 0, NULL, NULL));
    int lines = 0;
    for (const char *c = got; *c; c++)
        lines += *c == '\n';
    if (ok <= 0 || (size_t)ok >= items * 64)
        KT_FAIL("full buffer: %d calls of %zu succeeded", ok, items * 64);
    if (lines != ok)
        KT_FAIL("full buffer: %d lines printed, %d calls returned 0", lines, ok);
    free(got);
    clReleaseMemObject(m);
    clReleaseProgram(p);
}

int main(void)
{
    kt_setup();
    test_scalars();
    test_vectors();
    test_pointer();
    test_order();
    test_full_buffer();
    return kt_teardown();
}
