/*
 * test_load.c — loading a quiz with its includes: paths relative to the
 * including file, questions spliced in order, cycles reported with their
 * chain, bad includes reported at the include.  Fixtures: tests/data/grammar/.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

#define DATA "tests/data/grammar/"

static struct capture cap;
static struct qz_course *course;

static void setup(void) { cap_init(&cap); course = NULL; }
static void teardown(void) { qz_course_free(course); cap_fini(&cap); }

TestSuite(load, .init = setup, .fini = teardown);

static void assert_error_in(int i, const char *path, int line, int col, const char *msg)
{
    const struct rec *r = cap_error(&cap, i);
    cr_assert_not_null(r, "no error %d (of %d)", i, cap_errors(&cap));
    cr_assert(strstr(r->msg, msg), "error %d '%s' does not say '%s'", i, r->msg, msg);
    cr_assert_str_eq(r->path, path);
    cr_assert_eq(r->line, line, "error '%s' at line %d, expected %d", r->msg, r->line, line);
    cr_assert_eq(r->col, col, "error '%s' at col %d, expected %d", r->msg, r->col, col);
}

Test(load, included_questions_are_spliced_where_the_include_stands)
{
    course = qz_load(cap.d, DATA "root.qz");
    cr_assert_not_null(course);
    cr_assert_eq(cap_errors(&cap), 0, "%s", cap.n ? cap.recs[0].msg : "");
    cr_assert_not_null(course->quiz);
    cr_assert_str_eq(course->quiz->id, "root");
    const char *order[] = { "first", "middle", "leaf", "after-leaf", "last" };
    cr_assert_eq(course->questions.n, 5);
    for (size_t i = 0; i < 5; i++)
        cr_assert_str_eq(course->questions.items[i]->id, order[i], "question %zu", i);
    /* The include trees hang off the root's includes, with their own sources. */
    cr_assert_eq(course->root->includes.n, 1);
    struct ast_include *inc = course->root->includes.items[0];
    cr_assert_not_null(inc);
    cr_assert_not_null(inc->file);
    cr_assert_str_eq(inc->file->src->path, DATA "inc/part.qz");
    struct src_loc leaf = ast_question_id_loc(course->questions.items[2]);
    cr_assert_str_eq(loc_src(&leaf)->path, DATA "inc/../leaf.qz");
}

Test(load, an_include_cycle_is_reported_at_the_include_with_its_chain)
{
    course = qz_load(cap.d, DATA "cycle/a.qz");
    cr_assert_not_null(course);
    cr_assert_eq(cap_errors(&cap), 1);
    assert_error_in(0, DATA "cycle/b.qz", 2, 1,
                    "include cycle: " DATA "cycle/a.qz \xE2\x86\x92 " DATA "cycle/b.qz \xE2\x86\x92 " DATA "cycle/a.qz");
    const struct rec *note = cap_find(&cap, "is included here");
    cr_assert_not_null(note);
    cr_assert_eq(note->level, DIAG_NOTE);
    cr_assert_str_eq(note->path, DATA "cycle/a.qz");
    cr_assert_eq(note->line, 3);
    cr_assert_eq(note->col, 5);
    cr_assert_eq(course->questions.n, 1);
    cr_assert_str_eq(course->questions.items[0]->id, "in-b");
}

Test(load, a_file_that_includes_itself_is_a_cycle)
{
    course = qz_load(cap.d, DATA "cycle/self.qz");
    cr_assert_eq(cap_errors(&cap), 1);
    assert_error_in(0, DATA "cycle/self.qz", 2, 1,
                    "include cycle: " DATA "cycle/self.qz \xE2\x86\x92 " DATA "cycle/self.qz");
    cr_assert_eq(course->questions.n, 1);
}

Test(load, missing_folder_and_quiz_includes_are_reported_at_the_include)
{
    course = qz_load(cap.d, DATA "broken.qz");
    cr_assert_not_null(course);
    cr_assert_eq(cap_errors(&cap), 3);
    assert_error_in(0, DATA "broken.qz", 3, 5, "cannot read '" DATA "no-such-file.qz'");
    assert_error_in(1, DATA "broken.qz", 4, 5, "cannot read '" DATA "folder'");
    assert_error_in(2, DATA "has-quiz.qz", 1, 1, "an included file holds only questions, not a quiz");
    const struct rec *note = cap_find(&cap, "'" DATA "has-quiz.qz' is included here");
    cr_assert_not_null(note);
    cr_assert_eq(note->line, 5);
    /* The rest of the quiz still loads. */
    cr_assert_eq(course->questions.n, 1);
    cr_assert_str_eq(course->questions.items[0]->id, "ok");
}

Test(load, errors_inside_an_included_file_name_that_file)
{
    course = qz_load(cap.d, DATA "errors-in-include.qz");
    cr_assert_eq(cap_errors(&cap), 1);
    assert_error_in(0, DATA "inc/bad.qz", 2, 5, "unknown statement 'promt' in single question 'x'");
}

Test(load, a_root_that_cannot_be_read_gives_no_course)
{
    course = qz_load(cap.d, DATA "absent.qz");
    cr_assert_null(course);
    cr_assert_eq(cap_errors(&cap), 1);
    const struct rec *r = cap_error(&cap, 0);
    cr_assert(strstr(r->msg, "cannot read '" DATA "absent.qz'"), "%s", r->msg);
    cr_assert_eq(r->line, 0);
}

Test(load, labs_are_left_alone_without_a_search_path)
{
    course = qz_load(cap.d, DATA "labs.qz");
    cr_assert_eq(cap_errors(&cap), 0);
    cr_assert_eq(course->labs.n, 0);
    cr_assert_null(course->questions.items[0]->extra->labs.items[0].def);
}

Test(load, labs_are_resolved_along_the_search_path)
{
    struct qz_labpath path = { 0 };
    qz_labpath_add(&path, DATA "labs");
    course = qz_load(cap.d, DATA "labs.qz");
    qz_resolve_labs(cap.d, course, &path);
    qz_labpath_clear(&path);
    cr_assert_eq(course->labs.n, 1);
    cr_assert_str_eq(course->labs.items[0]->name, "tiny");
    const struct ast_labref *r = &course->questions.items[0]->extra->labs.items[0];
    cr_assert_eq(r->def, course->labs.items[0]);
    cr_assert_eq(cap_errors(&cap), 1);
    assert_error_in(0, DATA "labs.qz", 8, 13, "unknown lab 'nosuch'");
}

Test(load, parsing_a_lab_manifest_gives_its_definition)
{
    const struct source *src = diag_read_source(cap.d, DATA "labs/tiny/lab.qz", NULL);
    cr_assert_not_null(src);
    struct ast_file *f = qz_parse(cap.d, src);
    cr_assert_eq(cap_errors(&cap), 0);
    cr_assert_not_null(f->lab);
    cr_assert_str_eq(f->lab->name, "tiny");
    cr_assert_eq(f->lab->params.items[0].type, PARAM_INT);
    cr_assert_str_eq(ast_text_get(f->lab->metrics.items[0].help, NULL)->raw, "n squared");
    ast_file_free(f);
}

Test(load, a_quiz_with_every_construct_loads_without_error)
{
    course = qz_load(cap.d, DATA "all-constructs.qz");
    cr_assert_eq(cap_errors(&cap), 0, "%s at %d:%d", cap.n ? cap.recs[0].msg : "", cap.n ? cap.recs[0].line : 0,
                 cap.n ? cap.recs[0].col : 0);
    const struct ast_quiz *q = course->quiz;
    cr_assert_str_eq(q->id, "semua");
    cr_assert_eq(q->langs.n, 2);
    cr_assert_eq(q->feedback, FEEDBACK_ON_SUBMIT);
    cr_assert_eq(q->shuffle, SHUFFLE_CHOICES);
    cr_assert_eq(q->passing, 70);
    const struct ast_tr *intro = ast_text_get(q->intro, "id");
    struct md_doc doc = { 0 };
    md_parse(intro->raw, &doc);
    cr_assert_eq(doc.blocks.n, 2);
    cr_assert_eq(doc.blocks.items[1].kind, MD_CODEBLOCK);
    cr_assert_str_eq(doc.blocks.items[1].code, "int x = 1;");
    md_doc_clear(&doc);

    const char *ids[] = { "s1", "m1", "middle", "leaf", "after-leaf", "t1", "n1", "n2", "x1" };
    enum ast_qkind kinds[] = { Q_SINGLE, Q_MULTIPLE, Q_NUMERIC, Q_MULTIPLE, Q_TEXT, Q_TRUEFALSE, Q_NUMERIC,
                               Q_NUMERIC, Q_TEXT };
    cr_assert_eq(course->questions.n, 9);
    for (size_t i = 0; i < 9; i++) {
        cr_assert_str_eq(course->questions.items[i]->id, ids[i]);
        cr_assert_eq(course->questions.items[i]->kind, kinds[i], "question %s", ids[i]);
    }
    const struct ast_question *s1 = course->questions.items[0];
    cr_assert_str_eq(ast_text_get(s1->explain, "en")->raw, "Neutral explanation with \"quotes\", a tab\there and 😀.");
    cr_assert_str_eq(ast_text_get(s1->choices.items[0].because, "en")->raw, "Because");
    cr_assert_eq(s1->extra->points, 2);
    cr_assert_eq(s1->extra->labs.items[0].args.n, 3);
    cr_assert_eq(s1->extra->snippets.n, 1);
    const struct ast_question *n1 = course->questions.items[6];
    cr_assert_eq(n1->numeric->kind, NUM_TOLERANCE);
    cr_assert(n1->extra->labs.items[0].expects.items[1].of_answer);
    cr_assert_eq(course->questions.items[7]->numeric->kind, NUM_RANGE);
    cr_assert_eq(course->questions.items[8]->accept.n, 2);
}

Test(load, a_file_included_twice_is_reported_at_the_second_include)
{
    course = qz_load(cap.d, DATA "twice.qz");
    cr_assert_eq(cap_errors(&cap), 1);
    assert_error_in(0, DATA "twice.qz", 4, 5, "'" DATA "inc/../leaf.qz' is already included");
    const struct rec *note = cap_find(&cap, "is first included here");
    cr_assert_not_null(note);
    cr_assert_eq(note->line, 3);
    cr_assert_eq(course->questions.n, 1);
}

Test(load, includes_nest_at_most_a_hundred_deep)
{
    char dir[] = "/tmp/qz-depth-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    /* f0.qz includes f1.qz ... includes f120.qz: a chain longer than the limit. */
    for (int i = 0; i <= 120; i++) {
        char *path = xasprintf("%s/f%d.qz", dir, i);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fprintf(f, "truefalse q%d { prompt \"p\" answer true }\n", i);
        if (i < 120) fprintf(f, "include \"f%d.qz\"\n", i + 1);
        fclose(f);
        free(path);
    }
    char *root = xasprintf("%s/f0.qz", dir);
    course = qz_load(cap.d, root);
    free(root);
    cr_assert_eq(cap_errors(&cap), 1);
    const struct rec *r = cap_error(&cap, 0);
    cr_assert(strstr(r->msg, "includes are nested more than 100 deep"), "%s", r->msg);
    cr_assert_eq(r->line, 2);
    cr_assert_eq(course->questions.n, 101);
    for (int i = 0; i <= 120; i++) {
        char *path = xasprintf("%s/f%d.qz", dir, i);
        remove(path);
        free(path);
    }
    rmdir(dir);
}
