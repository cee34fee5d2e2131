/*
 * bench_gemm.c — fp32 GEMM on one OpenBLAS thread, the native side of the
 * web GEMM's ratio (bench/web.mjs runs runtime/web/gemm_bench.c's same
 * shapes in headless chromium):
 *
 *     bench_gemm MxNxK...
 *
 * prints one JSON line per shape, as gemm_bench.c does: the best of
 * repeated runs in GFLOP/s and the error against an fp64 reference, on the
 * labs' test data (lab_value_at), as the page's.
 */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lab.h"

#define MIN_TOTAL_S 0.3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    openblas_set_num_threads(1);
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        int m, n, k;
        if (sscanf(argv[i], "%dx%dx%d", &m, &n, &k) != 3 || m < 1 || n < 1 || k < 1) {
            fprintf(stderr, "bench_gemm: '%s' is not MxNxK\n", argv[i]);
            return 2;
        }
        float *A = malloc((size_t)m * k * sizeof *A), *B = malloc((size_t)k * n * sizeof *B);
        float *C = malloc((size_t)m * n * sizeof *C);
        if (!A || !B || !C)
            return 1;
        for (int r = 0; r < m; r++)
            for (int p = 0; p < k; p++)
                A[(size_t)r * k + p] = (float)lab_value_at(1, (unsigned)r, (unsigned)p);
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++)
                B[(size_t)p * n + j] = (float)lab_value_at(2, (unsigned)p, (unsigned)j);
        double best = 1e30, total = 0;
        for (int rep = 0; rep < 3 || total < MIN_TOTAL_S; rep++) {
            double t0 = now();
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);
            double t = now() - t0;
            total += t;
            if (t > 0 && t < best)
                best = t;
        }
        double maxerr = 0, maxref = 0;
        for (int r = 0; r < m; r++)
            for (int j = 0; j < n; j++) {
                double ref = 0;
                for (int p = 0; p < k; p++)
                    ref += (double)A[(size_t)r * k + p] * (double)B[(size_t)p * n + j];
                maxref = fmax(maxref, fabs(ref));
                maxerr = fmax(maxerr, fabs(ref - (double)C[(size_t)r * n + j]));
            }
        printf("{\"m\": %d, \"n\": %d, \"k\": %d, \"gflops\": %.6g, \"max_rel_error\": %.3g}\n", m, n, k,
               2.0 * m * n * k / best / 1e9, maxref > 0 ? maxerr / maxref : maxerr);
        rc |= !(maxref > 0 && maxerr / maxref < 1e-5);
        free(A);
        free(B);
        free(C);
    }
    return rc;
}
