// kernels.cu — elementwise and reduction kernels of the CUDA device backend.
// One template per operation, instantiated for float and double; the C entry
// points in kernels.h pick the instance from the element type.
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "callcheck.h"
#include "gelu.h"
#include "kernels.h"

namespace {

const int threads = 256;

// Enough blocks to cover n, capped so grid-stride loops do the rest.
unsigned blocks_for(size_t n)
{
    size_t b = (n + threads - 1) / threads;
    if (b < 1) b = 1;
    if (b > 4096) b = 4096;
    return (unsigned)b;
}

template <typename T> __global__ void fill_k(T *x, size_t n, T v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = v;
}

template <typename T> __global__ void scale_k(T *x, size_t n, T a)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] *= a;
}

template <typename T> __global__ void axpy_k(T *y, const T *x, size_t n, T a)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] += a * x[i];
}

template <typename T> __device__ T gelu_one(T v)
{
    return GELU(T, tanh, v);
}

template <typename T> __global__ void gelu_k(T *y, const T *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = gelu_one(x[i]);
}

template <typename T> __global__ void gelu_backward_k(T *dx, const T *x, const T *dy, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        T v = x[i];
        dx[i] = dy[i] * GELU_GRAD(T, tanh, v);
    }
}

template <typename TY, typename TX> __global__ void convert_k(TY *y, const TX *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = (TY)x[i];
}

// Non-negative doubles order like their bit patterns read as unsigned
// integers, so atomicMax on the bits is a max on the values.
__device__ void atomic_max_nonneg(double *p, double v)
{
    atomicMax((unsigned long long *)p, (unsigned long long)__double_as_longlong(v));
}

__device__ double warp_max(double v)
{
    for (int off = 16; off > 0; off /= 2)
        v = fmax(v, __shfl_down_sync(0xffffffffu, v, off));
    return v;
}

// out[0] = max |a-b|, out[1] = max |a-b|/|b|: per-thread max, warp max, block
// max in shared memory, then one atomic per block.
template <typename T> __global__ void max_diff_k(const T *a, const T *b, size_t n, double *out)
{
    double ma = 0, mr = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        double ref = (double)b[i];
        double d = fabs((double)a[i] - ref);
        // A NaN must not vanish in fmax: report it as an infinite error.
        if (d != d) d = INFINITY;
        ma = fmax(ma, d);
        if (ref != 0) mr = fmax(mr, d / fabs(ref));
    }
    __shared__ double sa[threads / 32], sr[threads / 32];
    ma = warp_max(ma);
    mr = warp_max(mr);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) { sa[warp] = ma; sr[warp] = mr; }
    __syncthreads();
    if (warp == 0) {
        ma = lane < threads / 32 ? sa[lane] : 0;
        mr = lane < threads / 32 ? sr[lane] : 0;
        ma = warp_max(ma);
        mr = warp_max(mr);
        if (lane == 0) {
            atomic_max_nonneg(&out[0], ma);
            atomic_max_nonneg(&out[1], mr);
        }
    }
}

} // namespace

extern "C" void cuk_fill(enum dtype t, void *x, size_t n, double value, cudaStream_t s)
{
    if (n == 0) return;
    if (t == DTYPE_F32)
        fill_k<<<blocks_for(n), threads, 0, s>>>((float *)x, n, (float)value);
    else
        fill_k<<<blocks_for(n), threads, 0, s>>>((double *)x, n, value);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void cuk_scale(enum dtype t, void *x, size_t n, double alpha, cudaStream_t s)
{
    if (n == 0) return;
    if (t == DTYPE_F32)
        scale_k<<<blocks_for(n), threads, 0, s>>>((float *)x, n, (float)alpha);
    else
        scale_k<<<blocks_for(n), threads, 0, s>>>((double *)x, n, alpha);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void cuk_axpy(enum dtype t, void *y, const void *x, size_t n, double alpha,
                         cudaStream_t s)
{
    if (n == 0) return;
    if (t == DTYPE_F32)
        axpy_k<<<blocks_for(n), threads, 0, s>>>((float *)y, (const float *)x, n, (float)alpha);
    else
        axpy_k<<<blocks_for(n), threads, 0, s>>>((double *)y, (const double *)x, n, alpha);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void cuk_gelu(enum dtype t, void *y, const void *x, size_t n, cudaStream_t s)
{
    if (n == 0) return;
    if (t == DTYPE_F32)
        gelu_k<<<blocks_for(n), threads, 0, s>>>((float *)y, (const float *)x, n);
    else
        gelu_k<<<blocks_for(n), threads, 0, s>>>((double *)y, (const double *)x, n);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void cuk_gelu_backward(enum dtype t, void *dx, const void *x, const void *dy,
                                  size_t n, cudaStream_t s)
{
    if (n == 0) return;
    if (t == DTYPE_F32)
        gelu_backward_k<<<blocks_for(n), threads, 0, s>>>((float *)dx, (const float *)x,
                                                          (const float *)dy, n);
    else
        gelu_backward_k<<<blocks_for(n), threads, 0, s>>>((double *)dx, (const double *)x,
                                                          (const double *)dy, n);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void cuk_convert(enum dtype ty, void *y, enum dtype tx, const void *x,
                            size_t n, cudaStream_t s)
{
    if (n == 0) return;
    unsigned b = blocks_for(n);
    if (ty == DTYPE_F32 && tx == DTYPE_F32)
        convert_k<<<b, threads, 0, s>>>((float *)y, (const float *)x, n);
    else if (ty == DTYPE_F32)
        convert_k<<<b, threads, 0, s>>>((float *)y, (const double *)x, n);
    else if (tx == DTYPE_F32)
        convert_k<<<b, threads, 0, s>>>((double *)y, (const float *)x, n);
    else
        convert_k<<<b, threads, 0, s>>>((double *)y, (const double *)x, n);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void cuk_max_diff(enum dtype t, const void *a, const void *b, size_t n,
                             double *scratch, double *max_abs, double *max_rel, cudaStream_t s)
{
    double host[2] = {0, 0};
    if (n > 0) {
        CUDA_CHECK(cudaMemsetAsync(scratch, 0, 2 * sizeof(double), s));
        if (t == DTYPE_F32)
            max_diff_k<<<blocks_for(n), threads, 0, s>>>((const float *)a, (const float *)b, n,
                                                          scratch);
        else
            max_diff_k<<<blocks_for(n), threads, 0, s>>>((const double *)a, (const double *)b,
                                                          n, scratch);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpyAsync(host, scratch, sizeof host, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
    }
    *max_abs = host[0];
    *max_rel = host[1];
}
