/*
 * ts_report.c — rank 0's part of the tensor-split lab: the unsplit layer in
 * fp64 as the reference, the unsplit layer timed on one rank, and the report.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_split.h"
#include "util.h"

/* A generated tensor on the device in fp64, its values rounded through dtype t first. */
static void *make_ref(struct dev *d, const struct ts_cfg *cfg, int tensor, int rows, int cols)
{
    size_t n = (size_t)rows * (size_t)cols;
    void *narrow = xmalloc(n * dtype_size(cfg->dtype) + 1);
    double *wide = xmalloc(n * sizeof *wide + 1);
    ts_fill(cfg->dtype, narrow, tensor, rows, cols, 0, 0, ts_scale(tensor, cfg));
    for (size_t i = 0; i < n; i++)
        wide[i] = dtype_get(cfg->dtype, narrow, i);
    void *p = dev_alloc(d, n * sizeof(double), "reference");
    if (p && dev_copy(d, p, wide, n * sizeof(double), DEV_H2D) < 0) {
        dev_free(d, p);
        p = NULL;
    }
    free(narrow);
    free(wide);
    return p;
}

int ts_reference(struct dev *d, const struct ts_cfg *cfg, double *ref)
{
    int m = cfg->tokens, h = cfg->hidden, f = cfg->ffn;
    enum dtype t = DTYPE_F64;
    void *X = make_ref(d, cfg, TS_X, m, cfg->mode == TS_ROW ? f : h);
    void *A = cfg->mode != TS_ROW ? make_ref(d, cfg, TS_A, h, f) : NULL;
    void *B = cfg->mode != TS_COLUMN ? make_ref(d, cfg, TS_B, f, h) : NULL;
    void *Z = dev_alloc(d, (size_t)m * (size_t)f * sizeof(double), "reference");
    void *Y = dev_alloc(d, (size_t)m * (size_t)(cfg->mode == TS_COLUMN ? f : h) * sizeof(double), "reference");
    int rc = X && Z && Y && (A || cfg->mode == TS_ROW) && (B || cfg->mode == TS_COLUMN) ? 0 : -1;
    if (rc == 0) {
        if (cfg->mode == TS_COLUMN) {
            rc = dev_gemm(d, t, false, false, m, f, h, 1.0, X, h, A, f, 0.0, Y, f);
        } else if (cfg->mode == TS_ROW) {
            rc = dev_gemm(d, t, false, false, m, h, f, 1.0, X, f, B, h, 0.0, Y, h);
        } else {
            rc = dev_gemm(d, t, false, false, m, f, h, 1.0, X, h, A, f, 0.0, Z, f);
            rc = rc ? rc : dev_gelu(d, t, (size_t)m * (size_t)f, Z, Z);
            rc = rc ? rc : dev_gemm(d, t, false, false, m, h, f, 1.0, Z, f, B, h, 0.0, Y, h);
        }
    }
    size_t ny = (size_t)m * (size_t)(cfg->mode == TS_COLUMN ? f : h);
    if (rc == 0)
        rc = dev_copy(d, ref, Y, ny * sizeof(double), DEV_D2H);
    void *bufs[] = { X, A, B, Z, Y };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        dev_free(d, bufs[i]);
    return rc;
}

double ts_rel_error(enum dtype t, const void *y, const double *ref, size_t n)
{
    double maxdiff = 0, maxref = 0;
    for (size_t i = 0; i < n; i++) {
        double v = dtype_get(t, y, i), e = fabs(v - ref[i]);
        if (isnan(e))
            return INFINITY;
        maxdiff = fmax(maxdiff, e);
        maxref = fmax(maxref, fabs(ref[i]));
    }
    return maxref > 0 ? maxdiff / maxref : maxdiff;
}

/*
 * The layer unsplit on this one device in cfg's dtype: its bytes (weights,
 * input, intermediate, output) and the thread CPU time of its GEMMs and GeLU.
 */
static int unsplit(struct dev *d, const struct ts_cfg *cfg, double *bytes, double *cpu)
{
    int m = cfg->tokens, h = cfg->hidden, f = cfg->ffn;
    enum dtype t = cfg->dtype;
    size_t es = dtype_size(t);
    uint64_t before = d->usage.current;
    void *X = dev_alloc(d, (size_t)m * (size_t)(cfg->mode == TS_ROW ? f : h) * es, "unsplit");
    void *A = cfg->mode != TS_ROW ? dev_alloc(d, (size_t)h * (size_t)f * es, "unsplit") : NULL;
    void *B = cfg->mode != TS_COLUMN ? dev_alloc(d, (size_t)f * (size_t)h * es, "unsplit") : NULL;
    void *Z = cfg->mode == TS_MLP ? dev_alloc(d, (size_t)m * (size_t)f * es, "unsplit") : NULL;
    void *Y = dev_alloc(d, (size_t)m * (size_t)(cfg->mode == TS_COLUMN ? f : h) * es, "unsplit");
    *bytes = (double)(d->usage.current - before);
    int rc = X && Y && (A || cfg->mode == TS_ROW) && (B || cfg->mode == TS_COLUMN) &&
             (Z || cfg->mode != TS_MLP) ? 0 : -1;
    void *bufs[] = { X, A, B, Z, Y };
    for (size_t i = 0; rc == 0 && i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i])
            rc = dev_fill(d, t, bufs[i], (size_t)m, 0.5);   /* first touch, outside the timing */
    /* Warm once, then time. */
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        double t0 = dev_clock(d);
        if (cfg->mode == TS_COLUMN) {
            rc = dev_gemm(d, t, false, false, m, f, h, 1.0, X, h, A, f, 0.0, Y, f);
        } else if (cfg->mode == TS_ROW) {
            rc = dev_gemm(d, t, false, false, m, h, f, 1.0, X, f, B, h, 0.0, Y, h);
        } else {
            rc = dev_gemm(d, t, false, false, m, f, h, 1.0, X, h, A, f, 0.0, Z, f);
            rc = rc ? rc : dev_gelu(d, t, (size_t)m * (size_t)f, Z, Z);
            rc = rc ? rc : dev_gemm(d, t, false, false, m, h, f, 1.0, Z, f, B, h, 0.0, Y, h);
        }
        *cpu = dev_clock(d) - t0;
    }
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        dev_free(d, bufs[i]);
    return rc;
}

static const char *mode_name(enum ts_mode m)
{
    return m == TS_COLUMN ? "column" : m == TS_ROW ? "row" : "mlp";
}

int ts_report(struct lab_ctx *c, const struct ts_cfg *cfg, const double *all, const void *y)
{
    int R = c->nranks;
    size_t ny = (size_t)cfg->tokens * (size_t)(cfg->mode == TS_COLUMN ? cfg->ffn : cfg->hidden);
    double *ref = xmalloc(ny * sizeof *ref + 1);
    int rc = ts_reference(c->dev, cfg, ref);
    double err = rc == 0 ? ts_rel_error(cfg->dtype, y, ref, ny) : INFINITY;
    free(ref);
    double ubytes = 0, ucpu = 0;
    if (rc == 0)
        rc = unsplit(c->dev, cfg, &ubytes, &ucpu);
    if (rc < 0)
        return -1;
    double total_weights = (double)dtype_size(cfg->dtype) * cfg->hidden * (double)cfg->ffn *
                           (cfg->mode == TS_MLP ? 2 : 1);

    struct lab_table *t = lab_table_new(c, "per rank (times measured; bytes exact, from the device and communicator counters)",
        "rank|ffn slice|weights KiB|peak KiB|vs unsplit|compute ms|allgather sent/recv KiB|allreduce sent/recv KiB|comm ms");
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
    lab_table_row(t, "unsplit|%d|%.1f|%.1f|100%%|%.3f|-|-|-", cfg->ffn, total_weights / 1024, ubytes / 1024,
                  1e3 * ucpu);

    double tol = cfg->dtype == DTYPE_F32 ? 1e-5 : 1e-12;
    lab_metric(c, "max_rel_error", err, LAB_MEASURED);
    lab_metric(c, "bytes_sent", sent, LAB_EXACT);
    lab_metric(c, "bytes_received", recvd, LAB_EXACT);
    lab_metric(c, "allreduces", all[TSR_AR_CALLS], LAB_EXACT);
    lab_metric(c, "allgathers", all[TSR_AG_CALLS], LAB_EXACT);
    lab_metric(c, "compute_ms", 1e3 * compute, LAB_MEASURED);
    lab_metric(c, "comm_ms", 1e3 * comm, LAB_MEASURED);
    lab_metric(c, "unsplit_ms", 1e3 * ucpu, LAB_MEASURED);
    lab_metric(c, "memory_per_rank", peak, LAB_MEASURED);
    lab_metric(c, "memory_unsplit", ubytes, LAB_MEASURED);
    lab_metric(c, "weight_fraction", wmax / total_weights, LAB_EXACT);

    lab_check(c, "split equals unsplit", err < tol,
              "%s-parallel over %d rank%s in %s vs the unsplit product in fp64: max rel error %.2e (bound %.0e)",
              mode_name(cfg->mode), R, R == 1 ? "" : "s", dtype_name(cfg->dtype), err, tol);
    int want_ar = cfg->mode == TS_COLUMN ? 0 : 1, want_ag = cfg->mode == TS_COLUMN ? 1 : 0;
    lab_check(c, "collectives in the forward", all[TSR_AR_CALLS] == want_ar && all[TSR_AG_CALLS] == want_ag,
              "%.0f all-reduce and %.0f all-gather (the %s layer needs %d and %d)", all[TSR_AR_CALLS],
              all[TSR_AG_CALLS], mode_name(cfg->mode), want_ar, want_ag);

    lab_note(c, "max rel error = max |split - unsplit| / max |unsplit|; the unsplit product is computed "
             "in fp64 from the same %s inputs", dtype_name(cfg->dtype));
    lab_note(c, "collectives are ring algorithms over the %s communicator: an all-reduce of S bytes sends "
             "about 2(R-1)/R x S per rank, an all-gather (R-1)/R x S", c->comm->ops->name);
    if (R > c->cores)
        lab_note(c, "%d ranks on %d cores: compute times are thread CPU time (each rank's own work); "
                 "communication times are wall clock and include waiting for ranks that had no core",
                 R, c->cores);
    lab_note(c, "the unsplit row is the whole layer on rank 0's device (the device's GEMM library is in the last note)");
    return 0;
}
