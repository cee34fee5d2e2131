/*
 * The bubble lab: its schedules (order, dependencies, activations held), the
 * replay, and real pipelined runs on the threads backend (no deadlock, the
 * unpipelined result, the measured bubble against the formula).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bubble.h"
#include "backend.h"
#include "labtest.h"
#include "schedule.h"

#include "bubble_params.h"

static const enum sched_kind kinds[] = { SCHED_NAIVE, SCHED_GPIPE, SCHED_1F1B };

/* A cost in [1, 3): uneven on purpose, so no dependency is met by luck of equal timing. */
static double cost_of(size_t k) { return 1.0 + (double)((k * 7919) % 97) / 48.5; }

static size_t at(const struct schedule *s, int stage, int j) { return (size_t)stage * (size_t)s->n + (size_t)j; }

/*
 * Build kind's schedule for p stages and m micro-batches and replay it, each
 * transfer taking link, each operation costing cost_of(its index) — or, when
 * uniform, 1 for a forward and 2 for a backward.  The caller frees s and r.
 */
static void build_and_replay(struct schedule *s, struct replay *r, enum sched_kind kind, int p, int m,
                             bool uniform, double link)
{
    sched_build(s, kind, p, m, 1);
    size_t n = (size_t)p * (size_t)s->n;
    double *cost = malloc(n * sizeof *cost);
    for (size_t i = 0; i < n; i++)
        cost[i] = uniform ? (s->ops[i].kind == 'F' ? 1.0 : 2.0) : cost_of(i);
    replay_run(s, cost, link, r);
    free(cost);
}

/* Where F(stage, mb) or B(stage, mb) sits in stage's order. */
static int find(const struct schedule *s, int stage, char kind, int mb)
{
    for (int j = 0; j < s->n; j++)
        if (sched_op(s, stage, j)->kind == kind && sched_op(s, stage, j)->mb == mb)
            return j;
    return -1;
}

Test(bubble, every_schedule_runs_each_forward_and_backward_once_per_stage_forward_first)
{
    for (int k = 0; k < 3; k++)
        for (int p = 1; p <= 8; p++)
            for (int m = 1; m <= 32; m++) {
                struct schedule s;
                sched_build(&s, kinds[k], p, m, 1);
                for (int st = 0; st < p; st++)
                    for (int i = 0; i < m; i++) {
                        int f = find(&s, st, 'F', i), b = find(&s, st, 'B', i);
                        cr_assert(f >= 0 && b >= 0, "%s p=%d m=%d: stage %d lacks F%d or B%d",
                                  sched_name(kinds[k]), p, m, st, i, i);
                        cr_assert_lt(f, b, "%s p=%d m=%d: stage %d runs B%d before F%d",
                                     sched_name(kinds[k]), p, m, st, i, i);
                    }
                sched_free(&s);
            }
}

Test(bubble, replayed_schedules_meet_every_dependency_and_never_deadlock_up_to_8_stages_and_32_microbatches)
{
    for (int k = 0; k < 3; k++)
        for (int p = 1; p <= 8; p++)
            for (int m = 1; m <= 32; m++) {
                struct schedule s;
                struct replay r;
                build_and_replay(&s, &r, kinds[k], p, m, false, 0.25);
                cr_assert(!r.deadlock, "%s p=%d m=%d: %s", sched_name(kinds[k]), p, m, r.why);
                for (int st = 0; st < p; st++)
                    for (int j = 0; j < s.n; j++) {
                        const struct sched_op *op = sched_op(&s, st, j);
                        size_t me = at(&s, st, j);
                        if (j > 0)
                            cr_assert_geq(r.start[me], r.end[me - 1], "a stage runs one operation at a time");
                        if (op->kind == 'F' && st > 0) {
                            size_t dep = at(&s, st - 1, find(&s, st - 1, 'F', op->mb));
                            cr_assert_geq(r.start[me], r.end[dep] + 0.25, "%s p=%d m=%d: F%d on stage %d "
                                          "starts before its activation arrives", sched_name(kinds[k]), p, m, op->mb, st);
                        }
                        if (op->kind == 'B') {
                            size_t own = at(&s, st, find(&s, st, 'F', op->mb));
                            cr_assert_geq(r.start[me], r.end[own]);
                            if (st < p - 1) {
                                size_t dep = at(&s, st + 1, find(&s, st + 1, 'B', op->mb));
                                cr_assert_geq(r.start[me], r.end[dep] + 0.25, "%s p=%d m=%d: B%d on stage %d "
                                              "starts before its gradient arrives", sched_name(kinds[k]), p, m, op->mb, st);
                            }
                        }
                    }
                replay_free(&r);
                sched_free(&s);
            }
}

Test(bubble, one_f_one_b_holds_at_most_p_minus_s_activations_and_gpipe_holds_m)
{
    for (int p = 1; p <= 8; p++)
        for (int m = 1; m <= 32; m++)
            for (int k = 0; k < 3; k++) {
                struct schedule s;
                struct replay r;
                build_and_replay(&s, &r, kinds[k], p, m, false, 0);
                for (int st = 0; st < p; st++) {
                    int want = kinds[k] == SCHED_NAIVE ? 1 : kinds[k] == SCHED_GPIPE ? m : (p - st < m ? p - st : m);
                    cr_assert_eq(r.peak_held[st], want, "%s p=%d m=%d stage %d held %d, expected %d",
                                 sched_name(kinds[k]), p, m, st, r.peak_held[st], want);
                    cr_assert_leq(r.peak_held[st], kinds[k] == SCHED_1F1B ? p : m);
                }
                replay_free(&r);
                sched_free(&s);
            }
}

Test(bubble, uniform_stages_replay_to_exactly_the_formula)
{
    for (int k = 0; k < 3; k++)
        for (int p = 1; p <= 8; p++)
            for (int m = 1; m <= 32; m++) {
                struct schedule s;
                struct replay r;
                build_and_replay(&s, &r, kinds[k], p, m, true, 0);
                double want = kinds[k] == SCHED_NAIVE ? (double)(p - 1) / p : (double)(p - 1) / (m + p - 1);
                cr_assert_float_eq(r.bubble, want, 1e-12, "%s p=%d m=%d: %.6f vs %.6f", sched_name(kinds[k]),
                                   p, m, r.bubble, want);
                cr_assert_float_eq(r.bubble, sched_bubble_formula(&s, 1, 2, 0), 1e-12);
                replay_free(&r);
                sched_free(&s);
            }
}

Test(bubble, a_stage_order_that_cannot_finish_is_reported_as_a_deadlock)
{
    struct schedule s;
    sched_build(&s, SCHED_GPIPE, 2, 2, 1);
    /* Stage 0 now waits for B1 before running F1, which B1 needs: a cycle. */
    s.ops[1] = (struct sched_op){ .kind = 'B', .mb = 1 };
    s.ops[3] = (struct sched_op){ .kind = 'F', .mb = 1 };
    double cost[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    struct replay r;
    replay_run(&s, cost, 0, &r);
    cr_assert(r.deadlock);
    cr_assert(strstr(r.why, "stage") != NULL, "the reason names the stuck stage: %s", r.why);
    replay_free(&r);
    sched_free(&s);
}

/* ---- real runs ---- */

static struct labtest *run(int p, int m, const char *sched, int hidden, int batch, int steps)
{
    char a[6][40];
    snprintf(a[0], sizeof a[0], "stages=%d", p);
    snprintf(a[1], sizeof a[1], "microbatches=%d", m);
    snprintf(a[2], sizeof a[2], "schedule=%s", sched);
    snprintf(a[3], sizeof a[3], "hidden=%d", hidden);
    snprintf(a[4], sizeof a[4], "batch=%d", batch);
    snprintf(a[5], sizeof a[5], "steps=%d", steps);
    const char *args[] = { a[0], a[1], a[2], a[3], a[4], a[5], NULL };
    struct labtest *t = labtest_run("labs/bubble", &lab_bubble, args);
    return t;
}

Test(bubble, real_pipelines_finish_with_the_unpipelined_gradients_for_every_schedule, .timeout = 120)
{
    static const int ps[] = { 1, 2, 3, 5, 8 }, ms[] = { 1, 2, 7, 32 };
    static const char *const names[] = { "naive", "gpipe", "1f1b" };
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b < 4; b++)
            for (int k = 0; k < 3; k++) {
                struct labtest *t = run(ps[a], ms[b], names[k], 8, 2, 1);
                cr_assert_eq(t->rc, 0, "%s p=%d m=%d did not run", names[k], ps[a], ms[b]);
                cr_assert_eq(lab_report_failed(t->report), 0, "%s p=%d m=%d: a check failed", names[k], ps[a], ms[b]);
                cr_assert_leq(labtest_metric(t, "max_rel_error"), 1e-12);
                int want = k == 0 ? 1 : k == 1 ? ms[b] : (ps[a] < ms[b] ? ps[a] : ms[b]);
                cr_assert_eq(labtest_metric(t, "peak_activations"), want, "%s p=%d m=%d held %g",
                             names[k], ps[a], ms[b], labtest_metric(t, "peak_activations"));
                labtest_free(t);
            }
}

Test(bubble, uniform_stages_priced_from_their_measured_costs_replay_to_the_formula, .timeout = 120)
{
    static const int ps[] = { 2, 4 }, ms[] = { 1, 4, 8, 16 };
    static const char *const names[] = { "gpipe", "1f1b" };
    for (int k = 0; k < 2; k++)
        for (size_t a = 0; a < 2; a++)
            for (size_t b = 0; b < 4; b++) {
                struct labtest *t = run(ps[a], ms[b], names[k], 256, 32, 5);
                double got = labtest_metric(t, "bubble_fraction");
                double want = (double)(ps[a] - 1) / (ms[b] + ps[a] - 1);
                cr_assert_float_eq(labtest_metric(t, "bubble_formula"), want, 1e-12);
                cr_expect(fabs(got - want) <= 1e-9, "%s p=%d m=%d: replayed bubble %.6f, formula %.6f",
                          names[k], ps[a], ms[b], got, want);
                cr_expect(labtest_metric(t, "critical_path_ms") > 0);
                labtest_free(t);
            }
}

Test(bubble, naive_schedule_idles_p_minus_1_over_p_whatever_m_is)
{
    struct labtest *t = run(3, 4, "naive", 128, 16, 3);
    cr_assert_float_eq(labtest_metric(t, "bubble_formula"), 2.0 / 3.0, 1e-12);
    double got = labtest_metric(t, "bubble_fraction");
    cr_assert(fabs(got - 2.0 / 3.0) <= 1e-9, "naive p=3 m=4: replayed %.6f", got);
    labtest_free(t);
}

Test(bubble, every_metric_of_the_manifest_is_reported)
{
    struct labtest *t = run(2, 2, "1f1b", 8, 2, 1);
    for (size_t i = 0; i < t->def->metrics.n; i++)
        cr_assert(!isnan(labtest_metric(t, t->def->metrics.items[i].name)), "%s missing",
                  t->def->metrics.items[i].name);
    labtest_free(t);
}

/*
 * The cpu backend's ranks with their devices marked as GPUs: one each
 * (sharers 1), or all on one (sharers = ranks).  The lab reads only that
 * mark, so its GPU reports can be checked here.
 */
static int fake_sharers;
static backend_body fake_body;

static int marked_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    d->sharers = fake_sharers < 0 ? n : fake_sharers;
    return fake_body(rank, n, c, d, arg);
}

static int marked_launch(int n, backend_body body, void *arg)
{
    fake_body = body;
    return backend_cpu.launch(n, marked_body, arg);
}

static const struct backend marked = { .name = "cpu", .summary = "cpu ranks marked as GPUs", .launch = marked_launch };

/*
 * Whether the lab's notes speak only of GPUs (no cores, no OpenBLAS).  The
 * last note, "GEMM: ...", is the device's own (here the cpu device under a
 * GPU's mark), so the lab's end before it.
 */
static bool gpu_notes(const char *text)
{
    const char *notes = strstr(text, "notes\n"), *device = notes ? strstr(notes, "GEMM: ") : NULL;
    if (!notes || !device)
        return false;
    size_t n = (size_t)(device - notes);
    return !memmem(notes, n, "OpenBLAS", 8) && !memmem(notes, n, "core", 4);
}

static char *printed(const struct labtest *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    lab_report_print(t->report, "en", f);
    fclose(f);
    return text;
}

Test(bubble, with_a_gpu_per_stage_the_bubble_is_measured_on_the_timeline_not_replayed)
{
    fake_sharers = 1;
    const char *args[] = { "stages=3", "microbatches=4", "hidden=64", "batch=8", "steps=2", NULL };
    struct labtest *t = labtest_run_on("labs/bubble", &lab_bubble, args, &marked);
    cr_assert_eq(lab_report_failed(t->report), 0);
    char *text = printed(t);
    cr_assert(strstr(text, "measured: GEMM time from CUDA events") != NULL, "%s", text);
    cr_assert(strstr(text, "Each stage has a GPU of its own") != NULL, "%s", text);
    cr_assert(gpu_notes(text), "GPU notes must speak of GPUs, not of cores or OpenBLAS:\n%s", text);
    double b = labtest_metric(t, "bubble_fraction");
    cr_assert(b >= 0 && b < 1, "bubble %g", b);
    free(text);
    labtest_free(t);
}

Test(bubble, stages_sharing_one_gpu_say_so_and_replay_with_transfers_costed)
{
    fake_sharers = -1;
    const char *args[] = { "stages=3", "microbatches=4", "hidden=64", "batch=8", "steps=2", NULL };
    struct labtest *t = labtest_run_on("labs/bubble", &lab_bubble, args, &marked);
    cr_assert_eq(lab_report_failed(t->report), 0);
    char *text = printed(t);
    cr_assert(strstr(text, "3 stages share one GPU") != NULL, "%s", text);
    cr_assert(strstr(text, "transfers costed as measured") != NULL, "%s", text);
    cr_assert(gpu_notes(text), "GPU notes must speak of GPUs, not of cores or OpenBLAS:\n%s", text);
    free(text);
    labtest_free(t);
}

/* ---- interleaved and zb-h1, run ---- */

static struct labtest *run_new(int p, int m, const char *sched, int v, int hidden, int batch, int steps,
                               const struct backend *b)
{
    char a[7][40];
    snprintf(a[0], sizeof a[0], "stages=%d", p);
    snprintf(a[1], sizeof a[1], "microbatches=%d", m);
    snprintf(a[2], sizeof a[2], "schedule=%s", sched);
    snprintf(a[3], sizeof a[3], "chunks=%d", v);
    snprintf(a[4], sizeof a[4], "hidden=%d", hidden);
    snprintf(a[5], sizeof a[5], "batch=%d", batch);
    snprintf(a[6], sizeof a[6], "steps=%d", steps);
    const char *args[] = { a[0], a[1], a[2], a[3], a[4], a[5], a[6], NULL };
    return labtest_run_on("labs/bubble", &lab_bubble, args, b);
}

/*
 * Exact figures of one run: the activations each stage's order makes it
 * hold, 2m(pv-1) messages of b*h doubles (none with one stage), and the
 * unpipelined gradients.
 */
static void assert_exact(const struct labtest *t, const char *sched, int p, int m, int v, int hidden, int batch)
{
    cr_assert_eq(t->rc, 0, "%s p=%d m=%d v=%d did not run", sched, p, m, v);
    cr_assert_eq(lab_report_failed(t->report), 0, "%s p=%d m=%d v=%d: a check failed", sched, p, m, v);
    cr_assert_leq(labtest_metric(t, "max_rel_error"), 1e-12);
    bool zb = strcmp(sched, "zb-h1") == 0;
    int held = zb ? (p < m ? p : m)
             : v == 1 ? (p < m ? p : m)
             : m == p ? m * v : 2 * (p - 1) + (v - 1) * p + 1;
    if (held > m * v)
        held = m * v;
    cr_assert_eq(labtest_metric(t, "peak_activations"), held, "%s p=%d m=%d v=%d held %g, want %d", sched, p, m, v,
                 labtest_metric(t, "peak_activations"), held);
    cr_assert_eq(labtest_metric(t, "peak_activations_1f1b"), p < m ? p : m);
    double msgs = p > 1 ? 2.0 * m * (p * (zb ? 1 : v) - 1) : 0;
    cr_assert_eq(labtest_metric(t, "messages"), msgs, "%s p=%d m=%d v=%d: %g messages, want %g", sched, p, m, v,
                 labtest_metric(t, "messages"), msgs);
    cr_assert_eq(labtest_metric(t, "bytes_sent"), msgs * batch * hidden * 8);
}

Test(bubble, interleaved_runs_finish_with_the_unpipelined_gradients_and_exact_counts_on_cpu_and_nccl_sim,
     .timeout = 240)
{
    static const int cases[][3] = {     /* p, m, v */
        { 1, 2, 3 }, { 2, 2, 2 }, { 2, 4, 3 }, { 3, 3, 2 }, { 3, 6, 4 }, { 4, 8, 2 }, { 4, 4, 3 }, { 5, 10, 2 },
    };
    const struct backend *bs[] = { &backend_cpu, &backend_nccl_sim };
    for (size_t b = 0; b < 2; b++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            int p = cases[k][0], m = cases[k][1], v = cases[k][2];
            struct labtest *t = run_new(p, m, "interleaved", v, 8, 2, 1, bs[b]);
            assert_exact(t, "interleaved", p, m, v, 8, 2);
            labtest_free(t);
        }
}

Test(bubble, zb_h1_runs_finish_with_the_unpipelined_gradients_and_exact_counts_on_cpu_and_nccl_sim, .timeout = 240)
{
    static const int cases[][2] = { { 1, 1 }, { 2, 2 }, { 2, 5 }, { 3, 3 }, { 4, 4 }, { 4, 8 }, { 5, 7 }, { 8, 8 } };
    const struct backend *bs[] = { &backend_cpu, &backend_nccl_sim };
    for (size_t b = 0; b < 2; b++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            int p = cases[k][0], m = cases[k][1];
            struct labtest *t = run_new(p, m, "zb-h1", 1, 8, 2, 1, bs[b]);
            assert_exact(t, "zb-h1", p, m, 1, 8, 2);
            cr_assert_gt(labtest_metric(t, "weight_grad_ms"), 0, "W passes ran and were timed");
            labtest_free(t);
        }
}

Test(bubble, the_new_schedules_priced_from_measured_costs_replay_to_their_papers_closed_forms, .timeout = 120)
{
    static const struct { const char *sched; int p, m, v; } cases[] = {
        { "interleaved", 2, 4, 2 }, { "interleaved", 4, 8, 2 }, { "interleaved", 4, 4, 4 },
        { "zb-h1", 2, 4, 1 }, { "zb-h1", 4, 8, 1 }, { "zb-h1", 4, 16, 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct labtest *t = run_new(cases[k].p, cases[k].m, cases[k].sched, cases[k].v, 64, 16, 2, &backend_cpu);
        cr_assert_eq(lab_report_failed(t->report), 0);
        double got = labtest_metric(t, "bubble_fraction"), want = labtest_metric(t, "bubble_formula");
        /* The formula is computed from the same measured prices the replay uses. */
        cr_expect(fabs(got - want) <= 1e-9, "%s p=%d m=%d v=%d: replayed %.6f, formula %.6f", cases[k].sched,
                  cases[k].p, cases[k].m, cases[k].v, got, want);
        if (strcmp(cases[k].sched, "interleaved") == 0)
            cr_assert_float_eq(want, (double)(cases[k].p - 1) / (cases[k].v * cases[k].m + cases[k].p - 1), 1e-12);
        else
            /* Below 1F1B's (p-1)/(m+p-1): W fills what would idle. */
            cr_assert_lt(want, (double)(cases[k].p - 1) / (cases[k].m + cases[k].p - 1));
        labtest_free(t);
    }
}

Test(bubble, micro_batches_a_schedule_cannot_take_are_a_usage_error_naming_what_it_allows)
{
    struct labtest *t = run_new(4, 6, "interleaved", 2, 8, 2, 1, &backend_cpu);
    cr_assert_eq(t->rc, -2, "m = 6 with p = 4 is refused before any rank runs");
    labtest_free(t);
    t = run_new(4, 3, "zb-h1", 1, 8, 2, 1, &backend_cpu);
    cr_assert_eq(t->rc, -2);
    labtest_free(t);
}

/* How many rects of the SVG at path have this fill. */
static int rects_filled(const char *path, const char *fill)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[4096], want[64];
    snprintf(want, sizeof want, "fill=\"%s\"", fill);
    int n = 0;
    /* xmlTextWriter puts each element on its own line or runs them together: count every occurrence. */
    while (fgets(line, sizeof line, f))
        for (const char *p = line; (p = strstr(p, want)) != NULL; p++)
            n++;
    fclose(f);
    return n;
}

Test(bubble, the_svg_shades_odd_and_even_chunks_apart_and_draws_zb_h1s_w_passes_in_their_own_colour)
{
    char path[] = "/tmp/bubble-svg-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    /* p = 2, m = 2, v = 3: chunks 1 and 3 (dark) 8 forwards, chunk 2 (light) 4; plus a legend swatch each. */
    struct labtest *t = run_new(2, 2, "interleaved", 3, 8, 2, 1, &backend_cpu);
    cr_assert_eq(lab_report_write_svg(t->report, path), 0);
    cr_assert_eq(rects_filled(path, "#9ecae9"), 4 + 1, "light blue: forwards of the even chunk");
    cr_assert_eq(rects_filled(path, "#ffbf79"), 4 + 1, "light orange: backwards of the even chunk");
    labtest_free(t);
    t = run_new(3, 4, "zb-h1", 1, 8, 2, 1, &backend_cpu);
    cr_assert_eq(lab_report_write_svg(t->report, path), 0);
    /* With more stages than cores a stage may wait for one: the wall clock's rows go under the replay's, W blocks too. */
    int panels = rects_filled(path, "url(#corewait)") > 0 ? 2 : 1;
    cr_assert_eq(rects_filled(path, "#e45756"), panels * 3 * 4 + 1,
                 "one W block per stage and micro-batch in each of %d panels, and the legend's", panels);
    labtest_free(t);
    unlink(path);
}

Test(bubble, chunks_given_to_a_schedule_that_holds_one_is_a_usage_error)
{
    /* zb-h1 runs one chunk per stage: --chunks 2 would be measured as 1, so it is refused before any rank starts. */
    struct labtest *t = run_new(2, 2, "zb-h1", 2, 8, 2, 1, &backend_cpu);
    cr_assert_eq(t->rc, -2, "refused as values that cannot run together");
    labtest_free(t);
    t = run_new(2, 2, "zb-h1", 1, 8, 2, 1, &backend_cpu);
    cr_assert_eq(t->rc, 0, "--chunks 1 says what runs");
    labtest_free(t);
}
