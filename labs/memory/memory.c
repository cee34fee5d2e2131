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

#include "lab.h"
#include "mem_model.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

static struct mem_model model_from(const struct lab_params *p)
{
    struct mem_model m = {
        .layers = lab_param_int(p, "layers"),
        .hidden = lab_param_int(p, "hidden"),
        .heads = lab_param_int(p, "heads"),
        .seq = lab_param_int(p, "seq"),
        .micro_batch = lab_param_int(p, "micro-batch"),
        .vocab = lab_param_int(p, "vocab"),
        .tp = lab_param_int(p, "tp"),
        .pp = lab_param_int(p, "pp"),
        .microbatches = lab_param_int(p, "microbatches"),
    };
    if (mem_dtype_parse(lab_param_str(p, "dtype"), &m.dtype) != 0)
        m.dtype = MEM_BF16;
    if (mem_recompute_parse(lab_param_str(p, "recompute"), &m.recompute) != 0)
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
    s.seq = 64;
    s.micro_batch = 1;
    s.vocab = 100 * m->tp + 1;
    return s;
}

static int memory_ranks(const struct lab_params *p)
{
    return (int)(lab_param_int(p, "tp") * lab_param_int(p, "pp"));
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

/* A parameter tensor of n elements: its weights, gradients and optimizer state. */
static void alloc_param(struct live *L, const struct mem_model *m, uint64_t n)
{
    struct mem_bpp bpp = mem_bytes_per_param(m->dtype);
    L->params += n;
    live_alloc(L, n * (uint64_t)bpp.weights, "weights");
    live_alloc(L, n * 4, "gradients");
    if (bpp.optimizer == 12)
        live_alloc(L, n * 4, "optimizer");      /* fp32 master copy */
    live_alloc(L, n * 4, "optimizer");          /* Adam first moment */
    live_alloc(L, n * 4, "optimizer");          /* Adam second moment */
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
    if (a->split)
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
    replay_1f1b(&L, m, stage, layers);
    *peak = (double)(c->dev->usage.peak - base);
    *params = (double)L.params;
    for (size_t i = 0; i < L.n; i++)
        dev_free(c->dev, L.ptrs[i]);
    free(L.ptrs);
    return L.failed ? -1 : 0;
}

/*
 * Parameters that exist more than once over the ranks, or only as padding:
 * every tp rank keeps its own copy of the replicated biases and layer norms
 * (6h per layer, 2h final) and of the position embedding; the vocab-parallel
 * embedding pads V up to a multiple of tp; with p > 1 the last stage keeps a
 * whole second copy of the tied word embedding.
 */
static uint64_t live_replicas(const struct mem_model *m)
{
    uint64_t h = (uint64_t)m->hidden, t = (uint64_t)m->tp, V = (uint64_t)m->vocab;
    uint64_t vpad = (V + t - 1) / t * t;
    uint64_t extra = (t - 1) * ((uint64_t)m->layers * 6 * h + (uint64_t)m->seq * h + 2 * h);
    extra += (vpad - V) * h;
    if (m->pp > 1)
        extra += vpad * h;
    return extra;
}

/*
 * All-gather n doubles per rank into all (host arrays).  Collectives work on
 * device memory, so the figures go through device buffers (after the live
 * step has read its peak).
 */
static int gather_doubles(struct lab_ctx *c, const double *mine, double *all, size_t n)
{
    size_t bytes = n * sizeof(double);
    void *s = dev_alloc(c->dev, bytes, "report");
    void *r = dev_alloc(c->dev, bytes * (size_t)c->nranks, "report");
    int rc = -1;
    if (s && r && dev_copy(c->dev, s, mine, bytes, DEV_H2D) == 0 &&
        comm_allgather(c->comm, s, r, n, DTYPE_F64) == 0 &&
        dev_copy(c->dev, all, r, bytes * (size_t)c->nranks, DEV_D2H) == 0 && dev_sync(c->dev) == 0)
        rc = 0;
    dev_free(c->dev, s);
    dev_free(c->dev, r);
    return rc;
}

/* ---- Report -------------------------------------------------------------- */

static void stage_table(struct lab_ctx *c, const struct mem_model *m, double dev_gib)
{
    struct lab_table *t = lab_table_new(c, "Bytes per rank (modelled; every tp rank of a stage holds the same)",
        "stage|layers|in flight|params|weights GiB|grads GiB|optimizer GiB|activations GiB|total GiB|fits");
    struct mem_model u = mem_unsplit(m);
    struct mem_rank r;
    mem_stage(&u, 0, &r);
    lab_table_row(t, "unsplit (1 device)|%ld|%ld|%.3g|%.1f|%.1f|%.1f|%.1f|%.1f|%s", r.layers, r.in_flight,
                  (double)r.params, r.weights / GIB, r.grads / GIB, r.optimizer / GIB,
                  r.activations / GIB, r.total / GIB, r.total / GIB <= dev_gib ? "yes" : "NO");
    for (long k = 0; k < m->pp; k++) {
        mem_stage(m, k, &r);
        lab_table_row(t, "%ld|%ld|%ld|%.3g|%.1f|%.1f|%.1f|%.1f|%.1f|%s", k, r.layers, r.in_flight,
                      (double)r.params, r.weights / GIB, r.grads / GIB, r.optimizer / GIB,
                      r.activations / GIB, r.total / GIB, r.total / GIB <= dev_gib ? "yes" : "NO");
    }
}

static int memory_run(struct lab_ctx *c)
{
    struct mem_model m = model_from(c->params);
    double dev_gib = lab_param_real(c->params, "device-mem");
    const char *bad = mem_model_invalid(&m);
    if (bad) {
        if (c->rank == 0)
            fprintf(stderr, "labrun: error: memory: %s\n", bad);
        return -1;
    }

    /* Live step on every rank; the figures travel to rank 0 by all-gather. */
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
    if (gather_doubles(c, mine, all, 3) != 0) {
        free(all);
        return -1;
    }
    if (c->rank != 0) {
        free(all);
        return live_rc;
    }

    struct mem_bpp bpp = mem_bytes_per_param(m.dtype);
    struct mem_model u = mem_unsplit(&m);
    struct mem_rank one, big;
    mem_stage(&u, 0, &one);
    long k = mem_largest(&m, &big);

    stage_table(c, &m, dev_gib);
    lab_metric(c, "params_billion", (double)mem_params_total(&m) / 1e9, LAB_EXACT);
    lab_metric(c, "bytes_per_param", bpp.weights + bpp.grads + bpp.optimizer, LAB_EXACT);
    lab_metric(c, "single_device_gib", one.total / GIB, LAB_MODELLED);
    lab_metric(c, "fits_single", one.total / GIB <= dev_gib, LAB_MODELLED);
    lab_metric(c, "max_rank_gib", big.total / GIB, LAB_MODELLED);
    lab_metric(c, "weights_gib", big.weights / GIB, LAB_MODELLED);
    lab_metric(c, "grads_gib", big.grads / GIB, LAB_MODELLED);
    lab_metric(c, "optimizer_gib", big.optimizer / GIB, LAB_MODELLED);
    lab_metric(c, "activations_gib", big.activations / GIB, LAB_MODELLED);
    lab_metric(c, "fits", big.total / GIB <= dev_gib, LAB_MODELLED);
    lab_metric(c, "ranks", (double)(m.tp * m.pp), LAB_EXACT);

    /* Live: every rank's allocator peak against its prediction, one row per stage. */
    struct lab_table *t = lab_table_new(c,
        "Live step: scaled-down model allocated through the device interface",
        "stage|ranks|predicted MiB|allocator peak MiB (min..max over the stage's ranks)|largest difference (bytes)");
    double worst = 0, big_pred = 0, big_peak = 0, allocated = 0;
    for (long st = 0; st < m.pp; st++) {
        double lo = INFINITY, hi = 0, want = 0, diff = 0;
        for (int r = (int)(st * m.tp); r < (int)((st + 1) * m.tp); r++) {
            double peak = all[3 * r];
            want = all[3 * r + 1];
            allocated += all[3 * r + 2];
            lo = fmin(lo, peak);
            hi = fmax(hi, peak);
            if (fabs(peak - want) > fabs(diff))
                diff = peak - want;
            double err = want > 0 ? fabs(peak - want) / want * 100 : 0;
            if (err > worst)
                worst = err;
            if (want > big_pred) {
                big_pred = want;
                big_peak = peak;
            }
        }
        lab_table_row(t, "%ld|%ld|%.3f|%.3f..%.3f|%.0f", st, m.tp, want / MIB, lo / MIB, hi / MIB, diff);
    }
    lab_metric(c, "live_predicted_mib", big_pred / MIB, LAB_MODELLED);
    lab_metric(c, "live_peak_mib", big_peak / MIB, LAB_MEASURED);
    lab_metric(c, "live_error_pct", worst, LAB_MEASURED);
    lab_check(c, "live allocator peak equals the accounting", live_rc == 0 && worst <= 0.1,
              "largest |peak - predicted| / predicted over %d ranks = %.4f%% (tolerance 0.1%%)",
              c->nranks, worst);
    uint64_t extra = live_replicas(&s);
    lab_check(c, "parameters add up", allocated - (double)extra == (double)mem_params_total(&s),
              "live model: %.0f parameters allocated over %d ranks - %.0f replicated or padding = %.0f; "
              "formula L(12h^2+13h) + Vh + sh + 2h = %.0f",
              allocated, c->nranks, (double)extra, allocated - (double)extra,
              (double)mem_params_total(&s));
    lab_note(c, "Largest rank: stage %ld (%ld layers, %ld micro-batches in flight under 1F1B): %.1f GiB of %.0f GiB.",
             k, big.layers, big.in_flight, big.total / GIB, dev_gib);
    lab_note(c, "Bytes per parameter: %d weights (%s) + %d gradients (fp32) + %d optimizer (%s) = %d.",
             bpp.weights, mem_dtype_name(m.dtype), bpp.grads, bpp.optimizer,
             bpp.optimizer == 12 ? "fp32 master copy, Adam m and v" : "Adam m and v",
             bpp.weights + bpp.grads + bpp.optimizer);
    lab_note(c, "Live model: %ld layers, hidden %ld, %ld heads, seq %ld, vocab %ld, same tp, pp, micro-batches and dtype.",
             s.layers, s.hidden, s.heads, s.seq, s.vocab);
    lab_note(c, "Activations: recomputation %s, no sequence parallelism; embedding and loss activations are left out.",
             lab_param_str(c->params, "recompute"));
    free(all);
    return live_rc;
}

const struct lab_impl lab_memory = {
    .name = "memory",
    .ranks = memory_ranks,
    .run = memory_run,
};
