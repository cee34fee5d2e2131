/*
 * dev_cuda.c — the cuda device (dev_cuda.h): cudaMalloc'd memory, kernels
 * from kernels.cu and GEMM from cuBLAS, all on the rank's stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "callcheck.h"
#include "dev_cuda.h"
#include "i18n.h"
#include "kernels.h"
#include "util.h"

/* One rank's CUDA state (dev->impl). */
struct dev_cuda {
    int gpu;                    /* CUDA device ordinal */
    cudaStream_t stream;        /* every kernel and copy of this rank */
    cublasHandle_t blas;        /* bound to stream */
    double *scratch;            /* 2 device doubles for max_abs_diff */
    cudaEvent_t last, next;     /* the cost clock's previous reading, and the one being taken */
    double elapsed;             /* seconds between the first event and last, summed in double */
    cublasMath_t math;          /* the math mode of blas */
};

/* How host threads of this process wait for the GPU (cuda_wait_mode), for the report. */
static bool wait_blocks;
static char wait_text[400];

static struct dev_cuda *impl_of(struct dev *d)
{
    struct dev_cuda *g = d->impl;
    /* The current device is per host thread; a rank may be served by another thread. */
    CUDA_CHECK(cudaSetDevice(g->gpu));
    return g;
}

int cuda_gpu_count(char *why, size_t n)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        snprintf(why, n, "%s", cudaGetErrorString(e));
        return 0;
    }
    if (count == 0) {
        snprintf(why, n, "%s", cudaGetErrorString(cudaErrorNoDevice));
        return 0;
    }
    return count;
}

bool cuda_wait_mode(int gpu, int nranks, int cores)
{
    bool spin = nranks <= cores;
    CUDA_CHECK(cudaSetDevice(gpu));
    cudaError_t e = cudaSetDeviceFlags(spin ? cudaDeviceScheduleSpin : cudaDeviceScheduleBlockingSync);
    /* Older runtimes refuse to change an active context's flags; it keeps its own then. */
    if (e != cudaSuccess && e != cudaErrorSetOnActiveProcess)
        CUDA_CHECK(e);
    (void)cudaGetLastError();
    wait_blocks = !spin;
    char *ranks = xasprintf(ngettext("%d rank", "%d ranks", (unsigned long)nranks), nranks);
    char *on = xasprintf(ngettext("%d core", "%d cores", (unsigned long)cores), cores);
    if (spin)
        snprintf(wait_text, sizeof wait_text, _("waiting host threads spin (cudaDeviceScheduleSpin: %s on %s)"),
                 ranks, on);
    else
        snprintf(wait_text, sizeof wait_text, _("waiting host threads block (cudaDeviceScheduleBlockingSync: "
                 "%s on %s, so a spinning rank would take the core of the rank being timed)"), ranks, on);
    free(ranks);
    free(on);
    return spin;
}

static void *cu_alloc(struct dev *d, size_t bytes)
{
    void *p = NULL;
    impl_of(d);
    /* cudaMalloc(0) gives NULL, which the wrapper would take for a failure. */
    cudaError_t e = cudaMalloc(&p, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        callcheck_report("CUDA", "cudaMalloc(&p, bytes)", __FILE__, __LINE__, cudaGetErrorString(e),
                     NULL);
        return NULL;
    }
    return p;
}

static void cu_free(struct dev *d, void *p)
{
    struct dev_cuda *g = impl_of(d);
    /* Work queued on the stream may still read p. */
    CUDA_CHECK(cudaStreamSynchronize(g->stream));
    CUDA_CHECK(cudaFree(p));
}

static enum cudaMemcpyKind kind_of(enum dev_copy_kind k)
{
    switch (k) {
    case DEV_H2D: return cudaMemcpyHostToDevice;
    case DEV_D2H: return cudaMemcpyDeviceToHost;
    case DEV_D2D: return cudaMemcpyDeviceToDevice;
    }
    return cudaMemcpyDefault;
}

static int cu_copy(struct dev *d, void *dst, const void *src, size_t bytes, enum dev_copy_kind k)
{
    struct dev_cuda *g = impl_of(d);
    if (bytes == 0)
        return 0;
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind_of(k), g->stream));
    /* The host reads what it copied back as soon as this returns. */
    if (k == DEV_D2H)
        CUDA_CHECK(cudaStreamSynchronize(g->stream));
    return 0;
}

static int cu_copy2d(struct dev *d, void *dst, size_t dpitch, const void *src, size_t spitch,
                     size_t width, size_t rows, enum dev_copy_kind k)
{
    struct dev_cuda *g = impl_of(d);
    if (width == 0 || rows == 0)
        return 0;
    CUDA_CHECK(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, kind_of(k), g->stream));
    if (k == DEV_D2H)
        CUDA_CHECK(cudaStreamSynchronize(g->stream));
    return 0;
}

/*
 * Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: the same
 * buffers read with rows and columns swapped, so cuBLAS gets B first, n and
 * m swapped, and the leading dimensions unchanged.
 */
static int cu_gemm(struct dev *d, enum dtype t, bool transa, bool transb, int m, int n, int k,
                   double alpha, const void *A, int lda, const void *B, int ldb,
                   double beta, void *C, int ldc)
{
    struct dev_cuda *g = impl_of(d);
    cublasOperation_t ta = transa ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t tb = transb ? CUBLAS_OP_T : CUBLAS_OP_N;
    if (m == 0 || n == 0)
        return 0;
    if (t == DTYPE_F32) {
        float a = (float)alpha, b = (float)beta;
        CUBLAS_CHECK(cublasSgemm(g->blas, tb, ta, n, m, k, &a, B, ldb, A, lda, &b, C, ldc));
    } else {
        CUBLAS_CHECK(cublasDgemm(g->blas, tb, ta, n, m, k, &alpha, B, ldb, A, lda, &beta, C, ldc));
    }
    return 0;
}

static int cu_fill(struct dev *d, enum dtype t, void *x, size_t n, double v)
{
    cuk_fill(t, x, n, v, impl_of(d)->stream);
    return 0;
}

static int cu_scale(struct dev *d, enum dtype t, void *x, size_t n, double a)
{
    cuk_scale(t, x, n, a, impl_of(d)->stream);
    return 0;
}

static int cu_axpy(struct dev *d, enum dtype t, size_t n, double a, const void *x, void *y)
{
    cuk_axpy(t, y, x, n, a, impl_of(d)->stream);
    return 0;
}

static int cu_gelu(struct dev *d, enum dtype t, size_t n, const void *x, void *y)
{
    cuk_gelu(t, y, x, n, impl_of(d)->stream);
    return 0;
}

static int cu_gelu_backward(struct dev *d, enum dtype t, size_t n, const void *x, const void *dy,
                            void *dx)
{
    cuk_gelu_backward(t, dx, x, dy, n, impl_of(d)->stream);
    return 0;
}

static int cu_max_abs_diff(struct dev *d, enum dtype t, size_t n, const void *x, const void *y,
                           double *out)
{
    struct dev_cuda *g = impl_of(d);
    double rel;
    cuk_max_diff(t, x, y, n, g->scratch, out, &rel, g->stream);
    return 0;
}

static int cu_sync(struct dev *d)
{
    CUDA_CHECK(cudaStreamSynchronize(impl_of(d)->stream));
    return 0;
}

/*
 * The cost clock (dev_ops.clock): an event recorded on the rank's stream once
 * the work queued before it is done.  Two readings differ by the GPU time of
 * the work queued between them (on a shared GPU, with the other ranks'
 * kernels that ran in between).  Each reading times only the interval since
 * the previous one and adds it to a double: cudaEventElapsedTime's float
 * milliseconds measured from the device's birth would lose microseconds
 * after a couple of minutes.
 */
static double cu_clock(struct dev *d)
{
    struct dev_cuda *g = impl_of(d);
    float ms = 0;
    CUDA_CHECK(cudaEventRecord(g->next, g->stream));
    CUDA_CHECK(cudaEventSynchronize(g->next));
    CUDA_CHECK(cudaEventElapsedTime(&ms, g->last, g->next));
    g->elapsed += ms * 1e-3;
    cudaEvent_t t = g->last;
    g->last = g->next;
    g->next = t;
    return g->elapsed;
}

static const char *math_name(cublasMath_t m)
{
    return m == CUBLAS_TF32_TENSOR_OP_MATH ? "CUBLAS_TF32_TENSOR_OP_MATH" : "CUBLAS_DEFAULT_MATH";
}

static void cu_note(struct dev *d, char *buf, size_t n)
{
    struct dev_cuda *g = d->impl;
    const char *over = getenv("NVIDIA_TF32_OVERRIDE");
    snprintf(buf, n, _("GEMM: cuBLAS, math mode %s (%s)%s; %s"), math_name(g->math),
             g->math == CUBLAS_TF32_TENSOR_OP_MATH
                 ? _("--tf32: fp32 GEMMs may round their inputs to TF32, a 10-bit mantissa")
                 : _("fp32 GEMMs in full fp32, no TF32; labrun --tf32 allows it"),
             over && strcmp(over, "0") == 0 ? _("; NVIDIA_TF32_OVERRIDE=0 forbids TF32 whatever the mode")
                                            : "",
             wait_text[0] ? wait_text : _("host threads wait for the GPU in CUDA's default way (cudaDeviceScheduleAuto)"));
}

static void cu_fini(struct dev *d)
{
    struct dev_cuda *g = impl_of(d);
    CUDA_CHECK(cudaStreamSynchronize(g->stream));
    CUDA_CHECK(cudaEventDestroy(g->last));
    CUDA_CHECK(cudaEventDestroy(g->next));
    CUDA_CHECK(cudaFree(g->scratch));
    CUBLAS_CHECK(cublasDestroy(g->blas));
    CUDA_CHECK(cudaStreamDestroy(g->stream));
    free(g);
    d->impl = NULL;
}

static const struct dev_ops cuda_ops = {
    .name = "cuda",
    .alloc = cu_alloc,
    .free = cu_free,
    .copy = cu_copy,
    .copy2d = cu_copy2d,
    .gemm = cu_gemm,
    .fill = cu_fill,
    .scale = cu_scale,
    .axpy = cu_axpy,
    .gelu = cu_gelu,
    .gelu_backward = cu_gelu_backward,
    .max_abs_diff = cu_max_abs_diff,
    .sync = cu_sync,
    .fini = cu_fini,
    .clock = cu_clock,
    .note = cu_note,
};

struct dev *dev_cuda_new(int rank, int gpu)
{
    struct dev_cuda *g = xcalloc(1, sizeof *g);
    g->gpu = gpu;
    CUDA_CHECK(cudaSetDevice(gpu));
    CUDA_CHECK(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
    CUBLAS_CHECK(cublasCreate(&g->blas));
    CUBLAS_CHECK(cublasSetStream(g->blas, g->stream));
    /*
     * The default math mode keeps fp32 GEMMs in fp32 (no TF32), so the labs
     * hold fp32 to 1e-5 of the fp64 reference; --tf32 trades that for speed.
     */
    g->math = dev_tf32_allowed() ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH;
    CUBLAS_CHECK(cublasSetMathMode(g->blas, g->math));
    CUDA_CHECK(cudaMalloc((void **)&g->scratch, 2 * sizeof(double)));
    /* Waiting on an event honours blocking only when the event was made to block. */
    unsigned evflags = wait_blocks ? cudaEventBlockingSync : cudaEventDefault;
    CUDA_CHECK(cudaEventCreateWithFlags(&g->last, evflags));
    CUDA_CHECK(cudaEventCreateWithFlags(&g->next, evflags));
    CUDA_CHECK(cudaEventRecord(g->last, g->stream));
    return dev_new(&cuda_ops, rank, g);
}

cudaStream_t dev_cuda_stream(const struct dev *d)
{
    return ((const struct dev_cuda *)d->impl)->stream;
}

int dev_cuda_gpu(const struct dev *d)
{
    return ((const struct dev_cuda *)d->impl)->gpu;
}

int dev_is_cuda(const struct dev *d)
{
    return d && d->ops == &cuda_ops;
}
