/*
 * dev_host.c — the plain loops of a device whose memory is the host's (dev_host.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dev_host.h"
#include "gelu.h"

/* A buffer this large starts on a huge page's edge and asks for huge pages. */
#define HUGE_PAGE ((size_t)2 << 20)

void *dev_host_alloc(struct dev *d, size_t bytes)
{
    void *p = NULL;
#if defined(MADV_HUGEPAGE) && !defined(__EMSCRIPTEN__)
    /* Tensors of megabytes are streamed through whole: with 4 KiB pages
     * every 4 KiB costs a TLB miss, and the 64 MiB all-reduce moved a
     * quarter fewer bytes a second (doc/profiling.md).  Where the kernel leaves
     * transparent huge pages to madvise, ask; where it gives none, the
     * advice fails and the buffer keeps small pages.  (WebAssembly's linear
     * memory has no pages to ask for.) */
    if (bytes >= HUGE_PAGE) {
        size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
        if (posix_memalign(&p, HUGE_PAGE, rounded) != 0)
            return NULL;
        (void)madvise(p, rounded, MADV_HUGEPAGE);
        return p;
    }
#endif
    /* 64-byte alignment: what OpenBLAS's kernels like, and a cache line. */
    size_t rounded = (bytes + 63) / 64 * 64;
    return posix_memalign(&p, 64, rounded) == 0 ? p : NULL;
}

void dev_host_free(struct dev *d, void *p)
{
    free(p);
}

int dev_host_copy(struct dev *d, void *dst, const void *src, size_t bytes, enum dev_copy_kind k)
{
    memmove(dst, src, bytes);
    return 0;
}

int dev_host_copy2d(struct dev *d, void *dst, size_t dpitch, const void *src, size_t spitch,
                    size_t width, size_t rows, enum dev_copy_kind k)
{
    for (size_t r = 0; r < rows; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return 0;
}

int dev_host_fill(struct dev *d, enum dtype t, void *x, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        dtype_set(t, x, i, v);
    return 0;
}

int dev_host_scale(struct dev *d, enum dtype t, void *x, size_t n, double a)
{
    for (size_t i = 0; i < n; i++)
        dtype_set(t, x, i, a * dtype_get(t, x, i));
    return 0;
}

int dev_host_gelu(struct dev *d, enum dtype t, size_t n, const void *x, void *y)
{
    if (t == DTYPE_F64) {
        for (size_t i = 0; i < n; i++)
            ((double *)y)[i] = GELU(double, tanh, ((const double *)x)[i]);
    } else {
        /* float arithmetic, as a GPU kernel would do it */
        for (size_t i = 0; i < n; i++) {
            float v = ((const float *)x)[i];
            ((float *)y)[i] = GELU(float, tanhf, v);
        }
    }
    return 0;
}

int dev_host_gelu_backward(struct dev *d, enum dtype t, size_t n, const void *x, const void *dy,
                           void *dx)
{
    for (size_t i = 0; i < n; i++) {
        double v = dtype_get(t, x, i);
        dtype_set(t, dx, i, dtype_get(t, dy, i) * GELU_GRAD(double, tanh, v));
    }
    return 0;
}

int dev_host_max_abs_diff(struct dev *d, enum dtype t, size_t n, const void *x, const void *y,
                          double *out)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs(dtype_get(t, x, i) - dtype_get(t, y, i));
        if (e > m || isnan(e))
            m = e;
    }
    *out = m;
    return 0;
}

int dev_host_axpy(struct dev *d, enum dtype t, size_t n, double a, const void *x, void *y)
{
    if (t == DTYPE_F64) {
        for (size_t i = 0; i < n; i++)
            ((double *)y)[i] += a * ((const double *)x)[i];
    } else {
        float af = (float)a;
        for (size_t i = 0; i < n; i++)
            ((float *)y)[i] += af * ((const float *)x)[i];
    }
    return 0;
}
