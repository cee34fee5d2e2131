/*
 * memory_report.c — rank 0's part of the memory lab, called once the live
 * step has run on every rank: the bytes per rank from the accounting
 * (mem_model.c), and every rank's allocator peak against its prediction.
 */
#include <math.h>
#include <stdint.h>

#include "i18n.h"
#include "memory.h"

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

static void stage_table(struct lab_ctx *c, const struct mem_model *m, double dev_gib)
{
    struct lab_table *t = lab_table_new(c, _("Bytes per rank (modelled; every tp rank of a stage holds the same)"),
        _("stage|layers|in flight|params|weights GiB|grads GiB|optimizer GiB|activations GiB|total GiB|fits"));
    struct mem_model u = mem_unsplit(m);
    struct mem_rank r;
    mem_stage(&u, 0, &r);
    lab_table_row(t, _("unsplit (1 device)|%ld|%ld|%.3g|%.1f|%.1f|%.1f|%.1f|%.1f|%s"), r.layers, r.in_flight,
                  (double)r.params, r.weights / GIB, r.grads / GIB, r.optimizer / GIB,
                  r.activations / GIB, r.total / GIB, r.total / GIB <= dev_gib ? _("yes") : _("NO"));
    for (long k = 0; k < m->pp; k++) {
        mem_stage(m, k, &r);
        lab_table_row(t, "%ld|%ld|%ld|%.3g|%.1f|%.1f|%.1f|%.1f|%.1f|%s", k, r.layers, r.in_flight,
                      (double)r.params, r.weights / GIB, r.grads / GIB, r.optimizer / GIB,
                      r.activations / GIB, r.total / GIB, r.total / GIB <= dev_gib ? _("yes") : _("NO"));
    }
}

/*
 * Model states of the largest rank under each ZeRO stage over N = dp ranks:
 * with the lab's bytes per parameter, and with the paper's convention
 * (2-byte weights, 2-byte gradients, 12 bytes of Adam states: 16), so the
 * figures can be set beside Rajbhandari et al. 2020, Figure 1.
 */
static void zero_table(struct lab_ctx *c, const struct mem_model *m, const struct mem_rank *big)
{
    struct mem_bpp bpp = mem_bytes_per_param(m->dtype);
    struct lab_table *t = lab_table_new(c,
        _("ZeRO over the dp ranks: model states of the largest rank (modelled; Rajbhandari et al. 2020, Fig. 1)"),
        _("stage|shards|bytes/param (lab)|GiB (lab)|bytes/param (paper: 2+2+12)|GB (paper)|run"));
    static const char *const what[] = { N_("none"), N_("optimizer states"), N_("+ gradients"), N_("+ weights") };
    for (int z = 0; z <= 3; z++) {
        struct mem_model mz = *m;
        mz.zero = z;
        struct mem_rank r;
        mem_stage(&mz, big->stage, &r);
        double lab = mem_zero_bytes_per_param(z, m->dp, bpp.weights, bpp.grads, bpp.optimizer);
        double paper = mem_zero_bytes_per_param(z, m->dp, 2, 2, 12);
        lab_table_row(t, "%d|%s|%.4g|%.4g|%.4g|%.4g|%s", z, _(what[z]), lab,
                      (double)(r.weights + r.grads + r.optimizer) / GIB, paper, paper * (double)r.params / 1e9,
                      z == m->zero ? _("this run") : "");
    }
}

/* The arguments of the report, for its words in each language (lab_report_words). */
struct report_args {
    const struct memory_params *P;
    const struct mem_model *m, *s;
    const double *all;
    int live_rc;
};

/* The report from a's figures: measures nothing, so it may run once per language. */
static int words(struct lab_ctx *c, void *arg)
{
    const struct report_args *a = arg;
    const struct memory_params *P = a->P;
    const struct mem_model *m = a->m, *s = a->s;
    const double *all = a->all;
    int live_rc = a->live_rc;
    struct mem_bpp bpp = mem_bytes_per_param(m->dtype);
    struct mem_model u = mem_unsplit(m);
    struct mem_rank one, big;
    mem_stage(&u, 0, &one);
    long k = mem_largest(m, &big);

    stage_table(c, m, P->device_mem);
    memory_metric(c, MEMORY_M_PARAMS_BILLION, (double)mem_params_total(m) / 1e9, LAB_EXACT);
    memory_metric(c, MEMORY_M_BYTES_PER_PARAM, bpp.weights + bpp.grads + bpp.optimizer, LAB_EXACT);
    memory_metric(c, MEMORY_M_SINGLE_DEVICE_GIB, one.total / GIB, LAB_MODELLED);
    memory_metric(c, MEMORY_M_FITS_SINGLE, one.total / GIB <= P->device_mem, LAB_MODELLED);
    memory_metric(c, MEMORY_M_MAX_RANK_GIB, big.total / GIB, LAB_MODELLED);
    memory_metric(c, MEMORY_M_WEIGHTS_GIB, big.weights / GIB, LAB_MODELLED);
    memory_metric(c, MEMORY_M_GRADS_GIB, big.grads / GIB, LAB_MODELLED);
    memory_metric(c, MEMORY_M_OPTIMIZER_GIB, big.optimizer / GIB, LAB_MODELLED);
    memory_metric(c, MEMORY_M_ACTIVATIONS_GIB, big.activations / GIB, LAB_MODELLED);
    memory_metric(c, MEMORY_M_FITS, big.total / GIB <= P->device_mem, LAB_MODELLED);
    memory_metric(c, MEMORY_M_RANKS, (double)(m->tp * m->pp), LAB_EXACT);
    memory_metric(c, MEMORY_M_DP_RANKS, (double)(m->tp * m->pp * m->dp), LAB_EXACT);
    memory_metric(c, MEMORY_M_LAYER_ACTIVATION_BYTES, (double)mem_layer_activations(m), LAB_MODELLED);
    memory_metric(c, MEMORY_M_MODEL_STATES_GIB, (big.weights + big.grads + big.optimizer) / GIB, LAB_MODELLED);
    memory_metric(c, MEMORY_M_RANK_BYTES_PER_PARAM,
                  mem_zero_bytes_per_param(m->zero, m->dp, bpp.weights, bpp.grads, bpp.optimizer), LAB_MODELLED);
    memory_metric(c, MEMORY_M_PAPER_MODEL_STATES_GB,
                  mem_zero_bytes_per_param(m->zero, m->dp, 2, 2, 12) * (double)big.params / 1e9, LAB_MODELLED);
    zero_table(c, m, &big);

    /* Live: every rank's allocator peak against its prediction, one row per stage. */
    struct lab_table *t = lab_table_new(c,
        _("Live step: scaled-down model allocated through the device interface"),
        _("stage|ranks|predicted MiB|allocator peak MiB (min..max over the stage's ranks)|largest difference (bytes)"));
    double worst = 0, big_pred = 0, big_peak = 0, allocated = 0;
    for (long st = 0; st < m->pp; st++) {
        double lo = INFINITY, hi = 0, want = 0, diff = 0;
        for (int r = (int)(st * m->tp); r < (int)((st + 1) * m->tp); r++) {
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
        lab_table_row(t, "%ld|%ld|%.3f|%.3f..%.3f|%.0f", st, m->tp, want / MIB, lo / MIB, hi / MIB, diff);
    }
    memory_metric(c, MEMORY_M_LIVE_PREDICTED_MIB, big_pred / MIB, LAB_MODELLED);
    memory_metric(c, MEMORY_M_LIVE_PEAK_MIB, big_peak / MIB, LAB_MEASURED);
    memory_metric(c, MEMORY_M_LIVE_ERROR_PCT, worst, LAB_MEASURED);
    lab_check(c, _("live allocator peak equals the accounting"), live_rc == 0 && worst <= 0.1,
              _("largest |peak - predicted| / predicted over %d ranks = %.4f%% (tolerance 0.1%%)"),
              c->nranks, worst);
    uint64_t extra = live_replicas(s);
    lab_check(c, _("parameters add up"), allocated - (double)extra == (double)mem_params_total(s),
              _("live model: %.0f parameters allocated over %d ranks - %.0f replicated or padding = %.0f; "
              "formula L(12h^2+13h) + Vh + sh + 2h = %.0f"),
              allocated, c->nranks, (double)extra, allocated - (double)extra,
              (double)mem_params_total(s));
    lab_note(c, _("Largest rank: stage %ld (%ld layers, %ld micro-batches in flight under 1F1B): %.1f GiB of %.0f GiB."),
             k, big.layers, big.in_flight, big.total / GIB, P->device_mem);
    lab_note(c, _("Bytes per parameter: %d weights (%s) + %d gradients (fp32) + %d optimizer (%s) = %d."),
             bpp.weights, mem_dtype_name(m->dtype), bpp.grads, bpp.optimizer,
             bpp.optimizer == 12 ? _("fp32 master copy, Adam m and v") : _("Adam m and v"),
             bpp.weights + bpp.grads + bpp.optimizer);
    lab_note(c, _("Live model: %ld layers, hidden %ld, %ld heads, seq %ld, vocab %ld, same tp, pp, micro-batches and dtype."),
             s->layers, s->hidden, s->heads, s->seq, s->vocab);
    lab_note(c, _("Activations: recomputation %s, %s; per layer and micro-batch %.0f bytes on a tp rank%s; "
             "embedding and loss activations are left out."), P->recompute,
             m->seq_parallel ? _("sequence parallelism (layer norms and dropouts on seq/tp tokens)") : _("no sequence parallelism"),
             (double)mem_layer_activations(m),
             m->recompute == MEM_RECOMPUTE_NONE && m->dtype != MEM_FP32
                 ? (m->seq_parallel ? ", sbh(34 + 5as/h)/t (Korthikanti et al. 2022)" : ", sbh(10 + 24/t + 5as/(ht)) (Korthikanti et al. 2022)")
                 : m->recompute == MEM_RECOMPUTE_SELECTIVE && m->dtype != MEM_FP32
                 ? (m->seq_parallel ? ", sbh 34/t (Korthikanti et al. 2022)" : ", sbh(10 + 24/t) (Korthikanti et al. 2022)")
                 : "");
    if (m->dp > 1 || m->zero > 0)
        lab_note(c, _("Data parallelism: %ld replicas of the tp x pp split (%ld ranks in all), ZeRO stage %d: %s.  The live "
                 "step allocates replica 0's ranks, the sharded states as flat buffers of 1/%ld of the rank's parameters "
                 "(every replica holds the same); ZeRO-3's temporary all-gathered weights and the buckets of the "
                 "gradient reduce-scatter are left out, as in the paper's Figure 1."),
                 m->dp, m->tp * m->pp * m->dp, m->zero,
                 m->zero == 0 ? _("every replica keeps all its model states") : m->zero == 1 ? _("optimizer states sharded")
                 : m->zero == 2 ? _("optimizer states and gradients sharded") : _("optimizer states, gradients and weights sharded"),
                 m->dp);
    return live_rc;
}

int memory_report(struct lab_ctx *c, const struct memory_params *P, const struct mem_model *m,
                  const struct mem_model *s, const double *all, int live_rc)
{
    return lab_report_words(c, words, &(struct report_args){ P, m, s, all, live_rc });
}
