/*
 * replay.c — a pipeline schedule replayed in virtual time: every operation
 * starts as soon as its stage is free and what it depends on has ended
 * (schedule.h lists the dependencies).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"
#include "util.h"

/* When an operation of one kind on a virtual stage ended; negative: not yet. */
struct ends {
    double *f, *b, *w;      /* [q * m + i] */
    int m;
};

static double *at(double *v, const struct ends *e, int q, int i) { return &v[(size_t)q * (size_t)e->m + (size_t)i]; }

/*
 * When op (on stage st) may start as far as its dependencies go, or -1 when
 * one has not ended yet.
 */
static double ready_at(const struct schedule *s, const struct ends *e, int st, const struct sched_op *op,
                       double link)
{
    int P = s->p * s->v, q = sched_vstage(s, st, op->chunk), i = op->mb;
    /* Between two chunks of one stage (p = 1) nothing travels. */
    double hop = s->p > 1 ? link : 0;
    if (op->kind == 'F') {
        if (q == 0)
            return 0;
        double d = *at(e->f, e, q - 1, i);
        return d < 0 ? -1 : d + hop;
    }
    if (op->kind == 'W') {
        double d = *at(e->b, e, q, i);
        return d < 0 ? -1 : d;
    }
    double own = *at(e->f, e, q, i);
    if (own < 0)
        return -1;      /* its own forward has not run: the order is wrong */
    if (q == P - 1)
        return own;
    double d = *at(e->b, e, q + 1, i);
    return d < 0 ? -1 : d + hop;
}

void replay_run(const struct schedule *s, const double *cost, double link, struct replay *r)
{
    int p = s->p, m = s->m, P = s->p * s->v;
    size_t nops = (size_t)p * (size_t)s->n, nq = (size_t)P * (size_t)m;
    memset(r, 0, sizeof *r);
    r->start = xcalloc(nops, sizeof *r->start);
    r->end = xcalloc(nops, sizeof *r->end);
    r->busy = xcalloc((size_t)p, sizeof *r->busy);
    r->peak_held = xcalloc((size_t)p, sizeof *r->peak_held);
    struct ends e = { .f = xmalloc(nq * sizeof *e.f), .b = xmalloc(nq * sizeof *e.b),
                      .w = xmalloc(nq * sizeof *e.w), .m = m };
    for (size_t i = 0; i < nq; i++)
        e.f[i] = e.b[i] = e.w[i] = -1;
    int *next = xcalloc((size_t)p, sizeof *next), *held = xcalloc((size_t)p, sizeof *held);
    double *free_at = xcalloc((size_t)p, sizeof *free_at);
    char frees = sched_split(s) ? 'W' : 'B';

    /* Sweep the stages until none can go on; a stage waits at its first blocked operation. */
    for (bool progress = true; progress;) {
        progress = false;
        for (int st = 0; st < p; st++) {
            while (next[st] < s->n) {
                const struct sched_op *op = sched_op(s, st, next[st]);
                double ready = ready_at(s, &e, st, op, link);
                if (ready < 0)
                    break;
                size_t k = (size_t)st * (size_t)s->n + (size_t)next[st];
                r->start[k] = ready > free_at[st] ? ready : free_at[st];
                r->end[k] = r->start[k] + cost[k];
                free_at[st] = r->end[k];
                r->busy[st] += cost[k];
                int q = sched_vstage(s, st, op->chunk);
                double *slot = op->kind == 'F' ? e.f : op->kind == 'B' ? e.b : e.w;
                *at(slot, &e, q, op->mb) = r->end[k];
                if (op->kind == 'F' && ++held[st] > r->peak_held[st])
                    r->peak_held[st] = held[st];
                else if (op->kind == frees)
                    held[st]--;
                if (r->end[k] > r->makespan)
                    r->makespan = r->end[k];
                next[st]++;
                progress = true;
            }
        }
    }
    double total = 0;
    for (int st = 0; st < p; st++) {
        total += r->busy[st];
        if (next[st] < s->n && !r->deadlock) {
            const struct sched_op *op = sched_op(s, st, next[st]);
            r->deadlock = true;
            snprintf(r->why, sizeof r->why, "stage %d waits forever at %c%d of chunk %d (operation %d of %d)",
                     st, op->kind, op->mb, op->chunk, next[st] + 1, s->n);
        }
    }
    r->bubble = r->makespan > 0 ? 1 - total / (p * r->makespan) : 0;
    free(e.f);
    free(e.b);
    free(e.w);
    free(next);
    free(held);
    free(free_at);
}

void replay_free(struct replay *r)
{
    free(r->start);
    free(r->end);
    free(r->busy);
    free(r->peak_held);
    memset(r, 0, sizeof *r);
}
