/*
 * Device tests (cpu device): byte accounting, GEMM against a plain loop in
 * double, the elementwise kernels against their formulas.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"

Test(dev, accounting_tracks_current_and_peak_bytes_per_label)
{
    struct dev *d = dev_cpu_new(0);
    void *a = dev_alloc(d, 1000, "weights");
    void *b = dev_alloc(d, 500, "activations");
    void *c = dev_alloc(d, 300, "activations");
    cr_assert_eq(d->usage.current, 1800);
    cr_assert_eq(dev_bytes(d, "activations"), 800);
    cr_assert_eq(dev_bytes(d, "weights"), 1000);
    dev_free(d, b);
    cr_assert_eq(d->usage.current, 1300);
    cr_assert_eq(d->usage.peak, 1800, "the peak stays at the most held at once");
    dev_reset_peak(d);
    cr_assert_eq(d->usage.peak, 1300);
    void *e = dev_alloc(d, 100, "activations");
    cr_assert_eq(d->usage.peak, 1400);
    cr_assert_eq(d->usage.allocs, 4);
    dev_free(d, a);
    dev_free(d, c);
    dev_free(d, e);
    cr_assert_eq(d->usage.current, 0);
    dev_free_device(d);
}

Test(dev, freeing_the_device_releases_what_the_lab_left_allocated)
{
    struct dev *d = dev_cpu_new(3);
    cr_assert_not_null(dev_alloc(d, 4096, "left over"));
    cr_assert_not_null(dev_alloc(d, 0, "empty"));
    dev_free_device(d);     /* ASan reports a leak if this does not free both */
}

static void naive_gemm(bool ta, bool tb, int m, int n, int k, const double *A, int lda,
                       const double *B, int ldb, double *C, int ldc)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p < k; p++)
                s += (ta ? A[p * lda + i] : A[i * lda + p]) * (tb ? B[j * ldb + p] : B[p * ldb + j]);
            C[i * ldc + j] = s;
        }
}

Test(dev, gemm_matches_a_plain_loop_for_every_transpose_and_odd_sizes)
{
    struct dev *d = dev_cpu_new(0);
    const int m = 7, n = 5, k = 11;
    for (int t = 0; t < 2; t++) {
        enum dtype dt = t ? DTYPE_F64 : DTYPE_F32;
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++) {
                double A[77], B[55], ref[35];
                void *dA = dev_alloc(d, 77 * dtype_size(dt), "A");
                void *dB = dev_alloc(d, 55 * dtype_size(dt), "B");
                void *dC = dev_alloc(d, 35 * dtype_size(dt), "C");
                for (int i = 0; i < 77; i++) {
                    A[i] = (i % 13) * 0.25 - 1.5;
                    dtype_set(dt, dA, (size_t)i, A[i]);
                }
                for (int i = 0; i < 55; i++) {
                    B[i] = (i % 7) * 0.5 - 1.0;
                    dtype_set(dt, dB, (size_t)i, B[i]);
                }
                int lda = ta ? m : k, ldb = tb ? k : n;
                naive_gemm(ta, tb, m, n, k, A, lda, B, ldb, ref, n);
                cr_assert_eq(dev_gemm(d, dt, ta, tb, m, n, k, 1.0, dA, lda, dB, ldb, 0.0, dC, n), 0);
                for (int i = 0; i < 35; i++)
                    cr_assert_float_eq(dtype_get(dt, dC, (size_t)i), ref[i], 1e-5,
                                       "%s ta=%d tb=%d element %d", dtype_name(dt), ta, tb, i);
                dev_free(d, dA);
                dev_free(d, dB);
                dev_free(d, dC);
            }
    }
    dev_free_device(d);
}

Test(dev, gemm_with_beta_one_accumulates_into_c)
{
    struct dev *d = dev_cpu_new(0);
    double A[4] = { 1, 2, 3, 4 }, B[4] = { 1, 0, 0, 1 }, C[4] = { 10, 10, 10, 10 };
    cr_assert_eq(dev_gemm(d, DTYPE_F64, false, false, 2, 2, 2, 1.0, A, 2, B, 2, 1.0, C, 2), 0);
    cr_assert_eq(C[0], 11);
    cr_assert_eq(C[3], 14);
    dev_free_device(d);
}

Test(dev, elementwise_kernels_follow_their_formulas)
{
    struct dev *d = dev_cpu_new(0);
    double x[5] = { -2, -0.5, 0, 0.5, 3 }, y[5], dx[5], ones[5];
    cr_assert_eq(dev_fill(d, DTYPE_F64, ones, 5, 1.0), 0);
    cr_assert_eq(dev_gelu(d, DTYPE_F64, 5, x, y), 0);
    for (int i = 0; i < 5; i++) {
        double want = 0.5 * x[i] * (1 + tanh(sqrt(2 / M_PI) * (x[i] + 0.044715 * pow(x[i], 3))));
        cr_assert_float_eq(y[i], want, 1e-15);
    }
    /* gelu' against a central difference */
    cr_assert_eq(dev_gelu_backward(d, DTYPE_F64, 5, x, ones, dx), 0);
    for (int i = 0; i < 5; i++) {
        double h = 1e-6, a[1] = { x[i] + h }, b[1] = { x[i] - h }, ga[1], gb[1];
        dev_gelu(d, DTYPE_F64, 1, a, ga);
        dev_gelu(d, DTYPE_F64, 1, b, gb);
        cr_assert_float_eq(dx[i], (ga[0] - gb[0]) / (2 * h), 1e-7);
    }
    cr_assert_eq(dev_axpy(d, DTYPE_F64, 5, 2.0, ones, x), 0);
    cr_assert_eq(x[0], 0);
    cr_assert_eq(x[4], 5);
    cr_assert_eq(dev_scale(d, DTYPE_F64, x, 5, -1.0), 0);
    cr_assert_eq(x[4], -5);
    double m;
    cr_assert_eq(dev_max_abs_diff(d, DTYPE_F64, 5, x, ones, &m), 0);
    cr_assert_eq(m, 6);
    dev_free_device(d);
}

Test(dev, copy2d_moves_a_column_block_of_a_row_major_matrix)
{
    struct dev *d = dev_cpu_new(0);
    float src[12], dst[6];
    for (int i = 0; i < 12; i++)
        src[i] = (float)i;      /* 3 x 4 */
    /* columns 1..2 of every row */
    cr_assert_eq(dev_copy2d(d, dst, 2 * sizeof(float), src + 1, 4 * sizeof(float),
                            2 * sizeof(float), 3, DEV_D2D), 0);
    float want[6] = { 1, 2, 5, 6, 9, 10 };
    for (int i = 0; i < 6; i++)
        cr_assert_eq(dst[i], want[i]);
    dev_free_device(d);
}

Test(dev, a_freed_block_is_reused_for_the_same_size_and_counted_only_while_held)
{
    struct dev *d = dev_cpu_new(0);
    void *a = dev_alloc(d, 4096, "activations");
    dev_free(d, a);
    cr_assert_eq(d->usage.current, 0);
    cr_assert_eq(d->usage.reserved, 4096, "the block is kept for reuse");
    void *b = dev_alloc(d, 4096, "activations");
    cr_assert_eq(b, a, "the same size gets the kept block back");
    cr_assert_eq(d->usage.current, 4096);
    cr_assert_eq(d->usage.reserved, 4096);
    void *c = dev_alloc(d, 100, "other");
    cr_assert_neq(c, a);
    cr_assert_eq(d->usage.reserved, 4196);
    dev_free(d, b);
    dev_free(d, c);
    dev_trim(d);
    cr_assert_eq(d->usage.reserved, 0);
    dev_free_device(d);
}

Test(dev, a_buffer_of_megabytes_starts_on_a_huge_page_and_is_counted_as_asked)
{
    struct dev *d = dev_cpu_new(0);
    size_t big = ((size_t)3 << 20) + 1, small = 1000;
    unsigned char *a = dev_alloc(d, big, "activations");
    unsigned char *b = dev_alloc(d, small, "weights");
    cr_assert_not_null(a);
    cr_assert_not_null(b);
#if defined(__linux__)
    cr_assert_eq((uintptr_t)a % ((uintptr_t)2 << 20), 0, "a buffer of 2 MiB or more starts on a 2 MiB edge");
#endif
    cr_assert_eq((uintptr_t)b % 64, 0, "a small one on a cache line");
    memset(a, 0xab, big);                   /* every byte asked for is there (ASan checks the edge) */
    cr_assert_eq(a[big - 1], 0xab);
    cr_assert_eq(d->usage.current, big + small, "the bytes asked for, not the pages behind them");
    dev_free(d, a);
    dev_free(d, b);
    dev_free_device(d);
}
