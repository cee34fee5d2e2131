/*
 * mem_model.c — the memory lab's accounting (derivation in doc/labs.md).
 *
 * Parameters of a GPT-style layer (Megatron's layout):
 *   QKV projection  h x 3h + 3h bias   column-parallel: both split by t
 *   attention out   h x h  + h  bias   row-parallel: weight split, bias replicated
 *   MLP up          h x 4h + 4h bias   column-parallel
 *   MLP down        4h x h + h  bias   row-parallel
 *   2 layer norms   2 x 2h             replicated
 * so one tp rank holds (12h^2 + 7h)/t + 6h.  Stage 0 adds the word embedding
 * (vocab-parallel, ceil(V/t) x h) and the position embedding (s x h); the last
 * stage adds the final layer norm (2h) and, when p > 1, its own copy of the
 * tied word embedding for the output layer.
 */
#include <string.h>

#include "mem_model.h"

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

const char *mem_model_invalid(const struct mem_model *m)
{
    if (m->layers < 1 || m->hidden < 1 || m->heads < 1 || m->seq < 1 || m->micro_batch < 1 ||
        m->vocab < 1 || m->tp < 1 || m->pp < 1 || m->microbatches < 1)
        return "every size must be at least 1";
    if (m->hidden % m->heads != 0)
        return "heads must divide hidden (each head gets hidden/heads dimensions)";
    if (m->heads % m->tp != 0)
        return "tp must divide heads (tensor parallelism gives each rank whole heads)";
    if (m->hidden % m->tp != 0)
        return "tp must divide hidden";
    if (m->pp > m->layers)
        return "pp must not exceed layers (every stage needs at least one layer)";
    if (m->seq_parallel && m->seq % m->tp != 0)
        return "tp must divide seq under sequence parallelism (each tp rank keeps seq/tp tokens)";
    if (m->zero < 0 || m->zero > 3)
        return "zero must be 0, 1, 2 or 3";
    return NULL;
}

int mem_recompute_parse(const char *s, enum mem_recompute *r)
{
    if (strcmp(s, "none") == 0) { *r = MEM_RECOMPUTE_NONE; return 0; }
    if (strcmp(s, "selective") == 0) { *r = MEM_RECOMPUTE_SELECTIVE; return 0; }
    if (strcmp(s, "full") == 0) { *r = MEM_RECOMPUTE_FULL; return 0; }
    return -1;
}

const char *mem_dtype_name(enum mem_dtype t)
{
    switch (t) {
    case MEM_FP16: return "fp16";
    case MEM_BF16: return "bf16";
    case MEM_FP32: return "fp32";
    }
    return "?";
}

int mem_dtype_parse(const char *s, enum mem_dtype *t)
{
    if (strcmp(s, "fp16") == 0) { *t = MEM_FP16; return 0; }
    if (strcmp(s, "bf16") == 0) { *t = MEM_BF16; return 0; }
    if (strcmp(s, "fp32") == 0) { *t = MEM_FP32; return 0; }
    return -1;
}

// snippet: bytes-per-param
/*
 * Mixed precision (fp16/bf16): 2-byte weights for the kernels, fp32 gradients
 * (accumulated over micro-batches without losing small updates), and Adam's
 * fp32 master weights, first and second moments: 2 + 4 + 12 = 18 bytes.
 * Pure fp32 needs no master copy: 4 + 4 + 8 = 16 bytes.
 */
struct mem_bpp mem_bytes_per_param(enum mem_dtype t)
{
    if (t == MEM_FP32)
        return (struct mem_bpp){ .weights = 4, .grads = 4, .optimizer = 8 };
    return (struct mem_bpp){ .weights = 2, .grads = 4, .optimizer = 12 };
}
// end snippet

int mem_act_bytes(enum mem_dtype t) { return t == MEM_FP32 ? 4 : 2; }

uint64_t mem_params_total(const struct mem_model *m)
{
    uint64_t h = (uint64_t)m->hidden;
    return (uint64_t)m->layers * (12 * h * h + 13 * h) + (uint64_t)m->vocab * h +
           (uint64_t)m->seq * h + 2 * h;
}

uint64_t mem_layer_params(const struct mem_model *m)
{
    uint64_t h = (uint64_t)m->hidden, t = (uint64_t)m->tp;
    return (12 * h * h + 7 * h) / t + 6 * h;
}

/*
 * Per layer and micro-batch, with e bytes per activation element and 1-byte
 * dropout masks:
 *   replicated on every tp rank: the inputs of the two layer norms and of the
 *     QKV and MLP-up GEMMs (4 x sbh elements) and two dropout masks (2 x sbh bytes);
 *   split by t: Q, K, V, the attention-output GEMM's input, the MLP's 4h
 *     GEMM output and GeLU output (12 x sbh elements); softmax output and
 *     attention dropout output (2 x as^2b elements) and its mask (as^2b bytes).
 * Selective recomputation (Korthikanti et al.) recomputes the attention
 * scores in backward, so the as^2b tensors are not kept; full recomputation
 * keeps only the layer's input and runs the layer's forward again.
 * Sequence parallelism (Korthikanti et al. §4.2.2) runs the layer norms and
 * dropouts on seq/t tokens per tp rank, so what tp replicates is split too:
 * every kept tensor is divided by t.
 */
uint64_t mem_layer_activations(const struct mem_model *m)
{
    uint64_t e = (uint64_t)mem_act_bytes(m->dtype);
    uint64_t s = (uint64_t)m->seq, b = (uint64_t)m->micro_batch, h = (uint64_t)m->hidden;
    uint64_t a = (uint64_t)m->heads, t = (uint64_t)m->tp;
    uint64_t sbh = s * b * h;
    /* What tp replicates (layer-norm and GEMM inputs, residual dropout masks); sequence parallelism splits it. */
    uint64_t replicated = m->seq_parallel ? sbh * (4 * e + 2) / t : sbh * (4 * e + 2);
    switch (m->recompute) {
    case MEM_RECOMPUTE_FULL:
        /* The layer's input; under sequence parallelism each tp rank keeps its seq/t tokens of it. */
        return m->seq_parallel ? e * sbh / t : e * sbh;
    case MEM_RECOMPUTE_SELECTIVE:
        return replicated + 12 * e * sbh / t;
    case MEM_RECOMPUTE_NONE:
        break;
    }
    return replicated + 12 * e * sbh / t + (2 * e + 1) * a * s * s * b / t;
}

long mem_stage_layers(const struct mem_model *m, long stage)
{
    return m->layers / m->pp + (stage < m->layers % m->pp ? 1 : 0);
}

/* 1F1B: stage k runs p-k forwards before its first backward, then one of each. */
long mem_in_flight(const struct mem_model *m, long stage)
{
    long k = m->pp - stage;
    return k < m->microbatches ? k : m->microbatches;
}

void mem_stage(const struct mem_model *m, long stage, struct mem_rank *r)
{
    uint64_t h = (uint64_t)m->hidden;
    uint64_t vshard = ceil_div((uint64_t)m->vocab, (uint64_t)m->tp) * h;
    struct mem_bpp bpp = mem_bytes_per_param(m->dtype);

    memset(r, 0, sizeof *r);
    r->stage = stage;
    r->layers = mem_stage_layers(m, stage);
    r->in_flight = mem_in_flight(m, stage);
    r->params = (uint64_t)r->layers * mem_layer_params(m);
    if (stage == 0)
        r->params += vshard + (uint64_t)m->seq * h;
    if (stage == m->pp - 1) {
        r->params += 2 * h;
        if (m->pp > 1)
            r->params += vshard;
    }
    r->weights = mem_zero_share(m, r->params, 3) * (uint64_t)bpp.weights;
    r->grads = mem_zero_share(m, r->params, 2) * (uint64_t)bpp.grads;
    r->optimizer = mem_zero_share(m, r->params, 1) * (uint64_t)bpp.optimizer;
    r->activations = (uint64_t)r->in_flight * (uint64_t)r->layers * mem_layer_activations(m);
    r->total = r->weights + r->grads + r->optimizer + r->activations;
}

long mem_largest(const struct mem_model *m, struct mem_rank *r)
{
    long best = 0;
    mem_stage(m, 0, r);
    for (long k = 1; k < m->pp; k++) {
        struct mem_rank x;
        mem_stage(m, k, &x);
        if (x.total > r->total) {
            *r = x;
            best = k;
        }
    }
    return best;
}

struct mem_model mem_unsplit(const struct mem_model *m)
{
    struct mem_model u = *m;
    u.tp = 1;
    u.pp = 1;
    u.dp = 1;
    u.zero = 0;
    u.seq_parallel = false;
    return u;
}

// snippet: zero-shards
/*
 * ZeRO stage 1 shards the optimizer states over the N data-parallel ranks,
 * stage 2 the gradients too, stage 3 the weights too: each rank keeps
 * 1/N of each sharded state (the largest shard when N does not divide it)
 * and gathers or reduce-scatters the rest when it is needed.
 */
uint64_t mem_zero_share(const struct mem_model *m, uint64_t n, int from)
{
    uint64_t N = m->dp > 1 ? (uint64_t)m->dp : 1;
    return m->zero >= from ? ceil_div(n, N) : n;
}

double mem_zero_bytes_per_param(int stage, long dp, double w, double g, double k)
{
    double N = dp > 1 ? (double)dp : 1;
    return (stage >= 3 ? w / N : w) + (stage >= 2 ? g / N : g) + (stage >= 1 ? k / N : k);
}
// end snippet
