/*
 * fuzz_runs.c — libFuzzer harness over quizc's reader of recorded runs
 * (compiler/runs.c): an input is a runs file, as `quizc --runs` takes it.
 *
 * The input is written into a sandbox beside a quiz whose lab references a
 * sandboxed lab; when the reader accepts it, its runs are attached and the
 * course document and the player's data are made.  Beyond "no crash, no
 * leak": whatever the reader accepts, the course document takes without an
 * error (the reader refuses text XML cannot carry), and a run is attached
 * only to a reference of the same lab.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit.h"
#include "runs.h"
#include "sandbox.h"
#include "scorm.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct sandbox_file files[] = {
    { "labs/", "" },
    { "labs/hello/", "" },
    { "labs/hello/lab.qz",
      "lab hello {\n    title \"Hello\"\n"
      "    param ranks = 4 in 1..64 \"ranks\"\n"
      "    param count = 1000 in 1..1000000 \"elements\"\n"
      "    metric max_abs_error \"largest error\"\n"
      "    metric bytes_sent \"bytes sent\" unit \"B\"\n}\n" },
    { "quiz.qz",
      "quiz fz {\n    title \"t\"\n"
      "    numeric n1 {\n        prompt \"p\"\n        answer 0.5 within 0.1\n"
      "        lab hello (ranks = 2)\n            expect max_abs_error < 1e-6\n"
      "            expect bytes_sent within 1 of answer\n    }\n"
      "    single s1 {\n        prompt \"p\"\n        correct \"a\"\n        wrong \"b\"\n"
      "        lab hello ()\n            expect bytes_sent > 0\n    }\n}\n" },
};

static FILE *diag_out;
static struct diag *course_diag;
static struct qz_course *course;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    sandbox_create("fuzz-runs", files, sizeof files / sizeof *files);
    const char *v = getenv("FUZZ_VERBOSE");
    diag_out = v && *v == '1' ? stderr : fopen("/dev/null", "w");
    if (!diag_out)
        abort();
    struct qz_labpath labpath = { 0 };
    qz_labpath_add(&labpath, sandbox_path("labs"));
    course_diag = diag_new(diag_out);
    course = qz_load(course_diag, sandbox_path("quiz.qz"));
    if (!course || !check_course(course_diag, course, &labpath) || diag_errors(course_diag)) {
        fprintf(stderr, "fuzz_runs: the sandbox's quiz does not check\n");
        abort();
    }
    qz_labpath_clear(&labpath);
    return 0;
}

static void fail(const char *why)
{
    fprintf(stderr, "fuzz_runs: %s\n", why);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sandbox_write("runs.json", data, size);
    struct diag *d = diag_new(diag_out);
    struct qz_runs *rs = runs_load(d, sandbox_path("runs.json"));
    if (rs) {
        runs_attach(d, rs, course);
        for (size_t i = 0; i < course->questions.n; i++) {
            const struct ast_question *q = course->questions.items[i];
            for (size_t k = 0; k < q->extra->labs.n; k++)
                if (q->extra->labs.items[k].run && strcmp(q->extra->labs.items[k].run->lab, "hello") != 0)
                    fail("a run was attached to a reference of another lab");
        }
        struct membuf xml = { 0 }, js = { 0 };
        if (emit_course_xml(course, &xml, d) != 0)
            fail("the course document refused what the runs reader accepted");
        struct emit_opts o = { .scorm = SCORM_12 };
        if (scorm_quiz_data(course, &o, &js, d) != 0)
            fail("the player's data refused what the runs reader accepted");
        membuf_free(&xml);
        membuf_free(&js);
        for (size_t i = 0; i < course->questions.n; i++)
            for (size_t k = 0; k < course->questions.items[i]->extra->labs.n; k++)
                course->questions.items[i]->extra->labs.items[k].run = NULL;
    } else if (!diag_errors(d)) {
        fail("a refused runs file without an error");
    }
    runs_free(rs);
    diag_free(d);
    return 0;
}
