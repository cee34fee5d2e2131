/*
 * Tests of `labrun --verify --record`: the runs file a verify writes (every
 * run with its machine, date, version, fingerprint, metrics with their
 * basis, checks, notes and timeline), and that its working pieces are gone
 * afterwards.  The runs file's readers are tested in tests/browser/runs.test.js
 * and tests/fuzz/fuzz_runs.c.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labref.h"
#include "qz.h"
#include "verify.h"

static char tmpdir[64];

static void make_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/record-test-XXXXXX");
    cr_assert(mkdtemp(tmpdir));
    setenv("TMPDIR", tmpdir, 1);
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(record, .init = make_tmpdir, .fini = remove_tmpdir);

/* verify path with --record into TMPDIR/runs.json; returns the exit status. */
static int record(const char *quiz, const char *runs)
{
    struct verify_opts o = { .jobs = 2, .record = runs };
    o.out = fopen("/dev/null", "w");
    o.err = o.out;
    qz_labpath_add(&o.extra, "labs");
    int rc = verify_quiz(&o, quiz);
    qz_labpath_clear(&o.extra);
    fclose(o.out);
    return rc;
}

static bool matches(const char *re, const char *s)
{
    regex_t r;
    cr_assert_eq(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
    bool ok = s && regexec(&r, s, 0, NULL, 0) == 0;
    regfree(&r);
    return ok;
}

static const char *str(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

Test(record, every_run_of_a_verify_is_written_down_with_its_machine_date_and_lab_fingerprint)
{
    char path[128];
    snprintf(path, sizeof path, "%s/runs.json", tmpdir);
    cr_assert_eq(record("tests/data/verify/pass.qz", path), 0);
    json_error_t e;
    json_t *root = json_load_file(path, 0, &e);
    cr_assert(root, "%s", e.text);
    cr_assert_str_eq(str(root, "format"), "labrun-runs");
    cr_assert_eq(json_integer_value(json_object_get(root, "version")), 1);
    /* The quiz it came from: its path as given, its id and the fingerprint of its source. */
    cr_assert_str_eq(str(root, "quiz"), "tests/data/verify/pass.qz");
    struct diag *qd = diag_new(NULL);
    struct qz_course *c = qz_load(qd, "tests/data/verify/pass.qz");
    cr_assert(c && c->quiz);
    cr_assert_str_eq(str(root, "quiz_id"), c->quiz->id);
    char *qhash = qz_quiz_hash(c);
    cr_assert(matches("^fnv1a64:[0-9a-f]{16}$", qhash));
    cr_assert_str_eq(str(root, "quiz_hash"), qhash);
    free(qhash);
    qz_course_free(c);
    diag_free(qd);
    json_t *runs = json_object_get(root, "runs");
    cr_assert_eq(json_array_size(runs), 2, "two lab runs: activations and allreduce (its references differ only by a default)");
    size_t i;
    json_t *r;
    int timelines = 0;
    json_array_foreach(runs, i, r) {
        const char *lab = str(r, "lab");
        cr_assert(lab && (strcmp(lab, "activations") == 0 || strcmp(lab, "allreduce") == 0));
        cr_assert(json_is_object(json_object_get(r, "params")));
        cr_assert_gt(json_object_size(json_object_get(r, "params")), 1, "every parameter, defaults included");
        cr_assert_str_eq(str(r, "backend"), "cpu");
        json_t *m = json_object_get(r, "machine");
        cr_assert(json_integer_value(json_object_get(m, "cores")) > 0);
        cr_assert(json_is_string(json_object_get(m, "cpu")));
        cr_assert_null(json_object_get(m, "gpu"), "no GPU on the cpu backend");
        cr_assert(matches("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$", str(r, "date")));
        cr_assert_str_eq(str(r, "labrun"), qz_version);
        char dir[64];
        snprintf(dir, sizeof dir, "labs/%s", lab);
        char *hash = qz_lab_hash(dir);
        cr_assert_str_eq(str(r, "hash"), hash, "the fingerprint of the lab as it is");
        free(hash);
        json_t *ms = json_object_get(r, "metrics"), *x;
        size_t k;
        cr_assert_gt(json_array_size(ms), 0);
        json_array_foreach(ms, k, x) {
            cr_assert(json_is_string(json_object_get(x, "name")));
            cr_assert(json_is_number(json_object_get(x, "value")) || json_is_null(json_object_get(x, "value")));
            cr_assert(matches("^(measured|replayed|modelled|exact)$", str(x, "basis")), "basis %s", str(x, "basis"));
        }
        json_t *cs = json_object_get(r, "checks");
        cr_assert_gt(json_array_size(cs), 0);
        json_array_foreach(cs, k, x)
            cr_assert(json_is_true(json_object_get(x, "pass")), "check %s", str(x, "name"));
        cr_assert(json_is_array(json_object_get(r, "notes")));
        if (strcmp(lab, "activations") == 0) {
            cr_assert(matches("^<\\?xml[^>]*>[[:space:]]*<svg", str(r, "svg")), "activations draws its timeline");
            timelines++;
        } else {
            cr_assert_null(json_object_get(r, "svg"), "allreduce draws none");
        }
    }
    cr_assert_eq(timelines, 1);
    json_decref(root);
    /* Nothing is left of the children's pieces: the folder holds runs.json alone. */
    DIR *d = opendir(tmpdir);
    struct dirent *ent;
    int left = 0;
    while ((ent = readdir(d)))
        left += ent->d_name[0] != '.' && strcmp(ent->d_name, "runs.json") != 0;
    closedir(d);
    cr_assert_eq(left, 0);
}

Test(record, a_runs_file_that_cannot_be_written_fails_the_verify)
{
    cr_assert_eq(record("tests/data/verify/pass.qz", "/nonexistent/folder/runs.json"), 1);
}
