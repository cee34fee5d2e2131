/*
 * dev.c — the device wrappers labs call: byte accounting (current, peak, per
 * label) around the backend's allocator, and the kernels passed through.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "fault.h"
#include "util.h"

struct dev *dev_new(const struct dev_ops *ops, int rank, void *impl)
{
    struct dev *d = xcalloc(1, sizeof *d);
    d->ops = ops;
    d->rank = rank;
    d->impl = impl;
    return d;
}

/* labrun --tf32; read when a device is made, so one flag for the process is enough. */
static bool tf32_allowed;

void dev_allow_tf32(bool on)
{
    tf32_allowed = on;
}

bool dev_tf32_allowed(void)
{
    return tf32_allowed;
}

void dev_note(struct dev *d, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    if (d && d->ops->note)
        d->ops->note(d, buf, n);
}

void dev_free_device(struct dev *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nrecs; i++)
        d->ops->free(d, d->recs[i].p);
    free(d->recs);
    dev_trim(d);
    free(d->cache);
    if (d->ops->fini)
        d->ops->fini(d);
    free(d);
}

void dev_trim(struct dev *d)
{
    for (size_t i = 0; i < d->ncache; i++) {
        d->ops->free(d, d->cache[i].p);
        d->usage.reserved -= d->cache[i].bytes;
    }
    d->ncache = 0;
}

/* A kept block of exactly this size, or NULL. */
static void *from_cache(struct dev *d, size_t bytes)
{
    for (size_t i = d->ncache; i-- > 0;)
        if (d->cache[i].bytes == bytes) {
            void *p = d->cache[i].p;
            d->cache[i] = d->cache[--d->ncache];
            d->usage.reserved -= bytes;
            return p;
        }
    return NULL;
}

void *dev_alloc(struct dev *d, size_t bytes, const char *label)
{
    /* A zero-byte request still gets a distinct pointer, so free and accounting stay simple. */
    void *p = from_cache(d, bytes);
    if (!p)
        p = d->ops->alloc(d, bytes ? bytes : 1);
    if (!p && d->ncache) {
        dev_trim(d);    /* the kept blocks may be what stands in the way */
        p = d->ops->alloc(d, bytes ? bytes : 1);
    }
    if (!p) {
        fprintf(stderr, "labrun: error: rank %d: %s device cannot allocate %zu bytes for %s "
                "(%llu bytes in use)\n", d->rank, d->ops->name, bytes, label ? label : "data",
                (unsigned long long)d->usage.current);
        return NULL;
    }
    if (d->nrecs == d->caprecs) {
        d->caprecs = d->caprecs ? 2 * d->caprecs : 16;
        d->recs = xrealloc(d->recs, d->caprecs * sizeof *d->recs);
    }
    d->recs[d->nrecs++] = (struct dev_alloc_rec){ .p = p, .bytes = bytes, .label = label };
    d->usage.current += bytes;
    d->usage.reserved += bytes;
    d->usage.allocs++;
    if (d->usage.current > d->usage.peak)
        d->usage.peak = d->usage.current;
    return p;
}

void dev_free(struct dev *d, void *p)
{
    if (!p)
        return;
    for (size_t i = d->nrecs; i-- > 0;) {
        if (d->recs[i].p == p) {
            size_t bytes = d->recs[i].bytes;
            d->usage.current -= bytes;
            d->recs[i] = d->recs[--d->nrecs];
            if (d->ncache == d->capcache) {
                d->capcache = d->capcache ? 2 * d->capcache : 16;
                d->cache = xrealloc(d->cache, d->capcache * sizeof *d->cache);
            }
            d->cache[d->ncache++] = (struct dev_alloc_rec){ .p = p, .bytes = bytes, .label = NULL };
            return;
        }
    }
    fprintf(stderr, "labrun: error: rank %d: freeing %p, which this device did not allocate\n",
            d->rank, p);
    abort();
}

uint64_t dev_bytes(const struct dev *d, const char *label)
{
    if (!label)
        return d->usage.current;
    uint64_t sum = 0;
    for (size_t i = 0; i < d->nrecs; i++)
        if (d->recs[i].label && strcmp(d->recs[i].label, label) == 0)
            sum += d->recs[i].bytes;
    return sum;
}

void dev_reset_peak(struct dev *d)
{
    d->usage.peak = d->usage.current;
}

int dev_copy(struct dev *d, void *dst, const void *src, size_t bytes, enum dev_copy_kind k)
{
    return bytes ? d->ops->copy(d, dst, src, bytes, k) : 0;
}

int dev_copy2d(struct dev *d, void *dst, size_t dpitch, const void *src, size_t spitch,
               size_t width, size_t rows, enum dev_copy_kind k)
{
    return width && rows ? d->ops->copy2d(d, dst, dpitch, src, spitch, width, rows, k) : 0;
}

int dev_gemm(struct dev *d, enum dtype t, bool transa, bool transb, int m, int n, int k,
             double alpha, const void *A, int lda, const void *B, int ldb,
             double beta, void *C, int ldc)
{
    if (m <= 0 || n <= 0)
        return 0;
    int rc = d->ops->gemm(d, t, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    double poison;
    if (rc == 0 && fault_poison_due(&poison))     /* --inject-fault nan@R / inf@R */
        rc = d->ops->fill(d, t, C, 1, poison);
    return rc;
}

int dev_fill(struct dev *d, enum dtype t, void *x, size_t n, double v)
{
    return n ? d->ops->fill(d, t, x, n, v) : 0;
}

int dev_scale(struct dev *d, enum dtype t, void *x, size_t n, double a)
{
    return n ? d->ops->scale(d, t, x, n, a) : 0;
}

int dev_axpy(struct dev *d, enum dtype t, size_t n, double a, const void *x, void *y)
{
    return n ? d->ops->axpy(d, t, n, a, x, y) : 0;
}

int dev_gelu(struct dev *d, enum dtype t, size_t n, const void *x, void *y)
{
    return n ? d->ops->gelu(d, t, n, x, y) : 0;
}

int dev_gelu_backward(struct dev *d, enum dtype t, size_t n, const void *x, const void *dy, void *dx)
{
    return n ? d->ops->gelu_backward(d, t, n, x, dy, dx) : 0;
}

int dev_max_abs_diff(struct dev *d, enum dtype t, size_t n, const void *x, const void *y, double *out)
{
    *out = 0;
    return n ? d->ops->max_abs_diff(d, t, n, x, y, out) : 0;
}

int dev_sync(struct dev *d)
{
    return d->ops->sync ? d->ops->sync(d) : 0;
}
