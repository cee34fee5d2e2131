/*
 * Lab parameters: defaults from the manifest, values from the command line,
 * and errors that name the parameter and what it allows.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "labref.h"
#include "params.h"
#include "qz.h"

static const char manifest[] =
    "lab demo {\n"
    "    title \"A demo\"\n"
    "    param stages = 4 in 1..64 \"pipeline stages\" alias p\n"
    "    param rate = 0.5 in 0.0..1.0 \"a fraction\"\n"
    "    param schedule = gpipe in naive|gpipe|1f1b \"pipeline schedule\"\n"
    "    param verbose = false \"talk more\"\n"
    "    param label = \"x\" \"a name\"\n"
    "    metric m \"a metric\"\n"
    "}\n";

static struct diag *diag;
static struct ast_file *file;
static struct lab_params *params;
static char errbuf[1024];
static FILE *err;

static void setup(void)
{
    diag = diag_new(stderr);
    const struct source *src = diag_add_source(diag, "demo/lab.qz", strdup(manifest), strlen(manifest));
    file = qz_parse(diag, src);
    cr_assert_eq(diag_errors(diag), 0);
    cr_assert_not_null(file->lab);
    params = lab_params_new(file->lab);
    memset(errbuf, 0, sizeof errbuf);
    err = fmemopen(errbuf, sizeof errbuf - 1, "w");
}

static void teardown(void)
{
    fclose(err);
    lab_params_free(params);
    ast_file_free(file);
    diag_free(diag);
}

/* What err received so far. */
static const char *errors(void)
{
    fflush(err);
    return errbuf;
}

TestSuite(params, .init = setup, .fini = teardown);

Test(params, every_parameter_starts_at_its_manifest_default)
{
    cr_assert_eq(lab_param_int(params, "stages"), 4);
    cr_assert_float_eq(lab_param_real(params, "rate"), 0.5, 1e-15);
    cr_assert_str_eq(lab_param_str(params, "schedule"), "gpipe");
    cr_assert_eq(lab_param_bool(params, "verbose"), false);
    cr_assert_str_eq(lab_param_str(params, "label"), "x");
}

Test(params, command_line_values_replace_defaults_in_both_spellings)
{
    char *argv[] = { "--stages", "8", "--schedule=1f1b", "--verbose", "--rate", "0.25", "--json", "-", NULL };
    int argc = 8;
    cr_assert_eq(lab_params_parse_args(params, &argc, argv, err), 0, "%s", errors());
    cr_assert_eq(lab_param_int(params, "stages"), 8);
    cr_assert_str_eq(lab_param_str(params, "schedule"), "1f1b");
    cr_assert_eq(lab_param_bool(params, "verbose"), true);
    cr_assert_float_eq(lab_param_real(params, "rate"), 0.25, 1e-15);
    /* what is not a parameter stays for the caller */
    cr_assert_eq(argc, 2);
    cr_assert_str_eq(argv[0], "--json");
    cr_assert_str_eq(argv[1], "-");
}

Test(params, a_value_out_of_range_names_the_parameter_and_its_range)
{
    cr_assert_eq(lab_params_set(params, "stages", "100", err), -1);
    cr_assert(strstr(errors(), "--stages") && strstr(errors(), "'100'") && strstr(errors(), "1..64"),
              "message: %s", errors());
    cr_assert_eq(lab_param_int(params, "stages"), 4, "a rejected value leaves the old one");
}

Test(params, an_integer_parameter_rejects_fractions_and_words)
{
    cr_assert_eq(lab_params_set(params, "stages", "2.5", err), -1);
    cr_assert_eq(lab_params_set(params, "stages", "four", err), -1);
    cr_assert(strstr(errors(), "is not an integer"), "message: %s", errors());
}

Test(params, an_enum_parameter_lists_its_choices_when_given_another)
{
    cr_assert_eq(lab_params_set(params, "schedule", "pipedream", err), -1);
    cr_assert(strstr(errors(), "--schedule") && strstr(errors(), "naive|gpipe|1f1b"), "message: %s", errors());
}

Test(params, a_misspelt_parameter_gets_a_suggestion)
{
    cr_assert_eq(lab_params_set(params, "stage", "3", err), -1);
    cr_assert(strstr(errors(), "did you mean '--stages'?"), "message: %s", errors());
}

Test(params, a_boolean_can_be_turned_off_with_no)
{
    char *argv[] = { "--verbose", "--no-verbose", NULL };
    int argc = 2;
    cr_assert_eq(lab_params_parse_args(params, &argc, argv, err), 0);
    cr_assert_eq(lab_param_bool(params, "verbose"), false);
    cr_assert_eq(argc, 0);
}

Test(params, a_parameter_without_its_value_is_an_error)
{
    char *argv[] = { "--stages", NULL };
    int argc = 1;
    cr_assert_eq(lab_params_parse_args(params, &argc, argv, err), -1);
    cr_assert(strstr(errors(), "--stages needs a value; allowed: 1..64"), "message: %s", errors());
}

/* A quiz value through libqz's canonical form, as --verify sets it. */
static int set_quiz_value(const char *name, const struct ast_value *v)
{
    char *why = NULL, *canon = qz_param_canon(lab_params_get(params, name)->decl, v, &why);
    int rc = canon ? lab_params_set(params, name, canon, err) : -1;
    free(canon);
    free(why);
    return rc;
}

Test(params, quiz_values_in_canonical_form_set_parameters_as_the_command_line_does)
{
    struct ast_value four = { .kind = VAL_NUMBER, .num = 4, .str = "4.0" };
    struct ast_value half = { .kind = VAL_NUMBER, .num = 50, .percent = true, .str = "50%" };
    struct ast_value sched = { .kind = VAL_IDENT, .str = "naive" };
    struct ast_value yes = { .kind = VAL_BOOL, .boolean = true };
    cr_assert_eq(set_quiz_value("stages", &four), 0);
    cr_assert_eq(set_quiz_value("rate", &half), 0);
    cr_assert_eq(set_quiz_value("schedule", &sched), 0);
    cr_assert_eq(set_quiz_value("verbose", &yes), 0);
    cr_assert_eq(lab_param_int(params, "stages"), 4);
    cr_assert_float_eq(lab_param_real(params, "rate"), 0.5, 1e-15);
    cr_assert_str_eq(lab_param_str(params, "schedule"), "naive");
    struct ast_value big = { .kind = VAL_NUMBER, .num = 65, .integral = true, .str = "65" };
    cr_assert_eq(set_quiz_value("stages", &big), -1);
}

Test(params, allowed_values_and_current_values_are_spelt_as_on_the_command_line)
{
    const struct lab_pvalue *v = lab_params_get(params, "rate");
    char *allowed = lab_param_allowed(v->decl), *text = lab_pvalue_text(v);
    cr_assert_str_eq(allowed, "0..1");
    cr_assert_str_eq(text, "0.5");
    free(allowed);
    free(text);
}

Test(params, an_alias_sets_its_parameter_as_a_short_option)
{
    char *argv[] = { "-p", "8", "--schedule", "1f1b", "-x", NULL };
    int argc = 5;
    cr_assert_eq(lab_params_parse_args(params, &argc, argv, err), 0, "%s", errors());
    cr_assert_eq(lab_param_int(params, "stages"), 8);
    cr_assert_eq(argc, 1, "-x is no alias and stays for the caller");
    cr_assert_str_eq(argv[0], "-x");
}
