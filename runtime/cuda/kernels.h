/*
 * kernels.h — the elementwise and reduction kernels of the CUDA device backend.
 *
 * Plain C entry points (compiled by nvcc in kernels.cu) so the C side of the
 * backend can call them.  Every launch is asynchronous on the given stream;
 * pointers are device pointers.  Launch failures are caught by CUDA_CHECK on
 * cudaGetLastError inside each entry point.
 */
#ifndef RT_CUDA_KERNELS_H
#define RT_CUDA_KERNELS_H

#include <stddef.h>
#include <cuda_runtime.h>

#include "dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x[i] = value for i < n. */
void cuk_fill(enum dtype t, void *x, size_t n, double value, cudaStream_t s);

/* x[i] *= alpha. */
void cuk_scale(enum dtype t, void *x, size_t n, double alpha, cudaStream_t s);

/* y[i] += alpha * x[i]. */
void cuk_axpy(enum dtype t, void *y, const void *x, size_t n, double alpha, cudaStream_t s);

/*
 * y[i] = gelu(x[i]) with the tanh form
 *     0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
 * (the form GPT-2 and Megatron use); y may equal x.
 */
void cuk_gelu(enum dtype t, void *y, const void *x, size_t n, cudaStream_t s);

/* dx[i] = dy[i] * gelu'(x[i]) for the form above; dx may equal dy. */
void cuk_gelu_backward(enum dtype t, void *dx, const void *x, const void *dy, size_t n,
                       cudaStream_t s);

/* y[i] = x[i] converted; copies between fp32 and fp64 buffers (same type: a copy). */
void cuk_convert(enum dtype ty, void *y, enum dtype tx, const void *x, size_t n,
                 cudaStream_t s);

/*
 * Largest |a[i] - b[i]| and largest |a[i] - b[i]| / |b[i]| (over b[i] != 0),
 * with b the reference.  Waits for the stream and returns both on the host.
 * scratch: 2 doubles of device memory the caller owns (kept across calls so
 * the check allocates nothing).  n == 0 gives 0 and 0.
 */
void cuk_max_diff(enum dtype t, const void *a, const void *b, size_t n, double *scratch,
                  double *max_abs, double *max_rel, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
