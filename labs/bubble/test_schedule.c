/*
 * The interleaved and ZB-H1 schedules as data: each operation once and in
 * dependency order, the replay against the papers' closed forms, the
 * activations each stage holds, the order of each stage against golden
 * files (tests/data/labs/bubble/, read by eye against Narayanan et al. 2021
 * Fig. 4 and Qi et al. 2023 Fig. 3), and the stages' messages played under
 * NCCL's rules (order-only matching per communicator, a send complete only
 * at its peer's receive) without a thread.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl_route.h"
#include "schedule.h"

/* Where op (kind, chunk, mb) sits in stage's order, or -1. */
static int find_op(const struct schedule *s, int stage, char kind, int chunk, int mb)
{
    for (int j = 0; j < s->n; j++) {
        const struct sched_op *o = sched_op(s, stage, j);
        if (o->kind == kind && o->mb == mb && o->chunk == chunk)
            return j;
    }
    return -1;
}

/* An uneven cost in [1, 3), so no dependency is met by luck of equal timing. */
static double uneven(size_t k) { return 1.0 + (double)((k * 7919) % 97) / 48.5; }

/* Replay s with cost f per F, b per B, w per W (or uneven costs when f < 0). */
static void replay_with(const struct schedule *s, double f, double b, double w, double link, struct replay *r)
{
    size_t n = (size_t)s->p * (size_t)s->n;
    double *cost = malloc(n * sizeof *cost);
    for (size_t k = 0; k < n; k++)
        cost[k] = f < 0 ? uneven(k) : s->ops[k].kind == 'F' ? f : s->ops[k].kind == 'B' ? b : w;
    replay_run(s, cost, link, r);
    free(cost);
}

Test(schedule, interleaved_and_zb_h1_run_every_operation_once_and_in_dependency_order_on_each_stage)
{
    for (int p = 1; p <= 6; p++)
        for (int v = 1; v <= 4; v++)
            for (int m = p; m <= 4 * p; m += p) {
                struct schedule s;
                sched_build(&s, SCHED_INTERLEAVED, p, m, v);
                cr_assert_eq(s.n, 2 * m * v);
                for (int st = 0; st < p; st++)
                    for (int c = 0; c < v; c++)
                        for (int i = 0; i < m; i++) {
                            int f = find_op(&s, st, 'F', c, i), b = find_op(&s, st, 'B', c, i);
                            cr_assert(f >= 0 && b > f, "interleaved p=%d m=%d v=%d: stage %d chunk %d mb %d",
                                      p, m, v, st, c, i);
                        }
                sched_free(&s);
            }
    for (int p = 1; p <= 8; p++)
        for (int m = p; m <= 4 * p; m++) {
            struct schedule s;
            sched_build(&s, SCHED_ZBH1, p, m, 3);
            cr_assert_eq(s.v, 1, "zb-h1 holds one chunk");
            cr_assert_eq(s.n, 3 * m);
            for (int st = 0; st < p; st++)
                for (int i = 0; i < m; i++) {
                    int f = find_op(&s, st, 'F', 0, i), b = find_op(&s, st, 'B', 0, i), w = find_op(&s, st, 'W', 0, i);
                    cr_assert(f >= 0 && b > f && w > b, "zb-h1 p=%d m=%d: stage %d mb %d: F %d B %d W %d",
                              p, m, st, i, f, b, w);
                }
            sched_free(&s);
        }
}

Test(schedule, the_new_schedules_never_deadlock_and_meet_every_dependency_with_uneven_costs)
{
    for (int k = 0; k < 2; k++)
        for (int p = 1; p <= 8; p++)
            for (int v = 1; v <= (k == 0 ? 4 : 1); v++)
                for (int m = p; m <= 4 * p; m += (k == 0 ? p : 1)) {
                    struct schedule s;
                    struct replay r;
                    sched_build(&s, k == 0 ? SCHED_INTERLEAVED : SCHED_ZBH1, p, m, v);
                    replay_with(&s, -1, 0, 0, 0.25, &r);
                    cr_assert(!r.deadlock, "%s p=%d m=%d v=%d: %s", sched_name(s.kind), p, m, v, r.why);
                    int P = p * s.v;
                    for (int st = 0; st < p; st++)
                        for (int j = 0; j < s.n; j++) {
                            const struct sched_op *o = sched_op(&s, st, j);
                            size_t me = (size_t)st * s.n + j;
                            int q = sched_vstage(&s, st, o->chunk);
                            double hop = p > 1 ? 0.25 : 0;
                            if (j > 0)
                                cr_assert_geq(r.start[me], r.end[me - 1]);
                            if (o->kind == 'F' && q > 0) {
                                int ps = (q - 1) % p, pc = (q - 1) / p;
                                size_t dep = (size_t)ps * s.n + find_op(&s, ps, 'F', pc, o->mb);
                                cr_assert_geq(r.start[me], r.end[dep] + hop, "%s p=%d m=%d v=%d: F of piece %d "
                                              "before its input", sched_name(s.kind), p, m, v, q);
                            }
                            if (o->kind == 'B' && q < P - 1) {
                                int ns = (q + 1) % p, nc = (q + 1) / p;
                                size_t dep = (size_t)ns * s.n + find_op(&s, ns, 'B', nc, o->mb);
                                cr_assert_geq(r.start[me], r.end[dep] + hop);
                            }
                            if (o->kind == 'W')
                                cr_assert_geq(r.start[me], r.end[(size_t)st * s.n + find_op(&s, st, 'B', 0, o->mb)]);
                        }
                    replay_free(&r);
                    sched_free(&s);
                }
}

Test(schedule, interleaved_with_equal_chunk_costs_replays_to_narayanans_p_minus_1_over_vm_plus_p_minus_1)
{
    for (int p = 1; p <= 8; p++)
        for (int v = 1; v <= 4; v++)
            for (int m = p; m <= 4 * p; m += p) {
                struct schedule s;
                struct replay r;
                sched_build(&s, SCHED_INTERLEAVED, p, m, v);
                replay_with(&s, 1, 2, 0, 0, &r);
                double want = (double)(p - 1) / (v * m + p - 1);
                cr_assert_float_eq(r.bubble, want, 1e-12, "p=%d m=%d v=%d: %.9f vs %.9f", p, m, v, r.bubble, want);
                cr_assert_float_eq(sched_bubble_formula(&s, 1, 2, 0), want, 1e-15);
                replay_free(&r);
                sched_free(&s);
            }
}

Test(schedule, zb_h1_replays_to_qis_p_minus_1_times_f_plus_b_minus_w_for_any_costs_with_w_at_most_f_and_b)
{
    static const double costs[][3] = {
        { 1, 1, 1 }, { 1, 2, 1 }, { 2, 1, 1 }, { 1, 1, 0.5 }, { 1, 1.2, 0.9 }, { 0.7, 1.3, 0.2 },
        /* W beyond F or B: W' = min(F, B, W) */
        { 1, 1, 2 }, { 0.5, 2, 1 }, { 2, 0.5, 3 },
    };
    for (size_t c = 0; c < sizeof costs / sizeof costs[0]; c++)
        for (int p = 1; p <= 8; p++)
            for (int m = p; m <= 4 * p; m++) {
                double f = costs[c][0], b = costs[c][1], w = costs[c][2];
                struct schedule s;
                struct replay r;
                sched_build(&s, SCHED_ZBH1, p, m, 1);
                replay_with(&s, f, b, w, 0, &r);
                double w1 = fmin(w, fmin(f, b)), idle = (p - 1) * (f + b - w1);
                double want = idle / (m * (f + b + w) + idle);
                cr_assert_float_eq(r.bubble, want, 1e-12, "F %g B %g W %g p=%d m=%d: %.9f vs %.9f", f, b, w, p, m,
                                   r.bubble, want);
                cr_assert_float_eq(sched_bubble_formula(&s, f, b, w), want, 1e-15);
                /* Against 1F1B with the same work per micro-batch: (p-1)(F+B+W) of idle time. */
                double one = (p - 1) * (f + b + w) / (m * (f + b + w) + (p - 1) * (f + b + w));
                cr_assert_leq(r.bubble, one + 1e-12);
                replay_free(&r);
                sched_free(&s);
            }
}

Test(schedule, activations_held_per_stage_are_exact_and_zb_h1s_most_equals_1f1bs)
{
    for (int p = 1; p <= 8; p++)
        for (int m = p; m <= 4 * p; m++) {
            struct schedule z, o;
            sched_build(&z, SCHED_ZBH1, p, m, 1);
            sched_build(&o, SCHED_1F1B, p, m, 1);
            int most_z = 0, most_o = 0;
            for (int st = 0; st < p; st++) {
                /* Held from F to W: every stage reaches p (1F1B's stage s reaches p - s). */
                cr_assert_eq(sched_peak_held(&z, st), p < m ? p : m, "zb-h1 p=%d m=%d stage %d", p, m, st);
                cr_assert_eq(sched_peak_held(&o, st), p - st < m ? p - st : m);
                most_z = sched_peak_held(&z, st) > most_z ? sched_peak_held(&z, st) : most_z;
                most_o = sched_peak_held(&o, st) > most_o ? sched_peak_held(&o, st) : most_o;
            }
            cr_assert_eq(most_z, most_o, "p=%d m=%d: the most any stage holds is 1F1B's", p, m);
            sched_free(&z);
            sched_free(&o);
        }
    for (int p = 1; p <= 8; p++)
        for (int v = 2; v <= 4; v++)
            for (int m = p; m <= 4 * p; m += p) {
                struct schedule s;
                struct replay r;
                sched_build(&s, SCHED_INTERLEAVED, p, m, v);
                replay_with(&s, -1, 0, 0, 0, &r);
                for (int st = 0; st < p; st++) {
                    /* Warm-up forwards plus one; all m·v when m = p (every forward first). */
                    int want = m == p ? m * v : 2 * (p - st - 1) + (v - 1) * p + 1;
                    if (want > m * v)
                        want = m * v;
                    cr_assert_eq(sched_peak_held(&s, st), want, "interleaved p=%d m=%d v=%d stage %d: %d, want %d",
                                 p, m, v, st, sched_peak_held(&s, st), want);
                    cr_assert_eq(r.peak_held[st], want, "the replay counts the same");
                }
                replay_free(&r);
                sched_free(&s);
            }
}

Test(schedule, values_a_schedule_cannot_take_are_refused_with_what_it_allows)
{
    cr_assert_null(sched_invalid(SCHED_INTERLEAVED, 4, 8, 2));
    const char *why = sched_invalid(SCHED_INTERLEAVED, 4, 6, 2);
    cr_assert_not_null(why);
    cr_assert(strstr(why, "multiple of stages") != NULL, "%s", why);
    cr_assert_not_null(sched_invalid(SCHED_ZBH1, 4, 3, 1));
    cr_assert_null(sched_invalid(SCHED_ZBH1, 4, 4, 1));
    cr_assert_null(sched_invalid(SCHED_1F1B, 4, 3, 1));
    cr_assert_eq(sched_parse("zb-h1"), SCHED_ZBH1);
    cr_assert_eq(sched_parse("interleaved"), SCHED_INTERLEAVED);
    cr_assert_str_eq(sched_name(SCHED_ZBH1), "zb-h1");
}

/* ---- golden orders ---- */

/* Stage by stage, one line each: "stage 0: F1.1 F2.1 ..." (micro-batch.chunk, counted from 1 as the papers do). */
static char *order_text(const struct schedule *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (int st = 0; st < s->p; st++) {
        fprintf(f, "stage %d:", st);
        for (int j = 0; j < s->n; j++) {
            const struct sched_op *o = sched_op(s, st, j);
            if (s->v > 1)
                fprintf(f, " %c%d.%d", o->kind, o->mb + 1, o->chunk + 1);
            else
                fprintf(f, " %c%d", o->kind, o->mb + 1);
        }
        fputc('\n', f);
    }
    fclose(f);
    return text;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The golden file's lines that are not comments (#). */
static char *golden(const char *path)
{
    char *raw = slurp(path), *out = calloc(1, strlen(raw) + 1), *w = out;
    for (char *line = strtok(raw, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] != '#')
            w += sprintf(w, "%s\n", line);
    free(raw);
    return out;
}

static void check_golden(enum sched_kind kind, int p, int m, int v, const char *path)
{
    struct schedule s;
    sched_build(&s, kind, p, m, v);
    char *got = order_text(&s), *want = golden(path);
    cr_assert_str_eq(got, want, "%s p=%d m=%d v=%d differs from %s:\n%s", sched_name(kind), p, m, v, path, got);
    free(got);
    free(want);
    sched_free(&s);
}

Test(schedule, interleaved_order_for_4_stages_2_chunks_8_microbatches_is_narayanans_figure_4)
{
    check_golden(SCHED_INTERLEAVED, 4, 8, 2, "tests/data/labs/bubble/interleaved-p4-m8-v2.txt");
}

Test(schedule, zb_h1_order_for_4_stages_8_microbatches_is_qis_figure_3)
{
    check_golden(SCHED_ZBH1, 4, 8, 1, "tests/data/labs/bubble/zb-h1-p4-m8.txt");
}

Test(schedule, one_f_one_b_order_for_4_stages_8_microbatches_is_golden_too)
{
    check_golden(SCHED_1F1B, 4, 8, 1, "tests/data/labs/bubble/1f1b-p4-m8.txt");
}

/* ---- the stages' messages under NCCL's rules ---- */

/*
 * Each stage's program as the lab runs it: per operation, a receive from the
 * piece before (F) or after (B), then a send to the piece after (F) or
 * before (B); nothing between two chunks of one stage.  A message is named
 * by (kind, piece it leaves, micro-batch).
 */
struct act {
    bool send;
    int peer;
    char kind;
    int from, mb;
};

static struct act *program(const struct schedule *s, int st, int *n)
{
    struct act *a = calloc((size_t)s->n * 2 + 1, sizeof *a);
    int k = 0, P = s->p * s->v;
    for (int j = 0; j < s->n; j++) {
        const struct sched_op *o = sched_op(s, st, j);
        int q = sched_vstage(s, st, o->chunk);
        if (o->kind == 'F') {
            if (q > 0 && (q - 1) % s->p != st)
                a[k++] = (struct act){ false, (q - 1) % s->p, 'F', q - 1, o->mb };
            if (q < P - 1 && (q + 1) % s->p != st)
                a[k++] = (struct act){ true, (q + 1) % s->p, 'F', q, o->mb };
        } else if (o->kind == 'B') {
            if (q < P - 1 && (q + 1) % s->p != st)
                a[k++] = (struct act){ false, (q + 1) % s->p, 'B', q + 1, o->mb };
            if (q > 0 && (q - 1) % s->p != st)
                a[k++] = (struct act){ true, (q - 1) % s->p, 'B', q, o->mb };
        }
    }
    *n = k;
    return a;
}

/* A posted operation on one rank's queue of one communicator. */
struct posted {
    struct act a;
    int rank;
    bool done;
};

/*
 * Play every stage's program: a send is posted and the stage goes on; a
 * receive is posted and the stage waits for it.  An operation completes
 * when its peer's matching one (the k-th send from a to b on a communicator
 * meets the k-th receive at b from a there) is posted and every earlier
 * operation on both ranks' queues of that communicator has completed.
 * Returns false on a deadlock; *mismatch counts matched messages that were
 * not the same message.
 */
static bool nccl_play(const struct schedule *s, int *mismatch)
{
    int p = s->p, R = NCCL_ROUTES, *len = calloc((size_t)p, sizeof *len), *pc = calloc((size_t)p, sizeof *pc);
    struct act **prog = calloc((size_t)p, sizeof *prog);
    for (int st = 0; st < p; st++)
        prog[st] = program(s, st, &len[st]);
    size_t cap = 0;
    for (int st = 0; st < p; st++)
        cap += (size_t)len[st];
    /* queue[(rank * R + route)]: indices into ops, in posting order. */
    struct posted *ops = calloc(cap + 1, sizeof *ops);
    int **queue = calloc((size_t)p * R, sizeof *queue), *qlen = calloc((size_t)p * R, sizeof *qlen);
    for (int i = 0; i < p * R; i++)
        queue[i] = calloc(cap + 1, sizeof **queue);
    int nops = 0, *waiting = malloc((size_t)p * sizeof *waiting);
    for (int st = 0; st < p; st++)
        waiting[st] = -1;
    *mismatch = 0;
    for (bool progress = true; progress;) {
        progress = false;
        /* Post until each stage waits in a receive or is done. */
        for (int st = 0; st < p; st++)
            while (waiting[st] < 0 && pc[st] < len[st]) {
                struct act a = prog[st][pc[st]++];
                int route = a.send ? nccl_route_p2p(st, a.peer) : nccl_route_p2p(a.peer, st);
                ops[nops] = (struct posted){ .a = a, .rank = st };
                queue[st * R + route][qlen[st * R + route]++] = nops;
                if (!a.send)
                    waiting[st] = nops;
                nops++;
                progress = true;
            }
        /* Complete what can complete: the head of a queue whose peer's matching operation heads its queue. */
        for (int st = 0; st < p; st++)
            for (int route = 0; route < R; route++) {
                int *q = queue[st * R + route], n = qlen[st * R + route], h = 0;
                while (h < n && ops[q[h]].done)
                    h++;
                if (h == n || ops[q[h]].a.send)
                    continue;
                /* A receive at st from peer: the peer's first unfinished op on this route must be the send to st. */
                struct posted *rv = &ops[q[h]];
                int peer = rv->a.peer, *pq = queue[peer * R + route], pn = qlen[peer * R + route], ph = 0;
                while (ph < pn && ops[pq[ph]].done)
                    ph++;
                if (ph == pn || !ops[pq[ph]].a.send || ops[pq[ph]].a.peer != st)
                    continue;
                struct posted *sd = &ops[pq[ph]];
                if (sd->a.kind != rv->a.kind || sd->a.from != rv->a.from || sd->a.mb != rv->a.mb)
                    (*mismatch)++;
                sd->done = rv->done = true;
                if (waiting[st] == q[h])
                    waiting[st] = -1;
                progress = true;
            }
    }
    bool finished = true;
    for (int st = 0; st < p; st++)
        finished &= pc[st] == len[st] && waiting[st] < 0;
    for (int i = 0; i < nops; i++)
        finished &= ops[i].done;
    for (int i = 0; i < p * R; i++)
        free(queue[i]);
    for (int st = 0; st < p; st++)
        free(prog[st]);
    free(queue);
    free(qlen);
    free(prog);
    free(ops);
    free(len);
    free(pc);
    free(waiting);
    return finished;
}

Test(schedule, every_schedules_messages_complete_under_nccl_rules_and_meet_the_receive_they_are_for)
{
    static const enum sched_kind kinds[] = { SCHED_NAIVE, SCHED_GPIPE, SCHED_1F1B, SCHED_INTERLEAVED, SCHED_ZBH1 };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int p = 1; p <= 8; p++)
            for (int v = 1; v <= (kinds[k] == SCHED_INTERLEAVED ? 4 : 1); v++)
                for (int m = 1; m <= 4 * p; m++) {
                    if (sched_invalid(kinds[k], p, m, v))
                        continue;
                    struct schedule s;
                    sched_build(&s, kinds[k], p, m, v);
                    int mismatch;
                    cr_assert(nccl_play(&s, &mismatch), "%s p=%d m=%d v=%d deadlocks under NCCL's rules",
                              sched_name(kinds[k]), p, m, v);
                    cr_assert_eq(mismatch, 0, "%s p=%d m=%d v=%d: %d receives met another message",
                                 sched_name(kinds[k]), p, m, v, mismatch);
                    sched_free(&s);
                }
}

Test(schedule, the_nccl_play_catches_a_receive_that_waits_for_a_send_posted_after_it)
{
    /* GPipe on 2 stages with stage 1's backward of mb 0 moved before its forward's receive: it waits on stage 0, which waits on it. */
    struct schedule s;
    sched_build(&s, SCHED_GPIPE, 2, 2, 1);
    /* stage 0: F0 F1 B0 B1 -> B0 F0 ...: its B0 receive waits for stage 1's B0, which waits for F0. */
    struct sched_op *st0 = &s.ops[0];
    struct sched_op t = st0[0];
    st0[0] = st0[2];
    st0[2] = t;
    int mismatch;
    cr_assert_not(nccl_play(&s, &mismatch));
    sched_free(&s);
}
