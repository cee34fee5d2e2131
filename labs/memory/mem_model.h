/*
 * mem_model.h — the memory lab's accounting: how many bytes each rank of a
 * transformer split tp x pp holds while training with Adam in mixed precision.
 *
 * Pure functions, no runtime: the lab prints them, the live step checks them
 * against an allocator, the tests check them against hand-computed figures.
 * The derivation is written out in doc/labs.md (section "memory").
 */
#ifndef LAB_MEM_MODEL_H
#define LAB_MEM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* How the weights are stored; fp16 and bf16 train with an fp32 master copy. */
enum mem_dtype {
    MEM_FP16,
    MEM_BF16,
    MEM_FP32,
};

/* What the backward pass recomputes instead of keeping. */
enum mem_recompute {
    MEM_RECOMPUTE_NONE,         /* keep every activation */
    MEM_RECOMPUTE_SELECTIVE,    /* recompute the attention scores (the as^2b terms) */
    MEM_RECOMPUTE_FULL,         /* keep only each layer's input, recompute the rest */
};

/* A GPT-style transformer and how it is split and scheduled. */
struct mem_model {
    long layers;            /* transformer layers L */
    long hidden;            /* hidden size h */
    long heads;             /* attention heads a */
    long seq;               /* sequence length s */
    long micro_batch;       /* sequences per micro-batch b */
    long vocab;             /* vocabulary V */
    enum mem_dtype dtype;   /* weight and activation type */
    long tp;                /* tensor-parallel ranks t (split inside each layer) */
    long pp;                /* pipeline stages p (a contiguous group of layers each) */
    long microbatches;      /* micro-batches per step m (1F1B schedule) */
    enum mem_recompute recompute;   /* activation recomputation (zero: none) */
    bool seq_parallel;      /* sequence parallelism: what tp replicates is split along the sequence instead */
    long dp;                /* data-parallel replicas N (0 is taken as 1) */
    int zero;               /* ZeRO stage 0..3: shard optimizer states (1), also gradients (2), also weights (3) over N */
};

/* Bytes per parameter for each kind of state. */
struct mem_bpp {
    int weights;            /* 2 (fp16/bf16) or 4 (fp32) */
    int grads;              /* 4: gradients accumulate in fp32 */
    int optimizer;          /* 12 (fp32 master copy + Adam m + v) or 8 (m + v) */
};

/* What one rank of a pipeline stage holds (every tp rank of a stage holds the same). */
struct mem_rank {
    long stage;             /* 0..pp-1 */
    long layers;            /* transformer layers on this stage */
    long in_flight;         /* micro-batches whose activations the stage holds at its peak */
    uint64_t params;        /* parameters on one rank of this stage */
    uint64_t weights;       /* bytes of weights */
    uint64_t grads;         /* bytes of gradients */
    uint64_t optimizer;     /* bytes of optimizer state */
    uint64_t activations;   /* bytes of activations kept for the backward pass, at the peak */
    uint64_t total;         /* the sum of the four */
};

/* NULL when m is consistent, else why not (t must divide h and a, a must divide h, t must divide s under sequence parallelism, ...). */
const char *mem_model_invalid(const struct mem_model *m);

/* "none", "selective", "full"; and the reverse (-1 for an unknown name). */
int mem_recompute_parse(const char *s, enum mem_recompute *r);

/* "fp16", "bf16", "fp32"; and the reverse (-1 for an unknown name). */
const char *mem_dtype_name(enum mem_dtype t);
int mem_dtype_parse(const char *s, enum mem_dtype *t);

struct mem_bpp mem_bytes_per_param(enum mem_dtype t);
/* Bytes of one activation element: 2 for fp16/bf16, 4 for fp32. */
int mem_act_bytes(enum mem_dtype t);

/* Parameters of the whole model, unsplit: L(12h^2 + 13h) + Vh + sh + 2h. */
uint64_t mem_params_total(const struct mem_model *m);

/* Parameters of one transformer layer held by one tp rank: (12h^2 + 7h)/t + 6h. */
uint64_t mem_layer_params(const struct mem_model *m);

/*
 * Bytes of activations one layer keeps for backward, per micro-batch, on one
 * tp rank: sbh(4e + 2) + 12e·sbh/t + (2e + 1)·a·s²·b/t with e the activation
 * element size; for e = 2 this is sbh(10 + 24/t + 5as/(ht)) (Korthikanti et al.).
 * Sequence parallelism splits the first term by t as well: for e = 2,
 * sbh(34 + 5as/h)/t.  Selective recomputation drops the last term; full
 * keeps the layer's input, e·sbh (e·sbh/t under sequence parallelism, where
 * each tp rank holds its seq/t tokens of it).
 */
uint64_t mem_layer_activations(const struct mem_model *m);

/* Layers on stage k: L/p, the first L%p stages one more. */
long mem_stage_layers(const struct mem_model *m, long stage);

/* Micro-batches stage k holds at once under 1F1B: min(m, p - k). */
long mem_in_flight(const struct mem_model *m, long stage);

/* Fill r with stage k's figures. */
void mem_stage(const struct mem_model *m, long stage, struct mem_rank *r);

/* The stage whose ranks hold the most bytes (the first on a tie), with its figures in r. */
long mem_largest(const struct mem_model *m, struct mem_rank *r);

/* The same model on one device: tp = pp = dp = 1, no ZeRO, no sequence parallelism. */
struct mem_model mem_unsplit(const struct mem_model *m);

/*
 * ZeRO (Rajbhandari et al. 2020): n elements of one state on a rank, held
 * whole or as one of N shards, ceil(n / N) (the largest shard) — whole for
 * stage < `from`, the stage that first shards this state (1 optimizer,
 * 2 gradients, 3 weights).
 */
uint64_t mem_zero_share(const struct mem_model *m, uint64_t n, int from);

/*
 * Model-state bytes per parameter of a rank under ZeRO's stage, with the
 * given bytes for weights, gradients and optimizer states, as the paper's
 * Figure 1 writes them: stage 0 (w + g + k), 1 w + g + k/N, 2 w + (g + k)/N,
 * 3 (w + g + k)/N.
 */
double mem_zero_bytes_per_param(int stage, long dp, double w, double g, double k);

#endif
