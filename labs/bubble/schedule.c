/*
 * schedule.c — the three pipeline schedules, and their replay in virtual time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"
#include "util.h"

int sched_parse(const char *name)
{
    if (strcmp(name, "naive") == 0)
        return SCHED_NAIVE;
    if (strcmp(name, "gpipe") == 0)
        return SCHED_GPIPE;
    if (strcmp(name, "1f1b") == 0)
        return SCHED_1F1B;
    return -1;
}

const char *sched_name(enum sched_kind k)
{
    return k == SCHED_NAIVE ? "naive" : k == SCHED_GPIPE ? "gpipe" : "1f1b";
}

/* Append to stage's list at *n. */
static void put(struct sched_op *list, int *n, char kind, int mb)
{
    list[(*n)++] = (struct sched_op){ .kind = kind, .mb = mb };
}

// snippet: naive-schedule
/* No pipelining: micro-batch i goes forward and backward through every stage before i+1 starts. */
static void naive_order(struct sched_op *list, int stage, int p, int m)
{
    int n = 0;
    for (int i = 0; i < m; i++) {
        put(list, &n, 'F', i);
        put(list, &n, 'B', i);
    }
}
// end snippet

// snippet: gpipe-schedule
/* GPipe: all m forwards, then all m backwards; every stage holds m activations at the turn. */
static void gpipe_order(struct sched_op *list, int stage, int p, int m)
{
    int n = 0;
    for (int i = 0; i < m; i++)
        put(list, &n, 'F', i);
    for (int i = 0; i < m; i++)
        put(list, &n, 'B', i);
}
// end snippet

// snippet: 1f1b-schedule
/*
 * 1F1B (PipeDream-Flush): stage s runs p-s-1 warm-up forwards, then
 * alternates one forward and one backward, then drains the backwards.  A
 * backward frees its activation as soon as possible, so stage s never holds
 * more than p-s micro-batches (GPipe holds m), for the same bubble.
 */
static void one_f_one_b_order(struct sched_op *list, int stage, int p, int m)
{
    int n = 0, warmup = p - stage - 1 < m ? p - stage - 1 : m;
    for (int i = 0; i < warmup; i++)
        put(list, &n, 'F', i);
    for (int i = 0; i < m - warmup; i++) {
        put(list, &n, 'F', warmup + i);
        put(list, &n, 'B', i);
    }
    for (int i = m - warmup; i < m; i++)
        put(list, &n, 'B', i);
}
// end snippet

void sched_build(struct schedule *s, enum sched_kind kind, int p, int m)
{
    s->kind = kind;
    s->p = p;
    s->m = m;
    s->ops = xcalloc((size_t)p * 2 * (size_t)m, sizeof *s->ops);
    for (int st = 0; st < p; st++) {
        struct sched_op *list = &s->ops[st * 2 * m];
        if (kind == SCHED_NAIVE)
            naive_order(list, st, p, m);
        else if (kind == SCHED_GPIPE)
            gpipe_order(list, st, p, m);
        else
            one_f_one_b_order(list, st, p, m);
    }
}

void sched_free(struct schedule *s)
{
    free(s->ops);
    s->ops = NULL;
}

double sched_bubble_formula(enum sched_kind k, int p, int m)
{
    if (k == SCHED_NAIVE)
        m = 1;
    return (double)(p - 1) / (double)(m + p - 1);
}

void replay_run(const struct schedule *s, const double *cost, double link, struct replay *r)
{
    int p = s->p, m = s->m;
    size_t nops = (size_t)p * 2 * (size_t)m;
    memset(r, 0, sizeof *r);
    r->start = xcalloc(nops, sizeof *r->start);
    r->end = xcalloc(nops, sizeof *r->end);
    r->busy = xcalloc((size_t)p, sizeof *r->busy);
    r->peak_held = xcalloc((size_t)p, sizeof *r->peak_held);
    /* When F(s, i) and B(s, i) ended; negative: not yet. */
    double *fend = xmalloc((size_t)p * (size_t)m * sizeof *fend);
    double *bend = xmalloc((size_t)p * (size_t)m * sizeof *bend);
    for (size_t i = 0; i < (size_t)p * (size_t)m; i++)
        fend[i] = bend[i] = -1;
    int *next = xcalloc((size_t)p, sizeof *next), *held = xcalloc((size_t)p, sizeof *held);
    double *free_at = xcalloc((size_t)p, sizeof *free_at);

    /* Sweep the stages until none can go on; a stage waits at its first blocked operation. */
    for (bool progress = true; progress;) {
        progress = false;
        for (int st = 0; st < p; st++) {
            while (next[st] < 2 * m) {
                const struct sched_op *op = sched_op(s, st, next[st]);
                int i = op->mb;
                double ready;
                if (op->kind == 'F') {
                    if (st > 0 && fend[(st - 1) * m + i] < 0)
                        break;
                    ready = st > 0 ? fend[(st - 1) * m + i] + link : 0;
                } else {
                    if (fend[st * m + i] < 0)
                        break;      /* its own forward has not run: the order is wrong */
                    if (st < p - 1 && bend[(st + 1) * m + i] < 0)
                        break;
                    ready = st < p - 1 ? bend[(st + 1) * m + i] + link : fend[st * m + i];
                }
                size_t k = (size_t)st * 2 * (size_t)m + (size_t)next[st];
                r->start[k] = ready > free_at[st] ? ready : free_at[st];
                r->end[k] = r->start[k] + cost[k];
                free_at[st] = r->end[k];
                r->busy[st] += cost[k];
                if (op->kind == 'F') {
                    fend[st * m + i] = r->end[k];
                    if (++held[st] > r->peak_held[st])
                        r->peak_held[st] = held[st];
                } else {
                    bend[st * m + i] = r->end[k];
                    held[st]--;
                }
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
        if (next[st] < 2 * m && !r->deadlock) {
            const struct sched_op *op = sched_op(s, st, next[st]);
            r->deadlock = true;
            snprintf(r->why, sizeof r->why, "stage %d waits forever at %c%d (operation %d of %d)",
                     st, op->kind, op->mb, next[st] + 1, 2 * m);
        }
    }
    r->bubble = r->makespan > 0 ? 1 - total / (p * r->makespan) : 0;
    free(fend);
    free(bend);
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
