/*
 * A lab's compiled-in limits against manifests read at run time: narrower
 * is kept, anything wider is refused at the parameter's line, naming the
 * parameter and both ranges.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "lablimits.h"
#include "qz.h"

/* What the lab's code was built for (as labgen --limits writes it). */
static const char *const schedules[] = { "gpipe", "1f1b", NULL };
static const struct lab_limit limit_params[] = {
    { "stages", PARAM_INT, 1, 64, NULL, 0 },
    { "schedule", PARAM_ENUM, 0, 0, schedules, 2 },
    { "scale", PARAM_REAL, 0.5, 2, NULL, 0 },
    { "verbose", PARAM_BOOL, 0, 0, NULL, 0 },
};
static const struct lab_limits limits = { "pl", "labs/pl/lab.qz", limit_params, 4 };
static const struct lab_impl impl = { .name = "pl", .limits = &limits };

static struct diag *diag;
static struct ast_file *file;
static char *first;             /* the first error's message */
static struct src_pos first_at; /* and where */
static int nerrors;

static void keep(void *ctx, enum diag_level level, const struct src_loc *loc, const char *msg)
{
    if (level != DIAG_ERROR)
        return;
    if (nerrors++ == 0) {
        first = strdup(msg);
        first_at = loc_start(loc);
    }
}

/* Check a manifest whose parameter lines are params; the result of lab_limits_check. */
static int check(const char *params)
{
    char *text = xasprintf("lab pl {\n    title \"t\"\n%s    metric m \"m\"\n}\n", params);
    diag = diag_new(NULL);
    diag->hook = keep;
    const struct source *src = diag_add_source(diag, "pl/lab.qz", text, strlen(text));
    file = qz_parse(diag, src);
    cr_assert_eq(diag_errors(diag), 0, "the manifest parses");
    return lab_limits_check(&impl, file->lab, diag);
}

static void done(void)
{
    ast_file_free(file);
    diag_free(diag);
    free(first);
    first = NULL;
    nerrors = 0;
}

TestSuite(lablimits, .fini = done);

#define SAME_STAGES   "    param stages = 4 in 1..64 \"s\"\n"
#define SAME_SCHEDULE "    param schedule = gpipe in gpipe|1f1b \"s\"\n"
#define SAME_SCALE    "    param scale = 1 in 0.5..2 \"s\"\n"
#define SAME_VERBOSE  "    param verbose = false \"v\"\n"

Test(lablimits, the_shipped_declarations_pass)
{
    cr_assert_eq(check(SAME_STAGES SAME_SCHEDULE SAME_SCALE SAME_VERBOSE), 0);
    cr_assert_eq(nerrors, 0);
}

Test(lablimits, narrower_ranges_and_fewer_choices_pass)
{
    cr_assert_eq(check("    param stages = 2 in 2..8 \"s\"\n"
                       "    param schedule = 1f1b in 1f1b \"s\"\n"
                       "    param scale = 1 in 1..1.5 \"s\"\n" SAME_VERBOSE), 0);
}

Test(lablimits, a_wider_range_is_refused_at_its_line_naming_both_ranges)
{
    cr_assert_eq(check("    param stages = 4 in 1..128 \"s\"\n" SAME_SCHEDULE SAME_SCALE SAME_VERBOSE), -1);
    cr_assert_eq(nerrors, 1);
    cr_assert_eq(first_at.line, 3);
    cr_assert_eq(first_at.col, 11);
    cr_assert_str_eq(first, "lab pl: parameter 'stages' allows 1..128 (default 4), more than the lab's code is "
                            "written for: 1..64 (labs/pl/lab.qz); a manifest may narrow a range, never widen it");
}

Test(lablimits, a_lower_least_value_is_refused_too)
{
    cr_assert_eq(check(SAME_STAGES SAME_SCHEDULE "    param scale = 1 in 0.25..2 \"s\"\n" SAME_VERBOSE), -1);
    cr_assert(strstr(first, "'scale' allows 0.25..2") && strstr(first, "written for: 0.5..2"), "%s", first);
}

Test(lablimits, a_choice_the_code_does_not_know_is_refused)
{
    cr_assert_eq(check(SAME_STAGES "    param schedule = gpipe in gpipe|1f1b|zb-v \"s\"\n" SAME_SCALE SAME_VERBOSE),
                 -1);
    cr_assert(strstr(first, "allows gpipe|1f1b|zb-v") && strstr(first, "written for: gpipe|1f1b"), "%s", first);
}

Test(lablimits, another_type_is_refused)
{
    cr_assert_eq(check("    param stages = 4.5 in 1..64 \"s\"\n" SAME_SCHEDULE SAME_SCALE SAME_VERBOSE), -1);
    cr_assert(strstr(first, "'stages' is declared as a number") && strstr(first, "an integer, 1..64"), "%s", first);
}

Test(lablimits, a_parameter_the_code_reads_may_not_be_left_out)
{
    cr_assert_eq(check(SAME_STAGES SAME_SCHEDULE SAME_SCALE), -1);
    cr_assert(strstr(first, "parameter 'verbose' is missing; the lab's code reads it"), "%s", first);
}

Test(lablimits, every_excess_is_reported_not_only_the_first)
{
    cr_assert_eq(check("    param stages = 4 in 0..64 \"s\"\n"
                       "    param schedule = gpipe in gpipe|naive \"s\"\n" SAME_SCALE SAME_VERBOSE), -1);
    cr_assert_eq(nerrors, 2);
}

Test(lablimits, a_lab_without_limits_passes)
{
    static const struct lab_impl bare = { .name = "pl" };
    check("    param stages = 4 in 1..128 \"s\"\n");
    cr_assert_eq(lab_limits_check(&bare, file->lab, diag), 0);
}
