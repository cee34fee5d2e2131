/*
 * The cuda device against the cpu device: the same inputs through both, every
 * result compared with abs + rel tolerance (fp32: 1e-5, fp64: 1e-12), and
 * the byte accounting on GPU memory.  Each test skips, with the driver's
 * reason, where there is no GPU.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "dev.h"
#include "dev_cuda.h"
#include "gpu_skip.h"

static double tol(enum dtype t) { return t == DTYPE_F64 ? 1e-12 : 1e-5; }

/* Deterministic inputs in [-1, 1). */
static void fill_host(enum dtype t, void *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        dtype_set(t, x, i, (double)((seed >> 8) & 0xffff) / 32768.0 - 1.0);
    }
}

/* Largest |a - b| - (tol + tol |b|) over the arrays: <= 0 when they agree. */
static double excess(enum dtype t, const void *a, const void *b, size_t n)
{
    double worst = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double x = dtype_get(t, a, i), y = dtype_get(t, b, i);
        double e = fabs(x - y) - (tol(t) + tol(t) * fabs(y));
        if (isnan(x) || e > worst)
            worst = isnan(x) ? INFINITY : e;
    }
    return n ? worst : 0;
}

/* A host array into new memory of d. */
static void *upload(struct dev *d, enum dtype t, const void *h, size_t n)
{
    void *p = dev_alloc(d, n * dtype_size(t), "test");
    cr_assert_not_null(p);
    cr_assert_eq(dev_copy(d, p, h, n * dtype_size(t), DEV_H2D), 0);
    return p;
}

Test(dev_cuda, gemm_agrees_with_openblas_for_every_transpose_odd_sizes_and_both_types)
{
    need_gpus(1);
    struct dev *g = dev_cuda_new(0, 0), *c = dev_cpu_new(0);
    const int m = 37, n = 23, k = 71;
    for (int ti = 0; ti < 2; ti++) {
        enum dtype t = ti ? DTYPE_F64 : DTYPE_F32;
        size_t es = dtype_size(t);
        for (int tr = 0; tr < 4; tr++) {
            bool ta = tr & 1, tb = tr & 2;
            int lda = ta ? m : k, ldb = tb ? k : n;
            void *A = malloc((size_t)m * k * es), *B = malloc((size_t)k * n * es);
            void *C0 = malloc((size_t)m * n * es), *C1 = malloc((size_t)m * n * es);
            fill_host(t, A, (size_t)m * k, 1);
            fill_host(t, B, (size_t)k * n, 2);
            fill_host(t, C0, (size_t)m * n, 3);
            fill_host(t, C1, (size_t)m * n, 3);
            void *gA = upload(g, t, A, (size_t)m * k), *gB = upload(g, t, B, (size_t)k * n);
            void *gC = upload(g, t, C1, (size_t)m * n);
            cr_assert_eq(dev_gemm(c, t, ta, tb, m, n, k, 0.5, A, lda, B, ldb, 0.25, C0, n), 0);
            cr_assert_eq(dev_gemm(g, t, ta, tb, m, n, k, 0.5, gA, lda, gB, ldb, 0.25, gC, n), 0);
            cr_assert_eq(dev_copy(g, C1, gC, (size_t)m * n * es, DEV_D2H), 0);
            double e = excess(t, C1, C0, (size_t)m * n);
            cr_assert(e <= 0, "%s gemm transa=%d transb=%d exceeds the tolerance by %g",
                      dtype_name(t), ta, tb, e);
            dev_free(g, gA);
            dev_free(g, gB);
            dev_free(g, gC);
            free(A); free(B); free(C0); free(C1);
        }
    }
    dev_free_device(g);
    dev_free_device(c);
}

Test(dev_cuda, elementwise_kernels_agree_with_the_cpu_device)
{
    need_gpus(1);
    struct dev *g = dev_cuda_new(0, 0), *c = dev_cpu_new(0);
    const size_t n = 100003;    /* more than one block per thread, not a multiple of 256 */
    for (int ti = 0; ti < 2; ti++) {
        enum dtype t = ti ? DTYPE_F64 : DTYPE_F32;
        size_t bytes = n * dtype_size(t);
        void *x = malloc(bytes), *y = malloc(bytes), *dy = malloc(bytes), *got = malloc(bytes);
        fill_host(t, x, n, 11);
        fill_host(t, y, n, 12);
        fill_host(t, dy, n, 13);
        void *gx = upload(g, t, x, n), *gy = upload(g, t, y, n), *gdy = upload(g, t, dy, n);
        /* Each step on both devices, then the cuda result against the cpu one. */
        dev_axpy(c, t, n, -1.5, x, y);
        dev_axpy(g, t, n, -1.5, gx, gy);
        dev_copy(g, got, gy, bytes, DEV_D2H);
        cr_assert(excess(t, got, y, n) <= 0, "%s axpy", dtype_name(t));
        dev_scale(c, t, y, n, 0.75);
        dev_scale(g, t, gy, n, 0.75);
        dev_copy(g, got, gy, bytes, DEV_D2H);
        cr_assert(excess(t, got, y, n) <= 0, "%s scale", dtype_name(t));
        dev_gelu(c, t, n, y, y);
        dev_gelu(g, t, n, gy, gy);
        dev_copy(g, got, gy, bytes, DEV_D2H);
        cr_assert(excess(t, got, y, n) <= 0, "%s gelu in place", dtype_name(t));
        dev_gelu_backward(c, t, n, x, dy, dy);
        dev_gelu_backward(g, t, n, gx, gdy, gdy);
        dev_copy(g, got, gdy, bytes, DEV_D2H);
        cr_assert(excess(t, got, dy, n) <= 0, "%s gelu backward", dtype_name(t));
        dev_fill(c, t, x, n, 3.25);
        dev_fill(g, t, gx, n, 3.25);
        dev_copy(g, got, gx, bytes, DEV_D2H);
        cr_assert(excess(t, got, x, n) <= 0, "%s fill", dtype_name(t));
        dev_free(g, gx);
        dev_free(g, gy);
        dev_free(g, gdy);
        free(x); free(y); free(dy); free(got);
    }
    dev_free_device(g);
    dev_free_device(c);
}

Test(dev_cuda, max_abs_diff_finds_the_largest_difference_and_reports_nan_as_infinite)
{
    need_gpus(1);
    struct dev *g = dev_cuda_new(0, 0);
    const size_t n = 70001;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), out = -1;
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] = (double)i;
    a[12345] += 0.5;
    a[n - 1] -= 2.0;        /* the largest, in the last element */
    void *ga = upload(g, DTYPE_F64, a, n), *gb = upload(g, DTYPE_F64, b, n);
    cr_assert_eq(dev_max_abs_diff(g, DTYPE_F64, n, ga, gb, &out), 0);
    cr_assert_float_eq(out, 2.0, 0, "max |a - b| is %g", out);
    cr_assert_eq(dev_max_abs_diff(g, DTYPE_F64, 0, ga, gb, &out), 0);
    cr_assert_float_eq(out, 0.0, 0, "no elements, no difference");
    a[7] = NAN;
    dev_copy(g, ga, a, n * sizeof *a, DEV_H2D);
    dev_max_abs_diff(g, DTYPE_F64, n, ga, gb, &out);
    cr_assert(isinf(out), "a NaN must not hide: got %g", out);
    dev_free_device(g);
    free(a);
    free(b);
}

Test(dev_cuda, copy2d_moves_a_column_block_out_and_back)
{
    need_gpus(1);
    struct dev *g = dev_cuda_new(0, 0);
    enum { R = 9, C = 13, W = 5, OFF = 4 };
    float h[R][C], back[R][W];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            h[i][j] = (float)(i * 100 + j);
    float *gp = dev_alloc(g, sizeof back, "block");
    cr_assert_eq(dev_copy2d(g, gp, W * sizeof(float), &h[0][OFF], C * sizeof(float),
                            W * sizeof(float), R, DEV_H2D), 0);
    cr_assert_eq(dev_copy(g, back, gp, sizeof back, DEV_D2H), 0);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < W; j++)
            cr_assert_eq(back[i][j], h[i][OFF + j], "element (%d,%d)", i, j);
    dev_free_device(g);
}

Test(dev_cuda, accounting_counts_gpu_allocations_current_and_peak)
{
    need_gpus(1);
    struct dev *g = dev_cuda_new(0, 0);
    void *a = dev_alloc(g, 1 << 20, "weights");
    void *b = dev_alloc(g, 3 << 20, "activations");
    cr_assert_eq(g->usage.current, 4u << 20);
    dev_free(g, b);
    cr_assert_eq(g->usage.current, 1u << 20);
    cr_assert_eq(g->usage.peak, 4u << 20);
    cr_assert_eq(dev_bytes(g, "weights"), 1u << 20);
    cr_assert_not_null(dev_alloc(g, 0, "empty"));
    dev_free(g, a);
    dev_free_device(g);
}

Test(dev_cuda, the_cost_clock_prices_a_gemm_by_its_gpu_time)
{
    need_gpus(1);
    struct dev *g = dev_cuda_new(0, 0);
    const int n = 2048;
    float *a = dev_alloc(g, (size_t)n * n * sizeof *a, "a");
    float *c = dev_alloc(g, (size_t)n * n * sizeof *c, "c");
    dev_fill(g, DTYPE_F32, a, (size_t)n * n, 0.5);
    dev_gemm(g, DTYPE_F32, false, false, n, n, n, 1.0, a, n, a, n, 0.0, c, n);  /* warm up */
    double t0 = dev_clock(g);
    double idle = dev_clock(g) - t0;
    double t1 = dev_clock(g);
    for (int i = 0; i < 4; i++)
        dev_gemm(g, DTYPE_F32, false, false, n, n, n, 1.0, a, n, a, n, 0.0, c, n);
    double busy = dev_clock(g) - t1;
    cr_assert(idle >= 0 && busy > 0, "readings go forward (idle %g s, busy %g s)", idle, busy);
    cr_assert(busy > 10 * idle, "four 2048^3 GEMMs (%g s) cost more than nothing (%g s)", busy, idle);
    /* 4 x 2 n^3 flops in under a minute and above 1 GFLOP/s: the reading is seconds, not ms or us. */
    double rate = 4 * 2.0 * n * n * n / busy;
    cr_assert(rate > 1e9 && rate < 1e16, "%g flop/s", rate);
    dev_free_device(g);
}
