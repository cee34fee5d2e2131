/*
 * gemm_simd.h — GEMM for WebAssembly: blocked, packed, with 128-bit SIMD
 * micro-kernels (-msimd128).  Row-major, as dev.h's gemm:
 * C = alpha * op(A) op(B) + beta * C, op(A) m x k, op(B) k x n.
 */
#ifndef RT_WEB_GEMM_SIMD_H
#define RT_WEB_GEMM_SIMD_H

#include <stdbool.h>

void gemm_simd_f32(bool transa, bool transb, int m, int n, int k, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc);
void gemm_simd_f64(bool transa, bool transb, int m, int n, int k, double alpha, const double *A, int lda,
                   const double *B, int ldb, double beta, double *C, int ldc);

#endif
