/*
 * activations_report.c — rank 0's part of the activations lab, called once
 * the step has run: every crossing in causal order, per stage what stayed
 * and what was sent, and the checks against the communicator's counters and
 * the reference.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "activations.h"
#include "i18n.h"

/*
 * Causal order: forwards by micro-batch from the first stage on, then
 * backwards by micro-batch from the last stage down.  Send times are not
 * used: ranks in different processes (MPI) have different clocks.
 */
static int causal(const void *a, const void *b)
{
    const double *x = a, *y = b;
    if (x[REC_DIR] != y[REC_DIR])
        return x[REC_DIR] < y[REC_DIR] ? -1 : 1;
    if (x[REC_MB] != y[REC_MB])
        return x[REC_MB] < y[REC_MB] ? -1 : 1;
    int from = x[REC_FROM] < y[REC_FROM] ? -1 : x[REC_FROM] > y[REC_FROM];
    return x[REC_DIR] == DIR_FORWARD ? from : -from;
}

/* The arguments of the report, for its words in each language (lab_report_words). */
struct report_args {
    const struct stage *s;
    long L;
    double *recs;           /* sorted in place, the same order every time */
    size_t nrecs;
    const double *sums;
};

/* The report from a's figures: measures nothing, so it may run once per language. */
static int words(struct lab_ctx *c, void *arg)
{
    const struct report_args *a = arg;
    const struct stage *s = a->s;
    long L = a->L;
    double *recs = a->recs;
    size_t nrecs = a->nrecs;
    const double *sums = a->sums;
    lab_svg_rows(c, _("stage"));
    double fwd = 0, bwd = 0, sent = 0, logged = 0, err = 0, refmax = 0, wbytes = 0;
    for (size_t i = 0; i < nrecs; i++)
        *(recs[i * REC_N + REC_DIR] == DIR_FORWARD ? &fwd : &bwd) += recs[i * REC_N + REC_BYTES];
    for (int r = 0; r < c->nranks; r++) {
        const double *x = sums + (size_t)r * SUM_N;
        sent += x[SUM_SENT];
        logged += x[SUM_LOGGED];
        err = act_max_or_nan(err, x[SUM_ERR]);
        refmax = fmax(refmax, x[SUM_REFMAX]);
        wbytes += x[SUM_WEIGHTS];
    }
    qsort(recs, nrecs, REC_N * sizeof(double), causal);

    const size_t show = 64;
    struct lab_table *t = lab_table_new(c, _("Tensors that crossed a stage boundary in one step"),
        _("#|direction|stages|tensor|shape|dtype|bytes"));
    for (size_t i = 0; i < nrecs && i < show; i++) {
        const double *x = recs + i * REC_N;
        bool f = x[REC_DIR] == DIR_FORWARD;
        lab_table_row(t, f ? _("%zu|forward|%.0f -> %.0f|activation: output of layer %.0f (micro-batch %.0f)|[%.0f, %.0f]|%s|%.0f")
                           : _("%zu|backward|%.0f -> %.0f|activation gradient: into layer %.0f (micro-batch %.0f)|[%.0f, %.0f]|%s|%.0f"),
                      i + 1, x[REC_FROM], x[REC_TO], x[REC_LAYER] + 1,
                      x[REC_MB], x[REC_ROWS], x[REC_COLS], dtype_name(s->t), x[REC_BYTES]);
    }
    if (nrecs > show)
        lab_note(c, _("The crossing table shows the first %zu of %zu tensors."), show, nrecs);

    struct lab_table *st = lab_table_new(c, _("Per stage: what stays and what was sent"),
        _("stage|layers|weight bytes (stay)|sent forward|sent backward|communicator bytes sent"));
    for (long k = 0; k < s->p; k++) {
        double f = 0, b = 0;
        for (size_t i = 0; i < nrecs; i++)
            if (recs[i * REC_N + REC_FROM] == (double)k)
                *(recs[i * REC_N + REC_DIR] == DIR_FORWARD ? &f : &b) += recs[i * REC_N + REC_BYTES];
        lab_table_row(st, "%ld|%zu|%.0f|%.0f|%.0f|%.0f", k, comm_share((size_t)L, (int)s->p, (int)k),
                      sums[k * SUM_N + SUM_WEIGHTS], f, b, sums[k * SUM_N + SUM_SENT]);
    }

    double act = (double)((size_t)s->n * (size_t)s->h * s->e);
    double expect = 2.0 * (double)(s->p - 1) * (double)s->m * act;
    double rel = refmax > 0 ? err / refmax : err;
    double tol = s->t == DTYPE_F32 ? 1e-4 : 1e-10;
    activations_metric(c, ACTIVATIONS_M_BOUNDARY_BYTES_PER_STEP, fwd + bwd, LAB_MEASURED);
    activations_metric(c, ACTIVATIONS_M_FORWARD_BYTES_PER_STEP, fwd, LAB_MEASURED);
    activations_metric(c, ACTIVATIONS_M_BACKWARD_BYTES_PER_STEP, bwd, LAB_MEASURED);
    activations_metric(c, ACTIVATIONS_M_ACTIVATION_BYTES, act, LAB_EXACT);
    activations_metric(c, ACTIVATIONS_M_TENSORS_CROSSED, (double)nrecs, LAB_MEASURED);
    activations_metric(c, ACTIVATIONS_M_WEIGHT_BYTES_MOVED, sent - logged, LAB_MEASURED);
    activations_metric(c, ACTIVATIONS_M_PARAM_BYTES, wbytes, LAB_EXACT);
    activations_metric(c, ACTIVATIONS_M_BOUNDARY_TO_PARAM_RATIO, wbytes > 0 ? (fwd + bwd) / wbytes : 0, LAB_MEASURED);
    activations_metric(c, ACTIVATIONS_M_MAX_REL_ERROR, rel, LAB_MEASURED);

    lab_check(c, _("only activations and their gradients crossed"), sent == logged,
              _("communicator counted %.0f bytes sent; the record of activations and gradients holds %.0f"),
              sent, logged);
    lab_check(c, _("bytes per step match 2(p-1) m tokens hidden bytes"), fwd + bwd == expect,
              _("recorded %.0f, formula 2 x %ld x %ld x %ld x %ld x %zu = %.0f"),
              fwd + bwd, s->p - 1, s->m, s->n, s->h, s->e, expect);
    /*
     * Below `tiny` the dtype holds a number with less than its full precision
     * (subnormal), then none: a deep, narrow stack (hidden 1, 64 layers)
     * shrinks its gradients there, and fp32 rounds them to 0 however right
     * the split is.  An error that small is underflow, not a wrong gradient.
     */
    double tiny = s->t == DTYPE_F32 ? FLT_MIN / FLT_EPSILON : DBL_MIN / DBL_EPSILON;
    bool grads_ok = rel <= tol || err <= tiny;
    lab_check(c, _("weight gradients equal the unsplit computation"), s->failed == false && grads_ok,
              _("max |dW - reference| / max |reference| = %.3g (tolerance %.0e, or |dW - reference| <= %.3g, "
              "where %s underflows; reference in double precision)"), rel, tol, tiny,
              s->t == DTYPE_F32 ? "fp32" : "fp64");
    lab_note(c, _("Each of the %ld layers is a %ld x %ld GEMM then GeLU; %ld micro-batches of %ld tokens; "
             "GPipe order (all forwards, then all backwards)."), L, s->h, s->h, s->m, s->n);
    lab_note(c, _("Weights (%.0f bytes) stay on their stage; one step moved %.0f bytes between stages "
             "(%.3g x the weights)."), wbytes, fwd + bwd, wbytes > 0 ? (fwd + bwd) / wbytes : 0);
    return 0;
}

void act_report(struct lab_ctx *c, const struct stage *s, long L, double *recs, size_t nrecs,
                const double *sums)
{
    lab_report_words(c, words, &(struct report_args){ s, L, recs, nrecs, sums });
}
