/*
 * gemm_check.c — the web GEMM against an fp64 reference on the shapes that
 * exercise its blocking (edges of the 4 x 8 / 4 x 4 tiles, more rows than a
 * 64-row block, a shared dimension over a 256 panel, k = 0), every
 * transpose, alpha and beta, fp32 and fp64 (make test: mk/web.mk):
 *
 *     main --gemm-check
 *
 * prints one line per failure and a summary; exit status 0 when every
 * result is within the tolerance of its type.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gemm_simd.h"
#include "lab.h"
#include "util.h"
#include "web_entry.h"

/* One case: 0 when C matches the reference within tol of the largest |entry|. */
static int check(bool f64, bool ta, bool tb, int m, int n, int k, double alpha, double beta)
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
    if (f64)
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
        printf("FAIL %s transa=%d transb=%d m=%d n=%d k=%d alpha=%g beta=%g: relative error %.3g > %g\n",
               f64 ? "fp64" : "fp32", ta, tb, m, n, k, alpha, beta, rel, tol);
    free(A), free(B), free(C), free(Af), free(Bf), free(Cf), free(out);
    return bad;
}

int gemm_check_main(int argc, char **argv)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 3, 5, 7 }, { 4, 8, 16 }, { 9, 17, 33 }, { 70, 13, 300 },
                                     { 65, 31, 257 }, { 16, 64, 64 }, { 5, 6, 0 } };
    static const double ab[][2] = { { 1, 0 }, { 0.5, 1 }, { -2, 0.25 } };
    int cases = 0, failed = 0;
    for (int f = 0; f < 2; f++)
        for (int t = 0; t < 4; t++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (size_t a = 0; a < sizeof ab / sizeof ab[0]; a++, cases++)
                    failed += check(f, t & 1, t >> 1, shapes[s][0], shapes[s][1], shapes[s][2], ab[a][0], ab[a][1]);
    printf("gemm-check: %d cases, %d failed\n", cases, failed);
    return failed ? 1 : 0;
}
