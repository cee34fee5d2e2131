/*
 * test_check.c — each semantic check: its message, and the line and column
 * it points at.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "check.h"
#include "support.h"

static struct capture *cap;
static struct qz_course *course;

static void setup(void) { cap = capture_new(); course = NULL; }
static void teardown(void) { qz_course_free(course); capture_free(cap); }

TestSuite(check, .init = setup, .fini = teardown);

/* Load text and run the checks; the text itself must parse cleanly. */
static bool run(const char *text)
{
    course = capture_load_text(cap, "quiz.qz", text);
    cr_assert_not_null(course);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "the test quiz does not parse:%s", capture_dump(cap));
    return check_course(cap->d, course, NULL);
}

static void assert_diag(enum diag_level level, size_t n, int line, int col, const char *msg)
{
    const struct rec *r = capture_nth(cap, level, n);
    cr_assert_not_null(r, "no diagnostic #%zu of that level; got:%s", n, capture_dump(cap));
    cr_expect_str_eq(r->msg, msg, "got:%s", capture_dump(cap));
    cr_expect_eq(r->line, line, "line %d, expected %d:%s", r->line, line, capture_dump(cap));
    cr_expect_eq(r->col, col, "column %d, expected %d:%s", r->col, col, capture_dump(cap));
}

static void assert_only_error(int line, int col, const char *msg)
{
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "expected one error, got:%s", capture_dump(cap));
    assert_diag(DIAG_ERROR, 0, line, col, msg);
}

Test(check, a_complete_quiz_passes_every_check)
{
    bool ok = run("quiz ok {\n"
                  "    title { en: \"T\" id: \"J\" }\n"
                  "    languages en, id\n"
                  "    passing 100%\n"
                  "    single q1 { prompt \"P\" correct \"a\" wrong \"b\" because { en: \"no\" id: \"tidak\" } }\n"
                  "    multiple q2 { prompt \"P\" correct \"a\" correct \"b\" wrong \"c\" points 2 }\n"
                  "    truefalse q3 { prompt \"P\" answer false }\n"
                  "    numeric q4 { prompt \"P\" answer 0.26..0.29 unit \"fraction\" }\n"
                  "    numeric q5 { prompt \"P\" answer 0.27 within 0 }\n"
                  "    text q6 { prompt \"P\" accept \"NVLink\" }\n"
                  "}\n");
    cr_expect(ok, "got:%s", capture_dump(cap));
    cr_expect_eq(cap->recs.n, 0, "got:%s", capture_dump(cap));
}

Test(check, languages_without_a_comma_are_one_error_and_their_texts_none)
{
    course = capture_load_text(cap, "quiz.qz",
                               "quiz q {\n"
                               "    title { id: \"J\" en: \"T\" }\n"
                               "    languages id en\n"
                               "    single s { prompt { id: \"P\" en: \"Q\" } correct \"a\" wrong \"b\" }\n"
                               "}\n");
    cr_assert_not_null(course);
    check_course(cap->d, course, NULL);
    assert_only_error(3, 18, "languages are separated by commas: write `id, en`");
}

Test(check, the_seed_quiz_passes_every_check)
{
    course = qz_load(cap->d, "quizzes/paralelisme.qz");
    cr_assert_not_null(course);
    cr_expect(check_course(cap->d, course, NULL), "got:%s", capture_dump(cap));
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 0, "got:%s", capture_dump(cap));
}

Test(check, the_second_shipped_quiz_passes_every_check)
{
    course = qz_load(cap->d, "quizzes/paralelisme-lanjut.qz");
    cr_assert_not_null(course);
    cr_expect(check_course(cap->d, course, NULL), "got:%s", capture_dump(cap));
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 0, "got:%s", capture_dump(cap));
    cr_expect_geq(course->questions.n, 8);
}

Test(check, a_duplicate_id_is_reported_at_the_second_with_a_note_at_the_first)
{
    cr_expect_not(run("quiz d {\n"
                      "    title \"T\"\n"
                      "    truefalse q1 { prompt \"A\" answer true }\n"
                      "    truefalse q1 { prompt \"B\" answer true }\n"
                      "}\n"));
    assert_only_error(4, 15, "duplicate question id 'q1'");
    assert_diag(DIAG_NOTE, 0, 3, 15, "'q1' is first defined here");
}

Test(check, a_duplicate_id_in_an_included_file_names_both_files)
{
    free(capture_write(cap, "more.qz", "\n\ntruefalse dup { prompt \"B\" answer true }\n"));
    cr_expect_not(run("quiz d {\n"
                      "    title \"T\"\n"
                      "    truefalse dup { prompt \"A\" answer true }\n"
                      "    include \"more.qz\"\n"
                      "}\n"));
    assert_only_error(3, 11, "duplicate question id 'dup'");
    const struct rec *e = capture_nth(cap, DIAG_ERROR, 0), *n = capture_nth(cap, DIAG_NOTE, 0);
    cr_assert_not_null(n);
    cr_expect(strstr(e->file, "/more.qz") != NULL, "error in %s", e->file);
    cr_expect(strstr(n->file, "/quiz.qz") != NULL, "note in %s", n->file);
    cr_expect_eq(n->line, 3);
    cr_expect_eq(n->col, 15);
}

Test(check, a_question_without_a_prompt_is_reported_at_its_id)
{
    cr_expect_not(run("quiz p {\n"
                      "    title \"T\"\n"
                      "    truefalse nop { answer true }\n"
                      "}\n"));
    assert_only_error(3, 15, "truefalse question 'nop' has no prompt (add `prompt \"...\"`)");
}

Test(check, a_single_with_two_correct_choices_says_how_many)
{
    cr_expect_not(run("quiz s {\n"
                      "    title \"T\"\n"
                      "    single q3 {\n"
                      "        prompt \"P\"\n"
                      "        correct \"a\"\n"
                      "        wrong \"b\"\n"
                      "        correct \"c\"\n"
                      "    }\n"
                      "}\n"));
    assert_only_error(3, 12, "single question 'q3' needs exactly one correct choice, has 2 "
                             "(use `multiple` for several)");
    cr_expect_eq(capture_count(cap, DIAG_NOTE), 2);
    assert_diag(DIAG_NOTE, 0, 5, 9, "a correct choice");
    assert_diag(DIAG_NOTE, 1, 7, 9, "a correct choice");
}

Test(check, a_single_with_no_correct_choice_says_so)
{
    cr_expect_not(run("quiz s {\n"
                      "    title \"T\"\n"
                      "    single q3 { prompt \"P\" wrong \"a\" wrong \"b\" }\n"
                      "}\n"));
    assert_only_error(3, 12, "single question 'q3' needs exactly one correct choice, has none");
}

Test(check, a_choice_question_needs_at_least_two_choices)
{
    cr_expect_not(run("quiz s {\n"
                      "    title \"T\"\n"
                      "    multiple lonely { prompt \"P\" correct \"a\" }\n"
                      "}\n"));
    assert_only_error(3, 14, "multiple question 'lonely' needs at least two choices, has 1");
}

Test(check, a_multiple_with_no_correct_choice_is_reported)
{
    cr_expect_not(run("quiz m {\n"
                      "    title \"T\"\n"
                      "    multiple q9 { prompt \"P\" wrong \"a\" wrong \"b\" }\n"
                      "}\n"));
    assert_only_error(3, 14, "multiple question 'q9' needs at least one correct choice, has none");
}

Test(check, more_choices_than_scorm_ids_are_reported_at_the_question_with_a_note_at_the_first_too_many)
{
    char text[4096] = "quiz big {\n    title \"T\"\n    multiple many {\n        prompt \"P\"\n";
    for (int i = 0; i < 37; i++)
        strcat(text, i == 0 ? "        correct \"c\"\n" : "        wrong \"w\"\n");
    strcat(text, "    }\n}\n");
    cr_expect_not(run(text));
    assert_only_error(3, 14, "multiple question 'many' has 37 choices; at most 36 are allowed "
                             "(SCORM 1.2 names choices 0-9, a-z)");
    assert_diag(DIAG_NOTE, 0, 41, 9, "choice 37 is here");
}

Test(check, a_truefalse_without_an_answer_is_reported)
{
    cr_expect_not(run("quiz t {\n"
                      "    title \"T\"\n"
                      "    truefalse q10 { prompt \"P\" }\n"
                      "}\n"));
    assert_only_error(3, 15, "truefalse question 'q10' has no answer (add `answer true` or `answer false`)");
}

Test(check, a_numeric_without_an_answer_is_reported)
{
    cr_expect_not(run("quiz n {\n"
                      "    title \"T\"\n"
                      "    numeric q11 { prompt \"P\" unit \"ms\" }\n"
                      "}\n"));
    assert_only_error(3, 13, "numeric question 'q11' has no answer (add `answer 42`, "
                             "`answer 0.27 within 0.01` or `answer 0.26..0.29`)");
}

Test(check, a_numeric_range_whose_low_end_is_above_its_high_end_is_reported_at_the_low_end)
{
    cr_expect_not(run("quiz n {\n"
                      "    title \"T\"\n"
                      "    numeric q11 {\n"
                      "        prompt \"P\"\n"
                      "        answer 0.29..0.26\n"
                      "    }\n"
                      "}\n"));
    assert_only_error(5, 16, "numeric range 0.29..0.26 is empty: its low end is above its high end");
}

Test(check, a_negative_tolerance_is_reported_at_the_tolerance)
{
    cr_expect_not(run("quiz n {\n"
                      "    title \"T\"\n"
                      "    numeric q11 { prompt \"P\" answer 0.27 within -0.01 }\n"
                      "}\n"));
    assert_only_error(3, 49, "tolerance must not be negative, got -0.01");
}

Test(check, passing_above_one_hundred_percent_is_reported)
{
    cr_expect_not(run("quiz p {\n"
                      "    title \"T\"\n"
                      "    passing 120%\n"
                      "    truefalse q { prompt \"P\" answer true }\n"
                      "}\n"));
    assert_only_error(3, 13, "passing 120% is outside 0%..100%");
}

Test(check, zero_points_are_reported_at_the_points)
{
    cr_expect_not(run("quiz p {\n"
                      "    title \"T\"\n"
                      "    truefalse q { prompt \"P\" answer true points 0 }\n"
                      "}\n"));
    assert_only_error(3, 49, "points must be greater than 0 and at most 1000, got 0");
}

Test(check, a_text_question_without_accepted_answers_is_reported)
{
    cr_expect_not(run("quiz x {\n"
                      "    title \"T\"\n"
                      "    text q12 { prompt \"P\" }\n"
                      "}\n"));
    assert_only_error(3, 10, "text question 'q12' accepts no answer (add `accept \"...\"`)");
}

Test(check, a_quiz_without_a_title_is_reported_at_its_name)
{
    cr_expect_not(run("quiz untitled {\n"
                      "    truefalse q { prompt \"P\" answer true }\n"
                      "}\n"));
    assert_only_error(1, 6, "quiz 'untitled' has no title (add `title \"...\"`)");
}

Test(check, a_text_missing_a_declared_language_names_it_with_a_note_at_the_languages)
{
    cr_expect_not(run("quiz l {\n"
                      "    title \"T\"\n"
                      "    languages id, en\n"
                      "    truefalse q {\n"
                      "        prompt { id: \"Benar?\" }\n"
                      "        answer true\n"
                      "    }\n"
                      "}\n"));
    assert_only_error(5, 16, "missing 'en' translation of the prompt");
    assert_diag(DIAG_NOTE, 0, 3, 5, "the quiz's languages are declared here");
}

Test(check, a_language_not_declared_is_reported_at_its_tag)
{
    cr_expect_not(run("quiz l {\n"
                      "    title \"T\"\n"
                      "    languages en\n"
                      "    truefalse q {\n"
                      "        prompt { en: \"True?\" fr: \"Vrai ?\" }\n"
                      "        answer true\n"
                      "    }\n"
                      "}\n"));
    assert_only_error(5, 30, "language 'fr' is not declared in the quiz's `languages`");
    assert_diag(DIAG_NOTE, 0, 3, 5, "the quiz's languages are declared here");
}

Test(check, a_language_tag_in_a_quiz_that_declares_none_is_reported)
{
    cr_expect_not(run("quiz l {\n"
                      "    title { en: \"T\" }\n"
                      "    truefalse q { prompt \"P\" answer true }\n"
                      "}\n"));
    assert_only_error(2, 13, "language 'en' is used but the quiz declares no languages (add `languages en`)");
}

Test(check, a_neutral_string_in_a_multi_language_quiz_is_accepted)
{
    cr_expect(run("quiz l {\n"
                  "    title { id: \"Kuis\" en: \"Quiz\" }\n"
                  "    languages id, en\n"
                  "    text q { prompt { id: \"Nama?\" en: \"Name?\" } accept \"NVLink\" explain \"NVLink.\" }\n"
                  "}\n"), "got:%s", capture_dump(cap));
    cr_expect_eq(cap->recs.n, 0, "got:%s", capture_dump(cap));
}

Test(check, a_translation_given_twice_is_reported_at_the_second)
{
    cr_expect_not(run("quiz l {\n"
                      "    title { en: \"A\" en: \"B\" }\n"
                      "    languages en\n"
                      "    truefalse q { prompt \"P\" answer true }\n"
                      "}\n"));
    assert_only_error(2, 21, "the 'en' translation of the title is given twice");
    assert_diag(DIAG_NOTE, 0, 2, 13, "first given here");
}

Test(check, a_language_declared_twice_is_reported)
{
    cr_expect_not(run("quiz l {\n"
                      "    title \"T\"\n"
                      "    languages en, id, en\n"
                      "    truefalse q { prompt \"P\" answer true }\n"
                      "}\n"));
    assert_only_error(3, 23, "language 'en' is declared twice");
}

Test(check, every_independent_problem_is_reported_in_one_run)
{
    cr_expect_not(run("quiz many {\n"
                      "    title \"T\"\n"
                      "    passing 101%\n"
                      "    single a { prompt \"P\" wrong \"x\" wrong \"y\" }\n"
                      "    truefalse b { prompt \"P\" }\n"
                      "    truefalse a { prompt \"P\" answer true }\n"
                      "}\n"));
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 4, "got:%s", capture_dump(cap));
    assert_diag(DIAG_ERROR, 0, 3, 13, "passing 101% is outside 0%..100%");
    assert_diag(DIAG_ERROR, 1, 4, 12, "single question 'a' needs exactly one correct choice, has none");
    assert_diag(DIAG_ERROR, 2, 5, 15, "truefalse question 'b' has no answer (add `answer true` or `answer false`)");
    assert_diag(DIAG_ERROR, 3, 6, 15, "duplicate question id 'a'");
}

Test(check, a_quiz_without_questions_gets_a_warning)
{
    cr_expect(run("quiz empty {\n    title \"T\"\n}\n"));
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 0);
    assert_diag(DIAG_WARNING, 0, 1, 6, "quiz 'empty' has no questions");
}

Test(check, a_mistyped_statement_is_not_reported_again_as_an_absence)
{
    course = capture_load_text(cap, "quiz.qz",
                               "quiz typo {\n"
                               "    title \"T\"\n"
                               "    truefalse q1 { promt \"P\" answer true }\n"
                               "    truefalse q2 { prompt \"P\" }\n"
                               "}\n");
    cr_assert_not_null(course);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "the parser reports the typo:%s", capture_dump(cap));
    cr_expect_not(check_course(cap->d, course, NULL));
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 2, "got:%s", capture_dump(cap));
    assert_diag(DIAG_ERROR, 1, 4, 15, "truefalse question 'q2' has no answer (add `answer true` or `answer false`)");
}

Test(check, a_missing_title_is_not_reported_after_an_error_in_the_header)
{
    course = capture_load_text(cap, "quiz.qz",
                               "quiz typo {\n"
                               "    titel \"T\"\n"
                               "    truefalse q1 { prompt \"P\" answer true }\n"
                               "}\n");
    cr_assert_not_null(course);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "the parser reports the typo:%s", capture_dump(cap));
    check_course(cap->d, course, NULL);
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 1, "got:%s", capture_dump(cap));
}

Test(check, a_lab_manifest_given_as_a_quiz_is_named_as_such)
{
    course = capture_load(cap, FIXTURE_LABS "/pipe/lab.qz");
    cr_assert_not_null(course);
    cr_expect_not(check_course(cap->d, course, NULL));
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "got:%s", capture_dump(cap));
    assert_diag(DIAG_ERROR, 0, 4, 5, "this file is the manifest of lab 'pipe', not a quiz");
}

Test(check, a_file_of_questions_alone_is_told_it_can_be_included)
{
    cr_expect_not(run("truefalse q { prompt \"P\" answer true }\n"));
    assert_only_error(1, 1, "this file holds questions but no `quiz NAME { ... }`; a quiz can include it");
}

Test(check, an_empty_file_has_no_quiz)
{
    cr_expect_not(run("# nothing here\n"));
    assert_only_error(1, 1, "no `quiz NAME { ... }` in this file");
}

/* ---- Every id and number an output can carry ---------------------------- */

Test(check, ids_that_differ_only_in_case_are_an_error_naming_the_earlier_one)
{
    cr_expect_not(run("quiz c {\n"
                      "    title \"T\"\n"
                      "    truefalse Bubble { prompt \"A\" answer true }\n"
                      "    truefalse bubble { prompt \"B\" answer true }\n"
                      "}\n"));
    assert_only_error(4, 15, "question id 'bubble' differs from 'Bubble' only in case; "
                             "ids must differ in more (packages name files after them)");
    assert_diag(DIAG_NOTE, 0, 3, 15, "'Bubble' is first defined here");
}

Test(check, an_id_of_65_characters_is_too_long_and_one_of_64_is_not)
{
    char text[400];
    snprintf(text, sizeof text, "quiz c {\n    title \"T\"\n"
             "    truefalse %.64s { prompt \"A\" answer true }\n"
             "    truefalse %.65s { prompt \"B\" answer true }\n}\n",
             "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
             "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    cr_expect_not(run(text));
    assert_only_error(4, 15, "question id 'aaaaaaaaaaaaaaaaaaaa...' is 65 characters long; at most 64 are allowed "
                             "(packages name files after ids)");
}

Test(check, an_id_that_starts_with_a_digit_is_reported_for_questions_and_the_quiz)
{
    cr_expect_not(run("quiz 2nd {\n"
                      "    title \"T\"\n"
                      "    truefalse 1f1b { prompt \"A\" answer true }\n"
                      "}\n"));
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 2, "got:%s", capture_dump(cap));
    assert_diag(DIAG_ERROR, 0, 1, 6, "quiz id '2nd' starts with a digit; an id starts with a letter or '_' "
                                     "(it is an XML ID in every output)");
    assert_diag(DIAG_ERROR, 1, 3, 15, "question id '1f1b' starts with a digit; an id starts with a letter or '_' "
                                      "(it is an XML ID in every output)");
}

Test(check, windows_device_names_are_no_question_ids)
{
    cr_expect_not(run("quiz c {\n"
                      "    title \"T\"\n"
                      "    truefalse Aux { prompt \"A\" answer true }\n"
                      "    truefalse com1 { prompt \"A\" answer true }\n"
                      "    truefalse com10 { prompt \"A\" answer true }\n"
                      "    truefalse lpt { prompt \"A\" answer true }\n"
                      "}\n"));
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 2, "got:%s", capture_dump(cap));
    assert_diag(DIAG_ERROR, 0, 3, 15, "question id 'Aux' is a device name on Windows, where no file can be "
                                      "called so (a QTI package names a file after each question)");
    assert_diag(DIAG_ERROR, 1, 4, 15, "question id 'com1' is a device name on Windows, where no file can be "
                                      "called so (a QTI package names a file after each question)");
}

Test(check, points_past_1000_are_reported_at_the_points)
{
    cr_expect_not(run("quiz p {\n"
                      "    title \"T\"\n"
                      "    truefalse q { prompt \"P\" answer true points 1e300 }\n"
                      "    truefalse r { prompt \"P\" answer true points 1000 }\n"
                      "}\n"));
    assert_only_error(3, 49, "points must be greater than 0 and at most 1000, got 1e+300");
}

Test(check, numeric_answers_tolerances_and_ranges_past_1e15_are_reported_at_the_number)
{
    cr_expect_not(run("quiz n {\n"
                      "    title \"T\"\n"
                      "    numeric a { prompt \"P\" answer 1e300 within 1e16 }\n"
                      "    numeric b { prompt \"P\" answer -1e308..1e15 }\n"
                      "    numeric c { prompt \"P\" answer 5 within 1e20% }\n"
                      "    numeric d { prompt \"P\" answer -1e15 within 1e15 }\n"
                      "}\n"));
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 4, "got:%s", capture_dump(cap));
    assert_diag(DIAG_ERROR, 0, 3, 35, "the answer 1e300 is too large; numbers here are at most 1e15 in size");
    assert_diag(DIAG_ERROR, 1, 3, 48, "the tolerance 1e16 is too large; numbers here are at most 1e15 in size");
    assert_diag(DIAG_ERROR, 2, 4, 35, "the range's low end -1e308 is too large; numbers here are at most 1e15 in size");
    assert_diag(DIAG_ERROR, 3, 5, 44, "the tolerance 1e20% is too large; numbers here are at most 1e15 in size");
}
