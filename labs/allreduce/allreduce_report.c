/*
 * allreduce_report.c — rank 0's part of the allreduce lab, called once the
 * sweep has run: every size's slowest rank and its errors, the same sizes on
 * the modelled link, and the modelled tensor-parallel layer (ar_model.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "allreduce.h"
#include "i18n.h"

/* Each link preset's two metrics of the modelled layer. */
static const struct {
    const char *link;               /* ar_link.name */
    enum allreduce_metric comm_us, ratio;
} tp_metrics[] = {
    { "nvlink", ALLREDUCE_M_TP_COMM_US_NVLINK, ALLREDUCE_M_TP_COMM_RATIO_NVLINK },
    { "pcie",   ALLREDUCE_M_TP_COMM_US_PCIE,   ALLREDUCE_M_TP_COMM_RATIO_PCIE },
    { "ib",     ALLREDUCE_M_TP_COMM_US_IB,     ALLREDUCE_M_TP_COMM_RATIO_IB },
};

static void tp_view(struct lab_ctx *c, const struct allreduce_params *P)
{
    struct ar_tp_layer L = {
        .hidden = P->tp_hidden, .seq = P->tp_seq, .batch = P->tp_batch, .tp = (int)P->tp,
        .tflops = (double)P->gpu_tflops,
    };
    double bytes = ar_tp_allreduce_bytes(&L), gemm = ar_tp_gemm_time(&L);
    struct lab_table *t = lab_table_new(c,
        _("One tensor-parallel layer, forward (MODELLED: alpha-beta links, virtual time)"),
        _("link|GB/s per direction|latency (us)|all-reduce MiB|2 all-reduces (us)|GEMM per rank (us)|all-reduce / GEMM"));
    size_t n;
    const struct ar_link *links = ar_links(&n);
    for (size_t i = 0; i < n; i++) {
        double comm = ar_tp_comm_time(&L, &links[i]);
        lab_table_row(t, "%s|%.0f|%.0f|%.1f|%.0f|%.0f|%.2f", links[i].label, links[i].beta_Bps / 1e9,
                      links[i].alpha_s * 1e6, bytes / (1024.0 * 1024.0), comm * 1e6, gemm * 1e6,
                      comm / gemm);
        for (size_t k = 0; k < sizeof tp_metrics / sizeof tp_metrics[0]; k++)
            if (strcmp(tp_metrics[k].link, links[i].name) == 0) {
                allreduce_metric(c, tp_metrics[k].comm_us, comm * 1e6, LAB_MODELLED);
                allreduce_metric(c, tp_metrics[k].ratio, comm / gemm, LAB_MODELLED);
            }
    }
    allreduce_metric(c, ALLREDUCE_M_TP_ALLREDUCE_MIB, bytes / (1024.0 * 1024.0), LAB_EXACT);
    allreduce_metric(c, ALLREDUCE_M_TP_GEMM_US, gemm * 1e6, LAB_MODELLED);
    lab_note(c, _("Layer: hidden %ld, sequence %ld, micro-batch %ld, bf16, tp = %d, %.0f TFLOP/s per GPU: "
             "%.3g GFLOP per rank, then two all-reduces of s x b x h (after attention, after the MLP) "
             "that no rank can skip or overlap with the next layer's GEMMs."),
             L.hidden, L.seq, L.batch, L.tp, L.tflops, ar_tp_flops(&L) / 1e9);
}

/* The arguments of the report, for its words in each language (lab_report_words). */
struct report_args {
    const struct allreduce_params *P;
    enum dtype t;
    const size_t *sizes;
    size_t ns;
    const double *all;
};

/* The report from a's figures: measures nothing, so it may run once per language. */
static int words(struct lab_ctx *c, void *arg)
{
    const struct report_args *a = arg;
    const struct allreduce_params *P = a->P;
    enum dtype t = a->t;
    const size_t *sizes = a->sizes;
    size_t ns = a->ns;
    const double *all = a->all;
    size_t e = dtype_size(t);
    const struct ar_link *link = ar_link_find(P->link);
    if (!link)
        link = ar_links(&(size_t){ 0 });
    int n = c->nranks;
    char title[160];
    snprintf(title, sizeof title, _("All-reduce (sum, in place) over %d ranks: %s on this machine "
             "(backend %s, %d cores) | MODELLED on %s"), n, _(lab_basis_name(c->timed)), c->backend, c->cores,
             link->label);
    struct lab_table *tab = lab_table_new(c, title,
        _("size (B)|count|type|time (us)|algbw (GB/s)|busbw (GB/s)|#wrong|modelled time (us)|modelled busbw (GB/s)"));
    double wrong = 0, err = 0, peak = 0, last_t = 0, last_alg = 0, last_bus = 0, mt = 0, mbus = 0;
    for (size_t i = 0; i < ns; i++) {
        double tm = 0, w = 0;
        for (int r = 0; r < n; r++) {
            const double *x = all + (size_t)r * (ns * RES_N + 1) + i * RES_N;
            tm = fmax(tm, x[RES_TIME]);     /* an all-reduce ends when its slowest rank does */
            w += x[RES_WRONG];
            err = fmax(err, x[RES_ERR]);
        }
        size_t count = sizes[i] / e;
        double alg = ar_algbw((double)sizes[i], tm) / 1e9, bus = alg * ar_busbw_factor(n);
        /* A collective library pipelines its chunks: the latency is paid once per step. */
        double vt = ar_ring_time(n, count, e, 0, link);
        double vbus = ar_algbw((double)sizes[i], vt) / 1e9 * ar_busbw_factor(n);
        lab_table_row(tab, "%zu|%zu|%s|%.1f|%.3f|%.3f|%.0f|%.2f|%.2f", sizes[i], count, dtype_name(t),
                      tm * 1e6, alg, bus, w, vt * 1e6, vbus);
        wrong += w;
        peak = fmax(peak, bus);
        last_t = tm;
        last_alg = alg;
        last_bus = bus;
        mt = vt;
        mbus = vbus;
    }

    allreduce_metric(c, ALLREDUCE_M_SIZES, (double)ns, LAB_EXACT);
    allreduce_metric(c, ALLREDUCE_M_TIME_US, last_t * 1e6, c->timed);
    allreduce_metric(c, ALLREDUCE_M_ALGBW_GBS, last_alg, c->timed);
    allreduce_metric(c, ALLREDUCE_M_BUSBW_GBS, last_bus, c->timed);
    allreduce_metric(c, ALLREDUCE_M_PEAK_BUSBW_GBS, peak, c->timed);
    allreduce_metric(c, ALLREDUCE_M_WRONG, wrong, LAB_MEASURED);
    allreduce_metric(c, ALLREDUCE_M_MAX_ABS_ERROR, err, LAB_MEASURED);
    allreduce_metric(c, ALLREDUCE_M_LINK_TIME_US, mt * 1e6, LAB_MODELLED);
    allreduce_metric(c, ALLREDUCE_M_LINK_BUSBW_GBS, mbus, LAB_MODELLED);

    /* The virtual-time replay against the closed form on a size where the latter is exact. */
    size_t probe = (size_t)n * 4096;
    double sim = ar_ring_time(n, probe, e, 0, link), form = ar_ring_time_formula(n, probe, e, 0, link);
    double merr = form > 0 ? fabs(sim - form) / form : fabs(sim);
    allreduce_metric(c, ALLREDUCE_M_MODEL_ERROR, merr, LAB_MODELLED);
    tp_view(c, P);

    lab_check(c, _("every element equals the exact sum"), wrong == 0,
              _("%.0f wrong elements over %zu sizes, max |result - exact| = %g"), wrong, ns, err);
    lab_check(c, _("virtual-time ring matches the closed form"), merr <= 1e-9,
              _("%d ranks, %zu elements on %s: replay %.4f us, 2(n-1)(alpha + S/(n beta)) = %.4f us, "
              "relative difference %.2g"), n, probe, link->label, sim * 1e6, form * 1e6, merr);
    lab_note(c, _("Timed columns (%s) are this machine's: %d ranks on the %s backend with %d cores%s; "
             "time is the slowest rank's average over %ld iterations after %ld warm-up."),
             _(lab_basis_name(c->timed)), n, c->backend, c->cores,
             n > c->cores ? _(" (ranks outnumber cores, so they also wait for a core)") : "",
             P->iters, P->warmup_iters);
    lab_note(c, "%s", _("algbw = S / t; busbw = algbw x 2(n-1)/n (nccl-tests); GB/s = 1e9 bytes per second."));
    lab_note(c, "%s", _("Modelled columns: every rank sends its block on its own directed link at alpha + bytes/beta "
             "per ring step, replayed over the 2(n-1) steps in virtual time; nothing modelled is measured."));
    return 0;
}

void allreduce_report(struct lab_ctx *c, const struct allreduce_params *P, enum dtype t, const size_t *sizes,
                      size_t ns, const double *all)
{
    lab_report_words(c, words, &(struct report_args){ P, t, sizes, ns, all });
}
