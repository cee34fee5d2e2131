/*
 * tensor_split_report.c — rank 0's part of the tensor-split lab, called once
 * the split forward has run: every rank's figures, the result against the
 * reference (tensor_split_ref.c), and the report.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tensor_split.h"
#include "util.h"

/* The split's name in the report's words; N_ so the catalogue has it, translated where shown. */
const char *ts_mode_word(enum ts_mode m)
{
    return m == TS_COLUMN ? N_("column") : m == TS_ROW ? N_("row") : N_("mlp");
}

/* What the words of the report are written from. */
struct figures {
    const struct ts_cfg *cfg;
    const double *all;      /* every rank's record */
    double err;             /* max relative error against the reference */
    double ubytes, ucpu;    /* the unsplit layer's bytes and time on rank 0's device */
};

static int words(struct lab_ctx *c, void *arg);

int ts_report(struct lab_ctx *c, const struct ts_cfg *cfg, const double *all, const void *y)
{
    /* Measured once: the words may be written once per language (lab_report_words). */
    struct figures f = { .cfg = cfg, .all = all };
    size_t ny = (size_t)cfg->tokens * (size_t)(cfg->mode == TS_COLUMN ? cfg->ffn : cfg->hidden);
    double *ref = xmalloc(ny * sizeof *ref + 1);
    int rc = ts_reference(c->dev, cfg, ref);
    f.err = rc == 0 ? ts_rel_error(cfg->dtype, y, ref, ny) : INFINITY;
    free(ref);
    if (rc == 0)
        rc = ts_unsplit(c->dev, cfg, &f.ubytes, &f.ucpu);
    if (rc < 0)
        return -1;
    return lab_report_words(c, words, &f);
}

/* The tables, metrics, checks, notes and the picture's title, from f's figures. */
static int words(struct lab_ctx *c, void *arg)
{
    const struct figures *f = arg;
    const struct ts_cfg *cfg = f->cfg;
    const double *all = f->all;
    double err = f->err, ubytes = f->ubytes, ucpu = f->ucpu;
    int R = c->nranks;
    char title[128];
    snprintf(title, sizeof title, _("tensor-split %s over %d ranks: compute, then %s (wall clock)"),
             _(ts_mode_word(cfg->mode)), R, cfg->mode == TS_COLUMN ? _("all-gather") : _("all-reduce"));
    lab_svg_view(c, 0, title);
    double total_weights = (double)dtype_size(cfg->dtype) * cfg->hidden * (double)cfg->ffn *
                           (cfg->mode == TS_MLP ? 2 : 1);

    snprintf(title, sizeof title, _("per rank (times %s; bytes exact, from the device and communicator counters)"),
             _(lab_basis_name(c->timed)));
    struct lab_table *t = lab_table_new(c, title,
        _("rank|ffn slice|weights KiB|peak KiB|vs unsplit|compute ms|allgather sent/recv KiB|allreduce sent/recv KiB|comm ms"));
    double sent = 0, recvd = 0, compute = 0, comm = 0, peak = 0, wmax = 0;
    for (int r = 0; r < R; r++) {
        const double *v = all + (size_t)r * TSR_N;
        double s = v[TSR_AG_SENT] + v[TSR_AR_SENT], rv = v[TSR_AG_RECV] + v[TSR_AR_RECV];
        double cm = v[TSR_AG_WALL] + v[TSR_AR_WALL];
        sent = fmax(sent, s);
        recvd = fmax(recvd, rv);
        compute = fmax(compute, v[TSR_COMPUTE]);
        comm = fmax(comm, cm);
        peak = fmax(peak, v[TSR_PEAK]);
        wmax = fmax(wmax, v[TSR_WEIGHTS]);
        lab_table_row(t, "%d|%.0f|%.1f|%.1f|%.0f%%|%.3f|%.1f / %.1f|%.1f / %.1f|%.3f", r, v[TSR_SHARE],
                      v[TSR_WEIGHTS] / 1024, v[TSR_PEAK] / 1024, 100 * v[TSR_PEAK] / ubytes,
                      1e3 * v[TSR_COMPUTE], v[TSR_AG_SENT] / 1024, v[TSR_AG_RECV] / 1024,
                      v[TSR_AR_SENT] / 1024, v[TSR_AR_RECV] / 1024, 1e3 * cm);
    }
    lab_table_row(t, _("unsplit|%d|%.1f|%.1f|100%%|%.3f|-|-|-"), cfg->ffn, total_weights / 1024, ubytes / 1024,
                  1e3 * ucpu);

    double tol = cfg->dtype == DTYPE_F32 ? 1e-5 : 1e-12;
    tensor_split_metric(c, TENSOR_SPLIT_M_MAX_REL_ERROR, err, LAB_MEASURED);
    tensor_split_metric(c, TENSOR_SPLIT_M_BYTES_SENT, sent, LAB_EXACT);
    tensor_split_metric(c, TENSOR_SPLIT_M_BYTES_RECEIVED, recvd, LAB_EXACT);
    tensor_split_metric(c, TENSOR_SPLIT_M_ALLREDUCES, all[TSR_AR_CALLS], LAB_EXACT);
    tensor_split_metric(c, TENSOR_SPLIT_M_ALLGATHERS, all[TSR_AG_CALLS], LAB_EXACT);
    tensor_split_metric(c, TENSOR_SPLIT_M_COMPUTE_MS, 1e3 * compute, c->timed);
    tensor_split_metric(c, TENSOR_SPLIT_M_COMM_MS, 1e3 * comm, c->timed);
    tensor_split_metric(c, TENSOR_SPLIT_M_UNSPLIT_MS, 1e3 * ucpu, c->timed);
    tensor_split_metric(c, TENSOR_SPLIT_M_MEMORY_PER_RANK, peak, LAB_MEASURED);
    tensor_split_metric(c, TENSOR_SPLIT_M_MEMORY_UNSPLIT, ubytes, LAB_MEASURED);
    tensor_split_metric(c, TENSOR_SPLIT_M_WEIGHT_FRACTION, wmax / total_weights, LAB_EXACT);

    lab_check(c, _("split equals unsplit"), err < tol,
              ngettext("%s-parallel over %d rank in %s vs the unsplit product in fp64: max rel error %.2e (bound %.0e)",
                       "%s-parallel over %d ranks in %s vs the unsplit product in fp64: max rel error %.2e (bound %.0e)",
                       (unsigned long)R),
              _(ts_mode_word(cfg->mode)), R, dtype_name(cfg->dtype), err, tol);
    int want_ar = cfg->mode == TS_COLUMN ? 0 : 1, want_ag = cfg->mode == TS_COLUMN ? 1 : 0;
    lab_check(c, _("collectives in the forward"), all[TSR_AR_CALLS] == want_ar && all[TSR_AG_CALLS] == want_ag,
              _("%.0f all-reduce and %.0f all-gather (the %s layer needs %d and %d)"), all[TSR_AR_CALLS],
              all[TSR_AG_CALLS], _(ts_mode_word(cfg->mode)), want_ar, want_ag);

    lab_note(c, _("max rel error = max |split - unsplit| / max |unsplit|; the unsplit product is computed "
             "in fp64 from the same %s inputs"), dtype_name(cfg->dtype));
    lab_note(c, _("collectives are ring algorithms over the %s communicator: an all-reduce of S bytes sends "
             "about 2(R-1)/R x S per rank, an all-gather (R-1)/R x S"), c->comm->ops->name);
    if (R > c->cores)
        lab_note(c, _("%d ranks on %d cores: compute times are thread CPU time (each rank's own work); "
                 "communication times are wall clock and include waiting for ranks that had no core"),
                 R, c->cores);
    lab_note(c, "%s", _("the unsplit row is the whole layer on rank 0's device (the device's GEMM library is in the last note)"));
    return 0;
}
