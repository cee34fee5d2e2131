/*
 * bubble.c — the pipeline bubble lab.
 *
 * p stages, one rank each, each holding one hidden x hidden weight W.  A
 * micro-batch X (batch x hidden) goes forward as Y = X W on every stage, the
 * last stage takes the loss 0.5 |Y|^2 (so dY = Y), and comes back as
 * dW += X^T dY and dX = dY W^T: one GEMM forward, two backward.  Activations
 * travel forward and gradients backward by send/recv; each stage keeps
 * (stashes) the input of every micro-batch between its forward and backward.
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
    void *W, *dW;               /* hidden x hidden */
    void **stash;               /* per micro-batch: input X (the last stage: also Y) */
    void **ystash;              /* last stage only: Y, which is dY */
    void *out, *grad, *gin;     /* workspaces: Y, incoming dY, outgoing dX */
    double *inputs;             /* stage 0: every micro-batch's rows (host) */
    int held, peak_held;
};

/* Message tags: 2 mb for a forward, 2 mb + 1 for a backward (at most 8191, as m <= 4096: under LAB_TAG_GATHER). */
static int tag_of(char kind, int mb) { return 2 * mb + (kind == 'B'); }

// snippet: stage-loop
/*
 * One operation of this stage: receive what it needs, compute, send what the
 * neighbour needs.  Forward: the activation comes from stage s-1 and goes to
 * s+1; backward: its gradient comes from s+1 and goes to s-1.
 */
static int run_op(struct stage *st, const struct sched_op *op, struct opm *m)
{
    struct lab_ctx *c = st->c;
    int s = st->s, p = st->cfg.p, b = st->cfg.b, h = st->cfg.h, i = op->mb;
    size_t rows = (size_t)b * (size_t)h * sizeof(double);
    double cpu0 = timer_thread_cpu(), cpu_in, cpu_comp, k_in, k_comp;
    m->t0 = timer_wall();
    if (op->kind == 'F') {
        void *x = st->stash[i] = dev_alloc(c->dev, rows, "activations");
        if (!x)
            return -1;
        if (s == 0 ? dev_copy(c->dev, x, st->inputs + (size_t)i * b * h, rows, DEV_H2D)
                   : comm_recv(c->comm, x, rows, s - 1, tag_of('F', i)))
            return -1;
        if (++st->held > st->peak_held)
            st->peak_held = st->held;
        void *y = st->out;
        if (s == p - 1 && !(y = st->ystash[i] = dev_alloc(c->dev, rows, "activations")))
            return -1;
        m->t_in = timer_wall();
        cpu_in = timer_thread_cpu();
        k_in = dev_clock(c->dev);
        dev_gemm(c->dev, DTYPE_F64, false, false, b, h, h, 1.0, x, h, st->W, h, 0.0, y, h);
        k_comp = dev_clock(c->dev);
        m->t_comp = timer_wall();
        cpu_comp = timer_thread_cpu();
        if (s < p - 1 && comm_send(c->comm, y, rows, s + 1, tag_of('F', i)))
            return -1;
    } else {
        /* The last stage's loss 0.5 |Y|^2 has gradient dY = Y. */
        void *dy = s == p - 1 ? st->ystash[i] : st->grad;
        if (s < p - 1 && comm_recv(c->comm, dy, rows, s + 1, tag_of('B', i)))
            return -1;
        m->t_in = timer_wall();
        cpu_in = timer_thread_cpu();
        k_in = dev_clock(c->dev);
        dev_gemm(c->dev, DTYPE_F64, true, false, h, h, b, 1.0, st->stash[i], h, dy, h, 1.0, st->dW, h);
        /* Stage 0 computes dX too, though nobody needs it, so that every stage does the same work. */
        dev_gemm(c->dev, DTYPE_F64, false, true, b, h, h, 1.0, dy, h, st->W, h, 0.0, st->gin, h);
        k_comp = dev_clock(c->dev);
        m->t_comp = timer_wall();
        cpu_comp = timer_thread_cpu();
        if (s > 0 && comm_send(c->comm, st->gin, rows, s - 1, tag_of('B', i)))
            return -1;
        dev_free(c->dev, st->stash[i]);
        st->stash[i] = NULL;
        if (s == p - 1) {
            dev_free(c->dev, st->ystash[i]);
            st->ystash[i] = NULL;
        }
        st->held--;
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
    int h = st->cfg.h, b = st->cfg.b, m = st->cfg.m;
    size_t wbytes = (size_t)h * (size_t)h * sizeof(double), rows = (size_t)b * (size_t)h * sizeof(double);
    sched_build(&st->sched, st->cfg.kind, st->cfg.p, m);
    st->stash = xcalloc((size_t)m, sizeof *st->stash);
    st->ystash = xcalloc((size_t)m, sizeof *st->ystash);
    st->W = dev_alloc(c->dev, wbytes, "weights");
    st->dW = dev_alloc(c->dev, wbytes, "gradients");
    st->out = dev_alloc(c->dev, rows, "workspace");
    st->grad = dev_alloc(c->dev, rows, "workspace");
    st->gin = dev_alloc(c->dev, rows, "workspace");
    if (!st->W || !st->dW || !st->out || !st->grad || !st->gin)
        return -1;
    double *host = xmalloc(wbytes);
    bubble_weight(st->s, h, host);
    int rc = dev_copy(c->dev, st->W, host, wbytes, DEV_H2D);
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
    for (int i = 0; i < st->cfg.m; i++) {
        dev_free(st->c->dev, st->stash[i]);
        dev_free(st->c->dev, st->ystash[i]);
    }
    free(st->stash);
    free(st->ystash);
    dev_free(st->c->dev, st->W);
    dev_free(st->c->dev, st->dW);
    dev_free(st->c->dev, st->out);
    dev_free(st->c->dev, st->grad);
    dev_free(st->c->dev, st->gin);
    free(st->inputs);
    sched_free(&st->sched);
}

/*
 * A global order of every stage's operations that respects the schedule's
 * dependencies: the schedule replayed with forward 1 and backward 2, sorted
 * by start (stage breaks ties).  Every rank computes the same order.
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
    size_t n = (size_t)sc->p * 2 * (size_t)sc->m;
    double *cost = xmalloc(n * sizeof *cost);
    for (size_t k = 0; k < n; k++)
        cost[k] = sc->ops[k].kind == 'F' ? 1 : 2;
    struct replay rp;
    replay_run(sc, cost, 0, &rp);
    struct turn *t = xmalloc(n * sizeof *t);
    for (size_t k = 0; k < n; k++)
        t[k] = (struct turn){ .start = rp.start[k], .stage = (int)(k / (2 * (size_t)sc->m)),
                              .j = (int)(k % (2 * (size_t)sc->m)) };
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
    size_t n = (size_t)st->cfg.p * 2 * (size_t)st->cfg.m;
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
 * operation, then peak held and peak activation bytes) and leave the last
 * step's dW in st->dW.
 */
static int stage_run(struct stage *st, double *rec)
{
    struct lab_ctx *c = st->c;
    int m = st->cfg.m, S = st->cfg.steps, nsteps = 2 * S + 1, nops = 2 * m;
    size_t wbytes = (size_t)st->cfg.h * (size_t)st->cfg.h * sizeof(double);
    struct opm *meas = xcalloc((size_t)nsteps * (size_t)nops, sizeof *meas);
    struct turn *order = turn_order(&st->sched);
    uint64_t act_base = 0;
    double base = 0;
    void *pinned = NULL;
    int rc = 0;
    for (int step = 0; step < nsteps && rc == 0; step++) {
        if (comm_barrier(c->comm) < 0 || dev_fill(c->dev, DTYPE_F64, st->dW, wbytes / 8, 0.0) < 0) {
            rc = -1;
            break;
        }
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
     * GEMMs of this stage's operations of its kind (forward or backward) over
     * every micro-batch and turn-taking step.  They are the same GEMMs on the
     * same shapes, so what differs between them is noise, which the replay's
     * critical path would otherwise pick the worst of; and other work on the
     * machine only ever adds time (cache and memory traffic), so the lower
     * part of the distribution is the operation's own cost.  The copies of
     * send/recv are measured and shown apart; the replay takes transfers as
     * free, as the formula does.
     */
    double *v = xmalloc((size_t)S * (size_t)nops * sizeof *v);
    double kind_cost[2] = { 0, 0 };
    for (int kind = 0; kind < 2 && rc == 0; kind++) {
        int n = 0;
        for (int k = 0; k < S; k++)
            for (int j = 0; j < nops; j++) {
                const struct opm *o = &meas[(size_t)(S + 1 + k) * nops + j];
                if ((sched_op(&st->sched, st->s, j)->kind == 'B') == kind)
                    v[n++] = o->cpu_comp;
            }
        kind_cost[kind] = lab_quantile(v, (size_t)n, 0.25);
    }
    for (int j = 0; j < nops && rc == 0; j++) {
        const struct opm *last = &meas[(size_t)S * nops + j];
        double *g = rec + (size_t)j * G_N;
        g[G_T0] = last->t0 - base;
        g[G_TIN] = last->t_in - base;
        g[G_TCOMP] = last->t_comp - base;
        g[G_TEND] = last->t_end - base;
        g[G_COST] = kind_cost[sched_op(&st->sched, st->s, j)->kind == 'B'];
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

static int config(const struct bubble_params *P, struct bubble_cfg *cfg)
{
    *cfg = (struct bubble_cfg){ .p = (int)P->stages, .m = (int)P->microbatches, .h = (int)P->hidden,
                                .b = (int)P->batch, .steps = (int)P->steps };
    int k = sched_parse(P->schedule);
    if (k < 0) {
        fprintf(stderr, "labrun: error: bubble: unknown schedule '%s'\n", P->schedule);
        return -1;
    }
    cfg->kind = (enum sched_kind)k;
    return 0;
}

static int bubble_run(struct lab_ctx *c)
{
    struct stage st = { .c = c, .s = c->rank };
    struct bubble_params P = bubble_params_read(c->params);
    if (config(&P, &st.cfg) < 0)
        return -1;
    int m = st.cfg.m, nops = 2 * m;
    size_t reclen = (size_t)nops * G_N + BUBBLE_REC_EXTRA;
    double *rec = xcalloc(reclen, sizeof *rec);
    double *all = c->rank == 0 ? xcalloc(reclen * (size_t)c->nranks, sizeof *all) : NULL;
    int rc = stage_setup(&st);
    if (rc == 0)
        rc = stage_run(&st, rec);
    /* Every stage's figures and weight gradients to rank 0, which replays, checks and reports. */
    size_t wbytes = (size_t)st.cfg.h * (size_t)st.cfg.h * sizeof(double);
    double *grads = c->rank == 0 ? xmalloc(wbytes * (size_t)c->nranks) : NULL, *mine = xmalloc(wbytes);
    if (rc == 0)
        rc = lab_gather(c, rec, reclen * sizeof *rec, all);
    if (rc == 0)
        rc = dev_copy(c->dev, mine, st.dW, wbytes, DEV_D2H);
    if (rc == 0)
        rc = lab_gather(c, mine, wbytes, grads);
    free(mine);
    stage_teardown(&st);
    if (rc == 0 && c->rank == 0)
        rc = bubble_report(c, &st.cfg, all, grads);
    free(grads);
    free(all);
    free(rec);
    return rc;
}

const struct lab_impl lab_bubble = {
    .name = "bubble",
    .ranks = bubble_ranks,
    .run = bubble_run,
};
