/*
 * dev_web.c — the web device: WebAssembly linear memory, the plain loops of
 * dev_host.c, and GEMM by gemm_simd.c (blocked, WebAssembly SIMD).  In the
 * module it is the host's device: dev.h's cpu-device calls, which the coop
 * backend makes, give it (there is no OpenBLAS and one thread).
 *
 * A GEMM shorter than the page's clock resolves is priced by gemm_price.c
 * (measured by repetition), and every clock of the module counts that price
 * for it instead of the one or no tick it spanned (timer_web_price): the
 * device's cost clock, the rank's CPU time and so the coop backend's
 * virtual time agree.  Every other operation, and a longer GEMM, keeps the
 * time it took.
 */
#include <stdio.h>

#include "i18n.h"
#include "dev_host.h"
#include "dev_web.h"
#include "gemm_price.h"
#include "gemm_simd.h"
#include "timer_web.h"

static int web_gemm(struct dev *d, enum dtype t, bool transa, bool transb, int m, int n, int k,
                    double alpha, const void *A, int lda, const void *B, int ldb,
                    double beta, void *C, int ldc)
{
    double price = gemm_price(t, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    double t0 = timer_web_now_ms();
    if (t == DTYPE_F64)
        gemm_simd_f64(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        gemm_simd_f32(transa, transb, m, n, k, (float)alpha, A, lda, B, ldb, (float)beta, C, ldc);
    if (price < GEMM_PRICE_RESOLVED)
        timer_web_price((timer_web_now_ms() - t0) * 1e-3, price);
    return 0;
}

static void web_note(struct dev *d, char *buf, size_t n)
{
    snprintf(buf, n, _("GEMM: blocked WebAssembly SIMD kernel on the browser's one thread "
                       "(a GEMM's whole cost is in its rank's time), fp32 and fp64 in full precision; "
                       "the page's clock ticks every 0.1 ms, so a GEMM shorter than %g ms is priced by "
                       "timing it repeated for %g ms, once per shape"), GEMM_PRICE_RESOLVED * 1e3,
             GEMM_PRICE_RESOLVED * 1e3);
}

static const struct dev_ops web_ops = {
    .name = "web",
    .alloc = dev_host_alloc,
    .free = dev_host_free,
    .copy = dev_host_copy,
    .copy2d = dev_host_copy2d,
    .gemm = web_gemm,
    .fill = dev_host_fill,
    .scale = dev_host_scale,
    .axpy = dev_host_axpy,
    .gelu = dev_host_gelu,
    .gelu_backward = dev_host_gelu_backward,
    .max_abs_diff = dev_host_max_abs_diff,
    .note = web_note,
};

struct dev *dev_web_new(int rank)
{
    return dev_new(&web_ops, rank, NULL);
}

struct dev *dev_cpu_new(int rank)
{
    return dev_web_new(rank);
}

/* The GEMM runs on the module's one thread whatever is asked. */
void dev_cpu_set_blas_threads(int n)
{
    (void)n;
}

int dev_cpu_blas_threads(void)
{
    return 1;
}
