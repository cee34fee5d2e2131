/*
 * dev_host.h — the kernels of a device whose memory is the host's: what the
 * cpu device (dev_cpu.c, OpenBLAS) and the web device (web/dev_web.c,
 * WebAssembly) share.  Each is a dev_ops entry (dev.h says what it does).
 */
#ifndef RT_DEV_HOST_H
#define RT_DEV_HOST_H

#include "dev.h"

void *dev_host_alloc(struct dev *d, size_t bytes);
void dev_host_free(struct dev *d, void *p);
int dev_host_copy(struct dev *d, void *dst, const void *src, size_t bytes, enum dev_copy_kind k);
int dev_host_copy2d(struct dev *d, void *dst, size_t dpitch, const void *src, size_t spitch,
                    size_t width, size_t rows, enum dev_copy_kind k);
int dev_host_fill(struct dev *d, enum dtype t, void *x, size_t n, double v);
int dev_host_scale(struct dev *d, enum dtype t, void *x, size_t n, double a);
int dev_host_gelu(struct dev *d, enum dtype t, size_t n, const void *x, void *y);
int dev_host_gelu_backward(struct dev *d, enum dtype t, size_t n, const void *x, const void *dy,
                           void *dx);
int dev_host_max_abs_diff(struct dev *d, enum dtype t, size_t n, const void *x, const void *y,
                          double *out);
/* y += a x in plain loops (the cpu device uses OpenBLAS's instead). */
int dev_host_axpy(struct dev *d, enum dtype t, size_t n, double a, const void *x, void *y);

#endif
