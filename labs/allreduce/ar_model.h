/*
 * ar_model.h — the allreduce lab's models: nccl-tests' bandwidth conventions,
 * an alpha-beta link model replayed in virtual time over the ring algorithm's
 * messages, and the cost of one tensor-parallel transformer layer.
 *
 * Pure functions; every figure they give is modelled and labelled so.
 */
#ifndef LAB_AR_MODEL_H
#define LAB_AR_MODEL_H

#include <stddef.h>

/* A link between two devices: latency per message and bandwidth per direction. */
struct ar_link {
    const char *name;       /* "nvlink", "pcie", "ib" */
    const char *label;      /* "NVLink 4", "PCIe Gen5 x16", "InfiniBand NDR" */
    double alpha_s;         /* seconds of latency per message */
    double beta_Bps;        /* bytes per second per direction */
};

/* The presets, in the order nvlink, pcie, ib; n gets their count. */
const struct ar_link *ar_links(size_t *n);
/* The preset called name, or NULL. */
const struct ar_link *ar_link_find(const char *name);

/* nccl-tests: algbw = S / t; busbw = algbw * 2(n-1)/n for all-reduce. */
double ar_algbw(double bytes, double seconds);
double ar_busbw_factor(int nranks);

/*
 * Virtual time of a ring all-reduce of count elements of elt bytes over n
 * ranks on link: n-1 reduce-scatter steps then n-1 all-gather steps; at each
 * step every rank sends one block (the blocks of comm_share: sizes differ by
 * at most one element) to its right neighbour in chunks of at most
 * chunk_bytes (0: whole), each chunk costing alpha + bytes / beta on that
 * rank's own directed link; a rank starts a step when its previous send is
 * done and its previous receive has arrived.  Reduction arithmetic is free.
 */
double ar_ring_time(int n, size_t count, size_t elt, size_t chunk_bytes, const struct ar_link *link);

/* Closed form for comparison, when n divides count and chunks divide blocks: 2(n-1)(k alpha + S/(n beta)). */
double ar_ring_time_formula(int n, size_t count, size_t elt, size_t chunk_bytes, const struct ar_link *link);

/* One tensor-parallel transformer layer (Megatron): what it computes and what it all-reduces. */
struct ar_tp_layer {
    long hidden;            /* h */
    long seq;               /* s */
    long batch;             /* micro-batch b */
    int tp;                 /* tensor-parallel ranks t */
    double tflops;          /* sustained GEMM throughput of one device, 1e12 flop/s */
};

/* Bytes of one all-reduce: the s x b x h activations in 2-byte elements. */
double ar_tp_allreduce_bytes(const struct ar_tp_layer *L);
/* All-reduces per layer in the forward pass (after attention and after the MLP). */
int ar_tp_allreduces_forward(void);
/* Forward GEMM flops of one layer on one tp rank: (24 s b h^2 + 4 b s^2 h) / t. */
double ar_tp_flops(const struct ar_tp_layer *L);
/* Seconds of that compute at L->tflops. */
double ar_tp_gemm_time(const struct ar_tp_layer *L);
/* Seconds of the forward pass's all-reduces of one layer on link (ring, no chunking). */
double ar_tp_comm_time(const struct ar_tp_layer *L, const struct ar_link *link);

#endif
