/*
 * Tests of quizc's reader of recorded runs (compiler/runs.c): what it takes
 * from a runs file, what it refuses and how it says so, and which lab
 * references each run is attached to.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
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
    /*
     * The seed's fingerprint is not hello's: each attached run is a warning at
     * its reference; the line no run was recorded for is one too.
     */
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0);
    cr_assert_eq(capture_count(cap, DIAG_WARNING), 3, "%s", capture_dump(cap));
    const struct rec *w = capture_nth(cap, DIAG_WARNING, 0);
    cr_assert_eq(w->line, 6);
    cr_assert(strstr(w->msg, "was recorded with another version of the lab"), "%s", w->msg);
    w = capture_nth(cap, DIAG_WARNING, 2);
    cr_assert_eq(w->line, 20);
    cr_assert(strstr(w->msg, "no run in " SEEDS "hello.json was recorded for this lab line"), "%s", w->msg);
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

/* ---- Values match by type and value; odd files are refused or warned about ---- */

/* A runs file of one or two runs of lab pipe: params are JSON object members, metrics JSON list items. */
static char *pipe_runs(struct capture *cap, const char *params, const char *params2, const char *metrics)
{
    static const char run[] =
        "{\"lab\": \"pipe\", \"params\": {%s}, \"backend\": \"cpu\", \"machine\": {\"cores\": 2},"
        " \"date\": \"2026-12-04T12:00:00Z\", \"labrun\": \"0.1.0\", \"metrics\": [%s], \"checks\": []}";
    char one[2048], two[2048], text[4200];
    snprintf(one, sizeof one, run, params, metrics ? metrics : "");
    snprintf(two, sizeof two, run, params2 ? params2 : "", "");
    snprintf(text, sizeof text, "{\"format\": \"labrun-runs\", \"version\": 1, \"runs\": [%s%s%s]}", one,
             params2 ? ", " : "", params2 ? two : "");
    return capture_write(cap, "runs.json", text);
}

/* The runs file at file (freed here) is refused with one error, which says says; case i of a table. */
static void assert_refused(struct capture *cap, char *file, size_t i, const char *says)
{
    cr_expect_null(runs_load(cap->d, file), "case %zu", i);
    free(file);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "case %zu: %s", i, capture_dump(cap));
    const struct rec *e = capture_nth(cap, DIAG_ERROR, 0);
    cr_expect(strstr(e->msg, says), "case %zu: %s", i, e->msg);
}

/* lab pipe (stages = 4): the run must have stages 4, microbatches 1, schedule gpipe, rate 0.5. */
static const char pipe_quiz[] =
    "quiz p {\n    title \"t\"\n"
    "    single s1 {\n        prompt \"p\"\n        correct \"a\"\n        wrong \"b\"\n"
    "        lab pipe (stages = 4)\n            expect step_ms > 0\n    }\n}\n";

#define PIPE_REST "\"microbatches\": 1, \"schedule\": \"gpipe\", \"rate\": 0.5"

Test(runs, a_recorded_value_matches_a_lab_line_only_as_an_equal_value_of_the_parameters_type)
{
    static const struct { const char *params, *params2; int attached; const char *warns; } cases[] = {
        { "\"stages\": 4, " PIPE_REST, NULL, 1, NULL },
        { "\"stages\": 4.0, \"microbatches\": 1e0, \"schedule\": \"gpipe\", \"rate\": 0.50", NULL, 1, NULL },
        { "\"stages\": \" 4garbage\", " PIPE_REST, NULL, 0,
          "its parameter 'stages' is a string (\" 4garbage\"), where the lab takes a number" },
        { "\"stages\": \"4\", " PIPE_REST, NULL, 0, "its parameter 'stages' is a string (\"4\")" },
        { "\"stages\": \"4e0\", " PIPE_REST, NULL, 0, "its parameter 'stages' is a string (\"4e0\")" },
        { "\"stages\": true, " PIPE_REST, NULL, 0, "its parameter 'stages' is true or false (\"true\")" },
        { "\"stages\": 4, \"microbatches\": 1, \"schedule\": 1, \"rate\": 0.5", NULL, 0,
          "its parameter 'schedule' is a number (\"1\"), where the lab takes a string" },
        { "\"stages\": 4, \"microbatches\": 1, \"schedule\": \"gpipe\", \"rate\": \"0.5\"", NULL, 0,
          "its parameter 'rate' is a string (\"0.5\")" },
        { "\"stages\": 4.5, " PIPE_REST, NULL, 0, NULL },
        { "\"stages\": 4, \"microbatches\": 1, \"schedule\": \"gpipe \", \"rate\": 0.5", NULL, 0, NULL },
        { "\"stages\": 4, \"microbatches\": 1, \"schedule\": \"gpipe\"", NULL, 0, NULL },
        /* A run of the wrong type beside the right one: the right one, quietly. */
        { "\"stages\": \"4\", " PIPE_REST, "\"stages\": 4, " PIPE_REST, 2, NULL },
        /* Names that mean something elsewhere are names here; extra parameters are not compared. */
        { "\"__proto__\": 1, \"constructor\": \"x\", \"toString\": {\"a\": 1}, \"stages\": 4, " PIPE_REST, NULL, 0,
          NULL },
        { "\"__proto__\": 1, \"constructor\": \"x\", \"hasOwnProperty\": true, \"stages\": 4, " PIPE_REST, NULL, 1,
          NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct capture *cap = capture_new();
        struct qz_course *c = capture_load_text(cap, "p.qz", pipe_quiz);
        cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "%s", capture_dump(cap));
        char *file = pipe_runs(cap, cases[i].params, cases[i].params2, NULL);
        struct qz_runs *rs = runs_load(cap->d, file);
        free(file);
        if (strstr(cases[i].params, "toString")) {
            /* A value that is no number, flag or text is refused, whatever its name. */
            cr_expect_null(rs, "case %zu", i);
            cr_expect(strstr(capture_nth(cap, DIAG_ERROR, 0)->msg, "parameter \"toString\" must be a number"),
                      "case %zu: %s", i, capture_dump(cap));
        } else {
            cr_assert_not_null(rs, "case %zu: %s", i, capture_dump(cap));
            runs_attach(cap->d, rs, c);
            const struct qz_run *want = cases[i].attached ? &rs->runs.items[cases[i].attached - 1] : NULL;
            cr_expect_eq(c->questions.items[0]->extra->labs.items[0].run, want, "case %zu: %s", i, cases[i].params);
            size_t unused = 0;
            for (size_t k = 0; k < capture_count(cap, DIAG_WARNING); k++) {
                const struct rec *w = capture_nth(cap, DIAG_WARNING, k);
                if (strstr(w->msg, "is not used")) {
                    unused++;
                    cr_expect(cases[i].warns && strstr(w->msg, cases[i].warns), "case %zu: %s", i, w->msg);
                    cr_expect_eq(w->line, 7, "case %zu: at the lab line", i);
                }
            }
            cr_expect_eq(unused, cases[i].warns ? 1u : 0u, "case %zu: %s", i, capture_dump(cap));
            cr_expect_eq(capture_count(cap, DIAG_ERROR), 0, "case %zu: %s", i, capture_dump(cap));
        }
        qz_course_free(c);
        runs_free(rs);
        capture_free(cap);
    }
}

Test(runs, duplicate_keys_and_wrong_types_are_refused_with_where_they_are)
{
    static const struct { const char *params, *metrics, *says; } cases[] = {
        { "\"stages\": 4, \"stages\": 5", NULL, "not a runs file: duplicate object key" },
        { "\"__proto__\": 4, \"__proto__\": 4", NULL, "not a runs file: duplicate object key" },
        { "\"stages\": 4",
          "{\"name\": \"step_ms\", \"value\": 1, \"basis\": \"measured\"}, "
          "{\"name\": \"step_ms\", \"value\": 2, \"basis\": \"measured\"}",
          "runs[0].metrics[1]: metric \"step_ms\" is listed twice (first at metrics[0])" },
        { "\"stages\": 4", "{\"name\": \"step_ms\", \"value\": \"1\", \"basis\": \"measured\"}",
          "runs[0].metrics[0]: a metric is {\"name\", \"value\": a number or null, \"basis\"}" },
        { "\"stages\": 4", "{\"name\": 7, \"value\": 1, \"basis\": \"measured\"}",
          "runs[0].metrics[0]: \"name\" must be a string" },
        { "\"stages\": 4", "[1]", "runs[0].metrics[0]: a metric is {" },
        { "\"stages\": [4]", NULL, "runs[0]: parameter \"stages\" must be a number, true, false or a string" },
        { "\"stages\": null", NULL, "runs[0]: parameter \"stages\" must be a number" },
        { "\"constructor\": {}", NULL, "runs[0]: parameter \"constructor\" must be a number" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct capture *cap = capture_new();
        assert_refused(cap, pipe_runs(cap, cases[i].params, NULL, cases[i].metrics), i, cases[i].says);
        capture_free(cap);
    }
}

Test(runs, metric_names_that_mean_something_elsewhere_are_kept_as_names)
{
    struct capture *cap = capture_new();
    char *file = pipe_runs(cap, "\"stages\": 4",  NULL,
                           "{\"name\": \"__proto__\", \"value\": 1, \"basis\": \"measured\"}, "
                           "{\"name\": \"constructor\", \"value\": null, \"basis\": \"exact\"}");
    struct qz_runs *rs = runs_load(cap->d, file);
    free(file);
    cr_assert_not_null(rs, "%s", capture_dump(cap));
    cr_assert_eq(rs->runs.items[0].metrics.n, 2);
    cr_expect_str_eq(rs->runs.items[0].metrics.items[0].name, "__proto__");
    cr_expect_str_eq(rs->runs.items[0].metrics.items[1].name, "constructor");
    cr_expect(!rs->runs.items[0].metrics.items[1].known);
    runs_free(rs);
    capture_free(cap);
}

/* ---- A run's words in the quiz's other languages ---- */

Test(runs, a_run_keeps_its_words_in_each_language_and_each_learner_reads_theirs)
{
    struct capture *cap = capture_new();
    struct qz_runs *rs = runs_load(cap->d, SEEDS "words.json");
    cr_assert_not_null(rs, "%s", capture_dump(cap));
    const struct qz_run *r = &rs->runs.items[0];
    cr_assert_str_eq(r->lang, "en");
    cr_assert_eq(r->words.n, 1);
    struct qz_run_text id = qz_run_text(r, "id");
    cr_assert_str_eq(id.lang, "id");
    cr_assert_eq(id.nchecks, 2);
    cr_expect_str_eq(id.checks[0].name, "jumlah");
    cr_expect_str_eq(id.checks[1].detail, "1000 dari 1000");
    cr_expect(id.checks[0].pass && !id.checks[1].pass, "whether a check passed is the run's");
    cr_assert_eq(id.nnotes, 1);
    cr_expect_str_eq(id.notes[0], "sebuah catatan");
    cr_expect(strstr(id.svg, "tahap 0"));
    /* Its own language, and one it was not recorded in: its own words, which say their language. */
    for (int k = 0; k < 3; k++) {
        struct qz_run_text t = qz_run_text(r, (const char *[]){ "en", "fr", NULL }[k]);
        cr_expect_str_eq(t.lang, "en");
        cr_expect_str_eq(t.notes[0], "a note");
        cr_expect_str_eq(t.checks[0].name, "sum");
        cr_expect(strstr(t.svg, "stage 0"));
    }
    runs_free(rs);
    capture_free(cap);
}

Test(runs, words_that_do_not_fit_their_run_are_refused_with_where_they_are)
{
    static const char run[] =
        "{\"format\": \"labrun-runs\", \"version\": 1, \"runs\": [{\"lab\": \"pipe\", \"params\": {}, "
        "\"backend\": \"cpu\", \"machine\": {\"cores\": 2}, \"date\": \"2026-12-04T12:00:00Z\", \"labrun\": \"0.1.0\", "
        "\"metrics\": [], \"checks\": [{\"name\": \"a\", \"pass\": true, \"detail\": \"d\"}], \"notes\": [] %s}]}";
    static const struct { const char *extra, *says; } cases[] = {
        { ", \"lang\": \"e n\"", "runs[0]: \"lang\" must be a language tag, such as \"en\" or \"id\"" },
        { ", \"lang\": \"englishlanguage\"", "runs[0]: \"lang\" must be a language tag" },
        { ", \"words\": {\"id\": {\"checks\": [], \"notes\": []}}",
          "runs[0]: \"words\" must be an object of languages, beside \"lang\"" },
        { ", \"lang\": \"en\", \"words\": {\"id\": {\"checks\": [], \"notes\": []}}",
          "runs[0].words.id: has 0 checks; the run has 1" },
        { ", \"lang\": \"en\", \"words\": {\"en\": {\"checks\": [{\"name\": \"a\"}], \"notes\": []}}",
          "runs[0].words.en: each of \"words\" is another language's tag" },
        { ", \"lang\": \"en\", \"words\": {\"id\": [1]}", "runs[0].words.id: each of \"words\" is another language's tag" },
        { ", \"lang\": \"en\", \"words\": {\"\\u001b[2J\": {}}", "runs[0].words: each of \"words\" is another language's tag" },
        { ", \"lang\": \"en\", \"words\": {\"id\": {\"checks\": [{\"name\": \"a\"}], \"notes\": [], \"svg\": \"x\"}}",
          "runs[0].words.id: \"svg\" must be an SVG document" },
        { ", \"lang\": \"en\", \"words\": {\"id\": {\"checks\": [7], \"notes\": []}}",
          "runs[0].words.id.checks[0]: a check's words are {\"name\", \"detail\"}" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct capture *cap = capture_new();
        char text[1024];
        snprintf(text, sizeof text, run, cases[i].extra);
        assert_refused(cap, capture_write(cap, "runs.json", text), i, cases[i].says);
        capture_free(cap);
    }
}

/* hello (ranks = 2) in a quiz written in Indonesian and English. */
static const char bilingual[] =
    "quiz r {\n    title { id: \"j\"  en: \"t\" }\n    languages id, en\n"
    "    numeric n1 {\n        prompt { id: \"p\"  en: \"p\" }\n        answer 0.5\n"
    "        lab hello (ranks = 2)\n            expect max_abs_error < 1e-6\n    }\n}\n";

/* The warnings of packing file into the bilingual quiz that say a language is missing. */
static size_t missing_language_warnings(struct capture *cap, const char *file, const struct rec **first)
{
    struct qz_course *c = capture_load_text(cap, "r.qz", bilingual);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "%s", capture_dump(cap));
    struct qz_runs *rs = runs_load(cap->d, file);
    cr_assert_not_null(rs, "%s", capture_dump(cap));
    runs_attach(cap->d, rs, c);
    cr_assert_not_null(c->questions.items[0]->extra->labs.items[0].run);
    size_t n = 0;
    for (size_t i = 0; i < (size_t)capture_count(cap, DIAG_WARNING); i++) {
        const struct rec *w = capture_nth(cap, DIAG_WARNING, i);
        if (strstr(w->msg, "notes and timelines in") && n++ == 0)
            *first = w;
    }
    qz_course_free(c);
    runs_free(rs);
    return n;
}

Test(runs, runs_without_words_in_one_of_the_quizs_languages_are_a_warning_at_its_languages)
{
    struct capture *cap = capture_new();
    const struct rec *w = NULL;
    cr_expect_eq(missing_language_warnings(cap, SEEDS "words.json", &w), 0, "%s", capture_dump(cap));
    capture_free(cap);
    /* The same run without its Indonesian words. */
    cap = capture_new();
    size_t len = 0;
    char *text = out_read_input(SEEDS "words.json", &len);
    cr_assert_not_null(text);
    char *words = strstr(text, ",\n   \"words\"");
    cr_assert_not_null(words);
    strcpy(words, "\n  }\n ]\n}\n");
    char *file = capture_write(cap, "runs.json", text);
    free(text);
    cr_expect_eq(missing_language_warnings(cap, file, &w), 1, "%s", capture_dump(cap));
    cr_expect_eq(w->line, 3, "at the quiz's languages");
    cr_expect(strstr(w->msg, "have their notes and timelines in 'en' only, not in 'id' (the first is lab 'hello' "
                             "at line 7): learners reading 'id' see them in 'en'"), "%s", w->msg);
    free(file);
    capture_free(cap);
}
