/*
 * dev_cpu.c — the cpu device: host memory and the plain loops of dev_host.c,
 * GEMM and axpy by OpenBLAS's cblas.
 */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "dev_host.h"
#include "i18n.h"

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

static int cpu_axpy(struct dev *d, enum dtype t, size_t n, double a, const void *x, void *y)
{
    if (t == DTYPE_F64)
        cblas_daxpy((int)n, a, x, 1, y, 1);
    else
        cblas_saxpy((int)n, (float)a, x, 1, y, 1);
    return 0;
}

/* Every fp32 and fp64 GEMM is computed in its own precision: OpenBLAS has no TF32. */
static void cpu_note(struct dev *d, char *buf, size_t n)
{
    int t = openblas_get_num_threads();
    snprintf(buf, n, ngettext("GEMM: OpenBLAS with %d thread per GEMM%s, fp32 and fp64 in full precision%s",
                              "GEMM: OpenBLAS with %d threads per GEMM%s, fp32 and fp64 in full precision%s",
                              (unsigned long)t),
             t, t == 1 ? _(" (a GEMM's whole cost is in its rank's thread CPU time)") : "",
             dev_tf32_allowed() ? _("; --tf32 has no effect on the cpu device") : "");
}

static const struct dev_ops cpu_ops = {
    .name = "cpu",
    .alloc = dev_host_alloc,
    .free = dev_host_free,
    .copy = dev_host_copy,
    .copy2d = dev_host_copy2d,
    .gemm = cpu_gemm,
    .fill = dev_host_fill,
    .scale = dev_host_scale,
    .axpy = cpu_axpy,
    .gelu = dev_host_gelu,
    .gelu_backward = dev_host_gelu_backward,
    .max_abs_diff = dev_host_max_abs_diff,
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
