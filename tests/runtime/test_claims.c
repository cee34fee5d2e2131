/*
 * The claims table (tests/data/claims.json) through labrun --verify's
 * judgement (qz_claim_holds): every case as the quiz line an author writes,
 * parsed by libqz, judged against its figure.  tests/browser/claims.test.js
 * runs the same table through the player's claims.js; doc/claims.md is the
 * meaning both implement.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "qz.h"
#include "claim.h"

#define TABLE "tests/data/claims.json"

/* The table as a quiz: question c<i> holds case i's claim, on a metric of the hello lab. */
static char *write_quiz(json_t *cases)
{
    char *path = strdup("/tmp/claims-XXXXXX.qz");
    int fd = mkstemps(path, 3);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "quiz claims {\n    title \"Claims\"\n");
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        json_t *answer = json_object_get(c, "answer");
        fprintf(f, "    numeric c%zu {\n        prompt \"case %zu\"\n        answer %s\n", i, i,
                answer ? json_string_value(answer) : "0");
        fprintf(f, "        lab hello ()\n            expect max_abs_error %s\n    }\n",
                json_string_value(json_object_get(c, "claim")));
    }
    fprintf(f, "}\n");
    fclose(f);
    return path;
}

Test(claims, labrun_verify_judges_every_case_of_the_shared_table_as_it_says)
{
    json_error_t e;
    json_t *root = json_load_file(TABLE, 0, &e);
    cr_assert(root, "%s:%d: %s", TABLE, e.line, e.text);
    json_t *cases = json_object_get(root, "cases");
    cr_assert_geq(json_array_size(cases), 30, "the table holds at least 30 cases");
    char *path = write_quiz(cases);
    struct diag *d = diag_new(stderr);
    struct qz_course *c = qz_load(d, path);
    cr_assert(c && diag_errors(d) == 0, "the table's claims are quiz lines libqz reads");
    cr_assert_eq(c->questions.n, json_array_size(cases));
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        json_t *k = json_array_get(cases, i), *m = json_object_get(k, "measured");
        double measured = json_is_number(m) ? json_number_value(m) : NAN;
        char shown[160];
        bool got = qz_claim_holds(&q->extra->labs.items[0].expects.items[0], q, measured, shown, sizeof shown);
        bool want = json_is_true(json_object_get(k, "bears_out"));
        cr_expect_eq(got, want, "case %zu: %s with %.17g: labrun says %s, the table %s (%s)", i,
                     json_string_value(json_object_get(k, "claim")), measured, got ? "yes" : "no",
                     want ? "yes" : "no", json_string_value(json_object_get(k, "why")));
    }
    qz_course_free(c);
    diag_free(d);
    unlink(path);
    free(path);
    json_decref(root);
}
