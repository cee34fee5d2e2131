/*
 * dev.h — a rank's device: its memory and the kernels labs need.
 *
 * Every backend ("cpu" over OpenBLAS, "cuda" over cuBLAS) fills a struct
 * dev_ops with the same set of operations; labs call the dev_* wrappers,
 * which keep the rank's byte accounting (current and peak, per label).  A lab
 * never asks which device it runs on: it fills host arrays, copies them to
 * the device, computes there and copies results back.
 *
 * Matrices are row-major.  Kernels may run asynchronously (a CUDA stream);
 * dev_sync waits for them, and a lab calls it before reading a timer.
 * Functions returning int give 0, or -1 after printing why to stderr.
 */
#ifndef RT_DEV_H
#define RT_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "timer.h"

enum dev_copy_kind {
    DEV_H2D,        /* host to device */
    DEV_D2H,        /* device to host */
    DEV_D2D,        /* device to device (same rank) */
};

struct dev;

/* A backend's kernels.  x, y, z, A, B, C are device pointers unless said otherwise. */
struct dev_ops {
    const char *name;       /* "cpu", "cuda" */
    void *(*alloc)(struct dev *d, size_t bytes);    /* NULL on failure (the wrapper reports) */
    void (*free)(struct dev *d, void *p);
    int (*copy)(struct dev *d, void *dst, const void *src, size_t bytes, enum dev_copy_kind k);
    /* rows x width bytes from src (rows spitch bytes apart) to dst (dpitch apart). */
    int (*copy2d)(struct dev *d, void *dst, size_t dpitch, const void *src, size_t spitch,
                  size_t width, size_t rows, enum dev_copy_kind k);
    /* C = alpha * op(A) op(B) + beta * C; op(A) is m x k, op(B) k x n, C m x n. */
    int (*gemm)(struct dev *d, enum dtype t, bool transa, bool transb, int m, int n, int k,
                double alpha, const void *A, int lda, const void *B, int ldb,
                double beta, void *C, int ldc);
    int (*fill)(struct dev *d, enum dtype t, void *x, size_t n, double v);      /* x = v */
    int (*scale)(struct dev *d, enum dtype t, void *x, size_t n, double a);     /* x *= a */
    int (*axpy)(struct dev *d, enum dtype t, size_t n, double a, const void *x, void *y); /* y += a x */
    /* y = gelu(x) (tanh approximation, as GPT-2 and Megatron use); y may be x. */
    int (*gelu)(struct dev *d, enum dtype t, size_t n, const void *x, void *y);
    /* dx = dy * gelu'(x); dx may be dy. */
    int (*gelu_backward)(struct dev *d, enum dtype t, size_t n, const void *x, const void *dy,
                         void *dx);
    /* *out = max |x[i] - y[i]| (a host double). */
    int (*max_abs_diff)(struct dev *d, enum dtype t, size_t n, const void *x, const void *y,
                        double *out);
    int (*sync)(struct dev *d);     /* wait for every queued kernel and copy */
    void (*fini)(struct dev *d);    /* release backend state (impl); may be NULL */
    /*
     * Seconds on the clock that prices this rank's device work, after every
     * queued kernel has finished: the difference of two readings is what the
     * work between them cost the device (cuda: an event recorded on the
     * rank's stream, timed from a base event).  NULL: the calling thread's
     * CPU time after dev_sync, right for a device whose kernels run on the
     * calling thread (cpu).
     */
    double (*clock)(struct dev *d);
    /*
     * One line for the report on how this device computes (its GEMM library
     * and math mode, how a host thread waits for it) into buf, n bytes.
     * NULL: nothing to say.
     */
    void (*note)(struct dev *d, char *buf, size_t n);
};

/* One live allocation (the accounting's record). */
struct dev_alloc_rec {
    void *p;
    size_t bytes;
    const char *label;      /* static string: "weights", "activations", ... */
};

/* Byte accounting of one rank's device. */
struct dev_usage {
    uint64_t current;       /* bytes allocated now */
    uint64_t peak;          /* most bytes allocated at once */
    uint64_t allocs;        /* allocations made */
    uint64_t reserved;      /* bytes held from the backend: current + freed blocks kept for reuse */
};

/* One rank's device.  Created by a backend; freed with dev_free_device. */
struct dev {
    const struct dev_ops *ops;      /* the backend's table; borrowed */
    int rank;                       /* owning rank */
    struct dev_usage usage;
    struct dev_alloc_rec *recs;     /* live allocations; owned */
    size_t nrecs, caprecs;
    struct dev_alloc_rec *cache;    /* freed blocks kept for reuse (label unused); owned */
    size_t ncache, capcache;
    /*
     * Ranks whose work runs on this device, this one included, when it is an
     * accelerator (1: the rank has a GPU of its own; more: ranks share one
     * GPU as streams).  0 for the cpu device, whose ranks share the cores as
     * the operating system schedules them.  Set by the backend.
     */
    int sharers;
    void *impl;                     /* backend state */
};

/* ---- What labs call ------------------------------------------------------- */

/*
 * Allocate bytes of device memory and count them under label (a string that
 * outlives the device, usually a literal).  NULL after reporting on failure.
 *
 * Like the caching allocators of training frameworks, a freed block is kept
 * and handed out again for the next request of the same size, so a step that
 * allocates and frees its activations costs no malloc, page faults or
 * cudaMalloc after the first.  current/peak count what the lab holds;
 * reserved adds the kept blocks.
 */
void *dev_alloc(struct dev *d, size_t bytes, const char *label);
/* Free p (from dev_alloc; NULL is a no-op) and uncount it. */
void dev_free(struct dev *d, void *p);
/* Bytes allocated now under label (NULL: all labels). */
uint64_t dev_bytes(const struct dev *d, const char *label);
/* Reset the peak to the current figure (before the step a lab measures). */
void dev_reset_peak(struct dev *d);
/* Give the kept blocks back to the backend. */
void dev_trim(struct dev *d);

int dev_copy(struct dev *d, void *dst, const void *src, size_t bytes, enum dev_copy_kind k);
int dev_copy2d(struct dev *d, void *dst, size_t dpitch, const void *src, size_t spitch,
               size_t width, size_t rows, enum dev_copy_kind k);
int dev_gemm(struct dev *d, enum dtype t, bool transa, bool transb, int m, int n, int k,
             double alpha, const void *A, int lda, const void *B, int ldb,
             double beta, void *C, int ldc);
int dev_fill(struct dev *d, enum dtype t, void *x, size_t n, double v);
int dev_scale(struct dev *d, enum dtype t, void *x, size_t n, double a);
int dev_axpy(struct dev *d, enum dtype t, size_t n, double a, const void *x, void *y);
int dev_gelu(struct dev *d, enum dtype t, size_t n, const void *x, void *y);
int dev_gelu_backward(struct dev *d, enum dtype t, size_t n, const void *x, const void *dy, void *dx);
int dev_max_abs_diff(struct dev *d, enum dtype t, size_t n, const void *x, const void *y, double *out);
int dev_sync(struct dev *d);

/*
 * The device's cost clock (see dev_ops.clock): labs time their kernels with
 * it, so a GEMM is priced by what it cost the device that ran it, not by the
 * wall clock a busy machine stretches.
 */
static inline double dev_clock(struct dev *d)
{
    if (d->ops->clock)
        return d->ops->clock(d);
    dev_sync(d);
    return timer_thread_cpu();
}

/* The device's line for the report (dev_ops.note) into buf; "" when it has none. */
void dev_note(struct dev *d, char *buf, size_t n);

/*
 * Whether fp32 GEMMs may use TF32 tensor cores on a device that has them
 * (labrun --tf32): faster, with inputs rounded to a 10-bit mantissa, so
 * fp32 results drift to about 1e-3 of the fp64 reference.  Off by default;
 * set before the devices are made.  The cpu device ignores it.
 */
void dev_allow_tf32(bool on);
bool dev_tf32_allowed(void);

/* Frees every allocation still live, the backend state and d.  NULL is a no-op. */
void dev_free_device(struct dev *d);

/* ---- For backends -------------------------------------------------------- */

struct dev *dev_new(const struct dev_ops *ops, int rank, void *impl);

/* ---- The cpu device (dev_cpu.c): host memory, OpenBLAS cblas ------------ */

struct dev *dev_cpu_new(int rank);

/*
 * OpenBLAS threads per GEMM.  The cpu backend sets 1 so that a GEMM runs on
 * the calling rank's thread and its thread CPU time is the GEMM's whole cost.
 */
void dev_cpu_set_blas_threads(int n);
int dev_cpu_blas_threads(void);

/* Host-side helpers (plain memory, no accounting): element i of x as a double, and set it. */
static inline double dtype_get(enum dtype t, const void *x, size_t i)
{
    return t == DTYPE_F64 ? ((const double *)x)[i] : (double)((const float *)x)[i];
}
static inline void dtype_set(enum dtype t, void *x, size_t i, double v)
{
    if (t == DTYPE_F64)
        ((double *)x)[i] = v;
    else
        ((float *)x)[i] = (float)v;
}

#endif
