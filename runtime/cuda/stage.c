/*
 * stage.c — host buffers handed to a GPU communicator (comm_cuda.h).
 *
 * A lab keeps its data on its device, but small records it gathers for the
 * report (a struct per rank, a token) live on the host, and the cpu backend
 * takes them as they are.  So that such a lab runs unchanged here, a buffer
 * the GPU cannot address is staged: copied into stream-ordered device memory
 * before the operation and back after it.  Device buffers pass through.
 *
 * stage_in/stage_out take a new block per call; the stage_area_* functions
 * keep a communicator's blocks between operations, so no allocation falls
 * inside the time a wrapper measures once the blocks are big enough.
 *
 * Staging memory comes from the device's default stream-ordered pool
 * (cudaMallocAsync), not cudaMalloc: cudaFree waits for the whole device, and
 * a device whose NCCL send waits for its receiver would then hold this rank
 * until that receiver came, which may be the rank waiting for this one.  Pool
 * memory is not reachable from other GPUs unless the pool grants it, while
 * NCCL reads and writes buffers directly between GPUs of one process, so
 * stage_pool_setup grants every peer GPU of the launch access.
 */
#include <stdint.h>

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

void *stage_area_in(struct stage_area *a, int slot, struct stage *st, const void *p, size_t bytes,
                    bool copy_in, cudaStream_t s)
{
    st->host = NULL;
    st->dev = (void *)p;
    st->bytes = bytes;
    if (!p || bytes == 0 || on_device(p))
        return st->dev;
    if (a->cap[slot] < bytes) {
        /* Stream-ordered, so neither waits for the device (cudaFree would). */
        if (a->dev[slot])
            CUDA_CHECK(cudaFreeAsync(a->dev[slot], s));
        CUDA_CHECK(cudaMallocAsync(&a->dev[slot], bytes, s));
        a->cap[slot] = bytes;
    }
    st->host = (void *)p;
    st->dev = a->dev[slot];
    if (copy_in)
        CUDA_CHECK(cudaMemcpyAsync(st->dev, p, bytes, cudaMemcpyHostToDevice, s));
    return st->dev;
}

void stage_area_out(struct stage *st, bool copy_out, cudaStream_t s)
{
    if (!st->host)
        return;
    if (copy_out) {
        CUDA_CHECK(cudaMemcpyAsync(st->host, st->dev, st->bytes, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
    }
    st->host = NULL;
}

void stage_area_free(struct stage_area *a, cudaStream_t s)
{
    for (int i = 0; i < STAGE_SLOTS; i++) {
        if (a->dev[i])
            CUDA_CHECK(cudaFreeAsync(a->dev[i], s));
        a->dev[i] = NULL;
        a->cap[i] = 0;
    }
}

void stage_pool_setup(int gpu, const int *peers, int n)
{
    cudaMemPool_t pool;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, gpu));
    /* Freed blocks stay in the pool: growing a block later costs no trip to the driver. */
    uint64_t keep = UINT64_MAX;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    for (int i = 0; i < n; i++) {
        int can = 0;
        if (peers[i] == gpu)
            continue;
        CUDA_CHECK(cudaDeviceCanAccessPeer(&can, peers[i], gpu));
        /* Without a P2P path NCCL does not touch another GPU's buffers; it copies through its own. */
        if (!can)
            continue;
        struct cudaMemAccessDesc d = {
            .location = { .type = cudaMemLocationTypeDevice, .id = peers[i] },
            .flags = cudaMemAccessFlagsProtReadWrite,
        };
        CUDA_CHECK(cudaMemPoolSetAccess(pool, &d, 1));
    }
}
