/*
 * Tests of quizc's reader of recorded runs (compiler/runs.c): what it takes
 * from a runs file, what it refuses and how it says so, and which lab
 * references each run is attached to.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "runs.h"
#include "support.h"

#define SEEDS "tests/fuzz/runs-seeds/"

/* Two references of the fixture lab hello: ranks = 2, and the defaults (ranks = 4). */
static const char quiz[] =
    "quiz r {\n    title \"t\"\n"
    "    numeric n1 {\n        prompt \"p\"\n        answer 0.5\n"
    "        lab hello (ranks = 2)\n            expect max_abs_error < 1e-6\n    }\n"
    "    single s1 {\n        prompt \"p\"\n        correct \"a\"\n        wrong \"b\"\n"
    "        lab hello ()\n            expect bytes_sent > 0\n    }\n"
    "    single s2 {\n        prompt \"p\"\n        correct \"a\"\n        wrong \"b\"\n"
    "        lab hello (count = 7)\n            expect bytes_sent > 0\n    }\n}\n";

Test(runs, a_runs_file_is_read_field_by_field)
{
    struct capture *cap = capture_new();
    struct qz_runs *rs = runs_load(cap->d, SEEDS "hello.json");
    cr_assert_not_null(rs, "%s", capture_dump(cap));
    cr_assert_eq(rs->runs.n, 2);
    const struct qz_run *r = &rs->runs.items[0];
    cr_assert_str_eq(r->lab, "hello");
    cr_assert_str_eq(r->backend, "cpu");
    cr_assert_str_eq(r->machine.cpu, "Test CPU");
    cr_assert_eq(r->machine.cores, 2);
    cr_assert_null(r->machine.gpu);
    cr_assert_eq(r->params.n, 2);
    cr_assert_str_eq(r->params.items[0].name, "ranks");
    cr_assert_str_eq(r->params.items[0].value, "2");
    cr_assert_eq(r->metrics.n, 2);
    cr_assert_str_eq(r->metrics.items[1].name, "bytes_sent");
    cr_assert_eq(r->metrics.items[1].value, 4000);
    cr_assert_str_eq(r->metrics.items[1].basis, "exact");
    cr_assert(r->checks.items[0].pass);
    cr_assert_str_eq(r->notes.items[0], "a note");
    cr_assert_null(r->svg);
    cr_assert_not_null(rs->runs.items[1].svg);
    runs_free(rs);
    capture_free(cap);
}

Test(runs, each_reference_gets_the_run_of_its_values_and_a_stale_lab_is_a_warning)
{
    struct capture *cap = capture_new();
    struct qz_course *c = capture_load_text(cap, "r.qz", quiz);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "%s", capture_dump(cap));
    struct qz_runs *rs = runs_load(cap->d, SEEDS "hello.json");
    runs_attach(cap->d, rs, c);
    cr_assert_eq(c->questions.items[0]->extra->labs.items[0].run, &rs->runs.items[0], "ranks = 2");
    cr_assert_eq(c->questions.items[1]->extra->labs.items[0].run, &rs->runs.items[1], "the defaults: ranks = 4");
    cr_assert_null(c->questions.items[2]->extra->labs.items[0].run, "count = 7 was not recorded");
    /* The seed's fingerprint is not hello's: each attached run is a warning at its reference. */
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0);
    cr_assert_eq(capture_count(cap, DIAG_WARNING), 2, "%s", capture_dump(cap));
    const struct rec *w = capture_nth(cap, DIAG_WARNING, 0);
    cr_assert_eq(w->line, 6);
    cr_assert(strstr(w->msg, "was recorded with another version of the lab"), "%s", w->msg);
    qz_course_free(c);
    runs_free(rs);
    capture_free(cap);
}

Test(runs, what_is_not_a_runs_file_is_refused_with_the_first_reason)
{
    static const struct { const char *file, *says; int line; } cases[] = {
        { SEEDS "not-runs.json", "not a runs file: it has no \"format\": \"labrun-runs\"", 0 },
        { SEEDS "version-2.json", "runs file version 2; this quizc reads version 1", 0 },
        { SEEDS "broken.json", "not a runs file: ", 2 },
        { SEEDS "wrong-types.json", "runs[0].metrics[0]: \"basis\" is measured, replayed, modelled or exact", 0 },
        { "tests/data/no-such-runs.json", "cannot read the runs file: No such file or directory", 0 },
        { "tests", "cannot read the runs file: not a regular file", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct capture *cap = capture_new();
        cr_expect_null(runs_load(cap->d, cases[i].file), "%s", cases[i].file);
        cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "%s: %s", cases[i].file, capture_dump(cap));
        const struct rec *e = capture_nth(cap, DIAG_ERROR, 0);
        cr_expect(strstr(e->msg, cases[i].says), "%s: %s", cases[i].file, e->msg);
        cr_expect_eq(e->line, cases[i].line, "%s: line", cases[i].file);
        capture_free(cap);
    }
}
