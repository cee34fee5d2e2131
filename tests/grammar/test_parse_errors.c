/*
 * test_parse_errors.c — the grammar's (quiz.y) and its scanner's block
 * tracking's errors: every syntax error at its exact line and column,
 * unclosed blocks, and recovery so that independent errors are all
 * reported.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "capture.h"

static struct capture cap;
static struct ast_file *file;

static void setup(void) { cap_init(&cap); file = NULL; }
static void teardown(void) { ast_file_free(file); cap_fini(&cap); }

TestSuite(parse_errors, .init = setup, .fini = teardown);

static void parse(const char *text) { file = cap_parse(&cap, text); }

static void parse_ok(const char *text) { file = cap_parse_ok(&cap, text); }
static struct ast_question *question(size_t i) { return cap_question(file, i); }
static void assert_error(int i, int line, int col, const char *msg) { cap_assert_error(&cap, i, line, col, msg); }
static void assert_note(const char *msg, int line, int col) { cap_assert_note(&cap, msg, line, col); }

/* ---- Errors -------------------------------------------------------------- */

Test(parse_errors, an_unknown_statement_gets_a_did_you_mean_for_a_near_miss)
{
    parse("quiz q {\n"
          "  single q1 {\n"
          "    promt \"What?\"\n"
          "    correct \"a\"\n"
          "  }\n"
          "}\n");
    assert_error(0, 3, 5, "unknown statement 'promt' in single question 'q1'; did you mean 'prompt'?");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(question(0)->choices.n, 1);
}

Test(parse_errors, a_misspelled_statement_with_a_language_block_is_one_error)
{
    /* The block is the word's argument: not seven errors about `id`, `en`, ':' and the next statements. */
    parse("quiz q {\n"
          "  languages en, id\n"
          "  single q1 {\n"
          "    promt { id: \"Apa?\" en: \"What?\" }\n"
          "    correct \"a\" wrong \"b\"\n"
          "  }\n"
          "}\n");
    assert_error(0, 4, 5, "unknown statement 'promt' in single question 'q1'; did you mean 'prompt'?");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(question(0)->choices.n, 2);
}

Test(parse_errors, a_misspelled_statement_with_a_block_is_one_error_in_every_block)
{
    parse("titel { en: \"T\" }\n"
          "quiz q {\n  intor { en: \"i\" }\n}\n");
    assert_error(0, 1, 1, "unknown statement 'titel' in this file");
    assert_error(1, 3, 3, "unknown statement 'intor' in quiz 'q'; did you mean 'intro'?");
    cr_assert_eq(cap_errors(&cap), 2);
    cap_fini(&cap);
    cap_init(&cap);
    ast_file_free(file);
    parse("lab l {\n  title \"t\"\n  sumary { en: \"s\" }\n}\n");
    assert_error(0, 3, 3, "unknown statement 'sumary' in lab 'l'; did you mean 'summary'?");
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(parse_errors, a_block_of_statements_after_an_unknown_word_is_its_argument_not_more_errors)
{
    /* `singel q1 { ... }` and `sngle { ... }`: the block holds statements, not languages; it goes with the word. */
    parse("quiz q {\n"
          "  singel q1 {\n    prompt \"p\"\n    correct \"a\" wrong \"b\"\n  }\n"
          "  sngle {\n    prompt \"p\" correct \"a\"\n  }\n"
          "  single q3 { prompt \"p\" correct \"a\" wrong \"b\" }\n"
          "}\n");
    assert_error(0, 2, 3, "unknown statement 'singel' in quiz 'q'; did you mean 'single'?");
    assert_error(1, 6, 3, "unknown statement 'sngle' in quiz 'q'; did you mean 'single'?");
    cr_assert_eq(cap_errors(&cap), 2);
    cr_assert_eq(file->questions.n, 1);
}

Test(parse_errors, an_unknown_word_last_in_its_block_is_named_with_that_block)
{
    /* The parser reads the '}' to see whether a text follows the word; the block is still the word's. */
    parse("quiz q {\n  single q1 { prompt \"p\" correct \"a\" wrong \"b\" bogus }\n}\n");
    assert_error(0, 2, 48, "unknown statement 'bogus' in single question 'q1'");
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(parse_errors, languages_without_a_comma_ask_for_one)
{
    parse("quiz q {\n  languages id en fr\n  title \"t\"\n}\n");
    assert_error(0, 2, 16, "languages are separated by commas: write `id, en`");
    cr_assert_eq(cap_errors(&cap), 1);
    /* Every tag is still listed: a text in en or fr is no second error. */
    cr_assert_eq(file->quiz->langs.n, 3);
    cr_assert_str_eq(file->quiz->langs.items[1].tag, "en");
    cr_assert_str_eq(file->quiz->langs.items[2].tag, "fr");
}

Test(parse_errors, an_unknown_statement_suggests_only_statements_of_its_block)
{
    parse("quiz q {\n  titel \"x\"\n  numeric n { prompt \"p\" anwser 4 unti \"kg\" }\n  bogus 1\n}\n");
    assert_error(0, 2, 3, "unknown statement 'titel' in quiz 'q'; did you mean 'title'?");
    assert_error(1, 3, 26, "unknown statement 'anwser' in numeric question 'n'; did you mean 'answer'?");
    assert_error(2, 3, 35, "unknown statement 'unti' in numeric question 'n'; did you mean 'unit'?");
    assert_error(3, 4, 3, "unknown statement 'bogus' in quiz 'q'");
    cr_assert_null(strstr(cap_error(&cap, 3)->msg, "did you mean"));
    cr_assert_eq(cap_errors(&cap), 4);
}

Test(parse_errors, an_unknown_word_at_the_top_of_a_file_is_reported)
{
    parse("qiuz q { }\n");
    assert_error(0, 1, 1, "unknown statement 'qiuz' in this file; did you mean 'quiz'?");
}

Test(parse_errors, a_keyword_out_of_place_is_named_with_its_block)
{
    parse("quiz q {\n  single a { prompt \"p\" title \"t\" correct \"x\" }\n}\n");
    assert_error(0, 2, 25, "'title' cannot appear in single question 'a'");
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(parse_errors, an_unclosed_block_is_reported_where_it_opened_with_a_note_at_the_end)
{
    parse("quiz q {\n"
          "  single q3 {\n"
          "    prompt \"p\"\n"
          "    correct \"a\"\n");
    assert_error(0, 2, 13, "unclosed '{' of single question 'q3'");
    assert_note("the file ended here", 4, 16);
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(question(0)->choices.n, 1);
}

Test(parse_errors, an_unclosed_question_before_the_next_one_is_closed_there)
{
    parse("quiz q {\n"
          "  single q1 {\n"
          "    prompt \"p\"\n"
          "  single q2 { prompt \"r\" }\n"
          "}\n");
    assert_error(0, 2, 13, "unclosed '{' of single question 'q1'");
    assert_note("the next question starts here", 4, 3);
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(file->questions.n, 2);
    cr_assert_str_eq(question(1)->id, "q2");
    cr_assert_not_null(question(1)->prompt);
}

Test(parse_errors, an_unclosed_language_block_is_reported_where_it_opened)
{
    parse("single s {\n"
          "  prompt { en: \"p\"\n"
          "  correct \"a\"\n"
          "}\n");
    assert_error(0, 2, 10, "unclosed '{' of language block");
    assert_note("expected '}' before 'correct'", 3, 3);
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(question(0)->choices.n, 1);
}

Test(parse_errors, an_unclosed_block_is_found_by_the_indentation_of_the_brace_that_closed_it)
{
    parse("quiz q {\n"
          "    title \"t\"\n"
          "    truefalse q3 {\n"
          "        prompt \"z\"\n"
          "        answer true\n"
          "    single q4 { prompt \"p\" }\n"
          "}\n");
    /* q3's head cannot be told by a following question here: q4 closes q3 ... */
    assert_error(0, 3, 18, "unclosed '{' of truefalse question 'q3'");
    assert_note("the next question starts here", 6, 5);
    cr_assert_eq(cap_errors(&cap), 1);

    ast_file_free(file);
    cap_fini(&cap);
    cap_init(&cap);
    parse("quiz q {\n"
          "    title \"t\"\n"
          "    truefalse q3 {\n"
          "        prompt \"z\"\n"
          "        answer true\n"
          "}\n");
    /* ... but as the last question, its missing '}' leaves the quiz open: the indentation tells. */
    assert_error(0, 3, 18, "unclosed '{' of truefalse question 'q3'");
    assert_note("this '}' closed it, though its indentation matches the enclosing block", 6, 1);
    assert_note("the file ended here", 6, 2);
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(parse_errors, an_unclosed_quiz_is_reported_at_its_brace)
{
    parse("quiz paralelisme {\n  title \"t\"\n\n");
    assert_error(0, 1, 18, "unclosed '{' of quiz 'paralelisme'");
    assert_note("the file ended here", 2, 12);
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(parse_errors, a_value_of_the_wrong_kind_names_what_was_expected)
{
    parse("quiz q {\n  passing \"high\"\n  single a { points many }\n}\n");
    assert_error(0, 2, 11, "expected a number, found a string");
    assert_error(1, 3, 21, "expected a number, found 'many'");
    cr_assert_eq(cap_errors(&cap), 2);
}

Test(parse_errors, a_string_where_a_statement_should_start_is_reported)
{
    parse("single a { prompt \"p\" \"stray\" correct \"x\" }");
    assert_error(0, 1, 23, "expected a statement in single question 'a', found a string");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(question(0)->choices.n, 1);
}

Test(parse_errors, a_missing_colon_in_a_language_block_recovers_inside_the_block)
{
    parse("single a {\n  prompt { id \"x\" en: \"y\" }\n  correct \"c\"\n}\n");
    assert_error(0, 2, 15, "expected ':', found a string");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(question(0)->prompt->n, 1);
    cr_assert_str_eq(question(0)->prompt->trs[0].lang, "en");
    cr_assert_eq(question(0)->choices.n, 1);
}

Test(parse_errors, three_independent_errors_are_all_reported)
{
    parse("quiz q {\n"
          "  title \"t\"\n"
          "  single q1 {\n"
          "    promt \"x\"\n"
          "    correct \"a\"\n"
          "  }\n"
          "  numeric q2 { prompt \"n\" answer 1 accept \"x\" }\n"
          "  shuffle sometimes\n"
          "  text q3 { prompt \"t\" accept \"a\" }\n"
          "}\n");
    cr_assert_eq(cap_errors(&cap), 3);
    assert_error(0, 4, 5, "unknown statement 'promt'");
    assert_error(1, 7, 36, "'accept' cannot appear in numeric question 'q2'");
    assert_error(2, 8, 11, "unknown shuffle 'sometimes'");
    cr_assert_eq(file->questions.n, 3);
    cr_assert_eq(question(2)->accept.n, 1);
}

Test(parse_errors, syntax_errors_in_separate_questions_are_each_reported)
{
    parse("single a { prompt 4 correct \"x\" }\n"
          "single b { prompt \"p\" correct }\n"
          "single c { prompt \"p\" wrong \"w\" because }\n"
          "single d { prompt \"p\" }\n");
    cr_assert_eq(cap_errors(&cap), 3);
    assert_error(0, 1, 19, "expected a string or '{', found number 4");
    assert_error(1, 2, 31, "expected a string or '{', found '}'");
    assert_error(2, 3, 41, "found '}'");
    cr_assert_eq(file->questions.n, 4);
    cr_assert_not_null(question(3)->prompt);
}

Test(parse_errors, an_unknown_statement_in_a_lab_manifest_gets_a_suggestion)
{
    parse("lab l {\n  title \"t\"\n  parma x = 1\n  metric y\n}\n");
    assert_error(0, 3, 3, "unknown statement 'parma' in lab 'l'; did you mean 'param'?");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(file->lab->metrics.n, 1);
}

Test(parse_errors, a_stray_closing_brace_is_reported)
{
    parse("single a { prompt \"p\" } }\nsingle b { prompt \"q\" }\n");
    assert_error(0, 1, 25, "found '}'");
    cr_assert_eq(file->questions.n, 2);
}

/* Quadratic work on one long line would take minutes here; linear work takes well under a second. */
Test(parse_errors, a_long_line_of_open_braces_is_parsed_in_linear_time, .timeout = 20)
{
    size_t spaces = 1000000, braces = 100000;
    char *text = xmalloc(spaces + braces + 2);
    memset(text, ' ', spaces);
    memset(text + spaces, '{', braces);
    text[spaces + braces] = '\n';
    text[spaces + braces + 1] = '\0';
    parse(text);
    free(text);
    assert_error(0, 1, (int)spaces + 1, "expected a statement in this file, found '{'");
    assert_error(1, 1, (int)(spaces + braces), "unclosed '{' of block");
    cr_assert_eq(cap_errors(&cap), 2);
}

/* ---- Keywords as names, and names where a keyword is expected ------------ */

/* `alias` is a keyword like the others: it names a question, a quiz, a lab or a language. */
Test(parse_errors, an_unclosed_question_named_alias_is_named_like_any_other)
{
    parse("single alias {\n  prompt \"p\"\n");
    assert_error(0, 1, 14, "unclosed '{' of single question 'alias'");
    assert_note("the file ended here", 2, 13);
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_str_eq(question(0)->id, "alias");
}

Test(parse_errors, a_quiz_and_a_lab_named_alias_are_named_when_unclosed)
{
    parse("quiz alias { title \"t\"\n");
    assert_error(0, 1, 12, "unclosed '{' of quiz 'alias'");
    ast_file_free(file);
    cap_fini(&cap);
    cap_init(&cap);
    parse("lab alias { title \"t\"\n");
    assert_error(0, 1, 11, "unclosed '{' of lab 'alias'");
}

Test(parse_errors, alias_followed_by_a_colon_in_a_language_block_is_a_language_tag)
{
    parse_ok("single a { prompt { alias: \"x\" en: \"y\" } }\n");
    cr_assert_eq(question(0)->prompt->n, 2);
    cr_assert_str_eq(question(0)->prompt->trs[0].lang, "alias");
}

Test(parse_errors, alias_where_a_statement_starts_cannot_appear_there)
{
    parse("single a {\n  prompt \"p\"\n  alias x\n}\n");
    assert_error(0, 3, 3, "'alias' cannot appear in single question 'a'");
    cr_assert_eq(cap_errors(&cap), 1);
}

/* Where a name stands every keyword could too; that is no place where a statement starts. */
static const struct {
    const char *text;
    int line, col;
    const char *msg;
} missing_names[] = {
    { "quiz q {\n  title \"t\"\n  languages , en\n}\n", 3, 13, "expected a language tag, found ','" },
    { "single a {\n  prompt \"p\"\n  lab l\n  expect = 3\n}\n", 4, 10, "expected a metric name, found '='" },
    { "quiz q {\n  title \"t\"\n  feedback 3\n}\n", 3, 12, "expected a feedback mode, found number 3" },
    { "quiz q { shuffle \"all\" }\n", 1, 18, "expected a shuffle mode, found a string" },
    { "single {\n  prompt \"p\"\n}\n", 1, 8, "expected a question name, found '{'" },
    { "quiz { }\n", 1, 6, "expected a quiz name, found '{'" },
    { "lab l {\n  title \"t\"\n  param = 3\n}\n", 3, 9, "expected a parameter name, found '='" },
    { "lab l {\n  title \"t\"\n  metric 3\n}\n", 3, 10, "expected a metric name, found number 3" },
    { "lab l {\n  title \"t\"\n  param x = 3 alias 4\n}\n", 3, 21, "expected an alias, found number 4" },
    { "single a { prompt \"p\" snippet : x }\n", 1, 31, "expected a lab name, found ':'" },
    { "quiz q {\n  title \"t\"\n  languages en, ,\n}\n", 3, 17, "expected a name, found ','" },
    { "truefalse a { prompt \"p\" answer }\n", 1, 33, "expected a name or a number, found '}'" },
    { "single", 1, 7, "expected a question name, found end of file" },
};

Test(parse_errors, a_missing_name_says_what_name_was_expected)
{
    for (size_t i = 0; i < sizeof missing_names / sizeof missing_names[0]; i++) {
        cap_fini(&cap);
        cap_init(&cap);
        ast_file_free(file);
        parse(missing_names[i].text);
        cr_assert_geq(cap_errors(&cap), 1, "%s", missing_names[i].text);
        assert_error(0, missing_names[i].line, missing_names[i].col, missing_names[i].msg);
        cr_assert_null(cap_find(&cap, "expected a statement"), "%s", missing_names[i].text);
    }
}
