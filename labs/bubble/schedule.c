/*
 * schedule.c — the pipeline schedules as per-stage orders of operations, and
 * their closed-form bubbles.  The replay in virtual time is replay.c.
 */
#include <math.h>
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
    if (strcmp(name, "interleaved") == 0)
        return SCHED_INTERLEAVED;
    if (strcmp(name, "zb-h1") == 0)
        return SCHED_ZBH1;
    return -1;
}

const char *sched_name(enum sched_kind k)
{
    switch (k) {
    case SCHED_NAIVE: return "naive";
    case SCHED_GPIPE: return "gpipe";
    case SCHED_1F1B: return "1f1b";
    case SCHED_INTERLEAVED: return "interleaved";
    case SCHED_ZBH1: return "zb-h1";
    }
    return "?";
}

/* Append to stage's list at *n. */
static void put(struct sched_op *list, int *n, char kind, int mb)
{
    list[(*n)++] = (struct sched_op){ .kind = kind, .mb = mb };
}

static void put_chunk(struct sched_op *list, int *n, char kind, int mb, int chunk)
{
    list[(*n)++] = (struct sched_op){ .kind = kind, .mb = mb, .chunk = chunk };
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


// snippet: interleaved-schedule
/*
 * Interleaved 1F1B (Narayanan et al. 2021, §2.2.2, Fig. 4): each stage holds
 * v chunks, and the model is their p·v pieces in turn (chunk c of stage s is
 * piece c·p + s).  Forwards go in rounds of p micro-batches through chunk 0,
 * then the same p through chunk 1, ...; backwards the same way from the last
 * chunk.  Stage s first runs 2(p-s-1) + (v-1)p warm-up forwards (all of them
 * when m = p), then one forward and one backward in turn, then the remaining
 * backwards.  A micro-batch crosses p·v pieces instead of p, but each is 1/v
 * of the work, so the bubble shrinks v-fold: (p-1)/(v·m+p-1).
 */
static int interleaved_mb(int k, int p, int v)
{
    return k / (p * v) * p + k % p;
}

static void interleaved_order(struct sched_op *list, int stage, int p, int m, int v)
{
    int n = 0, total = m * v;
    int warmup = m == p ? total : 2 * (p - stage - 1) + (v - 1) * p;
    if (warmup > total)
        warmup = total;
    /* The k-th forward runs chunk (k mod pv)/p; the k-th backward the chunks in reverse. */
    for (int k = 0; k < warmup; k++)
        put_chunk(list, &n, 'F', interleaved_mb(k, p, v), k % (p * v) / p);
    for (int k = 0; k < total - warmup; k++) {
        int f = k + warmup;
        put_chunk(list, &n, 'F', interleaved_mb(f, p, v), f % (p * v) / p);
        put_chunk(list, &n, 'B', interleaved_mb(k, p, v), v - 1 - k % (p * v) / p);
    }
    for (int k = total - warmup; k < total; k++)
        put_chunk(list, &n, 'B', interleaved_mb(k, p, v), v - 1 - k % (p * v) / p);
}
// end snippet

// snippet: zb-h1-schedule
/*
 * ZB-H1 (Qi et al. 2023, §2.1, Fig. 3 top): the backward is split into B,
 * the gradient of the stage's input, which the stage before waits for, and
 * W, the gradient of its weights, which nobody waits for.  Stage s runs
 * 1F1B's p-s-1 warm-up forwards, then F and B in turn; it defers its first
 * s W passes, then runs one W after each B, and drains the deferred ones at
 * the end, where 1F1B would idle.  The critical path through the stages now
 * carries B alone, so the bubble is (p-1)(F+B-W) instead of (p-1)(F+B+W),
 * and no stage holds more than p activations (1F1B's first stage holds p).
 */
static void zb_h1_order(struct sched_op *list, int stage, int p, int m)
{
    int n = 0, warmup = p - stage - 1 < m ? p - stage - 1 : m, w = 0;
    for (int i = 0; i < warmup; i++)
        put(list, &n, 'F', i);
    for (int k = 0; k < m - warmup; k++) {
        put(list, &n, 'F', warmup + k);
        put(list, &n, 'B', k);
        if (k >= stage)
            put(list, &n, 'W', w++);
    }
    for (int i = m - warmup; i < m; i++) {
        put(list, &n, 'B', i);
        if (w <= i - stage)
            put(list, &n, 'W', w++);
    }
    while (w < m)
        put(list, &n, 'W', w++);
}
// end snippet

const char *sched_invalid(enum sched_kind kind, int p, int m, int v)
{
    if (kind == SCHED_INTERLEAVED && m % p != 0)
        return "interleaved needs microbatches to be a multiple of stages (m = p, 2p, 3p, ...)";
    if (kind == SCHED_ZBH1 && m < p)
        return "zb-h1 needs at least as many microbatches as stages (m >= p)";
    return NULL;
}

void sched_build(struct schedule *s, enum sched_kind kind, int p, int m, int v)
{
    if (kind != SCHED_INTERLEAVED)
        v = 1;
    s->kind = kind;
    s->p = p;
    s->m = m;
    s->v = v;
    s->n = kind == SCHED_ZBH1 ? 3 * m : 2 * m * v;
    s->ops = xcalloc((size_t)p * (size_t)s->n, sizeof *s->ops);
    for (int st = 0; st < p; st++) {
        struct sched_op *list = &s->ops[st * s->n];
        switch (kind) {
        case SCHED_NAIVE: naive_order(list, st, p, m); break;
        case SCHED_GPIPE: gpipe_order(list, st, p, m); break;
        case SCHED_1F1B: one_f_one_b_order(list, st, p, m); break;
        case SCHED_ZBH1: zb_h1_order(list, st, p, m); break;
        case SCHED_INTERLEAVED:
            /* One chunk is plain 1F1B (the interleaved warm-up assumes v >= 2). */
            if (v == 1)
                one_f_one_b_order(list, st, p, m);
            else
                interleaved_order(list, st, p, m, v);
            break;
        }
    }
}

void sched_free(struct schedule *s)
{
    free(s->ops);
    s->ops = NULL;
}

int sched_peak_held(const struct schedule *s, int stage)
{
    int held = 0, peak = 0;
    char frees = sched_split(s) ? 'W' : 'B';
    for (int j = 0; j < s->n; j++) {
        const struct sched_op *op = sched_op(s, stage, j);
        if (op->kind == 'F' && ++held > peak)
            peak = held;
        else if (op->kind == frees)
            held--;
    }
    return peak;
}

double sched_bubble_formula(const struct schedule *s, double f, double b, double w)
{
    double p = s->p, m = s->m;
    switch (s->kind) {
    case SCHED_NAIVE:
        return (p - 1) / p;
    case SCHED_GPIPE:
    case SCHED_1F1B:
        break;
    case SCHED_INTERLEAVED:
        return (p - 1) / (s->v * m + p - 1);
    case SCHED_ZBH1: {
        double w1 = fmin(w, fmin(f, b)), idle = (p - 1) * (f + b - w1), work = m * (f + b + w);
        return work + idle > 0 ? idle / (work + idle) : 0;
    }
    }
    return (p - 1) / (m + p - 1);
}
