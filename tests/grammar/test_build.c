/*
 * test_build.c — what the grammar actions (build.c, build_lab.c) check:
 * statements given twice, statements a question's kind does not take, header
 * words, the shape of a file, and lab manifests' parameter types and ranges.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "capture.h"

static struct capture cap;
static struct ast_file *file;

static void setup(void) { cap_init(&cap); file = NULL; }
static void teardown(void) { ast_file_free(file); cap_fini(&cap); }

TestSuite(build, .init = setup, .fini = teardown);

static void parse(const char *text) { file = cap_parse(&cap, text); }

static void parse_ok(const char *text) { file = cap_parse_ok(&cap, text); }
static struct ast_question *question(size_t i) { return cap_question(file, i); }
static void assert_error(int i, int line, int col, const char *msg) { cap_assert_error(&cap, i, line, col, msg); }
static void assert_note(const char *msg, int line, int col) { cap_assert_note(&cap, msg, line, col); }

Test(build, a_lab_manifest_gives_each_parameter_its_type)
{
    parse_ok("lab bubble {\n"
             "    title \"Pipeline bubble\"\n"
             "    summary \"\"\"\n"
             "        Idle time.\n"
             "        \"\"\"\n"
             "    param stages       = 4     in 1..64             \"pipeline stages, one rank each\"\n"
             "    param microbatches = 1     in 1..4096\n"
             "    param schedule     = gpipe in naive|gpipe|1f1b  \"pipeline schedule\"\n"
             "    param ratio        = 0.5   in 0..1\n"
             "    param scale        = 2     in 0.5..8\n"
             "    param verbose      = false \"print more\"\n"
             "    param label        = \"run\"\n"
             "    param seed         = 42\n"
             "    param lr           = 1e-3\n"
             "    metric bubble_fraction \"share of stage time spent idle\"\n"
             "    metric step_ms         \"wall time of one training step\" unit \"ms\"\n"
             "    metric count\n"
             "}\n");
    const struct ast_labdef *l = file->lab;
    cr_assert_not_null(l);
    cr_assert_null(file->quiz);
    cr_assert_str_eq(l->name, "bubble");
    cr_assert_str_eq(ast_text_get(l->title, NULL)->raw, "Pipeline bubble");
    cr_assert_str_eq(ast_text_get(l->summary, NULL)->raw, "Idle time.");
    cr_assert_eq(l->params.n, 9);
    const struct ast_param *p = l->params.items;
    cr_assert_eq(p[0].type, PARAM_INT);
    cr_assert_eq(p[0].lo, 1);
    cr_assert_eq(p[0].hi, 64);
    cr_assert_eq(p[0].def.num, 4);
    cr_assert_str_eq(ast_text_get(p[0].help, NULL)->raw, "pipeline stages, one rank each");
    cr_assert(p[0].help->neutral);
    cr_assert_eq(loc_start(&p[0].loc).line, 6);
    cr_assert_eq(loc_start(&p[0].loc).col, 11);
    cr_assert_null(p[1].help);
    cr_assert_eq(p[2].type, PARAM_ENUM);
    cr_assert_eq(p[2].choices.n, 3);
    cr_assert_str_eq(p[2].choices.items[2], "1f1b");
    cr_assert_str_eq(p[2].def.str, "gpipe");
    cr_assert_eq(p[3].type, PARAM_REAL);
    cr_assert_eq(p[4].type, PARAM_REAL);
    cr_assert_eq(p[5].type, PARAM_BOOL);
    cr_assert_not(p[5].def.boolean);
    cr_assert_str_eq(ast_text_get(p[5].help, NULL)->raw, "print more");
    cr_assert_eq(p[6].type, PARAM_STRING);
    cr_assert_str_eq(p[6].def.str, "run");
    cr_assert_eq(p[7].type, PARAM_INT);
    cr_assert(isinf(p[7].lo) && p[7].lo < 0 && isinf(p[7].hi));
    cr_assert_eq(p[8].type, PARAM_REAL);
    cr_assert_eq(l->metrics.n, 3);
    cr_assert_str_eq(ast_text_get(l->metrics.items[0].help, NULL)->raw, "share of stage time spent idle");
    cr_assert_null(l->metrics.items[0].unit);
    cr_assert_str_eq(l->metrics.items[1].unit, "ms");
    cr_assert_null(l->metrics.items[2].help);
    cr_assert_eq(loc_start(&l->metrics.items[2].loc).line, 17);
    cr_assert_eq(loc_start(&l->metrics.items[2].loc).col, 12);
}

Test(build, a_lab_manifest_takes_text_in_several_languages_for_its_words)
{
    parse_ok("lab bubble {\n"
             "    title { id: \"Gelembung pipeline\"  en: \"Pipeline bubble\" }\n"
             "    summary { id: \"Waktu menganggur.\"  en: \"Idle time.\" }\n"
             "    param stages = 4 in 1..64 { id: \"tahap pipeline\"  en: \"pipeline stages\" } alias p\n"
             "    param schedule = gpipe in naive|gpipe { en: \"pipeline schedule\" }\n"
             "    param verbose = false \"print more\"\n"
             "    metric bubble_fraction {\n"
             "        id: \"bagian waktu tahap yang menganggur\"\n"
             "        en: \"share of stage time spent idle\"\n"
             "    } unit \"1\"\n"
             "    metric step_ms { id: \"waktu satu langkah\"  en: \"time of one step\" }\n"
             "    metric count\n"
             "}\n");
    const struct ast_labdef *l = file->lab;
    cr_assert_str_eq(ast_text_get(l->title, "id")->raw, "Gelembung pipeline");
    cr_assert_str_eq(ast_text_get(l->summary, "en")->raw, "Idle time.");
    const struct ast_param *p = l->params.items;
    cr_assert_eq(l->params.n, 3);
    cr_assert_not(p[0].help->neutral);
    cr_assert_eq(p[0].help->n, 2);
    cr_assert_str_eq(ast_text_get(p[0].help, "id")->raw, "tahap pipeline");
    cr_assert_str_eq(ast_text_get(p[0].help, "en")->raw, "pipeline stages");
    cr_assert_eq(loc_start(ast_text_loc(p[0].help)).line, 4);
    cr_assert_eq(loc_start(ast_text_loc(p[0].help)).col, 31);
    cr_assert_str_eq(p[0].alias, "p");
    cr_assert_eq(p[1].type, PARAM_ENUM);
    cr_assert_eq(p[1].help->n, 1);
    cr_assert_str_eq(p[1].help->trs[0].lang, "en");
    cr_assert(p[2].help->neutral);
    cr_assert_eq(l->metrics.n, 3);
    const struct ast_metric *m = l->metrics.items;
    cr_assert_str_eq(ast_text_get(m[0].help, "id")->raw, "bagian waktu tahap yang menganggur");
    cr_assert_str_eq(ast_text_get(m[0].help, "en")->raw, "share of stage time spent idle");
    cr_assert_eq(loc_start(&m[0].help->trs[1].loc).line, 9);
    cr_assert_str_eq(m[0].unit, "1");
    cr_assert_str_eq(ast_text_get(m[1].help, "id")->raw, "waktu satu langkah");
    cr_assert_null(m[1].unit);
    cr_assert_null(m[2].help);
}

Test(build, an_empty_language_block_as_a_metric_description_is_an_error)
{
    parse("lab x {\n"
          "    title \"x\"\n"
          "    metric m { }\n"
          "}\n");
    assert_error(0, 3, 14, "an empty language block");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(file->lab->metrics.n, 1);
}

Test(build, a_statement_the_question_kind_does_not_take_names_the_kind)
{
    parse("quiz q {\n"
          "  single s { prompt \"p\" accept \"x\" answer 4 unit \"u\" }\n"
          "  text t { prompt \"p\" wrong \"a\" correct \"b\" }\n"
          "  truefalse tf { prompt \"p\" answer 1 }\n"
          "  numeric n { prompt \"p\" answer true }\n"
          "}\n");
    /* Who takes the statement instead comes from the keyword table. */
    assert_error(0, 2, 25, "'accept' cannot appear in single question 's' (accepted answers belong to text questions)");
    assert_error(1, 2, 36, "'answer' cannot appear in single question 's' "
                           "(an answer belongs to truefalse and numeric questions)");
    assert_error(2, 2, 45, "'unit' cannot appear in single question 's' (a unit belongs to numeric questions)");
    assert_error(3, 3, 23, "'wrong' cannot appear in text question 't' "
                           "(choices belong to single and multiple questions)");
    assert_error(4, 3, 33, "'correct' cannot appear in text question 't'");
    assert_error(5, 4, 36, "a truefalse answer is true or false, not a number");
    assert_error(6, 5, 33, "a numeric answer is a number");
    cr_assert_eq(cap_errors(&cap), 7);
    cr_assert_eq(question(0)->accept.n, 0);
    cr_assert_eq(question(1)->choices.n, 0);
}

Test(build, a_truefalse_answer_must_be_true_or_false)
{
    parse("truefalse t { prompt \"p\" answer yes }");
    assert_error(0, 1, 33, "a truefalse answer is true or false, not 'yes'");
}

Test(build, a_repeated_header_is_reported_at_the_second_with_a_note_at_the_first)
{
    parse("quiz q {\n"
          "  title \"a\"\n"
          "  passing 50%\n"
          "  languages en\n"
          "  title \"b\"\n"
          "  passing 60%\n"
          "  languages id\n"
          "  feedback never feedback never\n"
          "  shuffle all intro \"i\" intro \"j\" shuffle none\n"
          "}\n");
    assert_error(0, 5, 3, "'title' is given twice in quiz 'q'");
    assert_note("the first 'title' is here", 2, 3);
    assert_error(1, 6, 3, "'passing' is given twice");
    assert_error(2, 7, 3, "'languages' is given twice");
    assert_error(3, 8, 18, "'feedback' is given twice");
    assert_error(4, 9, 25, "'intro' is given twice");
    assert_error(5, 9, 35, "'shuffle' is given twice");
    cr_assert_eq(cap_errors(&cap), 6);
    cr_assert_str_eq(ast_text_get(file->quiz->title, NULL)->raw, "a");
    cr_assert_eq(file->quiz->passing, 50);
    cr_assert_eq(file->quiz->langs.n, 1);
    cr_assert_str_eq(file->quiz->langs.items[0].tag, "en");
}

Test(build, a_repeated_question_statement_is_reported_with_its_first)
{
    parse("numeric n {\n"
          "  prompt \"p\" explain \"e\" points 2 answer 1 unit \"u\"\n"
          "  prompt \"q\" explain \"f\" points 3 answer 2 unit \"v\"\n"
          "}\n");
    assert_error(0, 3, 3, "'prompt' is given twice in numeric question 'n'");
    assert_error(1, 3, 14, "'explain' is given twice");
    assert_error(2, 3, 26, "'points' is given twice");
    assert_error(3, 3, 35, "'answer' is given twice");
    assert_error(4, 3, 44, "'unit' is given twice");
    assert_note("the first 'unit' is here", 2, 44);
    cr_assert_eq(cap_errors(&cap), 5);
    cr_assert_eq(question(0)->extra->points, 2);
    cr_assert_eq(question(0)->numeric->value.num, 1);
}

Test(build, an_unknown_header_value_gets_a_suggestion)
{
    parse("quiz q {\n  feedback immedate\n  shuffle choice\n  feedback\n}\n");
    assert_error(0, 2, 12, "unknown feedback 'immedate'; did you mean 'immediate'?");
    assert_error(1, 3, 11, "unknown shuffle 'choice'; did you mean 'choices'?");
    cr_assert_eq(cap_errors(&cap), 3);
}

Test(build, an_unknown_header_value_far_from_any_lists_the_choices)
{
    parse("quiz q { shuffle sometimes }");
    assert_error(0, 1, 18, "unknown shuffle 'sometimes' (one of none, choices, questions, all)");
}

Test(build, an_empty_language_block_is_reported)
{
    parse("single a { prompt { } }");
    assert_error(0, 1, 19, "an empty language block");
}

Test(build, expect_without_a_lab_is_reported)
{
    parse("numeric n { prompt \"p\" expect x > 1 }");
    assert_error(0, 1, 24, "'expect' must follow a 'lab' in the same question");
}

Test(build, a_lab_argument_given_twice_is_reported)
{
    parse("single s { lab bubble (stages = 2, stages = 4) }");
    assert_error(0, 1, 36, "parameter 'stages' is given twice to lab 'bubble'");
    assert_note("the first 'stages' is here", 1, 24);
}

Test(build, two_quizzes_in_a_file_are_reported)
{
    parse("quiz a { title \"t\" }\nquiz b { title \"u\" }\n");
    assert_error(0, 2, 1, "a file holds one quiz; this is a second");
    assert_note("the first quiz is here", 1, 1);
    cr_assert_str_eq(file->quiz->id, "a");
}

Test(build, questions_outside_the_quiz_block_are_reported_once_with_where_it_ended)
{
    parse("quiz a {\n  title \"t\"\n  single w { prompt \"p\" }}\nsingle x { prompt \"p\" }\nsingle y { }\n}\n");
    assert_error(0, 4, 1, "this question stands outside the quiz block");
    assert_note("the quiz block ends here", 3, 26);
    assert_error(1, 6, 1, "expected a statement in this file, found '}'");
    cr_assert_eq(cap_errors(&cap), 2);
}

Test(build, a_quiz_and_a_lab_manifest_cannot_share_a_file)
{
    parse("lab l { title \"t\" }\nquiz a { title \"t\" }\n");
    assert_error(0, 2, 1, "a quiz cannot share a file with a lab manifest");
}

Test(build, a_lab_parameter_default_outside_its_range_is_reported)
{
    parse("lab l {\n"
          "  title \"t\"\n"
          "  param stages = 100 in 1..64\n"
          "  param ratio = 0.5 in 1..0\n"
          "  param schedule = zigzag in naive|gpipe\n"
          "  param mode = fast\n"
          "  param n = 3 in a|b\n"
          "  param k = \"x\" in 1..2\n"
          "}\n");
    assert_error(0, 3, 18, "default 100 of parameter 'stages' is outside its range 1..64");
    assert_error(1, 4, 24, "range 1..0 of parameter 'ratio' is empty");
    assert_error(2, 5, 20, "default 'zigzag' of parameter 'schedule' is not one of naive|gpipe");
    assert_error(3, 6, 16, "parameter 'mode' has the word 'fast' as default but no choices");
    assert_error(4, 7, 13, "parameter 'n' lists its choices, so its default must be one of them");
    assert_error(5, 8, 13, "parameter 'k' has a range, so its default must be a number");
    cr_assert_eq(cap_errors(&cap), 6);
}

Test(build, a_lab_manifest_reports_repeats_and_a_missing_title)
{
    parse("lab l {\n"
          "  summary \"s\" summary \"t\"\n"
          "  param a = 1\n"
          "  param a = 2\n"
          "  metric m\n"
          "  metric m \"again\"\n"
          "  param e = x in x|y|x\n"
          "}\n");
    assert_error(0, 2, 15, "'summary' is given twice in lab 'l'");
    assert_error(1, 4, 9, "parameter 'a' is declared twice in lab 'l'");
    assert_error(2, 6, 10, "metric 'm' is declared twice in lab 'l'");
    assert_error(3, 7, 22, "choice 'x' is listed twice for parameter 'e'");
    assert_error(4, 1, 5, "lab 'l' has no title");
    cr_assert_eq(cap_errors(&cap), 5);
}

Test(build, a_parameter_alias_names_a_short_option_once_per_lab)
{
    parse("lab sweep {\n"
          "    title \"t\"\n"
          "    param minbytes = 1024 in 0..4096 \"smallest size\" alias b\n"
          "    param maxbytes = 2048 in 0..4096 alias e\n"
          "    param factor = 2 in 2..8 alias b\n"
          "    param ranks = 4 in 1..8 alias minbytes\n"
          "}\n");
    cr_assert_str_eq(file->lab->params.items[0].alias, "b");
    cr_assert_str_eq(file->lab->params.items[1].alias, "e");
    cr_assert_null(file->lab->params.items[2].alias);
    cr_assert_eq(cap_errors(&cap), 2);
    assert_error(0, 5, 36, "alias 'b' of parameter 'factor' is already an alias");
    assert_error(1, 6, 35, "alias 'minbytes' of parameter 'ranks' is already a parameter's name");
}
