/*
 * dev_cpu.c — the cpu device: host memory, GEMM by OpenBLAS's cblas, plain
 * loops for the elementwise kernels.
 */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "gelu.h"

static void *cpu_alloc(struct dev *d, size_t bytes)
{
    /* 64-byte alignment: what OpenBLAS's kernels like, and a cache line. */
    void *p = NULL;
    size_t rounded = (bytes + 63) / 64 * 64;
    return posix_memalign(&p, 64, rounded) == 0 ? p : NULL;
}

static void cpu_free(struct dev *d, void *p)
{
    free(p);
}

static int cpu_copy(struct dev *d, void *dst, const void *src, size_t bytes, enum dev_copy_kind k)
{
    memmove(dst, src, bytes);
    return 0;
}

static int cpu_copy2d(struct dev *d, void *dst, size_t dpitch, const void *src, size_t spitch,
                      size_t width, size_t rows, enum dev_copy_kind k)
{
    for (size_t r = 0; r < rows; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return 0;
}

static int cpu_gemm(struct dev *d, enum dtype t, bool transa, bool transb, int m, int n, int k,
                    double alpha, const void *A, int lda, const void *B, int ldb,
                    double beta, void *C, int ldc)
{
    enum CBLAS_TRANSPOSE ta = transa ? CblasTrans : CblasNoTrans;
    enum CBLAS_TRANSPOSE tb = transb ? CblasTrans : CblasNoTrans;
    if (k <= 0) {
        /* No inner dimension: C = beta C (BLAS would do the same, but some builds reject k = 0). */
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                size_t at = (size_t)i * (size_t)ldc + (size_t)j;
                dtype_set(t, C, at, beta == 0 ? 0 : beta * dtype_get(t, C, at));
            }
        return 0;
    }
    if (t == DTYPE_F64)
        cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, (float)alpha, A, lda, B, ldb, (float)beta,
                    C, ldc);
    return 0;
}

static int cpu_fill(struct dev *d, enum dtype t, void *x, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        dtype_set(t, x, i, v);
    return 0;
}

static int cpu_scale(struct dev *d, enum dtype t, void *x, size_t n, double a)
{
    for (size_t i = 0; i < n; i++)
        dtype_set(t, x, i, a * dtype_get(t, x, i));
    return 0;
}

static int cpu_axpy(struct dev *d, enum dtype t, size_t n, double a, const void *x, void *y)
{
    if (t == DTYPE_F64)
        cblas_daxpy((int)n, a, x, 1, y, 1);
    else
        cblas_saxpy((int)n, (float)a, x, 1, y, 1);
    return 0;
}

static int cpu_gelu(struct dev *d, enum dtype t, size_t n, const void *x, void *y)
{
    if (t == DTYPE_F64) {
        for (size_t i = 0; i < n; i++)
            ((double *)y)[i] = GELU(double, tanh, ((const double *)x)[i]);
    } else {
        /* float arithmetic, as a GPU kernel would do it */
        for (size_t i = 0; i < n; i++) {
            float v = ((const float *)x)[i];
            ((float *)y)[i] = GELU(float, tanhf, v);
        }
    }
    return 0;
}

static int cpu_gelu_backward(struct dev *d, enum dtype t, size_t n, const void *x, const void *dy,
                             void *dx)
{
    for (size_t i = 0; i < n; i++) {
        double v = dtype_get(t, x, i);
        dtype_set(t, dx, i, dtype_get(t, dy, i) * GELU_GRAD(double, tanh, v));
    }
    return 0;
}

static int cpu_max_abs_diff(struct dev *d, enum dtype t, size_t n, const void *x, const void *y,
                            double *out)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs(dtype_get(t, x, i) - dtype_get(t, y, i));
        if (e > m || isnan(e))
            m = e;
    }
    *out = m;
    return 0;
}

/* Every fp32 and fp64 GEMM is computed in its own precision: OpenBLAS has no TF32. */
static void cpu_note(struct dev *d, char *buf, size_t n)
{
    int t = openblas_get_num_threads();
    snprintf(buf, n, "GEMM: OpenBLAS with %d thread%s per GEMM%s, fp32 and fp64 in full precision%s",
             t, t == 1 ? "" : "s",
             t == 1 ? " (a GEMM's whole cost is in its rank's thread CPU time)" : "",
             dev_tf32_allowed() ? "; --tf32 has no effect on the cpu device" : "");
}

static const struct dev_ops cpu_ops = {
    .name = "cpu",
    .alloc = cpu_alloc,
    .free = cpu_free,
    .copy = cpu_copy,
    .copy2d = cpu_copy2d,
    .gemm = cpu_gemm,
    .fill = cpu_fill,
    .scale = cpu_scale,
    .axpy = cpu_axpy,
    .gelu = cpu_gelu,
    .gelu_backward = cpu_gelu_backward,
    .max_abs_diff = cpu_max_abs_diff,
    .sync = NULL,
    .fini = NULL,
    .note = cpu_note,
};

struct dev *dev_cpu_new(int rank)
{
    return dev_new(&cpu_ops, rank, NULL);
}

void dev_cpu_set_blas_threads(int n)
{
    openblas_set_num_threads(n);
}

int dev_cpu_blas_threads(void)
{
    return openblas_get_num_threads();
}
