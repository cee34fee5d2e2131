/*
 * Tests of `labrun --verify`: the comparison of one claim, whole quizzes of
 * claims that hold and claims that do not (tests/data/verify/), and the
 * command line's errors.  Quizzes run the real labs, with small parameters.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim.h"
#include "verify.h"

#define DATA "tests/data/verify/"

/* ---- one claim ----------------------------------------------------------- */

static struct ast_expect expect_num(enum ast_cmp op, double v)
{
    return (struct ast_expect){ .op = op, .value = { .kind = VAL_NUMBER, .num = v } };
}

Test(expect, each_comparison_holds_exactly_when_it_should)
{
    char buf[128];
    struct ast_question q = { .kind = Q_SINGLE, .id = "q" };
    struct ast_expect e = expect_num(CMP_LT, 0.7);
    cr_assert(qz_claim_holds(&e, &q, 0.69, buf, sizeof buf));
    cr_assert_not(qz_claim_holds(&e, &q, 0.7, buf, sizeof buf));
    cr_assert_str_eq(buf, "< 0.7");
    e.op = CMP_LE;
    cr_assert(qz_claim_holds(&e, &q, 0.7, buf, sizeof buf));
    e.op = CMP_GT;
    cr_assert_not(qz_claim_holds(&e, &q, 0.7, buf, sizeof buf));
    cr_assert(qz_claim_holds(&e, &q, 0.71, buf, sizeof buf));
    e.op = CMP_GE;
    cr_assert(qz_claim_holds(&e, &q, 0.7, buf, sizeof buf));
    cr_assert_str_eq(buf, ">= 0.7");
    e = expect_num(CMP_EQ, 0);
    cr_assert(qz_claim_holds(&e, &q, 0, buf, sizeof buf));
    cr_assert_not(qz_claim_holds(&e, &q, 1e-6, buf, sizeof buf));
    cr_assert_str_eq(buf, "== 0");
}

Test(expect, a_percentage_is_a_fraction)
{
    char buf[64];
    struct ast_question q = { .kind = Q_SINGLE, .id = "q" };
    struct ast_expect e = expect_num(CMP_LT, 20);
    e.value.percent = true;
    cr_assert(qz_claim_holds(&e, &q, 0.19, buf, sizeof buf));
    cr_assert_not(qz_claim_holds(&e, &q, 0.21, buf, sizeof buf));
    cr_assert_str_eq(buf, "< 0.2");
}

Test(expect, within_of_answer_uses_the_numeric_answer_key)
{
    char buf[128];
    struct ast_numeric key = { .kind = NUM_TOLERANCE, .value = { .kind = VAL_NUMBER, .num = 0.2727 } };
    struct ast_question q = { .kind = Q_NUMERIC, .id = "n", .has_answer = true, .numeric = &key };
    struct ast_expect e = { .op = CMP_WITHIN, .of_answer = true,
                            .tolerance = { .kind = VAL_NUMBER, .num = 0.03 } };
    cr_assert(qz_claim_holds(&e, &q, 0.25, buf, sizeof buf));
    cr_assert_str_eq(buf, "within 0.03 of 0.2727 (answer)");
    cr_assert_not(qz_claim_holds(&e, &q, 0.31, buf, sizeof buf));
    /* A range answer: within the tolerance of either end or inside. */
    key.kind = NUM_RANGE;
    key.lo = (struct ast_value){ .kind = VAL_NUMBER, .num = 0.26 };
    key.hi = (struct ast_value){ .kind = VAL_NUMBER, .num = 0.29 };
    cr_assert(qz_claim_holds(&e, &q, 0.31, buf, sizeof buf));
    cr_assert(qz_claim_holds(&e, &q, 0.275, buf, sizeof buf));
    cr_assert_not(qz_claim_holds(&e, &q, 0.33, buf, sizeof buf));
    cr_assert_str_eq(buf, "within 0.03 of 0.26..0.29");
}

Test(expect, within_a_plain_value_is_symmetric)
{
    char buf[64];
    struct ast_question q = { .kind = Q_SINGLE, .id = "q" };
    struct ast_expect e = { .op = CMP_WITHIN, .value = { .kind = VAL_NUMBER, .num = 10 },
                            .tolerance = { .kind = VAL_NUMBER, .num = 1 } };
    cr_assert(qz_claim_holds(&e, &q, 9, buf, sizeof buf));
    cr_assert(qz_claim_holds(&e, &q, 11, buf, sizeof buf));
    cr_assert_not(qz_claim_holds(&e, &q, 11.5, buf, sizeof buf));
    cr_assert_str_eq(buf, "within 1 of 10");
}

/* ---- whole quizzes ------------------------------------------------------- */

/* Run --verify on path; the table lands in *text (caller frees). */
static int verify_capture(const char *path, int jobs, char **text)
{
    struct verify_opts o = { .jobs = jobs };
    FILE *out = tmpfile(), *err = tmpfile();
    cr_assert_not_null(out);
    o.out = out;
    o.err = err;
    qz_labpath_add(&o.extra, "labs");
    int rc = verify_quiz(&o, path);
    qz_labpath_clear(&o.extra);
    long n = ftell(out);
    rewind(out);
    *text = calloc((size_t)n + 1, 1);
    cr_assert_eq(fread(*text, 1, (size_t)n, out), (size_t)n);
    fclose(out);
    fclose(err);
    return rc;
}

/* The row of question q and metric m, as one line (NULL when absent). */
static char *row(const char *text, const char *q, const char *metric)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        size_t len = strcspn(line, "\n"), ql = strlen(q);
        char *l = strndup(line, len);
        char *mcol = strstr(l, metric);
        if (strncmp(l, q, ql) == 0 && l[ql] == ' ' && mcol && mcol[-1] == ' ' && mcol[strlen(metric)] == ' ')
            return l;
        free(l);
    }
    return NULL;
}

static bool row_ends_with(const char *text, const char *q, const char *metric, const char *result)
{
    char *l = row(text, q, metric);
    cr_assert_not_null(l, "a row for %s %s in:\n%s", q, metric, text);
    size_t n = strlen(l), r = strlen(result);
    bool ok = n >= r && strcmp(l + n - r, result) == 0;
    free(l);
    return ok;
}

Test(quiz, claims_that_hold_all_pass_and_share_runs)
{
    char *text;
    int rc = verify_capture(DATA "pass.qz", 2, &text);
    cr_assert_eq(rc, 0, "exit 0; output:\n%s", text);
    cr_assert(row_ends_with(text, "moves", "weight_bytes_moved", "PASS"));
    cr_assert(row_ends_with(text, "moves", "boundary_bytes_per_step", "PASS"));
    cr_assert(row_ends_with(text, "mib", "tp_allreduce_mib", "PASS"));
    cr_assert(row_ends_with(text, "band", "model_error", "PASS"));
    cr_assert_not_null(strstr(text, "within 0.01 of 32 (answer)"));
    /* Three references to allreduce with the same values (defaults filled in): one run. */
    cr_assert_not_null(strstr(text, "8 claims: 8 passed, 0 failed; 2 lab runs"), "%s", text);
    free(text);
}

Test(quiz, false_claims_fail_on_their_own_rows_and_the_true_ones_still_pass)
{
    char *text;
    int rc = verify_capture(DATA "fail.qz", 1, &text);
    cr_assert_eq(rc, 1);
    cr_assert(row_ends_with(text, "weights", "weight_bytes_moved", "FAIL"), "%s", text);
    cr_assert(row_ends_with(text, "weights", "tensors_crossed", "PASS"), "%s", text);
    cr_assert(row_ends_with(text, "mib", "tp_allreduce_mib", "FAIL"), "%s", text);
    cr_assert_not_null(strstr(text, "within 0.01 of 16 (answer)"));
    cr_assert_not_null(strstr(text, "6 claims: 1 passed, 5 failed"), "%s", text);
    free(text);
}

Test(quiz, bad_parameters_and_metrics_are_reported_per_claim)
{
    char *text;
    int rc = verify_capture(DATA "fail.qz", 2, &text);
    cr_assert_eq(rc, 1);
    cr_assert(row_ends_with(text, "broken", "wrng", "FAIL"));
    /* The words quizc uses for the same lines: one check serves both. */
    cr_assert_not_null(strstr(text, "lab 'allreduce' has no parameter 'rank'; did you mean 'ranks'?"), "%s", text);
    cr_assert_not_null(strstr(text, "ranks = 9999 is out of range 1..1024"), "%s", text);
    cr_assert_not_null(strstr(text, "reports no metric 'wrng'; did you mean 'wrong'?"), "%s", text);
    free(text);
}

Test(quiz, a_lab_that_is_not_there_is_a_setup_error_said_once_before_anything_runs)
{
    struct verify_opts o = { .jobs = 1 };
    FILE *out = tmpfile(), *err = tmpfile();
    cr_assert(out && err);
    o.out = out;
    o.err = err;
    qz_labpath_add(&o.extra, "labs");
    int rc = verify_quiz(&o, DATA "missing-lab.qz");
    qz_labpath_clear(&o.extra);
    cr_expect_eq(rc, 2);
    cr_expect_eq(ftell(out), 0, "no claim was run or tabled");
    long n = ftell(err);
    rewind(err);
    char *msgs = calloc((size_t)n + 1, 1);
    cr_assert_eq(fread(msgs, 1, (size_t)n, err), (size_t)n);
    const char *first = strstr(msgs, DATA "missing-lab.qz:17:13: error: unknown lab 'no-such-lab'\n");
    cr_expect_not_null(first, "%s", msgs);
    cr_expect_null(first ? strstr(strchr(first, '\n'), "unknown lab 'no-such-lab'") : NULL, "said once: %s", msgs);
    cr_expect_not_null(strstr(msgs, DATA "missing-lab.qz:17:13: note: looked for a folder 'no-such-lab' holding "
                                    "a lab.qz in labs, "), "%s", msgs);
    cr_expect_not_null(strstr(msgs, "a folder of labs elsewhere is added with -L DIR\n"), "%s", msgs);
    cr_expect_not_null(strstr(msgs, DATA "missing-lab.qz:19:13: error: unknown lab 'alreduce'; did you mean "
                                    "'allreduce'?\n"), "%s", msgs);
    cr_expect_not_null(strstr(msgs, "\n2 errors generated.\n"), "%s", msgs);
    free(msgs);
    fclose(out);
    fclose(err);
}

Test(quiz, a_quiz_with_errors_runs_no_lab_and_exits_1)
{
    char *text;
    int rc = verify_capture(DATA "syntax.qz", 2, &text);
    cr_assert_eq(rc, 1);
    cr_assert_null(strstr(text, "claims:"), "no table: %s", text);
    free(text);
}

Test(quiz, a_missing_quiz_file_exits_1)
{
    char *text;
    cr_assert_eq(verify_capture(DATA "absent.qz", 1, &text), 1);
    free(text);
}

/* ---- the command line ---------------------------------------------------- */

Test(cli, usage_errors_exit_2, .init = cr_redirect_stderr)
{
    char *none[] = { "labrun", "--verify", NULL };
    cr_assert_eq(verify_main(2, none), 2);
    char *two[] = { "labrun", "--verify", "a.qz", "b.qz", NULL };
    cr_assert_eq(verify_main(4, two), 2);
    char *jobs[] = { "labrun", "--verify", DATA "pass.qz", "-j", "0", NULL };
    cr_assert_eq(verify_main(5, jobs), 2);
    char *opt[] = { "labrun", "--verify", DATA "pass.qz", "--frobnicate", NULL };
    cr_assert_eq(verify_main(4, opt), 2);
    char *be[] = { "labrun", "--verify", DATA "pass.qz", "--backend", "abacus", NULL };
    cr_assert_eq(verify_main(5, be), 2);
}

Test(cli, help_exits_0, .init = cr_redirect_stdout)
{
    char *help[] = { "labrun", "--verify", "--help", NULL };
    cr_assert_eq(verify_main(3, help), 0);
}
