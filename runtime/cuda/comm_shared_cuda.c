/*
 * comm_shared_cuda.c — the shared communicator's hooks for ranks that share
 * a GPU (comm_shared.h): the "cuda-shared" communicator.
 *
 * A staging block is cudaMalloc'd device memory, made once and reused (the
 * reuse is comm_shared.c's).  A fill is a cudaMemcpyAsync on the sender's
 * stream followed by a cudaEventRecord; a drain makes the receiver's stream
 * wait for that event (cudaStreamWaitEvent) and copies the block out on it.
 * The event orders the two copies between streams without blocking the
 * GPU; the host waits only for its own stream (sync).  Copies use
 * cudaMemcpyDefault: a send's payload may be a host record (stage.c).
 */
#include <cuda_runtime.h>

#include "callcheck.h"
#include "comm_cuda.h"
#include "comm_shared.h"
#include "dev_cuda.h"

/* The rank's stream, with its GPU current (a rank may be served by another thread). */
static cudaStream_t stream_of(struct dev *d)
{
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(d)));
    return dev_cuda_stream(d);
}

static void *cs_block_alloc(struct dev *d, size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(d)));
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
}

static void cs_block_free(void *mem)
{
    /* Every copy into or out of the block has finished: both ends sync their streams before letting go of it. */
    CUDA_CHECK(cudaFree(mem));
}

static void *cs_event_new(struct dev *d)
{
    cudaEvent_t e;
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(d)));
    CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return e;
}

static void cs_event_free(void *ev)
{
    CUDA_CHECK(cudaEventDestroy((cudaEvent_t)ev));
}

static int cs_fill(struct dev *d, void *mem, const void *src, size_t bytes, void *ev)
{
    cudaStream_t s = stream_of(d);
    CUDA_CHECK(cudaMemcpyAsync(mem, src, bytes, cudaMemcpyDefault, s));
    /* Re-recording is safe: a wait already queued keeps the state it captured. */
    CUDA_CHECK(cudaEventRecord((cudaEvent_t)ev, s));
    return 0;
}

static int cs_drain(struct dev *d, void *dst, const void *mem, size_t bytes, void *ev)
{
    cudaStream_t s = stream_of(d);
    CUDA_CHECK(cudaStreamWaitEvent(s, (cudaEvent_t)ev, 0));
    CUDA_CHECK(cudaMemcpyAsync(dst, mem, bytes, cudaMemcpyDefault, s));
    return 0;
}

static int cs_sync(struct dev *d)
{
    CUDA_CHECK(cudaStreamSynchronize(stream_of(d)));
    return 0;
}

/* Host buffers of a collective go through device copies (stage.c); device buffers as they are. */
static void *cs_coll_in(struct dev *d, struct comm_shared_buf *b, const void *p, size_t bytes,
                        bool copy_in)
{
    struct stage st;
    stage_in(&st, p, bytes, copy_in, stream_of(d));
    *b = (struct comm_shared_buf){ .dev = st.dev, .host = st.host, .bytes = st.bytes };
    return b->dev;
}

static void cs_coll_out(struct dev *d, struct comm_shared_buf *b, bool copy_out)
{
    struct stage st = { .dev = b->dev, .host = b->host, .bytes = b->bytes };
    stage_out(&st, copy_out, stream_of(d));
}

const struct comm_shared_hooks comm_shared_cuda_hooks = {
    .name = "cuda-shared",
    /* Each message costs a wait on the host: move big chunks. */
    .chunk_bytes = (size_t)64 << 20,
    .block_alloc = cs_block_alloc,
    .block_free = cs_block_free,
    .event_new = cs_event_new,
    .event_free = cs_event_free,
    .fill = cs_fill,
    .drain = cs_drain,
    .sync = cs_sync,
    .coll_in = cs_coll_in,
    .coll_out = cs_coll_out,
};
