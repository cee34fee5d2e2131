/*
 * bubble.c — the pipeline bubble lab.
 *
 * p stages, one rank each, each holding one hidden x hidden weight W.  A
 * micro-batch X (batch x hidden) goes forward as Y = X W on every stage, the
 * last stage takes the loss 0.5 |Y|^2 (so dY = Y), and comes back as
 * dW += X^T dY and dX = dY W^T: one GEMM forward, two backward.  Activations
 * travel forward and gradients backward by send/recv; each stage keeps
 * (stashes) the input of every micro-batch between its forward and backward.
 * Under the interleaved schedule a stage holds v such weights (chunks), the
 * model being their p*v pieces in turn; under zb-h1 the backward is split,
 * dX (B) first and dW (W) later, and the stash lasts until W.
 *
 * Timing is honest on a machine with fewer cores than stages: every
 * operation's cost is its thread CPU time (the GEMM runs on the rank's own
 * thread), and the schedule is replayed in virtual time with those costs
 * (schedule.c's replay: the critical path).  The wall clock is reported beside it, labelled
 * contended when the ranks outnumber the cores.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bubble.h"
#include "params.h"
#include "util.h"

/* What one rank measured for one operation in one step. */
struct opm {
    double t0;          /* wall: the stage turned to this operation */
    double t_in;        /* wall: its input had arrived (recv returned) */
    double t_comp;      /* wall: its GEMMs were done */
    double t_end;       /* wall: its output was sent */
    double cpu_comm;    /* thread CPU: receive and send copies */
    double cpu_comp;    /* the device's cost clock (dev_clock): the GEMMs */
};


/* One stage's state. */
struct stage {
    struct lab_ctx *c;
    struct bubble_cfg cfg;
    int s;                      /* this stage */
    struct schedule sched;
    void **W, **dW;             /* per chunk: hidden x hidden */
    void **stash;               /* per chunk and micro-batch [c * m + i]: input X, from F to B (or W) */
    void **ystash;              /* the last piece of the model: Y, which is dY, from F to B (or W) */
    void **dystash;             /* zb-h1: the incoming dY, kept from B for W */
    void **local;               /* p = 1: what one chunk hands the next, per direction and micro-batch */
    void *out, *grad, *gin;     /* workspaces: Y, incoming dY, outgoing dX */
    double *inputs;             /* stage 0: every micro-batch's rows (host) */
    int held, peak_held;
};

/*
 * Message tags: 2 mb for a forward, 2 mb + 1 for a backward (at most 8191,
 * as m <= 4096: under LAB_TAG_GATHER).  Chunks of one micro-batch share a
 * tag: between two stages they travel in the order both run them.
 */
static int tag_of(char kind, int mb) { return 2 * mb + (kind == 'B'); }

/*
 * Receive into buf what virtual stage `from` sent for micro-batch mb: from
 * the stage that holds it, or, with one stage (its chunks hand on to each
 * other), from the stage's own hand-over slot.
 */
static int take(struct stage *st, void *buf, size_t bytes, int from, char kind, int mb)
{
    struct lab_ctx *c = st->c;
    int src = from % st->cfg.p;
    if (src != st->s)
        return comm_recv(c->comm, buf, bytes, src, tag_of(kind, mb));
    void **slot = &st->local[(size_t)(kind == 'B') * st->cfg.m + (size_t)mb];
    int rc = dev_copy(c->dev, buf, *slot, bytes, DEV_D2D);
    dev_free(c->dev, *slot);
    *slot = NULL;
    return rc;
}

/* Send buf to the stage that holds virtual stage `to` (or hand it over, as in take). */
static int give(struct stage *st, const void *buf, size_t bytes, int to, char kind, int mb)
{
    struct lab_ctx *c = st->c;
    int dst = to % st->cfg.p;
    if (dst != st->s)
        return comm_send(c->comm, buf, bytes, dst, tag_of(kind, mb));
    void **slot = &st->local[(size_t)(kind == 'B') * st->cfg.m + (size_t)mb];
    if (!(*slot = dev_alloc(c->dev, bytes, "workspace")))
        return -1;
    return dev_copy(c->dev, *slot, buf, bytes, DEV_D2D);
}

/* Free micro-batch slot's stashed activation and its kept gradient: its backward is complete. */
static void release(struct stage *st, size_t slot)
{
    struct dev *d = st->c->dev;
    dev_free(d, st->stash[slot]);
    dev_free(d, st->ystash[slot]);
    dev_free(d, st->dystash[slot]);
    st->stash[slot] = st->ystash[slot] = st->dystash[slot] = NULL;
    st->held--;
}

// snippet: stage-loop
/*
 * One operation of this stage: receive what it needs, compute, send what the
 * neighbour needs.  Forward: the activation comes from the piece before
 * (stage s-1, or for a later chunk of stage 0 the last stage) and goes to
 * the piece after; backward: its gradient comes from the piece after and
 * goes to the piece before.  Under zb-h1 the backward is split: B computes
 * and sends dX = dY W^T and keeps dY, and W computes dW += X^T dY later.
 */
static int run_op(struct stage *st, const struct sched_op *op, struct opm *m)
{
    struct lab_ctx *c = st->c;
    int b = st->cfg.b, h = st->cfg.h, i = op->mb, ch = op->chunk;
    int q = sched_vstage(&st->sched, st->s, ch), last = st->cfg.p * st->cfg.v - 1;
    bool split = sched_split(&st->sched);
    size_t rows = (size_t)b * (size_t)h * sizeof(double), slot = (size_t)ch * st->cfg.m + (size_t)i;
    double cpu0 = timer_thread_cpu(), cpu_in, cpu_comp, k_in, k_comp;
    m->t0 = timer_wall();
    if (op->kind == 'F') {
        void *x = st->stash[slot] = dev_alloc(c->dev, rows, "activations");
        if (!x)
            return -1;
        if (q == 0 ? dev_copy(c->dev, x, st->inputs + (size_t)i * b * h, rows, DEV_H2D)
                   : take(st, x, rows, q - 1, 'F', i))
            return -1;
        if (++st->held > st->peak_held)
            st->peak_held = st->held;
        void *y = st->out;
        if (q == last && !(y = st->ystash[slot] = dev_alloc(c->dev, rows, "activations")))
            return -1;
        m->t_in = timer_wall();
        cpu_in = timer_thread_cpu();
        k_in = dev_clock(c->dev);
        dev_gemm(c->dev, DTYPE_F64, false, false, b, h, h, 1.0, x, h, st->W[ch], h, 0.0, y, h);
        k_comp = dev_clock(c->dev);
        m->t_comp = timer_wall();
        cpu_comp = timer_thread_cpu();
        if (q < last && give(st, y, rows, q + 1, 'F', i))
            return -1;
    } else if (op->kind == 'B') {
        /* The last piece's loss 0.5 |Y|^2 has gradient dY = Y.  Split off W, dY is kept for it. */
        void *dy = q == last ? st->ystash[slot] : st->grad;
        if (q < last && split && !(dy = st->dystash[slot] = dev_alloc(c->dev, rows, "activation gradients")))
            return -1;
        if (q < last && take(st, dy, rows, q + 1, 'B', i))
            return -1;
        m->t_in = timer_wall();
        cpu_in = timer_thread_cpu();
        k_in = dev_clock(c->dev);
        if (!split)
            dev_gemm(c->dev, DTYPE_F64, true, false, h, h, b, 1.0, st->stash[slot], h, dy, h, 1.0, st->dW[ch], h);
        /* The first piece computes dX too, though nobody needs it, so that every stage does the same work. */
        dev_gemm(c->dev, DTYPE_F64, false, true, b, h, h, 1.0, dy, h, st->W[ch], h, 0.0, st->gin, h);
        k_comp = dev_clock(c->dev);
        m->t_comp = timer_wall();
        cpu_comp = timer_thread_cpu();
        if (q > 0 && give(st, st->gin, rows, q - 1, 'B', i))
            return -1;
        if (!split)
            release(st, slot);
    } else {
        /* W: the weight gradient, from the stashed input and the kept output gradient. */
        void *dy = q == last ? st->ystash[slot] : st->dystash[slot];
        m->t_in = timer_wall();
        cpu_in = timer_thread_cpu();
        k_in = dev_clock(c->dev);
        dev_gemm(c->dev, DTYPE_F64, true, false, h, h, b, 1.0, st->stash[slot], h, dy, h, 1.0, st->dW[ch], h);
        k_comp = dev_clock(c->dev);
        m->t_comp = timer_wall();
        cpu_comp = timer_thread_cpu();
        release(st, slot);
    }
    m->t_end = timer_wall();
    double cpu1 = timer_thread_cpu();
    m->cpu_comp = k_comp - k_in;
    m->cpu_comm = (cpu_in - cpu0) + (cpu1 - cpu_comp);
    return 0;
}
// end snippet

static int stage_setup(struct stage *st)
{
    struct lab_ctx *c = st->c;
    int h = st->cfg.h, b = st->cfg.b, m = st->cfg.m, v = st->cfg.v;
    size_t wbytes = (size_t)h * (size_t)h * sizeof(double), rows = (size_t)b * (size_t)h * sizeof(double);
    size_t slots = (size_t)m * (size_t)v;
    sched_build(&st->sched, st->cfg.kind, st->cfg.p, m, v);
    st->stash = xcalloc(slots, sizeof *st->stash);
    st->ystash = xcalloc(slots, sizeof *st->ystash);
    st->dystash = xcalloc(slots, sizeof *st->dystash);
    st->local = xcalloc(2 * (size_t)m, sizeof *st->local);
    st->W = xcalloc((size_t)v, sizeof *st->W);
    st->dW = xcalloc((size_t)v, sizeof *st->dW);
    st->out = dev_alloc(c->dev, rows, "workspace");
    st->grad = dev_alloc(c->dev, rows, "workspace");
    st->gin = dev_alloc(c->dev, rows, "workspace");
    if (!st->out || !st->grad || !st->gin)
        return -1;
    double *host = xmalloc(wbytes);
    int rc = 0;
    for (int ch = 0; ch < v && rc == 0; ch++) {
        st->W[ch] = dev_alloc(c->dev, wbytes, "weights");
        st->dW[ch] = dev_alloc(c->dev, wbytes, "gradients");
        if (!st->W[ch] || !st->dW[ch]) {
            rc = -1;
            break;
        }
        bubble_weight(sched_vstage(&st->sched, st->s, ch), h, host);
        rc = dev_copy(c->dev, st->W[ch], host, wbytes, DEV_H2D);
    }
    free(host);
    if (st->s == 0) {
        st->inputs = xmalloc((size_t)m * rows);
        for (int i = 0; i < m; i++)
            bubble_input(i, b, h, st->inputs + (size_t)i * b * h);
    }
    return rc;
}

static void stage_teardown(struct stage *st)
{
    struct dev *d = st->c->dev;
    for (size_t i = 0; i < (size_t)st->cfg.m * (size_t)st->cfg.v; i++) {
        dev_free(d, st->stash[i]);
        dev_free(d, st->ystash[i]);
        dev_free(d, st->dystash[i]);
    }
    for (size_t i = 0; i < 2 * (size_t)st->cfg.m; i++)
        dev_free(d, st->local[i]);
    for (int ch = 0; ch < st->cfg.v; ch++) {
        dev_free(d, st->W[ch]);
        dev_free(d, st->dW[ch]);
    }
    free(st->stash);
    free(st->ystash);
    free(st->dystash);
    free(st->local);
    free(st->W);
    free(st->dW);
    dev_free(d, st->out);
    dev_free(d, st->grad);
    dev_free(d, st->gin);
    free(st->inputs);
    sched_free(&st->sched);
}

/*
 * A global order of every stage's operations that respects the schedule's
 * dependencies: the schedule replayed with forward 1 and backward 2 (B and
 * W 1 each where split), sorted by start (stage breaks ties).  Every rank
 * computes the same order.
 */
struct turn {
    double start;
    int stage, j;
};

static int compare_turn(const void *a, const void *b)
{
    const struct turn *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->stage - y->stage;
}

static struct turn *turn_order(const struct schedule *sc)
{
    size_t n = (size_t)sc->p * (size_t)sc->n;
    double *cost = xmalloc(n * sizeof *cost);
    for (size_t k = 0; k < n; k++)
        cost[k] = sc->ops[k].kind == 'B' && !sched_split(sc) ? 2 : 1;
    struct replay rp;
    replay_run(sc, cost, 0, &rp);
    struct turn *t = xmalloc(n * sizeof *t);
    for (size_t k = 0; k < n; k++)
        t[k] = (struct turn){ .start = rp.start[k], .stage = (int)(k / (size_t)sc->n),
                              .j = (int)(k % (size_t)sc->n) };
    qsort(t, n, sizeof *t, compare_turn);
    replay_free(&rp);
    free(cost);
    return t;
}

/*
 * One step with the stages taking turns: only the stage whose operation is
 * next in the global order runs; where the turn passes to another stage,
 * every stage meets in a barrier.  Nothing else competes for the cores or
 * caches while an operation is timed, so its thread CPU time is what it
 * costs on a core of its own.
 *
 * The turn is passed by a barrier, not by a token message to the next
 * stage: under NCCL, messages between two ranks match in posting order with
 * no tags, so a token sent after an activation to the same stage would meet
 * that stage's receive of the activation.  A barrier travels on the
 * collectives' own communicator, apart from the stages' messages.
 */
static int turn_step(struct stage *st, const struct turn *order, struct opm *meas)
{
    struct lab_ctx *c = st->c;
    size_t n = (size_t)st->cfg.p * (size_t)st->sched.n;
    for (size_t k = 0; k < n; k++) {
        if (order[k].stage == st->s &&
            run_op(st, sched_op(&st->sched, st->s, order[k].j), &meas[order[k].j]) < 0)
            return -1;
        if (k + 1 < n && order[k + 1].stage != order[k].stage && comm_barrier(c->comm) < 0)
            return -1;
    }
    return 0;
}

/*
 * Run one stage: a warm-up step and `steps` steps as the schedule runs them
 * (all stages at once: the wall clock), then `steps` steps taking turns (the
 * operations' costs).  Fill this rank's gathered record (G_N doubles per
 * operation, then the BUBBLE_REC_EXTRA figures) and leave the last step's
 * dW in st->dW.
 */
static int stage_run(struct stage *st, double *rec)
{
    struct lab_ctx *c = st->c;
    int S = st->cfg.steps, nsteps = 2 * S + 1, nops = st->sched.n;
    size_t wbytes = (size_t)st->cfg.h * (size_t)st->cfg.h * sizeof(double);
    uint64_t msgs0 = 0, bytes0 = 0;
    struct opm *meas = xcalloc((size_t)nsteps * (size_t)nops, sizeof *meas);
    struct turn *order = turn_order(&st->sched);
    uint64_t act_base = 0;
    double base = 0;
    void *pinned = NULL;
    int rc = 0;
    for (int step = 0; step < nsteps && rc == 0; step++) {
        if (comm_barrier(c->comm) < 0) {
            rc = -1;
            break;
        }
        for (int ch = 0; ch < st->cfg.v && rc == 0; ch++)
            rc = dev_fill(c->dev, DTYPE_F64, st->dW[ch], wbytes / 8, 0.0);
        if (rc < 0)
            break;
        if (step == S) {
            dev_reset_peak(c->dev);
            act_base = c->dev->usage.current;
            st->peak_held = 0;
            /*
             * Every rank leaves the barrier at about the same moment: its wall
             * stamps are kept relative to that, so ranks on different nodes,
             * whose clocks do not agree, share one time base.
             */
            base = timer_wall();
            msgs0 = c->comm->stats.calls[COMM_SEND];
            bytes0 = c->comm->stats.sent[COMM_SEND];
        }
        struct opm *sm = &meas[(size_t)step * nops];
        /* While the stages take turns, they all run on one core: each operation is priced on the same core. */
        if (step == S + 1)
            pinned = timer_pin();
        if (step <= S) {
            for (int j = 0; j < nops && rc == 0; j++)
                rc = run_op(st, sched_op(&st->sched, st->s, j), &sm[j]);
            if (step == S) {
                rec[(size_t)nops * G_N] = st->peak_held;
                rec[(size_t)nops * G_N + 1] = (double)(c->dev->usage.peak - act_base);
                rec[(size_t)nops * G_N + 2] = base;
                rec[(size_t)nops * G_N + 3] = (double)(c->comm->stats.calls[COMM_SEND] - msgs0);
                rec[(size_t)nops * G_N + 4] = (double)(c->comm->stats.sent[COMM_SEND] - bytes0);
            }
        } else {
            rc = turn_step(st, order, sm);
        }
        if (c->rank == 0)
            lab_progress(c, (double)(step + 1) / nsteps, "steps");
    }
    timer_unpin(pinned);
    /*
     * An operation's cost: the lower quartile of the thread CPU times of the
     * GEMMs of this stage's operations of its kind (F, B or W) over
     * every micro-batch and turn-taking step.  They are the same GEMMs on the
     * same shapes, so what differs between them is noise, which the replay's
     * critical path would otherwise pick the worst of; and other work on the
     * machine only ever adds time (cache and memory traffic), so the lower
     * part of the distribution is the operation's own cost.  The copies of
     * send/recv are measured and shown apart; the replay takes transfers as
     * free, as the formula does.
     */
    double *v = xmalloc((size_t)S * (size_t)nops * sizeof *v);
    double kind_cost[3] = { 0, 0, 0 };
    for (int kind = 0; kind < 3 && rc == 0; kind++) {
        int n = 0;
        for (int k = 0; k < S; k++)
            for (int j = 0; j < nops; j++) {
                const struct opm *o = &meas[(size_t)(S + 1 + k) * nops + j];
                if (bubble_kind_index(sched_op(&st->sched, st->s, j)->kind) == kind)
                    v[n++] = o->cpu_comp;
            }
        kind_cost[kind] = n ? lab_quantile(v, (size_t)n, 0.25) : 0;
    }
    for (int j = 0; j < nops && rc == 0; j++) {
        const struct opm *last = &meas[(size_t)S * nops + j];
        double *g = rec + (size_t)j * G_N;
        g[G_T0] = last->t0 - base;
        g[G_TIN] = last->t_in - base;
        g[G_TCOMP] = last->t_comp - base;
        g[G_TEND] = last->t_end - base;
        g[G_COST] = kind_cost[bubble_kind_index(sched_op(&st->sched, st->s, j)->kind)];
        g[G_WCOST] = last->cpu_comp;
        /* The split into compute and copies, per operation: medians over the turn-taking steps. */
        for (int k = 0; k < S; k++)
            v[k] = meas[(size_t)(S + 1 + k) * nops + j].cpu_comp;
        g[G_COMP] = lab_median(v, (size_t)S);
        for (int k = 0; k < S; k++)
            v[k] = meas[(size_t)(S + 1 + k) * nops + j].cpu_comm;
        g[G_COMM] = lab_median(v, (size_t)S);
        /* Transfers on the wall clock, uncontended: when its turn comes, an operation's input is there. */
        for (int k = 0; k < S; k++)
            v[k] = meas[(size_t)(S + 1 + k) * nops + j].t_in - meas[(size_t)(S + 1 + k) * nops + j].t0;
        g[G_RECVW] = lab_median(v, (size_t)S);
        for (int k = 0; k < S; k++)
            v[k] = meas[(size_t)(S + 1 + k) * nops + j].t_end - meas[(size_t)(S + 1 + k) * nops + j].t_comp;
        g[G_SENDW] = lab_median(v, (size_t)S);
    }
    free(v);
    free(order);
    free(meas);
    return rc;
}

static int bubble_ranks(const struct lab_params *p)
{
    return (int)bubble_params_read(p).stages;
}

/* Values each in range that the schedule cannot take together (a usage error). */
static const char *bubble_invalid(const struct lab_params *p)
{
    static char why[256];
    struct bubble_params P = bubble_params_read(p);
    int k = sched_parse(P.schedule);
    /* Only interleaved holds chunks; elsewhere a --chunks given would be silently measured as one. */
    const struct lab_pvalue *chunks = lab_params_get(p, "chunks");
    if (k >= 0 && k != SCHED_INTERLEAVED && chunks && chunks->given && P.chunks != 1) {
        snprintf(why, sizeof why, "--chunks %ld applies only to --schedule interleaved (this run: %s, one chunk "
                 "per stage); allowed: --chunks 1, or --schedule interleaved", P.chunks, P.schedule);
        return why;
    }
    const char *bad = k < 0 ? NULL : sched_invalid((enum sched_kind)k, (int)P.stages, (int)P.microbatches,
                                                    (int)P.chunks);
    if (!bad)
        return NULL;
    snprintf(why, sizeof why, "--microbatches: '%ld' is not allowed with --stages %ld: %s",
             P.microbatches, P.stages, bad);
    return why;
}

static int config(const struct bubble_params *P, struct bubble_cfg *cfg)
{
    *cfg = (struct bubble_cfg){ .p = (int)P->stages, .m = (int)P->microbatches, .h = (int)P->hidden,
                                .b = (int)P->batch, .steps = (int)P->steps, .v = 1 };
    int k = sched_parse(P->schedule);
    if (k < 0) {
        fprintf(stderr, "labrun: error: bubble: unknown schedule '%s'\n", P->schedule);
        return -1;
    }
    cfg->kind = (enum sched_kind)k;
    if (cfg->kind == SCHED_INTERLEAVED)
        cfg->v = (int)P->chunks;
    return 0;
}

static int bubble_run(struct lab_ctx *c)
{
    struct stage st = { .c = c, .s = c->rank };
    struct bubble_params P = bubble_params_read(c->params);
    if (config(&P, &st.cfg) < 0)
        return -1;
    int nops = st.cfg.kind == SCHED_ZBH1 ? 3 * st.cfg.m : 2 * st.cfg.m * st.cfg.v;
    size_t reclen = (size_t)nops * G_N + BUBBLE_REC_EXTRA;
    double *rec = xcalloc(reclen, sizeof *rec);
    double *all = c->rank == 0 ? xcalloc(reclen * (size_t)c->nranks, sizeof *all) : NULL;
    int rc = stage_setup(&st);
    if (rc == 0)
        rc = stage_run(&st, rec);
    /* Every stage's figures and weight gradients to rank 0, which replays, checks and reports. */
    size_t wbytes = (size_t)st.cfg.h * (size_t)st.cfg.h * sizeof(double), v = (size_t)st.cfg.v;
    double *grads = c->rank == 0 ? xmalloc(wbytes * v * (size_t)c->nranks) : NULL, *mine = xmalloc(wbytes * v);
    if (rc == 0)
        rc = lab_gather(c, rec, reclen * sizeof *rec, all);
    for (size_t ch = 0; ch < v && rc == 0; ch++)
        rc = dev_copy(c->dev, mine + ch * wbytes / sizeof *mine, st.dW[ch], wbytes, DEV_D2H);
    if (rc == 0)
        rc = lab_gather(c, mine, wbytes * v, grads);
    free(mine);
    stage_teardown(&st);
    if (rc == 0 && c->rank == 0)
        rc = bubble_report(c, &st.cfg, all, grads);
    free(grads);
    free(all);
    free(rec);
    return rc;
}

/*
 * Memory a run needs, every stage together, from above: each stage's weights
 * and gradients per chunk, the activations it stashes for every micro-batch
 * and chunk, its workspaces and inputs, the measurements of every step, and
 * rank 0's gathered gradients and reference.
 */
static double bubble_bytes(const struct lab_params *p)
{
    struct bubble_params P = bubble_params_read(p);
    double S = (double)P.stages, m = (double)P.microbatches, v = strcmp(P.schedule, "interleaved") == 0 ? (double)P.chunks : 1;
    double hh = (double)P.hidden * (double)P.hidden * 8, rows = (double)P.batch * (double)P.hidden * 8;
    double ops = 3 * m * v, steps = 2 * (double)P.steps + 1;
    double stage = 2 * v * hh + (3 * m * v + 4) * rows + m * rows + steps * ops * 64 + ops * 256;
    double root = S * v * hh * 2 + S * (2 * hh + 3 * rows) + S * ops * 256;
    return 2 * (S * stage + root) + S * (1 << 20);
}

const struct lab_impl lab_bubble = {
    .name = "bubble",
    .ranks = bubble_ranks,
    .run = bubble_run,
    .invalid = bubble_invalid,
    .bytes = bubble_bytes,
    .limits = &lab_bubble_limits,
};
