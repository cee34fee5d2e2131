/*
 * ar_model.c — link presets, bandwidth conventions, the ring all-reduce in
 * virtual time, and the tensor-parallel layer's compute and traffic.
 */
#include <stdlib.h>
#include <string.h>

#include "ar_model.h"

// snippet: link-presets
/*
 * Per direction, per device.  NVLink 4 (H100 SXM): 18 links x 25 GB/s =
 * 450 GB/s each way.  PCIe Gen5 x16: 32 GT/s x 16 lanes, 128b/130b, about
 * 63 GB/s each way.  InfiniBand NDR: 400 Gb/s = 50 GB/s per adapter.  The
 * latencies are a collective library's per-message cost on each link,
 * rounded: a few microseconds, more when the message leaves the node.
 */
static const struct ar_link links[] = {
    { "nvlink", "NVLink 4",       3e-6, 450e9 },
    { "pcie",   "PCIe Gen5 x16",  5e-6,  64e9 },
    { "ib",     "InfiniBand NDR", 8e-6,  50e9 },
};
// end snippet

const struct ar_link *ar_links(size_t *n)
{
    *n = sizeof links / sizeof *links;
    return links;
}

const struct ar_link *ar_link_find(const char *name)
{
    for (size_t i = 0; i < sizeof links / sizeof *links; i++)
        if (strcmp(links[i].name, name) == 0)
            return &links[i];
    return NULL;
}

double ar_algbw(double bytes, double seconds) { return seconds > 0 ? bytes / seconds : 0; }

/*
 * A ring all-reduce moves 2(n-1)/n of the buffer through every rank's link,
 * so busbw compares with the link's own bandwidth whatever n is.
 */
double ar_busbw_factor(int nranks) { return nranks > 1 ? 2.0 * (nranks - 1) / nranks : 0; }

static size_t share(size_t n, int size, int r)
{
    return n / (size_t)size + ((size_t)r < n % (size_t)size ? 1 : 0);
}

/* Seconds to send a block of bytes in chunks over link. */
static double send_time(size_t bytes, size_t chunk, const struct ar_link *link)
{
    if (bytes == 0)
        return 0;
    size_t k = chunk ? (bytes + chunk - 1) / chunk : 1;
    return (double)k * link->alpha_s + (double)bytes / link->beta_Bps;
}

static int mod(int a, int n) { return ((a % n) + n) % n; }

// snippet: ring-virtual-time
double ar_ring_time(int n, size_t count, size_t elt, size_t chunk_bytes, const struct ar_link *link)
{
    if (n <= 1 || count == 0)
        return 0;
    double *ready = calloc((size_t)n, sizeof *ready);    /* when each rank may start its next step */
    double *sent = calloc((size_t)n, sizeof *sent);      /* when each rank's send of this step lands */
    if (!ready || !sent) {
        free(ready);
        free(sent);
        return -1;
    }
    for (int step = 0; step < 2 * (n - 1); step++) {
        for (int r = 0; r < n; r++) {
            /* Reduce-scatter step j: rank r sends block r-j; all-gather step j: block r+1-j. */
            int j = step < n - 1 ? step : step - (n - 1);
            int block = step < n - 1 ? mod(r - j, n) : mod(r + 1 - j, n);
            sent[r] = ready[r] + send_time(share(count, n, block) * elt, chunk_bytes, link);
        }
        /* Rank r goes on once its own send is done and its left neighbour's block has arrived. */
        for (int r = 0; r < n; r++) {
            double in = sent[mod(r - 1, n)];
            ready[r] = sent[r] > in ? sent[r] : in;
        }
    }
    double t = 0;
    for (int r = 0; r < n; r++)
        if (ready[r] > t)
            t = ready[r];
    free(ready);
    free(sent);
    return t;
}
// end snippet

double ar_ring_time_formula(int n, size_t count, size_t elt, size_t chunk_bytes, const struct ar_link *link)
{
    if (n <= 1 || count == 0)
        return 0;
    double block = (double)(count / (size_t)n) * (double)elt;
    double k = chunk_bytes ? (double)(((size_t)block + chunk_bytes - 1) / chunk_bytes) : 1;
    return 2.0 * (n - 1) * (k * link->alpha_s + block / link->beta_Bps);
}

double ar_tp_allreduce_bytes(const struct ar_tp_layer *L)
{
    return (double)L->seq * (double)L->batch * (double)L->hidden * 2.0;
}

int ar_tp_allreduces_forward(void) { return 2; }

// snippet: tp-layer-cost
/*
 * Forward flops of a transformer layer (Megatron's count): QKV 6sbh^2,
 * attention scores and their use 4bs^2h, output projection 2sbh^2, MLP
 * 16sbh^2; every GEMM is split over the t ranks.  Each rank then all-reduces
 * its partial s x b x h output twice: after attention and after the MLP.
 */
double ar_tp_flops(const struct ar_tp_layer *L)
{
    double s = (double)L->seq, b = (double)L->batch, h = (double)L->hidden;
    return (24 * s * b * h * h + 4 * b * s * s * h) / L->tp;
}

double ar_tp_gemm_time(const struct ar_tp_layer *L) { return ar_tp_flops(L) / (L->tflops * 1e12); }

double ar_tp_comm_time(const struct ar_tp_layer *L, const struct ar_link *link)
{
    size_t count = (size_t)L->seq * (size_t)L->batch * (size_t)L->hidden;
    return ar_tp_allreduces_forward() * ar_ring_time(L->tp, count, 2, 0, link);
}
// end snippet
