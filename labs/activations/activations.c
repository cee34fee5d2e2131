/*
 * activations.c — the activations lab (seed question 7): one training step of
 * a layer stack split into pipeline stages, recording every tensor that
 * crosses a stage boundary.  Stage k holds layers [first, first + nl) —
 * consecutive, spread as evenly as the count allows — and its weights never
 * leave it: forward sends the stage's output to stage k+1, backward sends the
 * gradient of the stage's input to stage k-1, and nothing else is sent.  The
 * communicator's byte counters are set against the record to show it.
 *
 * Each layer is z = x W, y = gelu(z); the loss is 0.5 * sum(y^2) over the
 * last layer's outputs, so its gradient is y itself.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

/* A recorded crossing, as doubles so the ranks can all-gather their records. */
enum { REC_MB, REC_DIR, REC_FROM, REC_TO, REC_LAYER, REC_ROWS, REC_COLS, REC_BYTES, REC_N };
enum { DIR_FORWARD, DIR_BACKWARD };

struct stage {
    struct lab_ctx *c;
    enum dtype t;
    size_t e;               /* bytes per element */
    long p, k;              /* stages, this stage */
    long first, nl;         /* first global layer held, layers held */
    long m, n, h;           /* micro-batches, tokens, hidden */
    void **W, **dW;         /* nl weights and their gradients (device) */
    void **X, **Z;          /* per micro-batch and layer: layer input and pre-activation */
    void **Y;               /* last stage: per micro-batch output (the loss gradient) */
    void *out, *gy, *gz, *gx;   /* device scratch, tokens x hidden */
    double *rec;            /* records of what this stage sent */
    size_t nrec;
    bool failed;
};

/* ---- Deterministic data: the same on every rank and in the reference ----- */

static uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* A value in [-1, 1) for (stream, i), rounded to t so device and reference start equal. */
static double det_value(uint64_t stream, uint64_t i, enum dtype t)
{
    double u = (double)(splitmix(stream * 0x100000001b3ULL + i) >> 11) / 9007199254740992.0;
    double v = 2 * u - 1;
    return t == DTYPE_F32 ? (double)(float)v : v;
}

static double weight_value(long layer, long h, uint64_t i, enum dtype t)
{
    /* Variance 1/h keeps activations of order one through the stack. */
    double v = det_value(1000 + (uint64_t)layer, i, t) * sqrt(3.0 / (double)h);
    return t == DTYPE_F32 ? (double)(float)v : v;
}

static double input_value(long mb, uint64_t i, enum dtype t) { return det_value((uint64_t)mb, i, t); }

/* ---- The reference: the unsplit model on the host in double precision --- */

static const double GELU_C = 0.7978845608028654;   /* sqrt(2/pi) */

static double gelu(double x)
{
    return 0.5 * x * (1 + tanh(GELU_C * (x + 0.044715 * x * x * x)));
}

static double gelu_grad(double x)
{
    double u = tanh(GELU_C * (x + 0.044715 * x * x * x));
    return 0.5 * (1 + u) + 0.5 * x * (1 - u * u) * GELU_C * (1 + 3 * 0.044715 * x * x);
}

/*
 * dW of layers [first, first + nl) for the whole step, computed without any
 * split: forward through all L layers, backward from the top.  ref gets nl
 * h x h blocks.  Returns -1 when out of memory.
 */
static int reference_grads(long L, long first, long nl, long m, long n, long h, enum dtype t,
                           double *ref)
{
    size_t nh = (size_t)n * (size_t)h, hh = (size_t)h * (size_t)h;
    double *W = malloc((size_t)L * hh * sizeof *W);
    double *X = malloc((size_t)(L + 1) * nh * sizeof *X);
    double *Z = malloc((size_t)L * nh * sizeof *Z);
    double *g = malloc(nh * sizeof *g), *gz = malloc(nh * sizeof *gz);
    if (!W || !X || !Z || !g || !gz) {
        free(W); free(X); free(Z); free(g); free(gz);
        return -1;
    }
    for (long l = 0; l < L; l++)
        for (size_t i = 0; i < hh; i++)
            W[(size_t)l * hh + i] = weight_value(l, h, i, t);
    memset(ref, 0, (size_t)nl * hh * sizeof *ref);
    for (long mb = 0; mb < m; mb++) {
        for (size_t i = 0; i < nh; i++)
            X[i] = input_value(mb, i, t);
        for (long l = 0; l < L; l++) {
            const double *x = X + (size_t)l * nh, *w = W + (size_t)l * hh;
            double *z = Z + (size_t)l * nh, *y = X + (size_t)(l + 1) * nh;
            for (long i = 0; i < n; i++)
                for (long j = 0; j < h; j++) {
                    double s = 0;
                    for (long q = 0; q < h; q++)
                        s += x[i * h + q] * w[q * h + j];
                    z[i * h + j] = s;
                    y[i * h + j] = gelu(s);
                }
        }
        memcpy(g, X + (size_t)L * nh, nh * sizeof *g);     /* d(0.5 y^2)/dy = y */
        for (long l = L - 1; l >= first; l--) {
            const double *x = X + (size_t)l * nh, *w = W + (size_t)l * hh, *z = Z + (size_t)l * nh;
            for (size_t i = 0; i < nh; i++)
                gz[i] = g[i] * gelu_grad(z[i]);
            if (l < first + nl) {
                double *dw = ref + (size_t)(l - first) * hh;
                for (long i = 0; i < n; i++)
                    for (long q = 0; q < h; q++)
                        for (long j = 0; j < h; j++)
                            dw[q * h + j] += x[i * h + q] * gz[i * h + j];
            }
            for (long i = 0; i < n; i++)
                for (long q = 0; q < h; q++) {
                    double s = 0;
                    for (long j = 0; j < h; j++)
                        s += gz[i * h + j] * w[q * h + j];
                    g[i * h + q] = s;
                }
        }
    }
    free(W); free(X); free(Z); free(g); free(gz);
    return 0;
}

/* ---- The pipeline ------------------------------------------------------- */

static void *stage_alloc(struct stage *s, size_t bytes, const char *label)
{
    void *p = dev_alloc(s->c->dev, bytes, label);
    if (!p)
        s->failed = true;
    return p;
}

static void record(struct stage *s, long mb, int dir, long to, long layer)
{
    double *r = s->rec + s->nrec++ * REC_N;
    r[REC_MB] = (double)mb;
    r[REC_DIR] = dir;
    r[REC_FROM] = (double)s->k;
    r[REC_TO] = (double)to;
    r[REC_LAYER] = (double)layer;
    r[REC_ROWS] = (double)s->n;
    r[REC_COLS] = (double)s->h;
    r[REC_BYTES] = (double)((size_t)s->n * (size_t)s->h * s->e);
}

static int tag_of(long mb, int dir) { return (int)(2 * mb + dir); }

/* Send a boundary tensor, shown in --trace and --svg on the stage's communication stream. */
static int send_traced(struct stage *s, const void *buf, size_t bytes, long to, long mb, int dir)
{
    struct lab_event ev = { .rank = s->c->rank, .stream = 1, .mb = (int)mb,
                            .name = dir == DIR_FORWARD ? "send activation" : "send gradient",
                            .ts_us = lab_now_us(s->c) };
    int rc = comm_send(s->c->comm, buf, bytes, (int)to, tag_of(mb, dir));
    ev.dur_us = lab_now_us(s->c) - ev.ts_us;
    lab_trace(s->c, &ev);
    return rc;
}

// snippet: stage-forward
/* One micro-batch through this stage: receive, compute every layer, send on. */
static int stage_forward(struct stage *s, long mb)
{
    struct dev *d = s->c->dev;
    size_t nh = (size_t)s->n * (size_t)s->h, bytes = nh * s->e;
    void *x0 = s->X[mb * s->nl];
    if (s->k > 0) {
        if (comm_recv(s->c->comm, x0, bytes, (int)s->k - 1, tag_of(mb, DIR_FORWARD)) != 0)
            return -1;
    }
    for (long l = 0; l < s->nl; l++) {
        void *x = s->X[mb * s->nl + l], *z = s->Z[mb * s->nl + l];
        void *y = l + 1 < s->nl ? s->X[mb * s->nl + l + 1] : s->k == s->p - 1 ? s->Y[mb] : s->out;
        if (dev_gemm(d, s->t, false, false, (int)s->n, (int)s->h, (int)s->h, 1.0, x, (int)s->h,
                     s->W[l], (int)s->h, 0.0, z, (int)s->h) != 0 ||
            dev_gelu(d, s->t, nh, z, y) != 0)
            return -1;
    }
    if (s->k < s->p - 1) {
        /* The only thing stage k+1 needs: this stage's output activation. */
        if (dev_sync(d) != 0)
            return -1;
        record(s, mb, DIR_FORWARD, s->k + 1, s->first + s->nl - 1);
        return send_traced(s, s->out, bytes, s->k + 1, mb, DIR_FORWARD);
    }
    return 0;
}
// end snippet

// snippet: stage-backward
/* The same micro-batch backward: gradients of the weights stay here, the input's gradient goes back. */
static int stage_backward(struct stage *s, long mb)
{
    struct dev *d = s->c->dev;
    size_t nh = (size_t)s->n * (size_t)s->h, bytes = nh * s->e;
    if (s->k == s->p - 1) {
        if (dev_copy(d, s->gy, s->Y[mb], bytes, DEV_D2D) != 0)   /* loss 0.5 y^2: dL/dy = y */
            return -1;
    } else if (comm_recv(s->c->comm, s->gy, bytes, (int)s->k + 1, tag_of(mb, DIR_BACKWARD)) != 0) {
        return -1;
    }
    for (long l = s->nl - 1; l >= 0; l--) {
        void *x = s->X[mb * s->nl + l], *z = s->Z[mb * s->nl + l];
        if (dev_gelu_backward(d, s->t, nh, z, s->gy, s->gz) != 0 ||
            dev_gemm(d, s->t, true, false, (int)s->h, (int)s->h, (int)s->n, 1.0, x, (int)s->h,
                     s->gz, (int)s->h, 1.0, s->dW[l], (int)s->h) != 0 ||
            dev_gemm(d, s->t, false, true, (int)s->n, (int)s->h, (int)s->h, 1.0, s->gz, (int)s->h,
                     s->W[l], (int)s->h, 0.0, s->gx, (int)s->h) != 0)
            return -1;
        void *tmp = s->gy;
        s->gy = s->gx;
        s->gx = tmp;
    }
    if (s->k > 0) {
        if (dev_sync(d) != 0)
            return -1;
        record(s, mb, DIR_BACKWARD, s->k - 1, s->first);
        return send_traced(s, s->gy, bytes, s->k - 1, mb, DIR_BACKWARD);
    }
    return 0;
}
// end snippet

/* Fill a device array of count elements from f(i) through a host buffer. */
static int upload(struct stage *s, void *dst, size_t count, double (*f)(const struct stage *, long, size_t),
                  long which)
{
    void *host = malloc(count * s->e);
    if (!host)
        return -1;
    for (size_t i = 0; i < count; i++)
        dtype_set(s->t, host, i, f(s, which, i));
    int rc = dev_copy(s->c->dev, dst, host, count * s->e, DEV_H2D);
    free(host);
    return rc;
}

static double f_weight(const struct stage *s, long l, size_t i) { return weight_value(s->first + l, s->h, i, s->t); }
static double f_input(const struct stage *s, long mb, size_t i) { return input_value(mb, i, s->t); }

static int stage_setup(struct stage *s)
{
    size_t nh = (size_t)s->n * (size_t)s->h, hh = (size_t)s->h * (size_t)s->h;
    s->W = calloc((size_t)s->nl, sizeof *s->W);
    s->dW = calloc((size_t)s->nl, sizeof *s->dW);
    s->X = calloc((size_t)(s->m * s->nl), sizeof *s->X);
    s->Z = calloc((size_t)(s->m * s->nl), sizeof *s->Z);
    s->Y = calloc((size_t)s->m, sizeof *s->Y);
    s->rec = calloc((size_t)(2 * s->m) * REC_N, sizeof *s->rec);
    if (!s->W || !s->dW || !s->X || !s->Z || !s->Y || !s->rec)
        return -1;
    for (long l = 0; l < s->nl; l++) {
        s->W[l] = stage_alloc(s, hh * s->e, "weights");
        s->dW[l] = stage_alloc(s, hh * s->e, "gradients");
        if (s->failed || upload(s, s->W[l], hh, f_weight, l) != 0 ||
            dev_fill(s->c->dev, s->t, s->dW[l], hh, 0.0) != 0)
            return -1;
    }
    for (long i = 0; i < s->m * s->nl; i++) {
        s->X[i] = stage_alloc(s, nh * s->e, "activations");
        s->Z[i] = stage_alloc(s, nh * s->e, "activations");
    }
    for (long mb = 0; s->k == s->p - 1 && mb < s->m; mb++)
        s->Y[mb] = stage_alloc(s, nh * s->e, "activations");
    s->out = stage_alloc(s, nh * s->e, "activations");
    s->gy = stage_alloc(s, nh * s->e, "activation gradients");
    s->gz = stage_alloc(s, nh * s->e, "activation gradients");
    s->gx = stage_alloc(s, nh * s->e, "activation gradients");
    if (s->failed)
        return -1;
    for (long mb = 0; s->k == 0 && mb < s->m; mb++)
        if (upload(s, s->X[mb * s->nl], nh, f_input, mb) != 0)
            return -1;
    return 0;
}

static void stage_teardown(struct stage *s)
{
    struct dev *d = s->c->dev;
    for (long l = 0; s->W && l < s->nl; l++) {
        dev_free(d, s->W[l]);
        dev_free(d, s->dW[l]);
    }
    for (long i = 0; s->X && i < s->m * s->nl; i++) {
        dev_free(d, s->X[i]);
        dev_free(d, s->Z[i]);
    }
    for (long mb = 0; s->Y && mb < s->m; mb++)
        dev_free(d, s->Y[mb]);
    dev_free(d, s->out);
    dev_free(d, s->gy);
    dev_free(d, s->gz);
    dev_free(d, s->gx);
    free(s->W); free(s->dW); free(s->X); free(s->Z); free(s->Y); free(s->rec);
}

/* The larger of a and b, and NaN when either is: fmax would drop a NaN and let a broken result pass. */
static double max_or_nan(double a, double b)
{
    return isnan(a) ? a : isnan(b) ? b : fmax(a, b);
}

/* max |dW - ref| and max |ref| over this stage's layers. */
static int compare_grads(struct stage *s, long L, double *err, double *refmax)
{
    size_t hh = (size_t)s->h * (size_t)s->h;
    double *ref = malloc((size_t)s->nl * hh * sizeof *ref);
    void *host = malloc(hh * s->e);
    int rc = -1;
    *err = 0;
    *refmax = 0;
    if (ref && host && reference_grads(L, s->first, s->nl, s->m, s->n, s->h, s->t, ref) == 0) {
        rc = 0;
        for (long l = 0; l < s->nl && rc == 0; l++) {
            if (dev_copy(s->c->dev, host, s->dW[l], hh * s->e, DEV_D2H) != 0 || dev_sync(s->c->dev) != 0) {
                rc = -1;
                break;
            }
            for (size_t i = 0; i < hh; i++) {
                double r = ref[(size_t)l * hh + i];
                *err = max_or_nan(*err, fabs(dtype_get(s->t, host, i) - r));
                *refmax = fmax(*refmax, fabs(r));
            }
        }
    }
    free(ref);
    free(host);
    return rc;
}

/* ---- Gathering and reporting --------------------------------------------- */

/* All-gather variable-length double arrays through device buffers (counts in doubles). */
static int gather_v(struct lab_ctx *c, const double *mine, double *all, const size_t *counts)
{
    size_t total = 0;
    for (int r = 0; r < c->nranks; r++)
        total += counts[r];
    size_t mb = (counts[c->rank] ? counts[c->rank] : 1) * sizeof(double);
    void *s = dev_alloc(c->dev, mb, "report");
    void *r = dev_alloc(c->dev, (total ? total : 1) * sizeof(double), "report");
    int rc = -1;
    if (s && r && dev_copy(c->dev, s, mine, counts[c->rank] * sizeof(double), DEV_H2D) == 0 &&
        comm_allgatherv(c->comm, s, r, counts, DTYPE_F64) == 0 &&
        dev_copy(c->dev, all, r, total * sizeof(double), DEV_D2H) == 0 && dev_sync(c->dev) == 0)
        rc = 0;
    dev_free(c->dev, s);
    dev_free(c->dev, r);
    return rc;
}

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

enum { SUM_SENT, SUM_LOGGED, SUM_ERR, SUM_REFMAX, SUM_WEIGHTS, SUM_N };

static void report(struct lab_ctx *c, const struct stage *s, long L, double *recs, size_t nrecs,
                   const double *sums)
{
    double fwd = 0, bwd = 0, sent = 0, logged = 0, err = 0, refmax = 0, wbytes = 0;
    for (size_t i = 0; i < nrecs; i++)
        *(recs[i * REC_N + REC_DIR] == DIR_FORWARD ? &fwd : &bwd) += recs[i * REC_N + REC_BYTES];
    for (int r = 0; r < c->nranks; r++) {
        const double *x = sums + (size_t)r * SUM_N;
        sent += x[SUM_SENT];
        logged += x[SUM_LOGGED];
        err = max_or_nan(err, x[SUM_ERR]);
        refmax = fmax(refmax, x[SUM_REFMAX]);
        wbytes += x[SUM_WEIGHTS];
    }
    qsort(recs, nrecs, REC_N * sizeof(double), causal);

    const size_t show = 64;
    struct lab_table *t = lab_table_new(c, "Tensors that crossed a stage boundary in one step",
        "#|direction|stages|tensor|shape|dtype|bytes");
    for (size_t i = 0; i < nrecs && i < show; i++) {
        const double *x = recs + i * REC_N;
        bool f = x[REC_DIR] == DIR_FORWARD;
        lab_table_row(t, "%zu|%s|%.0f -> %.0f|%s layer %.0f (micro-batch %.0f)|[%.0f, %.0f]|%s|%.0f",
                      i + 1, f ? "forward" : "backward", x[REC_FROM], x[REC_TO],
                      f ? "activation: output of" : "activation gradient: into", x[REC_LAYER] + 1,
                      x[REC_MB], x[REC_ROWS], x[REC_COLS], dtype_name(s->t), x[REC_BYTES]);
    }
    if (nrecs > show)
        lab_note(c, "The crossing table shows the first %zu of %zu tensors.", show, nrecs);

    struct lab_table *st = lab_table_new(c, "Per stage: what stays and what was sent",
        "stage|layers|weight bytes (stay)|sent forward|sent backward|communicator bytes sent");
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
    lab_metric(c, "boundary_bytes_per_step", fwd + bwd, LAB_MEASURED);
    lab_metric(c, "forward_bytes_per_step", fwd, LAB_MEASURED);
    lab_metric(c, "backward_bytes_per_step", bwd, LAB_MEASURED);
    lab_metric(c, "activation_bytes", act, LAB_EXACT);
    lab_metric(c, "tensors_crossed", (double)nrecs, LAB_MEASURED);
    lab_metric(c, "weight_bytes_moved", sent - logged, LAB_MEASURED);
    lab_metric(c, "param_bytes", wbytes, LAB_EXACT);
    lab_metric(c, "boundary_to_param_ratio", wbytes > 0 ? (fwd + bwd) / wbytes : 0, LAB_MEASURED);
    lab_metric(c, "max_rel_error", rel, LAB_MEASURED);

    lab_check(c, "only activations and their gradients crossed", sent == logged,
              "communicator counted %.0f bytes sent; the record of activations and gradients holds %.0f",
              sent, logged);
    lab_check(c, "bytes per step match 2(p-1) m tokens hidden bytes", fwd + bwd == expect,
              "recorded %.0f, formula 2 x %ld x %ld x %ld x %ld x %zu = %.0f",
              fwd + bwd, s->p - 1, s->m, s->n, s->h, s->e, expect);
    lab_check(c, "weight gradients equal the unsplit computation", s->failed == false && rel <= tol,
              "max |dW - reference| / max |reference| = %.3g (tolerance %.0e, reference in double precision)",
              rel, tol);
    lab_note(c, "Each of the %ld layers is a %ld x %ld GEMM then GeLU; %ld micro-batches of %ld tokens; "
             "GPipe order (all forwards, then all backwards).", L, s->h, s->h, s->m, s->n);
    lab_note(c, "Weights (%.0f bytes) stay on their stage; one step moved %.0f bytes between stages "
             "(%.3g x the weights).", wbytes, fwd + bwd, wbytes > 0 ? (fwd + bwd) / wbytes : 0);
}

static int activations_ranks(const struct lab_params *p) { return (int)lab_param_int(p, "stages"); }

static int activations_run(struct lab_ctx *c)
{
    long L = lab_param_int(c->params, "layers");
    struct stage s = {
        .c = c, .p = c->nranks, .k = c->rank,
        .m = lab_param_int(c->params, "microbatches"),
        .n = lab_param_int(c->params, "tokens"),
        .h = lab_param_int(c->params, "hidden"),
    };
    if (dtype_parse(lab_param_str(c->params, "dtype"), &s.t) != 0)
        s.t = DTYPE_F32;
    s.e = dtype_size(s.t);
    if (L < s.p) {
        if (c->rank == 0)
            fprintf(stderr, "labrun: error: activations: layers = %ld is fewer than stages = %ld\n", L, s.p);
        return -1;
    }
    s.first = (long)comm_share_offset((size_t)L, (int)s.p, (int)s.k);
    s.nl = (long)comm_share((size_t)L, (int)s.p, (int)s.k);

    int rc = stage_setup(&s);
    lab_trace_stream(c, c->rank, 0, "compute (wall clock)");
    lab_trace_stream(c, c->rank, 1, "sends to the neighbouring stages");
    if (c->rank == 0)
        lab_svg_rows(c, "stage");
    comm_stats_reset(c->comm);
    for (long mb = 0; rc == 0 && mb < s.m; mb++) {
        struct lab_event ev = { .rank = c->rank, .stream = 0, .name = "forward", .mb = (int)mb,
                                .ts_us = lab_now_us(c) };
        rc = stage_forward(&s, mb);
        ev.dur_us = lab_now_us(c) - ev.ts_us;
        lab_trace(c, &ev);
    }
    for (long mb = 0; rc == 0 && mb < s.m; mb++) {
        struct lab_event ev = { .rank = c->rank, .stream = 0, .name = "backward", .mb = (int)mb,
                                .ts_us = lab_now_us(c) };
        rc = stage_backward(&s, mb);
        ev.dur_us = lab_now_us(c) - ev.ts_us;
        lab_trace(c, &ev);
    }
    if (rc == 0)
        rc = dev_sync(c->dev);

    /* What this rank sent, by the communicator's counters and by the record. */
    double mine[SUM_N] = { 0 };
    for (int op = 0; op < COMM_NOPS; op++)
        mine[SUM_SENT] += (double)c->comm->stats.sent[op];
    for (size_t i = 0; i < s.nrec; i++)
        mine[SUM_LOGGED] += s.rec[i * REC_N + REC_BYTES];
    mine[SUM_WEIGHTS] = (double)dev_bytes(c->dev, "weights");
    if (rc == 0)
        rc = compare_grads(&s, L, &mine[SUM_ERR], &mine[SUM_REFMAX]);

    /* Every rank takes part in the gathers, even after a failure, so none waits forever. */
    size_t *counts = calloc((size_t)c->nranks, sizeof *counts);
    size_t *scounts = calloc((size_t)c->nranks, sizeof *scounts);
    size_t total = 0;
    double *recs = NULL, *sums = malloc((size_t)c->nranks * SUM_N * sizeof *sums);
    if (counts && scounts && sums) {
        for (int r = 0; r < c->nranks; r++) {
            /* Stage r sends m tensors forward unless it is last, m backward unless it is first. */
            counts[r] = (size_t)((r < s.p - 1 ? s.m : 0) + (r > 0 ? s.m : 0)) * REC_N;
            scounts[r] = SUM_N;
            total += counts[r];
        }
        recs = malloc((total ? total : 1) * sizeof *recs);
    }
    if (!recs || s.nrec * REC_N != counts[c->rank] ||
        gather_v(c, s.rec, recs, counts) != 0 || gather_v(c, mine, sums, scounts) != 0)
        rc = -1;
    if (rc == 0 && c->rank == 0)
        report(c, &s, L, recs, total / REC_N, sums);
    free(counts);
    free(scounts);
    free(recs);
    free(sums);
    stage_teardown(&s);
    return rc;
}

const struct lab_impl lab_activations = {
    .name = "activations",
    .ranks = activations_ranks,
    .run = activations_run,
};
