/* SPDX-License-Identifier: MIT */
/*
 * Images (issue 31's figures), on every platform the loader lists that
 * supports them:
 *  - a 5x5 Gaussian blur of a 4096 x 4096 RGBA8 image through a linear
 *    sampler (9 bilinear fetches, the usual way of folding the 25 taps), in
 *    Mpixel/s;
 *  - a copy of a 4096 x 4096 RGBA8 image with cl_intel_subgroups' image block
 *    reads and writes (one uint of each of 8 rows per work-item), in GB/s,
 *    beside a C copy of the same bytes on every CPU;
 *  - a 1024 x 1024 SGEMM reading B through a 2D image made from its buffer
 *    (cl_khr_image2d_from_buffer, CL_RGBA / CL_FLOAT) against the same kernel
 *    reading the buffer, in GFLOP/s.
 * Medians of RUNS launches after a warm-up; results checked against C.
 */
#include "bench_common.h"

#include <math.h>
#include <pthread.h>
#include <unistd.h>

#define RUNS 7
#define SIDE 4096
#define MM 1024

static const char *source =
    "const sampler_t lin = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                      CLK_FILTER_LINEAR;\n"
    "/* [1 4 6 4 1] / 16 in each direction: the pair (4, 1) is one linear fetch at\n"
    "   1.2 texels with weight 5/16. */\n"
    "kernel void blur(read_only image2d_t in, write_only image2d_t out) {\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    const float o[3] = {-1.2f, 0.0f, 1.2f}, w[3] = {5.0f / 16, 6.0f / 16, 5.0f / 16};\n"
    "    float4 sum = 0.0f;\n"
    "    for (int j = 0; j < 3; j++)\n"
    "        for (int i = 0; i < 3; i++)\n"
    "            sum += w[i] * w[j] *\n"
    "                   read_imagef(in, lin, (float2)(x + 0.5f + o[i], y + 0.5f + o[j]));\n"
    "    write_imagef(out, (int2)(x, y), sum);\n"
    "}\n"
    "#ifdef cl_intel_subgroups\n"
    "/* Each sub-group copies 8 rows of 4 x W bytes. */\n"
    "kernel void block_copy(read_only image2d_t in, write_only image2d_t out) {\n"
    "    int2 at = (int2)((int)(get_global_id(0) - get_sub_group_local_id()) * 4,\n"
    "                     (int)get_global_id(1) * 8);\n"
    "    intel_sub_group_block_write8(out, at, intel_sub_group_block_read8(in, at));\n"
    "}\n"
    "#endif\n"
    "/* C = A B, n x n; each work-item 4 columns of one row. */\n"
    "kernel void mm_buffer(global const float *a, global const float4 *b, global float4 *c,\n"
    "                      int n) {\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float4 acc = 0.0f;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        acc += a[row * n + k] * b[k * (n / 4) + col];\n"
    "    c[row * (n / 4) + col] = acc;\n"
    "}\n"
    "kernel void mm_image(global const float *a, read_only image2d_t b, global float4 *c,\n"
    "                     int n) {\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float4 acc = 0.0f;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        acc += a[row * n + k] * read_imagef(b, (int2)(col, k));\n"
    "    c[row * (n / 4) + col] = acc;\n"
    "}\n";

struct copy_job {
    const unsigned char *in;
    unsigned char *out;
    size_t bytes;
};

static void *copy_part(void *p)
{
    struct copy_job *j = p;
    memcpy(j->out, j->in, j->bytes);
    return NULL;
}

/* GB/s (read + write) of a C copy of `bytes` on every CPU. */
static double host_copy(const unsigned char *in, size_t bytes)
{
    unsigned char *out = malloc(bytes);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cpus > 0 && cpus <= 64 ? (int)cpus : 1;
    pthread_t tid[64];
    struct copy_job jobs[64];
    double t[RUNS];
    for (int r = -1; r < RUNS; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < threads; i++) {
            size_t from = bytes / threads * i,
                   to = i == threads - 1 ? bytes : bytes / threads * (i + 1);
            jobs[i] = (struct copy_job){in + from, out + from, to - from};
            pthread_create(&tid[i], NULL, copy_part, &jobs[i]);
        }
        for (int i = 0; i < threads; i++)
            pthread_join(tid[i], NULL);
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    double g = 2.0 * bytes / bench_median(t, RUNS) / 1e9;
    free(out);
    return g;
}

static float texel(const unsigned char *img, int x, int y, int c)
{
    x = x < 0 ? 0 : x >= SIDE ? SIDE - 1 : x;
    y = y < 0 ? 0 : y >= SIDE ? SIDE - 1 : y;
    return img[((size_t)y * SIDE + x) * 4 + c] / 255.0f;
}

/* The largest difference of `out` from the 5x5 blur, on sampled pixels. */
static float blur_error(const unsigned char *in, const unsigned char *out)
{
    static const float w[5] = {1, 4, 6, 4, 1};
    float worst = 0;
    for (int y = 0; y < SIDE; y += 97)
        for (int x = 0; x < SIDE; x += 89)
            for (int c = 0; c < 4; c++) {
                float s = 0;
                for (int j = -2; j <= 2; j++)
                    for (int i = -2; i <= 2; i++)
                        s += w[i + 2] * w[j + 2] / 256.0f * texel(in, x + i, y + j, c);
                float e = fabsf(out[((size_t)y * SIDE + x) * 4 + c] / 255.0f - s);
                worst = e > worst ? e : worst;
            }
    return worst;
}

static cl_mem make_image(cl_context ctx, cl_mem_flags flags, const cl_image_format *f, size_t w,
                         size_t h, cl_mem buffer, void *host)
{
    cl_image_desc d = {
        .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h, .buffer = buffer};
    cl_int err;
    cl_mem m = clCreateImage(ctx, flags, f, &d, host, &err);
    BENCH_CHECK(err);
    return m;
}

static void run(const struct bench_target *t, const unsigned char *in, const float *a,
                const float *b, const float *c_ref, double c_gbs)
{
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) {
        printf("%s: no images\n", t->name);
        return;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    BENCH_CHECK(err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "-cl-std=CL1.2", NULL, NULL));
    bench_print_not_vectorized(p, t->device, t->name);
    printf("%s:\n", t->name);

    /* Blur. */
    const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
    size_t bytes = (size_t)SIDE * SIDE * 4;
    cl_mem src = make_image(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8, SIDE, SIDE, NULL,
                            (void *)in);
    cl_mem dst = make_image(ctx, CL_MEM_READ_WRITE, &rgba8, SIDE, SIDE, NULL, NULL);
    cl_kernel k = clCreateKernel(p, "blur", &err);
    BENCH_CHECK(err);
    BENCH_CHECK(clSetKernelArg(k, 0, sizeof src, &src));
    BENCH_CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
    size_t global[2] = {SIDE, SIDE}, local[2] = {16, 4};
    double s = bench_time_kernel(q, k, RUNS, 2, global, local);
    unsigned char *out = malloc(bytes);
    const size_t origin[3] = {0, 0, 0}, region[3] = {SIDE, SIDE, 1};
    BENCH_CHECK(clEnqueueReadImage(q, dst, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
    float e = blur_error(in, out);
    double mpix = (double)SIDE * SIDE / s / 1e6;
    bench_result("images", "5x5 Gaussian blur, linear sampler", t->name, mpix, "Mpixel/s");
    printf("  %-36s %8.1f Mpixel/s (largest error %.4f)%s\n", "5x5 blur (9 linear fetches)", mpix,
           e, e > 1.5f / 255 ? " WRONG" : "");
    clReleaseKernel(k);

    /* Image block copy. */
    if (bench_has_extension(t->device, "cl_intel_subgroups")) {
        cl_mem copy = make_image(ctx, CL_MEM_WRITE_ONLY, &rgba8, SIDE, SIDE, NULL, NULL);
        k = clCreateKernel(p, "block_copy", &err);
        BENCH_CHECK(err);
        BENCH_CHECK(clSetKernelArg(k, 0, sizeof src, &src));
        BENCH_CHECK(clSetKernelArg(k, 1, sizeof copy, &copy));
        size_t g2[2] = {SIDE, SIDE / 8}, l2[2] = {64, 1};
        s = bench_time_kernel(q, k, RUNS, 2, g2, l2);
        BENCH_CHECK(clEnqueueReadImage(q, copy, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
        double g = 2.0 * bytes / s / 1e9;
        bench_result("images", "image block read/write copy", t->name, g, "GB/s");
        printf("  %-36s %8.2f GB/s (C copy %.2f GB/s: %.2f)%s\n", "image block copy (read8/write8)",
               g, c_gbs, g / c_gbs, memcmp(out, in, bytes) ? " WRONG" : "");
        clReleaseKernel(k);
        clReleaseMemObject(copy);
    }
    free(out);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);

    /* SGEMM through a buffer and through an image of the same buffer. */
    size_t mbytes = (size_t)MM * MM * sizeof(float);
    cl_mem ma =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, mbytes, (void *)a, &err);
    BENCH_CHECK(err);
    cl_mem mb =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, mbytes, (void *)b, &err);
    BENCH_CHECK(err);
    cl_mem mc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, mbytes, NULL, &err);
    BENCH_CHECK(err);
    float *c = malloc(mbytes);
    int n = MM;
    double gflop[2] = {0, 0};
    for (int v = 0; v < 2; v++) {
        cl_mem bimg = NULL;
        if (v == 1) {
            if (!bench_has_extension(t->device, "cl_khr_image2d_from_buffer")) {
                printf("  %-36s (no cl_khr_image2d_from_buffer)\n", "SGEMM, B as an image");
                break;
            }
            const cl_image_format rgba32f = {CL_RGBA, CL_FLOAT};
            bimg = make_image(ctx, CL_MEM_READ_ONLY, &rgba32f, MM / 4, MM, mb, NULL);
        }
        k = clCreateKernel(p, v ? "mm_image" : "mm_buffer", &err);
        BENCH_CHECK(err);
        BENCH_CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
        BENCH_CHECK(clSetKernelArg(k, 1, sizeof mb, v ? &bimg : &mb));
        BENCH_CHECK(clSetKernelArg(k, 2, sizeof mc, &mc));
        BENCH_CHECK(clSetKernelArg(k, 3, sizeof n, &n));
        size_t g3[2] = {MM / 4, MM}, l3[2] = {16, 4};
        s = bench_time_kernel(q, k, 3, 2, g3, l3);
        BENCH_CHECK(clEnqueueReadBuffer(q, mc, CL_TRUE, 0, mbytes, c, 0, NULL, NULL));
        float worst = 0;
        for (size_t i = 0; i < (size_t)MM * MM; i += 4099) {
            float d = fabsf(c[i] - c_ref[i]);
            worst = d > worst ? d : worst;
        }
        gflop[v] = 2.0 * MM * MM * MM / s / 1e9;
        const char *what = v ? "SGEMM, B as an image from its buffer" : "SGEMM, B as a buffer";
        bench_result("images", what, t->name, gflop[v], "GFLOP/s");
        printf("  %-36s %8.2f GFLOP/s%s\n", what, gflop[v], worst > 1e-2f ? " WRONG" : "");
        clReleaseKernel(k);
        if (bimg)
            clReleaseMemObject(bimg);
    }
    if (gflop[1] > 0)
        printf("  %-36s %8.2f\n", "image / buffer", gflop[1] / gflop[0]);
    free(c);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    size_t bytes = (size_t)SIDE * SIDE * 4;
    unsigned char *in = malloc(bytes);
    float *a = malloc((size_t)MM * MM * sizeof(float)),
          *b = malloc((size_t)MM * MM * sizeof(float));
    float *c = calloc((size_t)MM * MM, sizeof(float));
    if (!in || !a || !b || !c)
        return 1;
    for (size_t i = 0; i < bytes; i++)
        in[i] = (unsigned char)((i * 2654435761u) >> 13);
    for (size_t i = 0; i < (size_t)MM * MM; i++) {
        a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
        b[i] = (float)((i * 11) % 17) / 17.0f - 0.5f;
    }
    for (size_t r = 0; r < MM; r++)
        for (size_t k = 0; k < MM; k++)
            for (size_t col = 0; col < MM; col++)
                c[r * MM + col] += a[r * MM + k] * b[k * MM + col];
    printf("images, medians of %d\n", RUNS);
    double c_gbs = host_copy(in, bytes);
    bench_result("images", "image block read/write copy", "C loop", c_gbs, "GB/s");
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], in, a, b, c, c_gbs);
    free(in), free(a), free(b), free(c);
    return 0;
}
