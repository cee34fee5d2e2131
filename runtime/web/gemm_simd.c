/*
 * gemm_simd.c — blocked GEMM with WebAssembly SIMD (gemm_simd.h).
 *
 * The classic layout: op(B) is packed a KC x n panel at a time into strips
 * NR columns wide, op(A) an MC x KC block at a time into strips MR rows
 * high, and a micro-kernel keeps an MR x NR tile of C in SIMD registers
 * while it walks the shared dimension.  Packing applies the transposes, so
 * the kernels read both operands with unit stride.  fp32 tiles are 4 x 8
 * (two f32x4 per row), fp64 tiles 4 x 4 (two f64x2 per row).
 */
#include <stdlib.h>
#include <string.h>
#include <wasm_simd128.h>

#include "gemm_simd.h"
#include "util.h"

#define MR 4
#define KC 256
#define MC 64

/* Element (i, j) of op(X) for a row-major X with leading dimension ld. */
#define AT(X, trans, ld, i, j) ((trans) ? (X)[(size_t)(j) * (size_t)(ld) + (size_t)(i)] \
                                        : (X)[(size_t)(i) * (size_t)(ld) + (size_t)(j)])

/*
 * The packed panels, kept between calls (a lab makes many small GEMMs, and
 * the module runs one at a time: a GEMM never yields to another rank).
 */
struct scratch {
    void *p;
    size_t bytes;
};
static struct scratch scratch_a, scratch_b;

static void *scratch(struct scratch *s, size_t bytes)
{
    if (bytes > s->bytes) {
        free(s->p);
        s->p = xmalloc(bytes);
        s->bytes = bytes;
    }
    return s->p;
}

/* C = beta C over m x n, exactly 0 when beta is 0 (so NaN in C does not survive, as BLAS). */
#define SCALE_C(T)                                                             \
    for (int i = 0; i < m; i++) {                                              \
        T *row = C + (size_t)i * (size_t)ldc;                                  \
        if (beta == 0)                                                         \
            memset(row, 0, (size_t)n * sizeof *row);                           \
        else if (beta != 1)                                                    \
            for (int j = 0; j < n; j++)                                        \
                row[j] *= beta;                                                \
    }

/*
 * The driver, the same for both types: T the element, NR the tile width,
 * KERNEL(kc, a, b, tile) computes the MR x NR tile a . b into tile, and
 * ADD(crow, tile row, alpha) adds alpha times a whole tile row into C.  A
 * panel of B that is whole and not transposed is packed a row at a time.
 */
#define GEMM_BODY(T, NR, KERNEL, ADD)                                                             \
    SCALE_C(T)                                                                                    \
    if (k <= 0 || m <= 0 || n <= 0 || alpha == 0)                                                 \
        return;                                                                                   \
    int npanels = (n + NR - 1) / NR;                                                              \
    T *bp = scratch(&scratch_b, (size_t)npanels * KC * NR * sizeof *bp);                          \
    T *ap = scratch(&scratch_a, (size_t)MC * KC * sizeof *ap);                                    \
    T tile[MR * NR];                                                                              \
    for (int p0 = 0; p0 < k; p0 += KC) {                                                          \
        int kc = k - p0 < KC ? k - p0 : KC;                                                       \
        for (int jp = 0; jp < npanels; jp++)                                                      \
            for (int p = 0; p < kc; p++)                                                          \
                if (!transb && (jp + 1) * NR <= n)                                                \
                    memcpy(bp + ((size_t)jp * KC + p) * NR, B + (size_t)(p0 + p) * (size_t)ldb + (size_t)jp * NR, \
                           NR * sizeof *bp);                                                      \
                else                                                                              \
                for (int jj = 0; jj < NR; jj++) {                                                 \
                    int j = jp * NR + jj;                                                         \
                    bp[((size_t)jp * KC + p) * NR + jj] = j < n ? AT(B, transb, ldb, p0 + p, j) : 0; \
                }                                                                                 \
        for (int i0 = 0; i0 < m; i0 += MC) {                                                      \
            int mc = m - i0 < MC ? m - i0 : MC;                                                   \
            int strips = (mc + MR - 1) / MR;                                                      \
            for (int s = 0; s < strips; s++)                                                      \
                for (int p = 0; p < kc; p++)                                                      \
                    for (int ii = 0; ii < MR; ii++) {                                             \
                        int i = s * MR + ii;                                                      \
                        ap[((size_t)s * KC + p) * MR + ii] = i < mc ? AT(A, transa, lda, i0 + i, p0 + p) : 0; \
                    }                                                                             \
            for (int s = 0; s < strips; s++)                                                      \
                for (int jp = 0; jp < npanels; jp++) {                                            \
                    KERNEL(kc, ap + (size_t)s * KC * MR, bp + (size_t)jp * KC * NR, tile);        \
                    bool whole = (jp + 1) * NR <= n;                                              \
                    for (int ii = 0; ii < MR && i0 + s * MR + ii < m; ii++) {                     \
                        T *crow = C + (size_t)(i0 + s * MR + ii) * (size_t)ldc + (size_t)jp * NR; \
                        if (whole)                                                                \
                            ADD(crow, tile + ii * NR, alpha);                                     \
                        else                                                                      \
                            for (int jj = 0; jj < NR && jp * NR + jj < n; jj++)                   \
                                crow[jj] += alpha * tile[ii * NR + jj];                           \
                    }                                                                             \
                }                                                                                 \
        }                                                                                         \
    }

/* fp32: a 4 x 8 tile, two f32x4 per row. */
static void kernel_f32(int kc, const float *a, const float *b, float *tile)
{
    v128_t c00 = wasm_f32x4_splat(0), c01 = c00, c10 = c00, c11 = c00;
    v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
    for (int p = 0; p < kc; p++, a += MR, b += 8) {
        v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 4);
        v128_t a0 = wasm_f32x4_splat(a[0]), a1 = wasm_f32x4_splat(a[1]);
        v128_t a2 = wasm_f32x4_splat(a[2]), a3 = wasm_f32x4_splat(a[3]);
        c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(a0, b0));
        c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(a0, b1));
        c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(a1, b0));
        c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(a1, b1));
        c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(a2, b0));
        c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(a2, b1));
        c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(a3, b0));
        c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(a3, b1));
    }
    wasm_v128_store(tile + 0, c00);
    wasm_v128_store(tile + 4, c01);
    wasm_v128_store(tile + 8, c10);
    wasm_v128_store(tile + 12, c11);
    wasm_v128_store(tile + 16, c20);
    wasm_v128_store(tile + 20, c21);
    wasm_v128_store(tile + 24, c30);
    wasm_v128_store(tile + 28, c31);
}

/* fp64: a 4 x 4 tile, two f64x2 per row. */
static void kernel_f64(int kc, const double *a, const double *b, double *tile)
{
    v128_t c00 = wasm_f64x2_splat(0), c01 = c00, c10 = c00, c11 = c00;
    v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
    for (int p = 0; p < kc; p++, a += MR, b += 4) {
        v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 2);
        v128_t a0 = wasm_f64x2_splat(a[0]), a1 = wasm_f64x2_splat(a[1]);
        v128_t a2 = wasm_f64x2_splat(a[2]), a3 = wasm_f64x2_splat(a[3]);
        c00 = wasm_f64x2_add(c00, wasm_f64x2_mul(a0, b0));
        c01 = wasm_f64x2_add(c01, wasm_f64x2_mul(a0, b1));
        c10 = wasm_f64x2_add(c10, wasm_f64x2_mul(a1, b0));
        c11 = wasm_f64x2_add(c11, wasm_f64x2_mul(a1, b1));
        c20 = wasm_f64x2_add(c20, wasm_f64x2_mul(a2, b0));
        c21 = wasm_f64x2_add(c21, wasm_f64x2_mul(a2, b1));
        c30 = wasm_f64x2_add(c30, wasm_f64x2_mul(a3, b0));
        c31 = wasm_f64x2_add(c31, wasm_f64x2_mul(a3, b1));
    }
    wasm_v128_store(tile + 0, c00);
    wasm_v128_store(tile + 2, c01);
    wasm_v128_store(tile + 4, c10);
    wasm_v128_store(tile + 6, c11);
    wasm_v128_store(tile + 8, c20);
    wasm_v128_store(tile + 10, c21);
    wasm_v128_store(tile + 12, c30);
    wasm_v128_store(tile + 14, c31);
}

/* crow[0..8) += alpha * t[0..8) (C's rows need not be aligned: unaligned loads). */
static inline void add_f32(float *crow, const float *t, float alpha)
{
    v128_t a = wasm_f32x4_splat(alpha);
    wasm_v128_store(crow, wasm_f32x4_add(wasm_v128_load(crow), wasm_f32x4_mul(a, wasm_v128_load(t))));
    wasm_v128_store(crow + 4, wasm_f32x4_add(wasm_v128_load(crow + 4), wasm_f32x4_mul(a, wasm_v128_load(t + 4))));
}

/* crow[0..4) += alpha * t[0..4). */
static inline void add_f64(double *crow, const double *t, double alpha)
{
    v128_t a = wasm_f64x2_splat(alpha);
    wasm_v128_store(crow, wasm_f64x2_add(wasm_v128_load(crow), wasm_f64x2_mul(a, wasm_v128_load(t))));
    wasm_v128_store(crow + 2, wasm_f64x2_add(wasm_v128_load(crow + 2), wasm_f64x2_mul(a, wasm_v128_load(t + 2))));
}

void gemm_simd_f32(bool transa, bool transb, int m, int n, int k, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc)
{
    GEMM_BODY(float, 8, kernel_f32, add_f32)
}

void gemm_simd_f64(bool transa, bool transb, int m, int n, int k, double alpha, const double *A, int lda,
                   const double *B, int ldb, double beta, double *C, int ldc)
{
    GEMM_BODY(double, 4, kernel_f64, add_f64)
}
