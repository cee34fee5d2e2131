/*
 * memory.c — the memory lab (seed question 1): bytes per rank of a
 * transformer split tp x pp, from the accounting in mem_model.c, and a live
 * step that allocates a scaled-down model of the same shape tensor by tensor
 * through the device interface and replays the 1F1B schedule's activation
 * lifetimes, so the allocator's peak can be set beside the prediction.
 *
 * Ranks are numbered tp-fastest, as in Megatron: rank r is tensor-parallel
 * rank r % tp of pipeline stage r / tp.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

static struct mem_model model_from(const struct memory_params *p)
{
    struct mem_model m = {
        .layers = p->layers, .hidden = p->hidden, .heads = p->heads, .seq = p->seq,
        .micro_batch = p->micro_batch, .vocab = p->vocab, .tp = p->tp, .pp = p->pp,
        .microbatches = p->microbatches, .seq_parallel = p->sequence_parallel, .dp = p->dp,
        .zero = (int)p->zero,
    };
    if (mem_dtype_parse(p->dtype, &m.dtype) != 0)
        m.dtype = MEM_BF16;
    if (mem_recompute_parse(p->recompute, &m.recompute) != 0)
        m.recompute = MEM_RECOMPUTE_NONE;
    return m;
}

/*
 * The scaled-down model the live step allocates: the same split, schedule
 * and dtype, two layers per stage, two heads per tp rank of 16 dimensions,
 * 64 tokens, and an odd vocabulary so the vocab-parallel shard rounds up.
 */
static struct mem_model live_model(const struct mem_model *m)
{
    struct mem_model s = *m;
    s.layers = 2 * m->pp;
    s.heads = 2 * m->tp;
    s.hidden = 16 * s.heads;
    /* Under sequence parallelism the tokens split evenly over the tp ranks. */
    s.seq = m->seq_parallel ? 64 + (m->tp - 64 % m->tp) % m->tp : 64;
    s.micro_batch = 1;
    s.vocab = 100 * m->tp + 1;
    return s;
}

/* Sizes each in range that do not make a model together (a usage error). */
static const char *memory_invalid(const struct lab_params *p)
{
    struct memory_params P = memory_params_read(p);
    struct mem_model m = model_from(&P);
    return mem_model_invalid(&m);
}

static int memory_ranks(const struct lab_params *p)
{
    struct memory_params P = memory_params_read(p);
    return (int)(P.tp * P.pp);
}

/* ---- The live step: allocate tensor by tensor ---------------------------- */

/* One rank's allocations, so they can be freed. */
struct live {
    struct dev *dev;
    void **ptrs;
    size_t n, cap;
    uint64_t params;    /* parameter elements allocated */
    bool failed;
};

static void *live_alloc(struct live *L, uint64_t bytes, const char *label)
{
    void *p = dev_alloc(L->dev, (size_t)bytes, label);
    if (!p) {
        L->failed = true;
        return NULL;
    }
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        void **np = realloc(L->ptrs, L->cap * sizeof *np);
        if (!np) {
            dev_free(L->dev, p);
            L->failed = true;
            return NULL;
        }
        L->ptrs = np;
    }
    L->ptrs[L->n++] = p;
    return p;
}

/*
 * A parameter tensor of n elements: its weights, gradients and optimizer
 * state, each allocated here unless ZeRO shards it (then alloc_shards).
 */
static void alloc_param(struct live *L, const struct mem_model *m, uint64_t n)
{
    struct mem_bpp bpp = mem_bytes_per_param(m->dtype);
    L->params += n;
    if (m->zero < 3)
        live_alloc(L, n * (uint64_t)bpp.weights, "weights");
    if (m->zero < 2)
        live_alloc(L, n * 4, "gradients");
    if (m->zero < 1) {
        if (bpp.optimizer == 12)
            live_alloc(L, n * 4, "optimizer");  /* fp32 master copy */
        live_alloc(L, n * 4, "optimizer");      /* Adam first moment */
        live_alloc(L, n * 4, "optimizer");      /* Adam second moment */
    }
}

/*
 * ZeRO's sharded states as DeepSpeed keeps them: all of the rank's
 * parameters flattened into one buffer per state, of which the rank keeps
 * its 1/N (the largest shard when N does not divide it).
 */
static void alloc_shards(struct live *L, const struct mem_model *m)
{
    struct mem_bpp bpp = mem_bytes_per_param(m->dtype);
    uint64_t n = L->params;
    if (m->zero >= 3)
        live_alloc(L, mem_zero_share(m, n, 3) * (uint64_t)bpp.weights, "weights");
    if (m->zero >= 2)
        live_alloc(L, mem_zero_share(m, n, 2) * 4, "gradients");
    if (m->zero >= 1)
        for (int i = 0; i < bpp.optimizer / 4; i++)
            live_alloc(L, mem_zero_share(m, n, 1) * 4, "optimizer");
}

/* One transformer layer's parameters on one tp rank, tensor by tensor (Megatron's layout). */
static void alloc_layer_params(struct live *L, const struct mem_model *m)
{
    uint64_t h = (uint64_t)m->hidden, t = (uint64_t)m->tp;
    alloc_param(L, m, h * 3 * h / t);   /* QKV weight, column-parallel */
    alloc_param(L, m, 3 * h / t);       /* QKV bias */
    alloc_param(L, m, h * h / t);       /* attention output weight, row-parallel */
    alloc_param(L, m, h);               /* its bias, replicated */
    alloc_param(L, m, h * 4 * h / t);   /* MLP up, column-parallel */
    alloc_param(L, m, 4 * h / t);
    alloc_param(L, m, 4 * h * h / t);   /* MLP down, row-parallel */
    alloc_param(L, m, h);
    for (int i = 0; i < 4; i++)
        alloc_param(L, m, h);           /* two layer norms: gain and bias */
}

// snippet: activation-inventory
/*
 * What one layer keeps for its backward pass, per micro-batch.  `sbh` tensors
 * have s*b*h elements times mult, `ass` tensors a*s*s*b; split ones are
 * divided among the tp ranks; masks are one byte per element.  `keep` is the
 * strongest recomputation under which the tensor is still kept: the attention
 * scores go with selective recomputation, everything but the layer's input
 * with full.
 */
enum act_shape { SBH, ASS };

static const struct act_tensor {
    const char *name;
    enum act_shape shape;
    int mult;
    bool split;     /* divided by tp */
    bool mask;      /* 1 byte per element */
    enum mem_recompute keep;
} act_inventory[] = {
    { "layer-norm 1 input",          SBH, 1, false, false, MEM_RECOMPUTE_FULL },
    { "QKV GEMM input",              SBH, 1, false, false, MEM_RECOMPUTE_SELECTIVE },
    { "Q",                           SBH, 1, true,  false, MEM_RECOMPUTE_SELECTIVE },
    { "K",                           SBH, 1, true,  false, MEM_RECOMPUTE_SELECTIVE },
    { "softmax output",              ASS, 1, true,  false, MEM_RECOMPUTE_NONE },
    { "attention dropout mask",      ASS, 1, true,  true,  MEM_RECOMPUTE_NONE },
    { "attention dropout output",    ASS, 1, true,  false, MEM_RECOMPUTE_NONE },
    { "V",                           SBH, 1, true,  false, MEM_RECOMPUTE_SELECTIVE },
    { "attention-out GEMM input",    SBH, 1, true,  false, MEM_RECOMPUTE_SELECTIVE },
    { "attention residual mask",     SBH, 1, false, true,  MEM_RECOMPUTE_SELECTIVE },
    { "layer-norm 2 input",          SBH, 1, false, false, MEM_RECOMPUTE_SELECTIVE },
    { "MLP-up GEMM input",           SBH, 1, false, false, MEM_RECOMPUTE_SELECTIVE },
    { "GeLU input",                  SBH, 4, true,  false, MEM_RECOMPUTE_SELECTIVE },
    { "MLP-down GEMM input",         SBH, 4, true,  false, MEM_RECOMPUTE_SELECTIVE },
    { "MLP residual mask",           SBH, 1, false, true,  MEM_RECOMPUTE_SELECTIVE },
};
// end snippet

static uint64_t act_bytes(const struct mem_model *m, const struct act_tensor *a)
{
    uint64_t s = (uint64_t)m->seq, b = (uint64_t)m->micro_batch, h = (uint64_t)m->hidden;
    uint64_t n = a->shape == SBH ? s * b * h : (uint64_t)m->heads * s * s * b;
    n *= (uint64_t)a->mult;
    /* Sequence parallelism splits along the sequence what tensor parallelism replicates. */
    if (a->split || m->seq_parallel)
        n /= (uint64_t)m->tp;
    return n * (a->mask ? 1 : (uint64_t)mem_act_bytes(m->dtype));
}

/* Allocate (forward) one micro-batch's activations for every layer of the stage. */
static void **forward_alloc(struct live *L, const struct mem_model *m, long layers)
{
    size_t per = sizeof act_inventory / sizeof *act_inventory;
    void **held = calloc((size_t)layers * per, sizeof *held);
    if (!held) {
        L->failed = true;
        return NULL;
    }
    for (long l = 0; l < layers; l++)
        for (size_t i = 0; i < per; i++) {
            if (act_inventory[i].keep < m->recompute)
                continue;   /* recomputed in backward, not kept */
            held[(size_t)l * per + i] = dev_alloc(L->dev, (size_t)act_bytes(m, &act_inventory[i]),
                                                  "activations");
            if (!held[(size_t)l * per + i])
                L->failed = true;
        }
    return held;
}

static void backward_free(struct live *L, void **held, long layers)
{
    size_t per = sizeof act_inventory / sizeof *act_inventory;
    for (size_t i = 0; held && i < (size_t)layers * per; i++)
        dev_free(L->dev, held[i]);
    free(held);
}

// snippet: one-f-one-b-memory
/*
 * Stage k's 1F1B order: p-k-1 warm-up forwards, then one forward and one
 * backward in turn, then the remaining backwards.  A forward allocates its
 * micro-batch's activations, the backward of the oldest one frees them, so
 * the allocator's peak is whatever the schedule makes it.
 */
static void replay_1f1b(struct live *L, const struct mem_model *m, long stage, long layers)
{
    long mbs = m->microbatches;
    long warm = m->pp - stage - 1 < mbs ? m->pp - stage - 1 : mbs;
    void ***held = calloc((size_t)mbs, sizeof *held);
    if (!held) {
        L->failed = true;
        return;
    }
    long next_f = 0, next_b = 0;
    for (; next_f < warm; next_f++)
        held[next_f] = forward_alloc(L, m, layers);
    while (next_b < mbs) {
        if (next_f < mbs) {
            held[next_f] = forward_alloc(L, m, layers);
            next_f++;
        }
        backward_free(L, held[next_b], layers);
        held[next_b++] = NULL;
    }
    free(held);
}
// end snippet

/* Allocate rank's share of the live model and replay its schedule; *peak gets the allocator's peak. */
static int live_step(struct lab_ctx *c, const struct mem_model *m, long stage, double *peak,
                     double *params)
{
    struct live L = { .dev = c->dev };
    uint64_t h = (uint64_t)m->hidden;
    uint64_t vshard = ((uint64_t)m->vocab + (uint64_t)m->tp - 1) / (uint64_t)m->tp * h;
    long layers = mem_stage_layers(m, stage);

    dev_reset_peak(c->dev);
    uint64_t base = dev_bytes(c->dev, NULL);
    if (stage == 0) {
        alloc_param(&L, m, vshard);                     /* word embedding, vocab-parallel */
        alloc_param(&L, m, (uint64_t)m->seq * h);       /* position embedding */
    }
    for (long l = 0; l < layers; l++)
        alloc_layer_params(&L, m);
    if (stage == m->pp - 1) {
        alloc_param(&L, m, h);                          /* final layer norm */
        alloc_param(&L, m, h);
        if (m->pp > 1)
            alloc_param(&L, m, vshard);                 /* output layer: the tied embedding's copy */
    }
    alloc_shards(&L, m);
    replay_1f1b(&L, m, stage, layers);
    *peak = (double)(c->dev->usage.peak - base);
    *params = (double)L.params;
    for (size_t i = 0; i < L.n; i++)
        dev_free(c->dev, L.ptrs[i]);
    free(L.ptrs);
    return L.failed ? -1 : 0;
}

static int memory_run(struct lab_ctx *c)
{
    struct memory_params P = memory_params_read(c->params);
    struct mem_model m = model_from(&P);
    const char *bad = mem_model_invalid(&m);
    if (bad) {
        if (c->rank == 0)
            fprintf(stderr, "labrun: error: memory: %s\n", bad);
        return -1;
    }

    /* Live step on every rank; the figures travel to rank 0. */
    struct mem_model s = live_model(&m);
    long stage = c->rank / m.tp;
    double mine[3] = { 0, 0, 0 };     /* allocator peak, predicted peak, parameters allocated */
    struct mem_rank pred;
    mem_stage(&s, stage, &pred);
    mine[1] = (double)pred.total;
    int live_rc = live_step(c, &s, stage, &mine[0], &mine[2]);
    double *all = malloc(sizeof(double) * 3 * (size_t)c->nranks);
    if (!all)
        return -1;
    if (lab_gather(c, mine, sizeof mine, all) != 0) {
        free(all);
        return -1;
    }
    if (c->rank != 0) {
        free(all);
        return live_rc;
    }

    int rc = memory_report(c, &P, &m, &s, all, live_rc);
    free(all);
    return rc;
}

/*
 * Memory a run needs: the live step's own accounting of each stage's peak
 * (the scaled-down model), on each of its tp ranks, twice over for the
 * allocator's and the report's own.
 */
static double memory_bytes(const struct lab_params *p)
{
    struct memory_params P = memory_params_read(p);
    struct mem_model m = model_from(&P);
    struct mem_model s = live_model(&m);
    double total = 0;
    for (long stage = 0; stage < m.pp; stage++) {
        struct mem_rank r;
        mem_stage(&s, stage, &r);
        total += (double)m.tp * (double)r.total;
    }
    return 2 * total + (double)(m.tp * m.pp) * (1 << 20);
}

const struct lab_impl lab_memory = {
    .name = "memory",
    .ranks = memory_ranks,
    .run = memory_run,
    .invalid = memory_invalid,
    .bytes = memory_bytes,
    .limits = &lab_memory_limits,
};
