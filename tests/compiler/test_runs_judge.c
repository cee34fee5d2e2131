/*
 * Tests of what quizc --runs tells the teacher about the runs it packed
 * (compiler/runs_judge.c): each claim a run fails, each lab line left
 * without a run, each run no lab line took, and a runs file recorded from
 * another quiz — each with its exact words and place — and -Werror making
 * the warnings errors.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "runs.h"
#include "support.h"

/*
 * Lab line 6 (column 9): hello with ranks = 2 and the default count 1000, two
 * claims.  Question n2's lab line (line 13) wants ranks = 4, count = 7.
 */
static const char quiz[] =
    "quiz r {\n    title \"t\"\n"
    "    numeric n1 {\n        prompt \"p\"\n        answer 0.5\n"
    "        lab hello (ranks = 2)\n            expect max_abs_error < 1e-6\n"
    "            expect bytes_sent within 0.1 of answer\n    }\n"
    "    numeric n2 {\n        prompt \"p\"\n        answer 1\n"
    "        lab hello (count = 7)\n    }\n}\n";

/* One run of hello with the lab's fingerprint as it is: only what a test puts in it is wrong. */
static char *hello_run(const char *params, const char *metrics, const char *checks)
{
    char *hash = qz_lab_hash(FIXTURE_LABS "/hello");
    cr_assert_not_null(hash);
    char *s = xasprintf("{\"lab\": \"hello\", \"params\": {%s}, \"backend\": \"cpu\", \"machine\": {\"cores\": 2},"
                        " \"date\": \"2026-12-04T12:00:00Z\", \"labrun\": \"0.1.0\", \"hash\": \"%s\","
                        " \"metrics\": [%s], \"checks\": [%s]}", params, hash, metrics, checks);
    free(hash);
    return s;
}

#define METRIC(name, value, basis) "{\"name\": \"" name "\", \"value\": " value ", \"basis\": \"" basis "\"}"
#define CHECK(name, pass) "{\"name\": \"" name "\", \"pass\": " pass ", \"detail\": \"\"}"
#define GOOD_METRICS METRIC("max_abs_error", "0", "measured") ", " METRIC("bytes_sent", "0.5", "exact")
#define GOOD_CHECKS CHECK("sum", "true") ", " CHECK("size", "true")

/* The runs file: head holds root members before "runs" (quiz_id, ...); runs is a JSON list's items. */
static char *runs_file(struct capture *cap, const char *head, const char *runs)
{
    char *text = xasprintf("{\"format\": \"labrun-runs\", \"version\": 1, %s \"runs\": [%s]}", head, runs);
    char *path = capture_write(cap, "runs.json", text);
    free(text);
    return path;
}

struct packed {
    struct capture *cap;
    struct qz_course *c;
    struct qz_runs *rs;
    char *path;
};

/* quiz with the runs file of head and the runs, attached; no errors on the way. */
static struct packed pack(const char *text, const char *head, const char *runs)
{
    struct packed p = { .cap = capture_new() };
    p.c = capture_load_text(p.cap, "r.qz", text);
    cr_assert_eq(capture_count(p.cap, DIAG_ERROR), 0, "%s", capture_dump(p.cap));
    p.path = runs_file(p.cap, head, runs);
    p.rs = runs_load(p.cap->d, p.path);
    cr_assert_not_null(p.rs, "%s", capture_dump(p.cap));
    runs_attach(p.cap->d, p.rs, p.c);
    cr_assert_eq(capture_count(p.cap, DIAG_ERROR), 0, "%s", capture_dump(p.cap));
    return p;
}

static void packed_free(struct packed *p)
{
    qz_course_free(p->c);
    runs_free(p->rs);
    free(p->path);
    capture_free(p->cap);
}

/* The warnings of p that are about a claim ("the run packed ..."), counted; the n-th is *nth. */
static size_t claim_warnings(const struct packed *p, size_t n, const struct rec **nth)
{
    size_t k = 0;
    *nth = NULL;
    for (size_t i = 0; i < capture_count(p->cap, DIAG_WARNING); i++) {
        const struct rec *w = capture_nth(p->cap, DIAG_WARNING, i);
        if (strncmp(w->msg, "the run packed for this lab line", 32) == 0 && k++ == n)
            *nth = w;
    }
    return k;
}

Test(runs_judge, each_claim_a_packed_run_fails_is_a_warning_at_its_lab_line_with_the_figure)
{
    static const struct { const char *metrics, *checks, *says[2]; } cases[] = {
        /* Both hold: nothing to say. */
        { GOOD_METRICS, GOOD_CHECKS, { NULL, NULL } },
        { METRIC("max_abs_error", "0.27", "measured") ", " METRIC("bytes_sent", "0.5", "exact"), GOOD_CHECKS,
          { "the run packed for this lab line fails 'max_abs_error < 1e-06': measured 0.27", NULL } },
        { METRIC("max_abs_error", "0", "modelled") ", " METRIC("bytes_sent", "0.61", "replayed"), GOOD_CHECKS,
          { "the run packed for this lab line fails 'bytes_sent within 0.1 of 0.5 (answer)': replayed 0.61", NULL } },
        { METRIC("max_abs_error", "0", "measured"), GOOD_CHECKS,
          { "the run packed for this lab line fails 'bytes_sent within 0.1 of 0.5 (answer)': the run has no figure for "
            "'bytes_sent'", NULL } },
        { METRIC("max_abs_error", "null", "measured") ", " METRIC("bytes_sent", "0.5", "exact"), GOOD_CHECKS,
          { "the run packed for this lab line fails 'max_abs_error < 1e-06': the run gave no finite figure for it",
            NULL } },
        /* A failed check of the lab's own fails every claim, whatever its figure (doc/claims.md). */
        { GOOD_METRICS, CHECK("sum", "true") ", " CHECK("size", "false"),
          { "the run packed for this lab line fails 'max_abs_error < 1e-06': the lab's own check 'size' failed "
            "(1 of 2 failed), which fails every claim; measured 0",
            "the run packed for this lab line fails 'bytes_sent within 0.1 of 0.5 (answer)': the lab's own check 'size' "
            "failed (1 of 2 failed), which fails every claim; exact 0.5" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *runs = hello_run("\"ranks\": 2, \"count\": 1000", cases[i].metrics, cases[i].checks);
        struct packed p = pack(quiz, "", runs);
        free(runs);
        size_t want = (cases[i].says[0] != NULL) + (cases[i].says[1] != NULL);
        const struct rec *w;
        cr_expect_eq(claim_warnings(&p, 0, &w), want, "case %zu: %s", i, capture_dump(p.cap));
        for (size_t k = 0; k < want; k++) {
            claim_warnings(&p, k, &w);
            cr_assert_not_null(w, "case %zu", i);
            cr_expect_str_eq(w->msg, cases[i].says[k], "case %zu: %s", i, w->msg);
            cr_expect_eq(w->line, 6, "case %zu: at the lab line", i);
            cr_expect_eq(w->col, 9, "case %zu: at the lab line", i);
        }
        packed_free(&p);
    }
}

Test(runs_judge, a_lab_line_without_claims_whose_run_failed_a_check_is_a_warning)
{
    char *one = hello_run("\"ranks\": 2, \"count\": 1000", GOOD_METRICS, GOOD_CHECKS);
    char *two = hello_run("\"ranks\": 4, \"count\": 7", "", CHECK("sum", "false"));
    char *runs = xasprintf("%s, %s", one, two);
    struct packed p = pack(quiz, "", runs);
    free(runs);
    free(one);
    free(two);
    const struct rec *w;
    cr_assert_eq(claim_warnings(&p, 0, &w), 1, "%s", capture_dump(p.cap));
    cr_expect_str_eq(w->msg, "the run packed for this lab line failed the lab's own check 'sum' (1 of 1 failed)");
    cr_expect_eq(w->line, 13);
    cr_expect_eq(w->col, 9);
    packed_free(&p);
}

Test(runs_judge, a_lab_line_no_run_was_recorded_for_is_a_warning_naming_the_values_it_wants)
{
    char *runs = hello_run("\"ranks\": 2, \"count\": 1000", GOOD_METRICS, GOOD_CHECKS);
    struct packed p = pack(quiz, "", runs);
    free(runs);
    cr_assert_eq(capture_count(p.cap, DIAG_WARNING), 1, "%s", capture_dump(p.cap));
    const struct rec *w = capture_nth(p.cap, DIAG_WARNING, 0);
    char *want = xasprintf("no run in %s was recorded for this lab line (hello with ranks=4, count=7)", p.path);
    cr_expect_str_eq(w->msg, want);
    cr_expect_eq(w->line, 13);
    cr_expect_eq(w->col, 9);
    cr_expect_null(p.c->questions.items[1]->extra->labs.items[0].run, "nothing is packed for it");
    free(want);
    cr_expect_eq(capture_count(p.cap, DIAG_NOTE), 0, "every run was taken: %s", capture_dump(p.cap));
    packed_free(&p);
}

Test(runs_judge, a_run_no_lab_line_took_is_a_note_with_its_place_in_the_file_and_its_values)
{
    char *one = hello_run("\"ranks\": 2, \"count\": 1000", GOOD_METRICS, GOOD_CHECKS);
    char *two = hello_run("\"ranks\": 4, \"count\": 7", "", "");
    char *three = hello_run("\"ranks\": 3, \"count\": 1000", GOOD_METRICS, GOOD_CHECKS);
    char *runs = xasprintf("%s, %s, %s", one, three, two);
    struct packed p = pack(quiz, "", runs);
    cr_assert_eq(capture_count(p.cap, DIAG_NOTE), 1, "%s", capture_dump(p.cap));
    const struct rec *n = capture_nth(p.cap, DIAG_NOTE, 0);
    cr_expect_str_eq(n->msg, "runs[1] (hello with ranks=3, count=1000) matches no lab line of this quiz; it is not "
                     "packed");
    cr_expect_null(n->file, "a run has no line of its own");
    cr_expect_eq(capture_count(p.cap, DIAG_WARNING), 0, "%s", capture_dump(p.cap));
    packed_free(&p);
    free(runs);
    free(one);
    free(two);
    free(three);
}

Test(runs_judge, a_runs_file_recorded_from_another_quiz_is_named_at_the_quiz_id)
{
    char *one = hello_run("\"ranks\": 2, \"count\": 1000", GOOD_METRICS, GOOD_CHECKS);
    char *two = hello_run("\"ranks\": 4, \"count\": 7", "", "");
    char *runs = xasprintf("%s, %s", one, two);
    free(one);
    free(two);
    /* Another quiz. */
    struct packed p = pack(quiz, "\"quiz\": \"quizzes/other.qz\", \"quiz_id\": \"other\", "
                                 "\"quiz_hash\": \"fnv1a64:0000000000000000\",", runs);
    cr_assert_eq(capture_count(p.cap, DIAG_WARNING), 1, "%s", capture_dump(p.cap));
    const struct rec *w = capture_nth(p.cap, DIAG_WARNING, 0);
    char *want = xasprintf("%s was recorded from another quiz, 'other' (quizzes/other.qz), not from 'r'", p.path);
    cr_expect_str_eq(w->msg, want);
    cr_expect_eq(w->line, 1);
    cr_expect_eq(w->col, 6);
    free(want);
    packed_free(&p);

    /* This quiz, since edited: a note, since every claim is judged as it is now. */
    p = pack(quiz, "\"quiz\": \"r.qz\", \"quiz_id\": \"r\", \"quiz_hash\": \"fnv1a64:0000000000000000\",", runs);
    cr_expect_eq(capture_count(p.cap, DIAG_WARNING), 0, "%s", capture_dump(p.cap));
    cr_assert_eq(capture_count(p.cap, DIAG_NOTE), 1, "%s", capture_dump(p.cap));
    const struct rec *n = capture_nth(p.cap, DIAG_NOTE, 0);
    char *now = qz_quiz_hash(p.c);
    want = xasprintf("%s was recorded from another version of this quiz (fnv1a64:0000000000000000; it is now %s); "
                     "its runs are judged against the claims as they are now", p.path, now);
    cr_expect_str_eq(n->msg, want);
    cr_expect_eq(n->line, 1);
    free(want);

    /* This quiz as it is, and a file that names no quiz: nothing to say. */
    char *head = xasprintf("\"quiz\": \"r.qz\", \"quiz_id\": \"r\", \"quiz_hash\": \"%s\",", now);
    free(now);
    packed_free(&p);
    p = pack(quiz, head, runs);
    cr_expect_eq(p.cap->recs.n, 0, "%s", capture_dump(p.cap));
    packed_free(&p);
    p = pack(quiz, "", runs);
    cr_expect_eq(p.cap->recs.n, 0, "%s", capture_dump(p.cap));
    packed_free(&p);
    free(head);
    free(runs);
}

Test(runs_judge, with_werror_each_warning_is_counted_and_shown_as_an_error)
{
    struct capture *cap = capture_new();
    struct qz_course *c = capture_load_text(cap, "r.qz", quiz);
    char *runs = hello_run("\"ranks\": 2, \"count\": 1000", METRIC("max_abs_error", "0.27", "measured"),
                           GOOD_CHECKS);
    char *path = runs_file(cap, "", runs);
    struct qz_runs *rs = runs_load(cap->d, path);
    cr_assert_not_null(rs, "%s", capture_dump(cap));
    cap->d->werror = true;
    runs_attach(cap->d, rs, c);
    /* max_abs_error fails, bytes_sent is missing, n2 has no run: three errors, no warning. */
    cr_expect_eq(capture_count(cap, DIAG_WARNING), 0, "%s", capture_dump(cap));
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 3, "%s", capture_dump(cap));
    cr_expect_eq(diag_errors(cap->d), 3);
    cr_expect_str_eq(capture_nth(cap, DIAG_ERROR, 0)->msg,
                     "the run packed for this lab line fails 'max_abs_error < 1e-06': measured 0.27 [-Werror]");
    cr_expect_eq(capture_nth(cap, DIAG_ERROR, 0)->line, 6);
    size_t n;
    diag_error_locs(cap->d, &n);
    cr_expect_eq(n, 0, "a warning made an error is not an error in the source's text");
    qz_course_free(c);
    runs_free(rs);
    free(runs);
    free(path);
    capture_free(cap);
}
