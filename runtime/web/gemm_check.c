/*
 * gemm_check.c — the web GEMM against an fp64 reference on the shapes that
 * exercise its blocking (edges of the 4 x 8 / 4 x 4 tiles, more rows than a
 * 64-row block, a shared dimension over a 256 panel, k = 0), every
 * transpose, alpha and beta, fp32 and fp64, called directly and through
 * the web device, whose first call of a GEMM prices it by repetition on a
 * copy of C (gemm_price.c) and must leave C as one call would
 * (make test: mk/web.mk):
 *
 *     main --gemm-check
 *
 * prints one line per failure and a summary; exit status 0 when every
 * result is within the tolerance of its type.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "dev_web.h"
#include "gemm_price.h"
#include "gemm_simd.h"
#include "lab.h"
#include "util.h"
#include "web_entry.h"

/*
 * One case, by the kernel itself or (d) through the device: 0 when C matches
 * the reference within tol of the largest |entry|.
 */
static int check(struct dev *d, bool f64, bool ta, bool tb, int m, int n, int k, double alpha, double beta)
{
    int lda = (ta ? m : k) + 3, ldb = (tb ? k : n) + 1, ldc = n + 2;
    size_t na = (size_t)(ta ? k : m) * (size_t)lda, nb = (size_t)(tb ? n : k) * (size_t)ldb;
    size_t nc = (size_t)m * (size_t)ldc;
    double *A = xmalloc(na * sizeof *A), *B = xmalloc(nb * sizeof *B), *C = xmalloc(nc * sizeof *C);
    for (size_t i = 0; i < na; i++)
        A[i] = lab_value_at(11, (unsigned)i, 0);
    for (size_t i = 0; i < nb; i++)
        B[i] = lab_value_at(12, (unsigned)i, 0);
    for (size_t i = 0; i < nc; i++)
        C[i] = lab_value_at(13, (unsigned)i, 0);
    float *Af = xmalloc(na * sizeof *Af), *Bf = xmalloc(nb * sizeof *Bf), *Cf = xmalloc(nc * sizeof *Cf);
    for (size_t i = 0; i < na; i++)
        Af[i] = (float)A[i];
    for (size_t i = 0; i < nb; i++)
        Bf[i] = (float)B[i];
    for (size_t i = 0; i < nc; i++)
        Cf[i] = (float)C[i];
    double *out = xmalloc(nc * sizeof *out);
    for (size_t i = 0; i < nc; i++)
        out[i] = C[i];
    if (d && f64)
        dev_gemm(d, DTYPE_F64, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, out, ldc);
    else if (d) {
        dev_gemm(d, DTYPE_F32, ta, tb, m, n, k, alpha, Af, lda, Bf, ldb, beta, Cf, ldc);
        for (size_t i = 0; i < nc; i++)
            out[i] = Cf[i];
    } else if (f64)
        gemm_simd_f64(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, out, ldc);
    else {
        gemm_simd_f32(ta, tb, m, n, k, (float)alpha, Af, lda, Bf, ldb, (float)beta, Cf, ldc);
        for (size_t i = 0; i < nc; i++)
            out[i] = Cf[i];
    }
    double maxerr = 0, maxref = 1e-300;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double ref = beta == 0 ? 0 : beta * C[(size_t)i * (size_t)ldc + (size_t)j];
            for (int p = 0; p < k; p++)
                ref += alpha * (ta ? A[(size_t)p * (size_t)lda + (size_t)i] : A[(size_t)i * (size_t)lda + (size_t)p]) *
                       (tb ? B[(size_t)j * (size_t)ldb + (size_t)p] : B[(size_t)p * (size_t)ldb + (size_t)j]);
            maxref = fmax(maxref, fabs(ref));
            maxerr = fmax(maxerr, fabs(ref - out[(size_t)i * (size_t)ldc + (size_t)j]));
        }
    /* fp32 inputs are rounded copies of the fp64 ones: their rounding, k-fold, is within the tolerance. */
    double tol = f64 ? 1e-13 : 1e-5, rel = maxerr / maxref;
    int bad = !(rel <= tol);
    if (bad)
        printf("FAIL %s%s transa=%d transb=%d m=%d n=%d k=%d alpha=%g beta=%g: relative error %.3g > %g\n",
               f64 ? "fp64" : "fp32", d ? " (device)" : "", ta, tb, m, n, k, alpha, beta, rel, tol);
    free(A), free(B), free(C), free(Af), free(Bf), free(Cf), free(out);
    return bad;
}

int gemm_check_main(int argc, char **argv)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 3, 5, 7 }, { 4, 8, 16 }, { 9, 17, 33 }, { 70, 13, 300 },
                                     { 65, 31, 257 }, { 16, 64, 64 }, { 5, 6, 0 } };
    static const double ab[][2] = { { 1, 0 }, { 0.5, 1 }, { -2, 0.25 } };
    int cases = 0, failed = 0;
    struct dev *dev = dev_web_new(0);
    for (int via = 0; via < 2; via++)
        for (int f = 0; f < 2; f++)
            for (int t = 0; t < 4; t++)
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                    for (size_t a = 0; a < sizeof ab / sizeof ab[0]; a++, cases++)
                        failed += check(via ? dev : NULL, f, t & 1, t >> 1, shapes[s][0], shapes[s][1], shapes[s][2],
                                        ab[a][0], ab[a][1]);
    /*
     * The clocks: a GEMM the device priced advances the device's cost clock
     * by at least its price (the rest is the time around it), and the price
     * is kept.
     */
    int m = 16, n = 64, k = 64;
    double *A = xcalloc((size_t)m * k, sizeof *A), *B = xcalloc((size_t)k * n, sizeof *B),
           *C = xcalloc((size_t)m * n, sizeof *C);
    double price = gemm_price(DTYPE_F64, false, false, m, n, k, 1, A, k, B, n, 1, C, n);
    double c0 = dev_clock(dev);
    dev_gemm(dev, DTYPE_F64, false, false, m, n, k, 1, A, k, B, n, 1, C, n);
    double c1 = dev_clock(dev);
    cases++;
    if (!(price > 0 && price < GEMM_PRICE_RESOLVED && c1 - c0 >= price &&
          gemm_price(DTYPE_F64, false, false, m, n, k, 1, A, k, B, n, 1, C, n) == price)) {
        printf("FAIL the device's cost clock: a %dx%dx%d GEMM priced %.3g s moved it %.3g s\n", m, n, k, price, c1 - c0);
        failed++;
    }
    free(A), free(B), free(C);
    dev_free_device(dev);
    printf("gemm-check: %d cases, %d failed\n", cases, failed);
    return failed ? 1 : 0;
}
