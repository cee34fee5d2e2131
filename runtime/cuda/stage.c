/*
 * stage.c — host buffers handed to a GPU communicator (comm_cuda.h).
 *
 * A lab keeps its data on its device, but small records it gathers for the
 * report (a struct per rank, a token) live on the host, and the cpu backend
 * takes them as they are.  So that such a lab runs unchanged here, a buffer
 * the GPU cannot address is staged: copied into stream-ordered device memory
 * before the operation and back after it.  Device buffers pass through.
 */
#include <cuda_runtime.h>

#include "callcheck.h"
#include "comm_cuda.h"

static bool on_device(const void *p)
{
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();   /* older drivers: an unknown pointer is an error; it is host memory */
        return false;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

void *stage_in(struct stage *st, const void *p, size_t bytes, bool copy_in, cudaStream_t s)
{
    st->host = NULL;
    st->dev = (void *)p;
    st->bytes = bytes;
    if (!p || bytes == 0 || on_device(p))
        return st->dev;
    st->host = (void *)p;
    CUDA_CHECK(cudaMallocAsync(&st->dev, bytes, s));
    if (copy_in)
        CUDA_CHECK(cudaMemcpyAsync(st->dev, p, bytes, cudaMemcpyHostToDevice, s));
    return st->dev;
}

void stage_out(struct stage *st, bool copy_out, cudaStream_t s)
{
    if (!st->host)
        return;
    if (copy_out)
        CUDA_CHECK(cudaMemcpyAsync(st->host, st->dev, st->bytes, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaFreeAsync(st->dev, s));
    /* The host reads its buffer as soon as the operation returns. */
    CUDA_CHECK(cudaStreamSynchronize(s));
    st->host = NULL;
}
