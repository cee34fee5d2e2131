/*
 * gemm_price.c — a GEMM's cost on the web device, measured by repetition.
 *
 * A page that is not cross-origin isolated reads performance.now() in steps
 * of 0.1 ms; a lab's GEMM at a quiz's sizes takes a few microseconds, so one
 * call times as 0 or 0.1 ms, and a figure built from the median or a
 * quantile of such times (the bubble lab's operation costs) is 0.  Here each
 * distinct GEMM is run on a copy of its output until the clock has moved by
 * GEMM_PRICE_RESOLVED (100 ticks: the count of ticks is right to 1 %), and
 * its cost is that time over the number of calls (the fastest of a few such
 * rounds): still measured, in this page, on this data, only over many calls
 * instead of one.
 */
#include <stdlib.h>
#include <string.h>

#include "gemm_price.h"
#include "gemm_simd.h"
#include "timer_web.h"
#include "util.h"

/* A distinct GEMM and its cost. */
struct price {
    enum dtype t;
    bool transa, transb, beta0;
    int m, n, k, lda, ldb, ldc;
    double seconds;
};

static struct price *prices;
static size_t nprices, capprices;

static void run(enum dtype t, bool transa, bool transb, int m, int n, int k, double alpha, const void *A,
                int lda, const void *B, int ldb, double beta, void *C, int ldc)
{
    if (t == DTYPE_F64)
        gemm_simd_f64(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        gemm_simd_f32(transa, transb, m, n, k, (float)alpha, A, lda, B, ldb, (float)beta, C, ldc);
}

/*
 * Rounds of calls, each until the clock has moved GEMM_PRICE_RESOLVED: the
 * cost per call of the fastest round.  The browser first runs a module's
 * code from its quick baseline compile and swaps in optimised code once the
 * code is hot, so a first round can be slower than the calls that follow;
 * rounds go on (up to PRICE_ROUNDS) while one is 3 % faster than the best
 * before it.  As a lab takes the lower part of its operations' times, the
 * fastest round is the GEMM's own cost, other work on the machine only ever
 * adding to it.
 */
#define PRICE_ROUNDS 4

static double measure(enum dtype t, bool transa, bool transb, int m, int n, int k, double alpha,
                      const void *A, int lda, const void *B, int ldb, double beta, const void *C, int ldc)
{
    size_t bytes = ((size_t)(m - 1) * (size_t)ldc + (size_t)n) * dtype_size(t);
    void *scratch = xmalloc(bytes);
    memcpy(scratch, C, bytes);
    double start = timer_web_now_ms(), best = 0;
    for (int round = 0; round < PRICE_ROUNDS; round++) {
        double t0 = timer_web_now_ms(), ms = 0;
        long calls = 0;
        do {
            run(t, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, scratch, ldc);
            calls++;
            ms = timer_web_now_ms() - t0;
        } while (ms < GEMM_PRICE_RESOLVED * 1e3);
        double per = ms * 1e-3 / (double)calls;
        bool better = round == 0 || per < 0.97 * best;
        if (round == 0 || per < best)
            best = per;
        if (round > 0 && !better)
            break;
    }
    free(scratch);
    timer_web_hide((timer_web_now_ms() - start) * 1e-3);
    return best;
}

double gemm_price(enum dtype t, bool transa, bool transb, int m, int n, int k, double alpha,
                  const void *A, int lda, const void *B, int ldb, double beta, const void *C, int ldc)
{
    struct price key = { .t = t, .transa = transa, .transb = transb, .beta0 = beta == 0, .m = m, .n = n,
                         .k = k, .lda = lda, .ldb = ldb, .ldc = ldc };
    for (size_t i = 0; i < nprices; i++) {
        const struct price *p = &prices[i];
        if (p->t == key.t && p->transa == key.transa && p->transb == key.transb && p->beta0 == key.beta0 &&
            p->m == m && p->n == n && p->k == k && p->lda == lda && p->ldb == ldb && p->ldc == ldc)
            return p->seconds;
    }
    if (m <= 0 || n <= 0)
        return 0;
    key.seconds = measure(t, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    if (nprices == capprices) {
        capprices = capprices ? 2 * capprices : 16;
        prices = xrealloc(prices, capprices * sizeof *prices);
    }
    prices[nprices++] = key;
    return key.seconds;
}
