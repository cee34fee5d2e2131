/*
 * dev_cuda.h — the cuda device: a rank's memory on one GPU (cudaMalloc), its
 * kernels on one CUDA stream, GEMM through cuBLAS.
 *
 * Every operation of a rank is queued on that rank's stream, so the order a
 * lab gives is the order the GPU runs; the cuda communicators queue their
 * transfers on the same stream.  Several ranks may share a GPU, each with its
 * own stream and allocations.
 */
#ifndef RT_CUDA_DEV_CUDA_H
#define RT_CUDA_DEV_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <cuda_runtime.h>

#include "dev.h"

/*
 * GPUs this process can use: >= 1, or 0 with the driver's own reason in why
 * ("CUDA driver version is insufficient for CUDA runtime version",
 * "no CUDA-capable device is detected").
 */
int cuda_gpu_count(char *why, size_t n);

/*
 * How host threads of this process wait for GPU gpu, for nranks ranks
 * (threads or processes) on cores cores.  With a core each they spin
 * (cudaDeviceScheduleSpin: no sleep and wake-up stretches a timed wait);
 * with more ranks than cores a spinning rank would take the core that the
 * rank being timed needs, so they block (cudaDeviceScheduleBlockingSync).
 * Call before the first device made on that GPU; the devices' report note
 * says which.  Returns whether they spin.
 */
bool cuda_wait_mode(int gpu, int nranks, int cores);

/*
 * Rank rank's device on GPU gpu, with a new stream and cuBLAS handle.  Makes
 * gpu the calling thread's current device.  Exits through CUDA_CHECK when the
 * GPU refuses.
 */
struct dev *dev_cuda_new(int rank, int gpu);

/* The stream and GPU of a device made by dev_cuda_new. */
cudaStream_t dev_cuda_stream(const struct dev *d);
int dev_cuda_gpu(const struct dev *d);

/* Whether d is a cuda device (its ops are this file's). */
int dev_is_cuda(const struct dev *d);

#endif
