/*
 * test_render_runs.c — a recorded run in the lab box of the question banks
 * and QTI items (render_runs.c), on tests/scorm/data/runs.qz with runs built
 * here: figures as the player writes them, how each was obtained, PASS/FAIL
 * by labrun --verify's rules, the machine and the date in each language, and
 * the run's text escaped.
 */
#include <math.h>

#include "formats_golden.h"
#include "labref.h"
#include "render.h"
#include "runs.h"

static struct capture *cap;
static struct qz_course *course;
static struct membuf out;

static void setup(void)
{
    cap = capture_new();
    const char *path = "tests/scorm/data/runs.qz";
    course = capture_load(cap, path);
    cr_assert_not_null(course);
    /* Resolved as quizc resolves them: the manifests give the claims their descriptions. */
    struct qz_labpath lp = { 0 };
    qz_labpath_defaults(&lp, path);
    cr_assert(check_course(cap->d, course, &lp), "checks failed:%s", capture_dump(cap));
    qz_labpath_clear(&lp);
    memset(&out, 0, sizeof out);
}

static void teardown(void)
{
    membuf_free(&out);
    qz_course_free(course);
    capture_free(cap);
}

TestSuite(render_runs, .init = setup, .fini = teardown);

static struct qz_run_metric bubble_metrics[] = {
    { .name = "bubble_formula", .value = 3.0 / 11, .known = true, .basis = "modelled" },
    { .name = "bubble_fraction", .value = 0.25, .known = true, .basis = "replayed" },
};
static struct qz_run_check checks[] = {
    { .name = "gradients match", .pass = true },
    { .name = "the schedule is complete", .pass = true },
};
static char *notes[] = { "one <script>alert(1)</script> & \"more\"" };

/* A GPU run of labs/bubble for b1, with the figures above; the caller may change it. */
static struct qz_run gpu_run(void)
{
    struct qz_run r = { .lab = "bubble", .backend = "cuda", .date = "2027-01-12T09:30:00Z", .labrun = "0.1.0" };
    r.machine.cpu = "AMD EPYC 9654";
    r.machine.cores = 16;
    r.machine.gpu = "NVIDIA H200";
    r.machine.gpus = 8;
    r.metrics.items = bubble_metrics;
    r.metrics.n = 2;
    r.checks.items = checks;
    r.checks.n = 2;
    r.notes.items = notes;
    r.notes.n = 1;
    return r;
}

/* b1's feedback in lang (NULL: every language) with run attached to its lab. */
static const char *box(struct qz_run *run, const char *lang)
{
    struct ast_question *q = course->questions.items[0];
    cr_assert_eq(q->extra->labs.n, 1);
    q->extra->labs.items[0].run = run;
    struct render r = { .quiz = course->quiz, .lang = lang };
    out.len = 0;
    render_feedback(&r, &out, q);
    membuf_append(&out, "", 1);
    q->extra->labs.items[0].run = NULL;
    return (const char *)out.data;
}

#define expect_has(s, want) cr_expect(strstr((s), (want)), "no \"%s\" in\n%s", (want), (s))

Test(render_runs, a_gpu_run_reads_measured_on_8_h200_and_its_date_in_each_language)
{
    struct qz_run run = gpu_run();
    expect_has(box(&run, "en"), "<p><em>Measured on 8 \u00d7 NVIDIA H200, 2027-01-12</em></p>");
    expect_has(box(&run, "id"), "<p><em>Diukur pada 8 \u00d7 NVIDIA H200, 2027-01-12</em></p>");
    const char *both = box(&run, NULL);
    expect_has(both, "<span lang=\"id\" class=\"multilang\">");
    expect_has(both, "Diukur pada 8 \u00d7 NVIDIA H200");
    expect_has(both, "Measured on 8 \u00d7 NVIDIA H200");
}

Test(render_runs, a_cpu_run_names_its_cores_and_model)
{
    struct qz_run run = gpu_run();
    run.machine.gpu = NULL;
    run.machine.gpus = 0;
    expect_has(box(&run, "en"), "Measured on 16 cores of AMD EPYC 9654, 2027-01-12");
    expect_has(box(&run, "id"), "Diukur pada 16 inti AMD EPYC 9654, 2027-01-12");
}

Test(render_runs, each_claim_comes_after_the_claims_with_its_figure_basis_and_verdict)
{
    struct qz_run run = gpu_run();
    const char *s = box(&run, "en");
    const char *claims = strstr(s, "What you should see:"), *measured = strstr(s, "Measured on");
    cr_assert(claims && measured && claims < measured, "%s", s);
    /* The description's head leads, the name follows as code, as in the player's box; no nested parentheses. */
    expect_has(s, "<li><strong>PASS</strong> the schedule's closed form (<code>bubble_formula</code>) = 0.2727 (modelled) \u2014 within 0.001 of this question's answer</li>");
    expect_has(s, "<li><strong>PASS</strong> share of stage time spent idle (<code>bubble_fraction</code>) = 0.25 (replayed from measured costs) \u2014 below 0.5</li>");
    expect_has(s, "<p>The lab's own checks: 2 of 2 passed.</p>");
    expect_has(s, "<p><code>labrun 0.1.0, --backend cuda</code></p>");
    s = box(&run, "id");
    /* Indonesian writes every number with the decimal comma: the figures and the claims' targets. */
    expect_has(s, "<li><strong>LULUS</strong> bentuk tertutup jadwalnya (<code>bubble_formula</code>) = 0,2727 (dimodelkan) \u2014 dalam selisih 0,001 dari jawaban soal ini</li>");
    expect_has(s, "<li><strong>LULUS</strong> bagian waktu tahap yang dihabiskan untuk menganggur (<code>bubble_fraction</code>) = 0,25 (diputar ulang dari biaya terukur) \u2014 di bawah 0,5</li>");
    cr_expect_null(strstr(s, "0.25"), "a decimal point in the Indonesian box:\n%s", s);
    expect_has(s, "<p>Pemeriksaan lab sendiri: 2 dari 2 lulus.</p>");
}

/* Figures as the player's fmt() in labbox.js writes them (node printed each). */
static const struct { double x; const char *shown; } figures[] = {
    { 0.25, "0.25" }, { 4, "4" }, { 12345.6, "12346" }, { 1.2e-7, "1.2e-7" },
    { 7.233092896e-7, "7.233e-7" }, { 0.00012345, "0.0001234" }, { 0.000012345, "0.00001234" },
    { -0.5, "-0.5" }, { 1e21, "1e+21" }, { 1.5e21, "1.5e+21" }, { 9.99999, "10" }, { 0.1 + 0.2, "0.3" },
};

Test(render_runs, figures_are_written_as_the_player_writes_them)
{
    for (size_t i = 0; i < sizeof figures / sizeof *figures; i++) {
        struct qz_run run = gpu_run();
        struct qz_run_metric m[2] = { bubble_metrics[0], bubble_metrics[1] };
        m[1].value = figures[i].x;
        run.metrics.items = m;
        const char *s = strstr(box(&run, "en"), "<li><strong>");
        cr_assert_not_null(s);
        char *fig = xasprintf(" = %s (replayed", figures[i].shown);
        expect_has(s, fig);
        free(fig);
        /* In Indonesian, the same digits with the decimal comma (ui.js figure()). */
        char id[64];
        snprintf(id, sizeof id, "%s", figures[i].shown);
        num_in_lang(id, "id");
        s = strstr(box(&run, "id"), "<li><strong>");
        fig = xasprintf(" = %s (diputar", id);
        expect_has(s, fig);
        free(fig);
    }
}

Test(render_runs, a_figure_that_breaks_its_claim_fails_and_one_the_run_lacks_fails_unreported)
{
    struct qz_run run = gpu_run();
    struct qz_run_metric m[1] = { { .name = "bubble_fraction", .value = 0.75, .known = true, .basis = "measured" } };
    run.metrics.items = m;
    run.metrics.n = 1;
    const char *s = box(&run, "en");
    expect_has(s, "<li><strong>FAIL</strong> the schedule's closed form (<code>bubble_formula</code>) = - \u2014 within 0.001 of this question's answer (the run did not report it)</li>");
    expect_has(s, "<li><strong>FAIL</strong> share of stage time spent idle (<code>bubble_fraction</code>) = 0.75 (measured) \u2014 below 0.5</li>");
    m[0].value = NAN;
    m[0].known = false;
    expect_has(box(&run, "en"), " = - (measured) \u2014 below 0.5</li>");
}

Test(render_runs, a_failed_lab_check_fails_every_claim_as_in_the_player)
{
    struct qz_run run = gpu_run();
    struct qz_run_check c[2] = { checks[0], checks[1] };
    c[1].pass = false;
    run.checks.items = c;
    const char *s = box(&run, "en");
    expect_has(s, "<li><strong>FAIL</strong> the schedule's closed form (<code>");
    expect_has(s, "<li><strong>FAIL</strong> share of stage time spent idle (<code>");
    expect_has(s, "<p>The lab's own checks: 1 of 2 passed.</p>");
}

Test(render_runs, the_runs_text_is_escaped_and_its_timeline_left_out)
{
    struct qz_run run = gpu_run();
    run.machine.gpu = "<b>H200</b>";
    run.svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(2)</script></svg>";
    const char *s = box(&run, "en");
    expect_has(s, "Measured on 8 \u00d7 &lt;b&gt;H200&lt;/b&gt;, 2027-01-12");
    expect_has(s, "<li>one &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;</li>");
    cr_expect_null(strstr(s, "<script"), "%s", s);
    cr_expect_null(strstr(s, "<svg"), "%s", s);
    cr_expect_null(strstr(s, "<b>"), "%s", s);
}

Test(render_runs, without_a_run_the_box_is_as_it_was)
{
    const char *s = box(NULL, "en");
    expect_has(s, "What you should see:");
    cr_expect_null(strstr(s, "Measured on"), "%s", s);
    cr_expect_null(strstr(s, "PASS"), "%s", s);
}
