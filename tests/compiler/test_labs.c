/*
 * test_labs.c — lab references in quizzes against the fixture labs in
 * tests/data/labs: resolution, every kind of bad reference at its line and
 * column, and snippet regions.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "check.h"
#include "support.h"

static struct capture *cap;
static struct qz_course *course;

static void setup(void) { cap = capture_new(); course = NULL; }
static void teardown(void) { qz_course_free(course); capture_free(cap); }

TestSuite(labs, .init = setup, .fini = teardown);

/* A quiz around one question body (lines 3 on), loaded with the fixture labs. */
static void load_question(const char *kind, const char *body)
{
    char *text = xasprintf("quiz labs {\n    title \"T\"\n    %s q {\n        prompt \"P\"\n%s    }\n}\n",
                           kind, body);
    course = capture_load_text(cap, "quiz.qz", text);
    free(text);
    cr_assert_not_null(course);
}

static void assert_only_error(int line, int col, const char *msg)
{
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "expected one error, got:%s", capture_dump(cap));
    const struct rec *r = capture_nth(cap, DIAG_ERROR, 0);
    cr_expect_str_eq(r->msg, msg, "got:%s", capture_dump(cap));
    cr_expect_eq(r->line, line, "line %d, expected %d:%s", r->line, line, capture_dump(cap));
    cr_expect_eq(r->col, col, "column %d, expected %d:%s", r->col, col, capture_dump(cap));
}

Test(labs, a_known_lab_is_loaded_once_and_linked_to_each_reference)
{
    load_question("numeric", "        answer 0.43\n"
                             "        lab pipe (stages = 4, microbatches = 4, schedule = 1f1b, rate = 0.25)\n"
                             "            expect bubble_fraction within 0.05 of answer\n"
                             "        lab pipe (stages = 2)\n"
                             "            expect step_ms < 100\n");
    cr_assert_eq(cap->recs.n, 0, "got:%s", capture_dump(cap));
    cr_assert_eq(course->labs.n, 1);
    const struct ast_labdef *def = course->labs.items[0];
    cr_expect_str_eq(def->name, "pipe");
    cr_expect_str_eq(def->dir, FIXTURE_LABS "/pipe");
    const struct ast_question *q = course->questions.items[0];
    cr_expect_eq(q->extra->labs.items[0].def, def);
    cr_expect_eq(q->extra->labs.items[1].def, def);
}

Test(labs, an_unknown_lab_is_reported_at_its_name_with_a_near_miss)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipes (stages = 4)\n");
    assert_only_error(6, 13, "unknown lab 'pipes'; did you mean 'pipe'?");
}

Test(labs, a_lab_named_by_its_folder_is_one_error_and_is_then_checked_as_that_lab)
{
    load_question("truefalse", "        answer true\n"
                               "        lab labs/pipe (stages = 4, rate = 0.25)\n"
                               "            expect bubble_fraction < 0.5\n");
    assert_only_error(6, 13, "a lab line names the lab, not its folder: write 'lab pipe' (quizc looks for labs in "
                             "labs/ beside the quiz and in each folder given with -L)");
    cr_expect_eq(capture_count(cap, DIAG_NOTE), 0, "got:%s", capture_dump(cap));
    const struct ast_labref *r = &course->questions.items[0]->extra->labs.items[0];
    cr_expect_str_eq(r->name, "pipe");
    cr_expect_not_null(r->def, "resolved as lab pipe");
    cr_expect_eq(r->args.n, 2);
}

Test(labs, a_misspelled_parameter_of_a_lab_named_by_its_folder_is_still_found)
{
    load_question("truefalse", "        answer true\n"
                               "        lab labs/pipe (stagse = 4)\n");
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 2, "got:%s", capture_dump(cap));
    cr_expect(strstr(capture_nth(cap, DIAG_ERROR, 1)->msg, "'stagse'"), "got:%s", capture_dump(cap));
}

Test(labs, an_unknown_lab_far_from_any_is_reported_without_a_suggestion)
{
    load_question("truefalse", "        answer true\n"
                               "        lab allreduce\n");
    assert_only_error(6, 13, "unknown lab 'allreduce'");
}

Test(labs, an_unknown_lab_is_reported_once_with_where_it_was_looked_for)
{
    load_question("truefalse", "        answer true\n"
                               "        lab nowhere\n"
                               "        snippet nowhere:loop\n"
                               "        lab nowhere (x = 1)\n");
    assert_only_error(6, 13, "unknown lab 'nowhere'");
    cr_assert_eq(capture_count(cap, DIAG_NOTE), 1, "got:%s", capture_dump(cap));
    const struct rec *n = capture_nth(cap, DIAG_NOTE, 0);
    char *want = xasprintf("looked for a folder 'nowhere' holding a lab.qz in %s; a folder of labs elsewhere "
                           "is added with -L DIR", FIXTURE_LABS);
    cr_expect_str_eq(n->msg, want);
    cr_expect_eq(n->line, 6);
    free(want);
}

Test(labs, an_unknown_parameter_suggests_the_nearest_one)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (stages = 4, microbatchs = 8)\n");
    assert_only_error(6, 31, "lab 'pipe' has no parameter 'microbatchs'; did you mean 'microbatches'?");
}

Test(labs, a_string_for_an_integer_parameter_is_reported_at_the_value)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (stages = \"four\")\n");
    assert_only_error(6, 28, "parameter 'stages' takes an integer, got the string \"four\"");
}

Test(labs, a_name_for_an_integer_parameter_is_reported_at_the_value)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (stages = four)\n");
    assert_only_error(6, 28, "parameter 'stages' takes an integer, got 'four'");
}

Test(labs, a_fraction_for_an_integer_parameter_is_reported)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (microbatches = 2.5)\n");
    assert_only_error(6, 34, "parameter 'microbatches' takes an integer, got 2.5");
}

Test(labs, a_value_out_of_range_names_the_range)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (stages = 100)\n");
    assert_only_error(6, 28, "stages = 100 is out of range 1..64");
}

Test(labs, a_real_parameter_out_of_range_is_reported)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (rate = 1.5)\n");
    assert_only_error(6, 26, "rate = 1.5 is out of range 0..1");
}

Test(labs, a_word_outside_an_enumeration_lists_the_allowed_values)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (schedule = zigzag)\n");
    assert_only_error(6, 30, "parameter 'schedule' takes one of naive|gpipe|1f1b, got 'zigzag'");
}

Test(labs, a_near_miss_in_an_enumeration_gets_a_suggestion)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (schedule = gpip)\n");
    assert_only_error(6, 30, "parameter 'schedule' takes one of naive|gpipe|1f1b, got 'gpip'; did you mean 'gpipe'?");
}

Test(labs, an_unknown_metric_suggests_the_nearest_one)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (stages = 4)\n"
                               "            expect bubble_frac < 0.2\n");
    assert_only_error(7, 20, "lab 'pipe' reports no metric 'bubble_frac'; did you mean 'bubble_fraction'?");
}

Test(labs, a_metric_or_parameter_with_a_word_too_many_suggests_the_real_one)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (pipeline-stages = 4)\n"
                               "            expect step_wall_ms < 20\n");
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 2, "got:%s", capture_dump(cap));
    cr_expect_str_eq(capture_nth(cap, DIAG_ERROR, 0)->msg,
                     "lab 'pipe' has no parameter 'pipeline-stages'; did you mean 'stages'?");
    cr_expect_str_eq(capture_nth(cap, DIAG_ERROR, 1)->msg,
                     "lab 'pipe' reports no metric 'step_wall_ms'; did you mean 'step_ms'?");
}

Test(labs, within_of_answer_outside_a_numeric_question_is_reported)
{
    load_question("truefalse", "        answer true\n"
                               "        lab pipe (stages = 4)\n"
                               "            expect bubble_fraction within 0.1 of answer\n");
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "got:%s", capture_dump(cap));
    const struct rec *r = capture_nth(cap, DIAG_ERROR, 0);
    cr_expect_str_eq(r->msg, "'within ... of answer' needs a numeric question (this one is truefalse)");
    cr_expect_eq(r->line, 7);
}

Test(labs, every_bad_reference_is_reported_in_one_run)
{
    load_question("single", "        correct \"a\" wrong \"b\"\n"
                            "        lab pipe (stages = 0, schedule = 2)\n"
                            "            expect nothing > 1\n"
                            "        lab nope\n");
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 4, "got:%s", capture_dump(cap));
}

Test(labs, a_snippet_region_is_cut_out_of_the_labs_c_source)
{
    load_question("truefalse", "        answer true\n"
                               "        snippet pipe:schedule\n");
    cr_assert_eq(cap->recs.n, 0, "got:%s", capture_dump(cap));
    const struct ast_snippet *s = &course->questions.items[0]->extra->snippets.items[0];
    cr_expect_str_eq(s->file, "pipe.c");
    cr_expect_str_eq(s->code, "static int next_stage(int stage, int stages)\n"
                              "{\n"
                              "    if (stage + 1 < stages)\n"
                              "        return stage + 1;\n"
                              "    return -1;\n"
                              "}");
}

Test(labs, an_indented_snippet_loses_its_common_indentation)
{
    char *file = NULL;
    char *code = qz_snippet(FIXTURE_LABS "/pipe", "loop", &file, NULL);
    cr_assert_not_null(code);
    cr_expect_str_eq(code, "for (int s = 0; s >= 0; s = next_stage(s, 4))\n"
                           "    printf(\"stage %d\\n\", s);");
    cr_expect_str_eq(file, "pipe.c");
    free(code);
    free(file);
}

Test(labs, a_script_marks_its_snippets_with_hash_comments)
{
    char *file = NULL;
    char *code = qz_snippet(FIXTURE_LABS "/pipe", "launch", &file, NULL);
    cr_assert_not_null(code);
    cr_expect_str_eq(code, "exec ./pipe \"$@\"");
    cr_expect_str_eq(file, "run.sh");
    free(code);
    free(file);
}

Test(labs, a_missing_snippet_region_is_reported_at_the_snippet)
{
    load_question("truefalse", "        answer true\n"
                               "        snippet pipe:warmup\n");
    assert_only_error(6, 9, "lab 'pipe' has no snippet region 'warmup' (a `// snippet: warmup` ... "
                            "`// end snippet` block in its sources; `labrun pipe --help` lists its regions)");
}

Test(labs, a_misspelled_snippet_region_suggests_the_nearest_one)
{
    load_question("truefalse", "        answer true\n"
                               "        snippet pipe:schedul\n");
    assert_only_error(6, 9, "lab 'pipe' has no snippet region 'schedul'; did you mean 'schedule'?");
}

static void write_text(const char *dir, const char *name, const char *text)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    free(path);
}

Test(labs, a_labs_regions_are_listed_with_the_first_sentence_of_their_comment)
{
    char dir[] = "/tmp/qz-regions-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    write_text(dir, "a.c", "// snippet: one-line\n/* Ring step: send right, receive left. */\nx();\n// end snippet\n"
                           "    // snippet: block\n    /*\n     * Two stages.  The rest is detail.\n     */\n"
                           "    y();\n    // end snippet\n"
                           "// snippet: bare\nz();\n// end snippet\n");
    write_text(dir, "b.sh", "# snippet: launch\n# Start every rank\n# under mpirun.\nexec x\n# end snippet\n"
                            "# snippet: one-line\n# a second region of the same name is not listed\n# end snippet\n");
    struct qz_regions *r = qz_snippet_regions(dir);
    cr_assert_eq(r->n, 4);
    const char *want[][2] = {
        { "one-line", "Ring step: send right, receive left." },
        { "block", "Two stages." },
        { "bare", "" },
        { "launch", "Start every rank under mpirun." },
    };
    for (size_t i = 0; i < 4; i++) {
        cr_expect_str_eq(r->items[i].name, want[i][0]);
        cr_expect_str_eq(r->items[i].about, want[i][1]);
    }
    cr_expect_str_eq(qz_region_near(r, "lauch"), "launch");
    cr_expect_null(qz_region_near(r, "nothing-like-it"));
    qz_regions_free(r);
    char *rm = xasprintf("rm -rf '%s'", dir);
    cr_expect_eq(system(rm), 0);
    free(rm);
}

Test(labs, a_snippet_of_an_unknown_lab_is_reported)
{
    load_question("truefalse", "        answer true\n"
                               "        snippet bubble:gpipe\n");
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "got:%s", capture_dump(cap));
    cr_expect_str_eq(capture_nth(cap, DIAG_ERROR, 0)->msg, "unknown lab 'bubble'");
    cr_expect_eq(capture_nth(cap, DIAG_ERROR, 0)->line, 6);
}

Test(labs, a_lab_whose_name_differs_from_its_folder_is_reported_in_the_manifest)
{
    load_question("truefalse", "        answer true\n"
                               "        lab misnamed\n");
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "got:%s", capture_dump(cap));
    const struct rec *r = capture_nth(cap, DIAG_ERROR, 0);
    cr_expect_str_eq(r->msg, "lab 'other' is in folder 'misnamed'; a lab's name must match its folder");
    cr_expect_str_eq(r->file, FIXTURE_LABS "/misnamed/lab.qz");
    cr_expect_eq(r->line, 2);
    cr_expect_eq(r->col, 5);
    const struct rec *n = capture_nth(cap, DIAG_NOTE, 0);
    cr_assert_not_null(n);
    cr_expect_eq(n->line, 6);
}

Test(labs, a_manifest_without_a_lab_is_reported_at_the_reference)
{
    load_question("truefalse", "        answer true\n"
                               "        lab empty-manifest\n"
                               "        lab empty-manifest\n");
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "reported once, got:%s", capture_dump(cap));
    const struct rec *r = capture_nth(cap, DIAG_ERROR, 0);
    cr_expect_str_eq(r->msg, FIXTURE_LABS "/empty-manifest/lab.qz holds no `lab NAME { ... }` manifest");
    cr_expect_eq(r->line, 6);
    cr_expect_eq(r->col, 13);
}

Test(labs, the_search_path_is_tried_in_order)
{
    struct qz_labpath p = { 0 };
    qz_labpath_add(&p, "tests/data/no-such-folder");
    qz_labpath_add(&p, FIXTURE_LABS);
    qz_labpath_add(&p, "labs");
    char *dir = qz_find_lab(&p, "pipe");
    cr_expect_str_eq(dir, FIXTURE_LABS "/pipe");
    free(dir);
    cr_expect_null(qz_find_lab(&p, "no-such-lab"));
    qz_labpath_clear(&p);
}

Test(labs, a_lab_name_cannot_climb_out_of_the_search_path)
{
    struct qz_labpath p = { 0 };
    qz_labpath_add(&p, FIXTURE_LABS "/misnamed");
    cr_expect_null(qz_find_lab(&p, ".."));
    cr_expect_null(qz_find_lab(&p, "../pipe"));
    qz_labpath_clear(&p);
}

Test(labs, parameters_and_metrics_are_found_by_name)
{
    struct ast_labdef *def = qz_load_lab(cap->d, FIXTURE_LABS "/pipe", NULL);
    cr_assert_not_null(def, "got:%s", capture_dump(cap));
    const struct ast_param *p = qz_lab_param(def, "schedule");
    cr_assert_not_null(p);
    cr_expect_eq(p->type, PARAM_ENUM);
    cr_expect_eq(p->choices.n, 3);
    cr_expect_eq(qz_lab_param(def, "stages")->type, PARAM_INT);
    cr_expect_eq(qz_lab_param(def, "rate")->type, PARAM_REAL);
    cr_expect_null(qz_lab_param(def, "bubble_fraction"));
    cr_expect_not_null(qz_lab_metric(def, "step_ms"));
    cr_expect_null(qz_lab_metric(def, "stages"));
    ast_labdef_free(def);
}

/* ---- one spelling of a value ---- */

struct spelling {
    const char *arg;        /* name = value, as written in the quiz */
    const char *canon;      /* what every output carries; NULL: an error */
    const char *error;      /* the error when canon is NULL */
};

static const struct spelling spellings[] = {
    { .arg = "stages = 4", .canon = "4" },
    { .arg = "stages = 4.0", .canon = "4" },
    { .arg = "stages = 1e1", .canon = "10" },
    { .arg = "stages = 6.4e1", .canon = "64" },
    { .arg = "stages = 4.5", .error = "parameter 'stages' takes an integer, got 4.5" },
    { .arg = "stages = 400%", .error = "parameter 'stages' takes an integer, got 400%" },
    { .arg = "stages = 65", .error = "stages = 65 is out of range 1..64" },
    { .arg = "rate = 0.25", .canon = "0.25" },
    { .arg = "rate = 50%", .canon = "0.5" },
    { .arg = "rate = 2.5e-1", .canon = "0.25" },
    { .arg = "rate = 1", .canon = "1" },
    { .arg = "rate = 0.1", .canon = "0.1" },
    { .arg = "rate = 150%", .error = "rate = 150% is out of range 0..1" },
    { .arg = "schedule = 1f1b", .canon = "1f1b" },
    { .arg = "schedule = \"gpipe\"", .canon = "gpipe" },
    { .arg = "schedule = gpip", .error = "parameter 'schedule' takes one of naive|gpipe|1f1b, got 'gpip'; did you mean 'gpipe'?" },
};

Test(labs, every_value_has_one_spelling_that_quizc_the_player_and_verify_share)
{
    for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++) {
        const struct spelling *c = &spellings[i];
        qz_course_free(course);
        capture_free(cap);
        cap = capture_new();
        char *body = xasprintf("        answer true\n        lab pipe (%s)\n", c->arg);
        load_question("truefalse", body);
        free(body);
        struct ast_labref *ref = &course->questions.items[0]->extra->labs.items[0];
        const struct ast_param *p = qz_lab_param(ref->def, ref->args.items[0].name);
        cr_assert_not_null(p, "%s", c->arg);
        char *why = NULL, *canon = qz_param_canon(p, &ref->args.items[0].value, &why);
        if (c->canon) {
            cr_expect_eq(capture_count(cap, DIAG_ERROR), 0, "%s:%s", c->arg, capture_dump(cap));
            cr_expect(canon && strcmp(canon, c->canon) == 0, "%s: got %s, want %s", c->arg,
                      canon ? canon : "(error)", c->canon);
            char *cmd = qz_lab_command(ref), *want = xasprintf("labrun labs/pipe --%s %s", p->name, c->canon);
            cr_expect_str_eq(cmd, want);
            free(cmd);
            free(want);
        } else {
            cr_expect_null(canon, "%s: got %s", c->arg, canon);
            cr_expect(why && strcmp(why, c->error) == 0, "%s: said \"%s\"", c->arg, why ? why : "");
            cr_expect_eq(capture_count(cap, DIAG_ERROR), 1, "%s:%s", c->arg, capture_dump(cap));
            const struct rec *r = capture_nth(cap, DIAG_ERROR, 0);
            cr_expect(r && strcmp(r->msg, c->error) == 0, "%s: quizc said \"%s\"", c->arg, r ? r->msg : "");
        }
        free(canon);
        free(why);
    }
}

Test(labs, a_manifest_missing_one_of_the_quizs_languages_is_warned_at_each_gap)
{
    course = capture_load_text(cap, "quiz.qz",
                               "quiz labs {\n"
                               "    title { id: \"J\"  en: \"T\" }\n"
                               "    languages id, en\n"
                               "    truefalse q { prompt \"P\" answer true\n"
                               "        lab half (n = 2)\n"
                               "            expect left == 0\n"
                               "    }\n"
                               "    truefalse r { prompt \"P\" answer true lab half () }\n"
                               "}\n");
    cr_assert_not_null(course);
    cr_assert(check_course(cap->d, course, &cap->labs), "a gap is no error:%s", capture_dump(cap));
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "got:%s", capture_dump(cap));
    /* Once per gap, however many questions use the lab; plain strings cover every language. */
    cr_assert_eq(capture_count(cap, DIAG_WARNING), 3, "got:%s", capture_dump(cap));
    static const struct { int line, col; const char *msg; } want[] = {
        { 5, 13, "lab 'half' has no 'id' translation of its summary" },
        { 6, 25, "lab 'half' has no 'id' translation of the help of 'n'" },
        { 9, 17, "lab 'half' has no 'id' translation of the description of 'left'" },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const struct rec *w = capture_nth(cap, DIAG_WARNING, i);
        cr_expect_str_eq(w->msg, want[i].msg, "got:%s", capture_dump(cap));
        cr_expect(strstr(w->file, "tests/data/labs/half/lab.qz") != NULL, "warned in %s", w->file);
        cr_expect_eq(w->line, want[i].line, "'%s' at line %d:%s", w->msg, w->line, capture_dump(cap));
        cr_expect_eq(w->col, want[i].col, "'%s' at col %d:%s", w->msg, w->col, capture_dump(cap));
    }
    /* Each points back at the quiz's first use of the lab. */
    const struct rec *note = capture_nth(cap, DIAG_NOTE, 0);
    cr_assert_not_null(note, "got:%s", capture_dump(cap));
    cr_expect_str_eq(note->msg, "the quiz uses lab 'half' here");
    cr_expect_eq(note->line, 5);
    cr_expect_eq(note->col, 13);
}

Test(labs, a_quiz_in_one_language_the_manifest_has_gets_no_warning)
{
    course = capture_load_text(cap, "quiz.qz",
                               "quiz labs {\n"
                               "    title \"T\"\n"
                               "    languages en\n"
                               "    truefalse q { prompt \"P\" answer true lab half (n = 2) expect left == 0 }\n"
                               "}\n");
    cr_assert(check_course(cap->d, course, &cap->labs));
    cr_assert_eq(cap->recs.n, 0, "got:%s", capture_dump(cap));
}
