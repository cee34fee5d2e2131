/*
 * gemm_bench.c — the web device's GEMM timed, for `make bench`
 * (bench/web.mjs runs it in headless chromium, bench/bench_gemm.c the same
 * shapes on one OpenBLAS thread):
 *
 *     main --gemm-bench MxNxK...
 *
 * prints one JSON line per shape: {"m":..,"n":..,"k":..,"gflops":..,
 * "max_rel_error":..}, the best of repeated fp32 runs, the result checked
 * against an fp64 reference like every GEMM the labs make.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gemm_simd.h"
#include "lab.h"
#include "timer.h"
#include "util.h"
#include "web_entry.h"

/*
 * A page that is not cross-origin isolated reads a clock coarsened to 0.1 ms:
 * each timed batch repeats the GEMM until it lasts BATCH_S, and the best of
 * at least three batches lasting MIN_TOTAL_S in all is kept.
 */
#define BATCH_S 0.02
#define MIN_TOTAL_S 0.3

static int bench_shape(int m, int n, int k)
{
    float *A = xmalloc((size_t)m * (size_t)k * sizeof *A), *B = xmalloc((size_t)k * (size_t)n * sizeof *B);
    float *C = xmalloc((size_t)m * (size_t)n * sizeof *C);
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            A[(size_t)i * (size_t)k + (size_t)p] = (float)lab_value_at(1, (unsigned)i, (unsigned)p);
    for (int p = 0; p < k; p++)
        for (int j = 0; j < n; j++)
            B[(size_t)p * (size_t)n + (size_t)j] = (float)lab_value_at(2, (unsigned)p, (unsigned)j);
    int batch = 1;
    for (;;) {
        double t0 = timer_wall();
        for (int r = 0; r < batch; r++)
            gemm_simd_f32(false, false, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);
        if (timer_wall() - t0 >= BATCH_S || batch >= 1 << 24)
            break;
        batch *= 2;
    }
    double best = 1e30, total = 0;
    for (int rep = 0; rep < 3 || total < MIN_TOTAL_S; rep++) {
        double t0 = timer_wall();
        for (int r = 0; r < batch; r++)
            gemm_simd_f32(false, false, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);
        double t = timer_wall() - t0;
        total += t;
        if (t > 0 && t / batch < best)
            best = t / batch;
    }
    /* The fp64 reference: error relative to the largest |reference| entry. */
    double maxerr = 0, maxref = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double ref = 0;
            for (int p = 0; p < k; p++)
                ref += (double)A[(size_t)i * (size_t)k + (size_t)p] * (double)B[(size_t)p * (size_t)n + (size_t)j];
            maxref = fmax(maxref, fabs(ref));
            maxerr = fmax(maxerr, fabs(ref - (double)C[(size_t)i * (size_t)n + (size_t)j]));
        }
    printf("{\"m\": %d, \"n\": %d, \"k\": %d, \"gflops\": %.6g, \"max_rel_error\": %.3g}\n", m, n, k,
           2.0 * m * n * k / best / 1e9, maxref > 0 ? maxerr / maxref : maxerr);
    free(A);
    free(B);
    free(C);
    return maxref > 0 && maxerr / maxref < 1e-5 ? 0 : 1;
}

int gemm_bench_main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 2; i < argc; i++) {
        int m, n, k;
        if (sscanf(argv[i], "%dx%dx%d", &m, &n, &k) != 3 || m < 1 || n < 1 || k < 1) {
            fprintf(stderr, "labrun: error: --gemm-bench: '%s' is not MxNxK\n", argv[i]);
            return 2;
        }
        rc |= bench_shape(m, n, k);
    }
    fflush(stdout);
    return rc;
}
