/*
 * bubble_report.c — rank 0's part of the bubble lab, called once the stages
 * have run: replay the schedule with the measured costs, compare the
 * gradients with the unpipelined computation (bubble_ref.c), and report per
 * stage, per step, as a trace and as a picture.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bubble.h"
#include "i18n.h"
#include "util.h"

/* Median of the G_COMP figure of every F (B, W) operation of every stage; 0 when there is none. */
static double median_kind(const struct schedule *sc, const double *all, size_t reclen, char kind)
{
    int n = 0;
    double *v = xmalloc((size_t)sc->p * (size_t)sc->n * sizeof *v);
    for (int s = 0; s < sc->p; s++)
        for (int j = 0; j < sc->n; j++)
            if (sched_op(sc, s, j)->kind == kind)
                v[n++] = all[reclen * (size_t)s + (size_t)j * G_N + G_COMP];
    double med = n ? lab_median(v, (size_t)n) : 0;
    free(v);
    return med;
}

/*
 * Whether stage s's operation op receives (or sends) a message: from (to)
 * the piece before or after it, when that piece is on another stage.
 */
static bool op_receives(const struct schedule *sc, int s, const struct sched_op *op)
{
    int q = sched_vstage(sc, s, op->chunk), last = sc->p * sc->v - 1;
    return sc->p > 1 && (op->kind == 'F' ? q > 0 : op->kind == 'B' && q < last);
}

static bool op_sends(const struct schedule *sc, int s, const struct sched_op *op)
{
    int q = sched_vstage(sc, s, op->chunk), last = sc->p * sc->v - 1;
    return sc->p > 1 && (op->kind == 'F' ? q < last : op->kind == 'B' && q > 0);
}

/* An operation's name in the trace and the picture: its kind, and its chunk when there are several. */
static const char *op_name(const struct schedule *sc, const struct sched_op *op, char *buf, size_t n)
{
    const char *kind = op->kind == 'F' ? "forward" : op->kind == 'W' ? "weight grad"
                     : sched_split(sc) ? "input grad" : "backward";
    if (sc->v > 1)
        snprintf(buf, n, "%s (chunk %d)", kind, op->chunk + 1);
    else
        snprintf(buf, n, "%s", kind);
    return buf;
}

/*
 * The replay's price of one forward (kind 'F') or backward ('B'): the median
 * over the stages of each stage's own price (bubble.c's G_COST, the lower
 * quartile of its GEMMs' times).  Every stage runs the same GEMMs on the same
 * shapes, so what differs between stages is noise, and a critical path
 * through p noisy stages would take the slowest of them; the spread,
 * (max - min) / median over the stages, goes into *spread.
 */
static double pooled_cost(const struct schedule *sc, const double *all, size_t reclen, char kind, double *spread)
{
    double *v = xmalloc((size_t)sc->p * sizeof *v), lo = INFINITY, hi = -INFINITY;
    for (int s = 0; s < sc->p; s++) {
        v[s] = 0;
        for (int j = 0; j < sc->n; j++)
            if (sched_op(sc, s, j)->kind == kind) {
                v[s] = all[reclen * (size_t)s + (size_t)j * G_N + G_COST];
                break;
            }
        lo = fmin(lo, v[s]);
        hi = fmax(hi, v[s]);
    }
    double med = lab_median(v, (size_t)sc->p);
    *spread = med > 0 ? (hi - lo) / med : 0;
    free(v);
    return med;
}

/*
 * One transfer's wall time with the stages taking turns: the mean over the
 * operations that receive of their recv time, plus the same over those that
 * send of their send time.
 */
static double transfer_cost(const struct schedule *sc, const double *all, size_t reclen)
{
    double recv = 0, send = 0;
    int nrecv = 0, nsend = 0;
    for (int s = 0; s < sc->p; s++)
        for (int j = 0; j < sc->n; j++) {
            const double *g = all + reclen * (size_t)s + (size_t)j * G_N;
            const struct sched_op *op = sched_op(sc, s, j);
            if (op_receives(sc, s, op)) {
                recv += g[G_RECVW];
                nrecv++;
            }
            if (op_sends(sc, s, op)) {
                send += g[G_SENDW];
                nsend++;
            }
        }
    return (nrecv ? recv / nrecv : 0) + (nsend ? send / nsend : 0);
}

static void trace_event(struct lab_ctx *c, int rank, int stream, const char *name, double t0_us,
                        double t1_us, int mb)
{
    if (t1_us <= t0_us)
        return;
    struct lab_event e = { .rank = rank, .stream = stream, .name = name, .ts_us = t0_us,
                           .dur_us = t1_us - t0_us, .mb = mb };
    lab_trace(c, &e);
}

/* Stream numbers in the trace. */
enum { S_COMPUTE, S_COMM, S_REPLAY };

static void trace_all(struct lab_ctx *c, const struct schedule *sc, const double *all, size_t reclen,
                      const struct replay *rp, double wall0)
{
    /*
     * Wall stamps count from each rank's exit from the barrier before the
     * step; rank 0's exit (all[G_N * 2m + 2]) puts them on its clock, and the
     * trace counts from the run's start.
     */
    double off = lab_now_us(c) - timer_wall() * 1e6 + all[(size_t)sc->n * G_N + 2] * 1e6;
    char name[48];
    for (int s = 0; s < sc->p; s++) {
        /* Under a backend that replays time, the "wall clock" is each rank's virtual one. */
        bool virt = c->timed == LAB_REPLAYED;
        lab_trace_stream(c, s, S_COMPUTE, virt ? "compute (virtual clock, last step)" : "compute (wall clock, last step)");
        lab_trace_stream(c, s, S_COMM, virt ? "send/recv (virtual clock, last step)" : "send/recv (wall clock, last step)");
        lab_trace_stream(c, s, S_REPLAY, "replayed (virtual time from measured costs)");
        double prev = wall0 * 1e6 + off;
        for (int j = 0; j < sc->n; j++) {
            const double *g = all + reclen * (size_t)s + (size_t)j * G_N;
            const struct sched_op *op = sched_op(sc, s, j);
            double tin = g[G_TIN] * 1e6 + off, tcomp = g[G_TCOMP] * 1e6 + off;
            trace_event(c, s, S_COMPUTE, "idle", prev, tin, -1);
            /*
             * With more stages than cores, an operation's wall span beyond its
             * own cost (the median CPU or device time of the turn-taking steps)
             * is time its rank was ready, its input there, but had no core:
             * marked as a wait for a core, not as work or a wait for a message.
             * Its length is measured; its place within the span is not, so it
             * is drawn first.
             */
            double own = g[G_COMP] * 1e6, work0 = tin;
            if (!virt && sc->p > c->cores && tcomp - tin > own)
                work0 = tcomp - own;
            trace_event(c, s, S_COMPUTE, LAB_CORE_WAIT, tin, work0, -1);
            trace_event(c, s, S_COMPUTE, op_name(sc, op, name, sizeof name), work0, tcomp, op->mb);
            if (op_receives(sc, s, op))
                trace_event(c, s, S_COMM, "recv", g[G_T0] * 1e6 + off, tin, op->mb);
            if (op_sends(sc, s, op))
                trace_event(c, s, S_COMM, "send", tcomp, g[G_TEND] * 1e6 + off, op->mb);
            prev = tcomp;
        }
        /* The replay, drawn from the same start so the two line up. */
        double base = wall0 * 1e6 + off, rprev = 0;
        for (int j = 0; j < sc->n; j++) {
            size_t k = (size_t)s * (size_t)sc->n + (size_t)j;
            const struct sched_op *op = sched_op(sc, s, j);
            trace_event(c, s, S_REPLAY, "idle", base + rprev * 1e6, base + rp->start[k] * 1e6, -1);
            trace_event(c, s, S_REPLAY, op_name(sc, op, name, sizeof name),
                        base + rp->start[k] * 1e6, base + rp->end[k] * 1e6, op->mb);
            rprev = rp->end[k];
        }
        trace_event(c, s, S_REPLAY, "idle", base + rprev * 1e6, base + rp->makespan * 1e6, -1);
    }
}

/* x to three decimals in the run's language (0,273 in Indonesian), into buf of 32. */
static const char *fig3(double x, char buf[32])
{
    snprintf(buf, 32, "%.3f", x);
    return num_in_lang(buf, labrun_current_lang());
}

/* The per-stage table and the held-activation figures; returns whether every stage held what its order makes it hold. */
static bool stage_table(struct lab_ctx *c, const struct bubble_cfg *cfg, const struct schedule *sc,
                        const double *all, size_t reclen, const struct replay *rp, double step_wall,
                        double *wall_busy_total, int *peak_held, double *peak_bytes, int *peak_1f1b)
{
    int p = cfg->p, m = cfg->m, nops = sc->n;
    bool split = sched_split(sc);
    /* The wall columns are the runtime's clock: measured, or replayed where the ranks take turns (coop). */
    struct lab_table *t = lab_table_new(c, c->dev->ops->clock
        ? _("per stage (per-operation device times measured, busy/idle replayed, wall measured)")
        : c->timed == LAB_REPLAYED
        ? _("per stage (per-operation CPU times measured, busy/idle replayed, wall replayed)")
        : _("per stage (per-operation CPU times measured, busy/idle replayed, wall measured)"),
        split ? _("stage|fwd ms|B ms|W ms|copy ms|busy ms|idle ms|idle %|wall busy ms|wall idle ms|peak held|1f1b holds|peak act KiB")
              : _("stage|fwd ms|bwd ms|copy ms|busy ms|idle ms|idle %|wall busy ms|wall idle ms|peak held|1f1b holds|peak act KiB"));
    struct schedule one;
    sched_build(&one, SCHED_1F1B, p, m, 1);
    bool ok = true;
    for (int s = 0; s < p; s++) {
        const double *rec = all + reclen * (size_t)s;
        double sum[3] = { 0, 0, 0 }, copy = 0, wall_busy = 0;
        for (int j = 0; j < nops; j++) {
            const double *g = rec + (size_t)j * G_N;
            sum[bubble_kind_index(sched_op(sc, s, j)->kind)] += g[G_COMP];
            copy += g[G_COMM];
            wall_busy += g[G_TEND] - g[G_TIN];
        }
        *wall_busy_total += wall_busy;
        int held = (int)rec[(size_t)nops * G_N], want = sched_peak_held(sc, s), h1 = sched_peak_held(&one, s);
        double bytes = rec[(size_t)nops * G_N + 1], per = (double)m * cfg->v;
        *peak_held = held > *peak_held ? held : *peak_held;
        *peak_1f1b = h1 > *peak_1f1b ? h1 : *peak_1f1b;
        *peak_bytes = fmax(*peak_bytes, bytes);
        ok &= held == want;
        double idle = rp->makespan - rp->busy[s];
        char w[32] = "";
        if (split)
            snprintf(w, sizeof w, "%.3f|", 1e3 * sum[2] / per);
        lab_table_row(t, "%d|%.3f|%.3f|%s%.3f|%.3f|%.3f|%.1f|%.3f|%.3f|%d|%d|%.1f", s, 1e3 * sum[0] / per,
                      1e3 * sum[1] / per, w, 1e3 * copy / nops, 1e3 * rp->busy[s], 1e3 * idle,
                      100 * idle / rp->makespan, 1e3 * wall_busy, 1e3 * (step_wall - wall_busy), held, h1,
                      bytes / 1024);
    }
    sched_free(&one);
    return ok;
}

/* The formula's name for the step table. */
static const char *formula_name(enum sched_kind k)
{
    switch (k) {
    case SCHED_NAIVE: return _("formula (p-1)/(m+p-1) with m = 1 (naive)");
    case SCHED_INTERLEAVED: return _("formula (p-1)/(v*m+p-1) (Narayanan et al. 2021)");
    case SCHED_ZBH1: return _("formula (p-1)(F+B-W)/(m(F+B+W)+(p-1)(F+B-W)) (Qi et al. 2023), measured F, B, W");
    default: return _("formula (p-1)/(m+p-1)");
    }
}

/* What the words of the report are written from: the gathered figures and the gradients' error. */
struct figures {
    const struct bubble_cfg *cfg;
    const double *all;
    int ref_rc;             /* bubble_reference's: 0, or -1 when it could not compute */
    double err;             /* max relative error of the gradients against it */
    const char *how;        /* how it computed them */
};

/*
 * The error of the stages' weight gradients (grads: stage by stage, chunk by
 * chunk) against the unpipelined computation's (piece q = chunk * p + stage).
 */
static int grad_error(struct lab_ctx *c, const struct bubble_cfg *cfg, const double *grads, double *err,
                      const char **how)
{
    int p = cfg->p;
    size_t hh = (size_t)cfg->h * (size_t)cfg->h, P = (size_t)p * (size_t)cfg->v;
    double *ref = xmalloc(P * hh * sizeof *ref);
    *how = "";
    int rc = bubble_reference(c->dev, cfg, ref, how);
    double maxdiff = 0, maxref = 0;
    for (size_t k = 0; rc == 0 && k < P; k++) {
        size_t s = k / (size_t)cfg->v, ch = k % (size_t)cfg->v, q = ch * (size_t)p + s;
        for (size_t i = 0; i < hh; i++) {
            double g = grads[k * hh + i], r = ref[q * hh + i];
            maxdiff = fmax(maxdiff, fabs(g - r));
            maxref = fmax(maxref, fabs(r));
            if (isnan(g))
                maxdiff = INFINITY;
        }
    }
    *err = maxref > 0 ? maxdiff / maxref : maxdiff;
    free(ref);
    return rc;
}

static int words(struct lab_ctx *c, void *arg);

int bubble_report(struct lab_ctx *c, const struct bubble_cfg *cfg, const double *all,
                  const double *grads)
{
    /* Computed once: the words below may be written once per language (lab_report_words). */
    struct figures f = { .cfg = cfg, .all = all };
    f.ref_rc = grad_error(c, cfg, grads, &f.err, &f.how);
    return lab_report_words(c, words, &f);
}

/* Replay, check and report, from f's figures. */
static int words(struct lab_ctx *c, void *arg)
{
    const struct figures *f = arg;
    const struct bubble_cfg *cfg = f->cfg;
    const double *all = f->all;
    int p = cfg->p, m = cfg->m;
    struct schedule sc;
    sched_build(&sc, cfg->kind, p, m, cfg->v);
    int nops = sc.n;
    size_t reclen = (size_t)nops * G_N + BUBBLE_REC_EXTRA;
    double *cost = xmalloc((size_t)p * (size_t)nops * sizeof *cost);
    double *wcost = xmalloc((size_t)p * (size_t)nops * sizeof *wcost);
    double wall0 = INFINITY, wall1 = -INFINITY, spread[3] = { 0, 0, 0 };
    double price[3] = { pooled_cost(&sc, all, reclen, 'F', &spread[0]),
                        pooled_cost(&sc, all, reclen, 'B', &spread[1]),
                        sched_split(&sc) ? pooled_cost(&sc, all, reclen, 'W', &spread[2]) : 0 };
    for (int s = 0; s < p; s++)
        for (int j = 0; j < nops; j++) {
            const double *g = all + reclen * (size_t)s + (size_t)j * G_N;
            cost[(size_t)s * nops + j] = price[bubble_kind_index(sched_op(&sc, s, j)->kind)];
            wcost[(size_t)s * nops + j] = g[G_WCOST];
            wall0 = fmin(wall0, g[G_T0]);
            wall1 = fmax(wall1, g[G_TEND]);
        }
    /*
     * Ranks that share one GPU as streams move messages by device copies that
     * contend with the GEMMs: the replay costs each transfer at what it
     * measured with the stages taking turns.  Elsewhere transfers are free,
     * as in the formula.
     */
    int sharers = c->dev->sharers;
    double link = sharers > 1 ? transfer_cost(&sc, all, reclen) : 0.0;
    struct replay rp;
    replay_run(&sc, cost, link, &rp);

    /* ---- per stage ---- */
    double step_wall = wall1 - wall0, wall_busy_total = 0, peak_bytes = 0;
    int peak_held = 0, peak_1f1b = 0;
    bool held_ok = stage_table(c, cfg, &sc, all, reclen, &rp, step_wall, &wall_busy_total, &peak_held,
                               &peak_bytes, &peak_1f1b);
    double messages = 0, bytes_sent = 0;
    for (int s = 0; s < p; s++) {
        messages += all[reclen * (size_t)s + (size_t)nops * G_N + 3];
        bytes_sent += all[reclen * (size_t)s + (size_t)nops * G_N + 4];
    }
    double formula = sched_bubble_formula(&sc, price[0], price[1], price[2]);
    double bubble_wall = step_wall > 0 ? 1 - wall_busy_total / (p * step_wall) : 0;
    /*
     * With a GPU per stage nothing contends, so the bubble is read off the
     * real timeline: the GEMMs' time from events on each stage's stream,
     * over the step on the wall clock.
     */
    bool own_gpu = sharers == 1;
    double busy_dev = 0;
    for (size_t k = 0; k < (size_t)p * (size_t)nops; k++)
        busy_dev += wcost[k];
    double bubble_timeline = step_wall > 0 ? 1 - busy_dev / (p * step_wall) : 0;
    double bubble = own_gpu ? bubble_timeline : rp.bubble;

    struct lab_table *st = lab_table_new(c, _("step"), _("figure|value|basis"));
    if (own_gpu)
        lab_table_row(st, _("bubble fraction|%.4f|measured: GEMM time from CUDA events on each stage's GPU, "
                      "over the wall-clock step"), bubble_timeline);
    lab_table_row(st, _("bubble fraction%s|%.4f|replayed from measured per-operation %s%s"),
                  own_gpu ? _(" (replayed)") : "", rp.bubble, sharers ? _("GPU time") : _("CPU time"),
                  link > 0 ? _(", transfers costed as measured") : "");
    lab_table_row(st, "%s|%.4f|%s", formula_name(cfg->kind), formula,
                  sched_split(&sc) ? _("modelled: the closed form at the measured F, B, W") : _("modelled"));
    lab_table_row(st, _("bubble on the wall clock|%.4f|%s%s"), bubble_wall, _(lab_basis_name(c->timed)),
                  sharers > 1 ? _(" (contended: stages share one GPU)")
                  : sharers == 0 && p > c->cores ? _(" (contended: ranks > cores)") : "");
    if (sched_split(&sc))
        lab_table_row(st, _("stages' cost spread (F, B, W)|%.1f%%, %.1f%%, %.1f%%|measured: (max - min) / median "
                      "over the stages"), 100 * spread[0], 100 * spread[1], 100 * spread[2]);
    else
        lab_table_row(st, _("stages' cost spread (fwd, bwd)|%.1f%%, %.1f%%|measured: (max - min) / median over "
                      "the stages"), 100 * spread[0], 100 * spread[1]);
    lab_table_row(st, _("critical path (step, replayed)|%.3f ms|replayed"), 1e3 * rp.makespan);
    lab_table_row(st, _("step on the wall clock|%.3f ms|%s"), 1e3 * step_wall, _(lab_basis_name(c->timed)));
    lab_table_row(st, _("activations held, most on one stage|%d (1F1B: %d)|measured (device accounting); "
                  "1F1B's exact"), peak_held, peak_1f1b);
    lab_table_row(st, _("messages between stages, one step|%.0f, %.0f bytes|counted by the communicator"),
                  messages, bytes_sent);

    bubble_metric(c, BUBBLE_M_BUBBLE_FRACTION, bubble, own_gpu ? LAB_MEASURED : LAB_REPLAYED);
    /* ZB-H1's closed form is evaluated at this run's measured costs, so it is as measured as they are. */
    bubble_metric(c, BUBBLE_M_BUBBLE_FORMULA, formula, sched_split(&sc) ? c->timed : LAB_MODELLED);
    bubble_metric(c, BUBBLE_M_BUBBLE_WALL, bubble_wall, c->timed);
    bubble_metric(c, BUBBLE_M_CRITICAL_PATH_MS, 1e3 * rp.makespan, LAB_REPLAYED);
    bubble_metric(c, BUBBLE_M_STEP_MS, 1e3 * step_wall, c->timed);
    bubble_metric(c, BUBBLE_M_FORWARD_MS, 1e3 * median_kind(&sc, all, reclen, 'F'), c->timed);
    bubble_metric(c, BUBBLE_M_BACKWARD_MS, 1e3 * median_kind(&sc, all, reclen, 'B'), c->timed);
    bubble_metric(c, BUBBLE_M_WEIGHT_GRAD_MS, 1e3 * median_kind(&sc, all, reclen, 'W'), c->timed);
    bubble_metric(c, BUBBLE_M_PEAK_ACTIVATIONS, peak_held, LAB_MEASURED);
    bubble_metric(c, BUBBLE_M_PEAK_ACTIVATIONS_1F1B, peak_1f1b, LAB_EXACT);
    bubble_metric(c, BUBBLE_M_ACTIVATION_BYTES, peak_bytes, LAB_MEASURED);
    bubble_metric(c, BUBBLE_M_MESSAGES, messages, LAB_EXACT);
    bubble_metric(c, BUBBLE_M_BYTES_SENT, bytes_sent, LAB_EXACT);

    /* ---- checks ---- */
    lab_check(c, _("schedule completes"), !rp.deadlock, "%s",
              rp.deadlock ? rp.why : _("every operation's dependencies were met; no stage waited forever"));
    /* Each boundary between two pieces on different stages carries one activation and one gradient per micro-batch. */
    double want_msgs = p > 1 ? 2.0 * m * (p * cfg->v - 1) : 0;
    double rows = (double)cfg->b * cfg->h * sizeof(double);
    lab_check(c, _("messages per step"), messages == want_msgs && bytes_sent == want_msgs * rows,
              _("%.0f messages, %.0f bytes; 2m(pv-1) = %.0f messages of b*h*8 = %.0f bytes each"),
              messages, bytes_sent, want_msgs, rows);
    int rc = f->ref_rc;
    if (rc == 0) {
        size_t P = (size_t)p * (size_t)cfg->v;
        bubble_metric(c, BUBBLE_M_MAX_REL_ERROR, f->err, LAB_MEASURED);
        lab_check(c, _("pipelined equals unpipelined"), f->err <= 1e-12,
                  _("weight gradients of all %zu pieces (%d stage%s x %d chunk%s) vs %s (fp64): max rel error %.2e "
                  "(bound 1e-12)"), P, p, p == 1 ? "" : "s", cfg->v, cfg->v == 1 ? "" : "s", _(f->how), f->err);
    }
    /*
     * The wall-clock step against the critical path of its own operations'
     * costs: each took at least its cost on the wall clock and waited for its
     * input, so this holds however busy the machine is.  (The replayed
     * critical path comes from other steps' costs and may be longer or
     * shorter than this step.)
     */
    struct replay rw;
    replay_run(&sc, wcost, 0.0, &rw);
    double slack = 0.005 * rw.makespan + 50e-6;
    lab_check(c, _("wall step >= its critical path"), step_wall + slack >= rw.makespan,
              _("wall step %.3f ms >= %.3f ms, the critical path of that step's own measured costs "
              "(clock tolerance %.3f ms)"), 1e3 * step_wall, 1e3 * rw.makespan, 1e3 * slack);
    replay_free(&rw);
    lab_check(c, _("activations held"), held_ok, _("%s: every stage held what its order of operations makes it "
              "hold (%s); most held %d, 1F1B's most %d (p = %d, m = %d)"), sched_name(cfg->kind),
              cfg->kind == SCHED_NAIVE ? "1" : cfg->kind == SCHED_GPIPE ? "m"
              : cfg->kind == SCHED_1F1B ? "min(p-s, m)" : cfg->kind == SCHED_ZBH1 ? _("min(p, m), from F to W")
              : _("one per chunk and micro-batch, from F to B"), peak_held, peak_1f1b, p, m);

    /* ---- notes ---- */
    const char *clock = c->dev->ops->clock ? _("device time") : _("thread CPU time");
    if (own_gpu)
        lab_note(c, "%s", _("Each stage has a GPU of its own, so nothing contends: the "
                 "bubble is measured on the last wall-clock step, each stage's busy time being its GEMMs' "
                 "time from CUDA events on its stream; the replay beside it prices the operations as "
                 "below"));
    lab_note(c, _("bubble = idle / (p x step).  Replayed: after one warm-up step and %d step%s on the wall "
             "clock, %d step%s ran with the stages taking turns, so no operation was timed while another "
             "competed for a %s; a forward (or backward) costs the median over the stages of the lower "
             "quartile of the %s of each stage's forward (or backward) GEMMs in those steps (every "
             "stage runs the same GEMMs, so how far the stages differ is noise: their spread is in the "
             "step table); the schedule is replayed in virtual time with those costs, %s"),
             cfg->steps, cfg->steps == 1 ? "" : "s", cfg->steps, cfg->steps == 1 ? "" : "s",
             sharers ? "GPU" : _("core"), clock,
             link > 0 ? _("each transfer costing what the device copies between stages measured on the wall "
                        "clock (they share the GPU with the GEMMs)")
                      : _("transfers taking no time (modelled, as in the formula; the copies send/recv cost "
                        "here are in the copy column)"));
    if (sharers > 1)
        lab_note(c, _("%d stages share one GPU, each as its own CUDA stream: their GEMMs and copies contend for "
                 "it, so wall-clock busy/idle and the wall bubble are contended; the replayed figures are "
                 "what %d GPUs would show"), p, p);
    else if (sharers == 0 && p > c->cores)
        lab_note(c, _("%d stages on %d cores: stages take turns on the cores, so wall-clock busy/idle and the "
                 "wall bubble are contended; the replayed figures are what %d cores would show"),
                 p, c->cores, p);
    if (cfg->kind == SCHED_NAIVE)
        lab_note(c, "%s", _("naive: no pipelining; micro-batches go one at a time through every stage and back, "
                 "so the bubble is (p-1)/p whatever m is"));
    if (cfg->kind == SCHED_INTERLEAVED)
        lab_note(c, _("interleaved: each stage holds %d chunks, one hidden x hidden weight each, so the model is "
                 "%d pieces and piece q sits on stage q mod %d; every micro-batch crosses %d stage boundaries "
                 "each way instead of %d, and each operation is one chunk's work"),
                 cfg->v, p * cfg->v, p, p > 1 ? p * cfg->v - 1 : 0, p - 1);
    if (cfg->kind == SCHED_ZBH1)
        lab_note(c, _("zb-h1: B computes dX = dY W^T and sends it on; W computes dW += X^T dY later, from the "
                 "stashed X and the kept dY, so a stage holds each micro-batch from F to W.  Costs: "
                 "F %.3f ms, B %.3f ms, W %.3f ms (measured); the closed form takes W' = min(F, B, W) = "
                 "%.3f ms (the paper's setting is W <= F, B)"), 1e3 * price[0], 1e3 * price[1],
                 1e3 * price[2], 1e3 * fmin(price[2], fmin(price[0], price[1])));

    trace_all(c, &sc, all, reclen, &rp, wall0);
    lab_svg_rows(c, _("stage"));
    char title[200], b3[32], f3[32];
    if (cfg->kind == SCHED_INTERLEAVED)
        snprintf(title, sizeof title, _("interleaved schedule, p = %d, m = %d, v = %d: bubble %s %s, formula %s"),
                 p, m, cfg->v, fig3(bubble, b3), _(own_gpu ? "measured" : "replayed"), fig3(formula, f3));
    else
        snprintf(title, sizeof title, _("%s schedule, p = %d, m = %d: bubble %s %s, formula %s"),
                 sched_name(cfg->kind), p, m, fig3(bubble, b3), _(own_gpu ? "measured" : "replayed"),
                 fig3(formula, f3));
    lab_svg_view(c, S_REPLAY, title);
    /* The replay has no waits for a core: the wall clock's, when a stage had one, go under it. */
    lab_svg_core_waits(c, S_COMPUTE, _("wall clock, last step: the cross-hatched spans are stages ready to run "
                                       "but without a CPU core"));

    free(cost);
    free(wcost);
    replay_free(&rp);
    sched_free(&sc);
    return rc;
}
