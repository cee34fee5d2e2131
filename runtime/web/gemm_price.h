/*
 * gemm_price.h — what one GEMM costs the web device, measured where the
 * page's clock is too coarse to time a single call (gemm_price.c).
 */
#ifndef RT_WEB_GEMM_PRICE_H
#define RT_WEB_GEMM_PRICE_H

#include <stdbool.h>

#include "dev.h"

/*
 * Below this many seconds a single GEMM is priced by repetition: the page's
 * clock ticks every 0.1 ms, so one call of at least this long is timed to
 * 1 % by itself.
 */
#define GEMM_PRICE_RESOLVED 0.01

/*
 * Seconds one call of this GEMM costs (C = alpha op(A) op(B) + beta C,
 * row-major, as dev.h's gemm): the first call of each distinct GEMM (type,
 * transposes, m, n, k, leading dimensions, beta zero or not) runs it again
 * and again on a copy of C until GEMM_PRICE_RESOLVED seconds have passed on
 * the page's clock, and divides (the fastest of up to 4 such rounds, while
 * the browser swaps in optimised code); later calls reuse that figure.  The time
 * spent pricing is taken off the module's clocks (timer_web_hide).  C is
 * only read.
 */
double gemm_price(enum dtype t, bool transa, bool transb, int m, int n, int k, double alpha,
                  const void *A, int lda, const void *B, int ldb, double beta, const void *C, int ldc);

#endif
