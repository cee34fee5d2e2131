/*
 * test_parser.c — the grammar (quiz.y) and its scanner's block tracking:
 * every construct into the tree, every syntax error at its exact line and
 * column, unclosed blocks, and recovery so that independent errors are all
 * reported.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "capture.h"

static struct capture cap;
static struct ast_file *file;

static void setup(void) { cap_init(&cap); file = NULL; }
static void teardown(void) { ast_file_free(file); cap_fini(&cap); }

TestSuite(parser, .init = setup, .fini = teardown);

static void parse(const char *text) { file = cap_parse(&cap, text); }

static void parse_ok(const char *text) { file = cap_parse_ok(&cap, text); }
static struct ast_question *question(size_t i) { return cap_question(file, i); }
static void assert_error(int i, int line, int col, const char *msg) { cap_assert_error(&cap, i, line, col, msg); }
static void assert_note(const char *msg, int line, int col) { cap_assert_note(&cap, msg, line, col); }

/* ---- Constructs ---------------------------------------------------------- */

Test(parser, a_quiz_takes_every_header_statement)
{
    parse_ok("quiz paralelisme {\n"
             "    title \"Kuis\"\n"
             "    languages id, en\n"
             "    intro \"Halo\"\n"
             "    feedback on-submit\n"
             "    shuffle all\n"
             "    passing 75%\n"
             "}\n");
    const struct ast_quiz *q = file->quiz;
    cr_assert_not_null(q);
    cr_assert_str_eq(q->id, "paralelisme");
    cr_assert_eq(loc_start(&q->id_loc).line, 1);
    cr_assert_eq(loc_start(&q->id_loc).col, 6);
    cr_assert_str_eq(ast_text_get(q->title, NULL)->raw, "Kuis");
    cr_assert_eq(q->langs.n, 2);
    cr_assert_str_eq(q->langs.items[0].tag, "id");
    cr_assert_str_eq(q->langs.items[1].tag, "en");
    cr_assert_eq(loc_start(&q->langs.items[1].loc).col, 19);
    cr_assert_str_eq(ast_text_get(q->intro, NULL)->raw, "Halo");
    cr_assert_eq(q->feedback, FEEDBACK_ON_SUBMIT);
    cr_assert_eq(q->shuffle, SHUFFLE_ALL);
    cr_assert(q->has_passing);
    cr_assert_eq(q->passing, 75);
    cr_assert_eq(loc_start(&q->passing_loc).line, 7);
    cr_assert_eq(loc_start(&q->passing_loc).col, 13);
    cr_assert_null(file->lab);
}

Test(parser, header_defaults_apply_when_not_given)
{
    parse_ok("quiz q { title \"t\" shuffle choices feedback never }");
    cr_assert_eq(file->quiz->passing, 80);
    cr_assert_not(file->quiz->has_passing);
    cr_assert_eq(file->quiz->shuffle, SHUFFLE_CHOICES);
    cr_assert_eq(file->quiz->feedback, FEEDBACK_NEVER);
    cr_assert_eq(file->quiz->langs.n, 0);
}

Test(parser, a_language_block_holds_one_string_per_tag)
{
    parse_ok("quiz q {\n"
             "  title {\n"
             "    id: \"Apa yang dimaksud dengan “gelembung”?\"\n"
             "    en: \"What is the bubble?\"\n"
             "  }\n"
             "}\n");
    const struct ast_text *t = file->quiz->title;
    cr_assert_not(t->neutral);
    cr_assert_eq(t->n, 2);
    cr_assert_str_eq(t->trs[0].lang, "id");
    cr_assert_str_eq(t->trs[0].raw, "Apa yang dimaksud dengan “gelembung”?");
    cr_assert_eq(loc_start(&t->trs[0].loc).line, 3);
    cr_assert_eq(loc_start(&t->trs[0].loc).col, 5);
    cr_assert_eq(loc_end(&t->trs[0].loc).col, 47);
    cr_assert_str_eq(ast_text_get(t, "en")->raw, "What is the bubble?");
    cr_assert_str_eq(ast_text_get(t, "fr")->raw, t->trs[0].raw);
    cr_assert_eq(loc_start(ast_text_loc(t)).line, 2);
    cr_assert_eq(loc_start(ast_text_loc(t)).col, 9);
    cr_assert_eq(loc_end(ast_text_loc(t)).line, 5);
}

Test(parser, a_single_string_is_language_neutral_text_parsed_as_markdown)
{
    parse_ok("quiz q { title \"The *bubble* in `gpipe`\" }");
    const struct ast_text *t = file->quiz->title;
    cr_assert(t->neutral);
    cr_assert_eq(t->n, 1);
    cr_assert_null(t->trs[0].lang);
    cr_assert_str_eq(t->trs[0].raw, "The *bubble* in `gpipe`");
    struct md_doc doc = { 0 };
    md_parse(t->trs[0].raw, &doc);
    cr_assert_eq(doc.blocks.n, 1);
    cr_assert_eq(doc.blocks.items[0].spans.n, 4);
    cr_assert_eq(doc.blocks.items[0].spans.items[1].kind, MD_EM);
    cr_assert_eq(doc.blocks.items[0].spans.items[3].kind, MD_CODE);
    md_doc_clear(&doc);
}

Test(parser, single_and_multiple_questions_keep_their_choices_in_order)
{
    parse_ok("quiz q {\n"
             "  single q3 {\n"
             "    prompt \"p\"\n"
             "    wrong \"a\"\n"
             "    wrong \"b\" because \"why not b\"\n"
             "    correct \"c\"\n"
             "    explain \"e\"\n"
             "    points 2.5\n"
             "  }\n"
             "  multiple q9 { prompt \"p\" correct \"x\" correct \"y\" because \"z\" wrong \"w\" }\n"
             "}\n");
    cr_assert_eq(file->questions.n, 2);
    struct ast_question *q = question(0);
    cr_assert_eq(q->kind, Q_SINGLE);
    cr_assert_str_eq(q->id, "q3");
    struct src_loc kind = ast_question_loc(q), id = ast_question_id_loc(q);
    cr_assert_eq(loc_start(&kind).line, 2);
    cr_assert_eq(loc_start(&kind).col, 3);
    cr_assert_eq(loc_end(&kind).col, 8, "the whole of 'single'");
    cr_assert_eq(loc_start(&id).col, 10);
    cr_assert_eq(loc_end(&id).col, 11, "the whole of 'q3'");
    cr_assert_eq(q->choices.n, 3);
    cr_assert_not(q->choices.items[0].correct);
    cr_assert_null(q->choices.items[0].because);
    cr_assert_str_eq(ast_text_get(q->choices.items[1].because, NULL)->raw, "why not b");
    cr_assert(q->choices.items[2].correct);
    struct src_loc kw = ast_choice_loc(&q->choices.items[2]);
    cr_assert_eq(loc_start(&kw).line, 6);
    cr_assert_eq(loc_start(&kw).col, 5);
    cr_assert_eq(loc_end(&kw).col, 11);
    cr_assert_str_eq(ast_text_get(q->explain, NULL)->raw, "e");
    cr_assert_eq(q->extra->points, 2.5);
    struct ast_question *m = question(1);
    cr_assert_eq(m->kind, Q_MULTIPLE);
    cr_assert_eq(m->extra->points, 1);
    cr_assert_eq(m->choices.n, 3);
    cr_assert(m->choices.items[0].correct && m->choices.items[1].correct);
    cr_assert_not_null(m->choices.items[1].because);
}

Test(parser, truefalse_takes_true_or_false)
{
    parse_ok("truefalse q10 { prompt \"p\" answer true explain \"e\" }\n"
             "truefalse q11 { prompt \"p\" answer false }\n");
    cr_assert(question(0)->has_answer);
    cr_assert(question(0)->tf_answer);
    struct src_loc kw = ast_answer_loc(question(0));
    cr_assert_eq(loc_col(&kw), 28);
    cr_assert_eq(loc_end(&kw).col, 33);
    cr_assert(question(1)->has_answer);
    cr_assert_not(question(1)->tf_answer);
    cr_assert_null(file->quiz);
}

Test(parser, numeric_answers_are_exact_within_a_tolerance_or_a_range)
{
    parse_ok("numeric a { prompt \"p\" answer 0.2727 within 0.01 unit \"fraction\" }\n"
             "numeric b { prompt \"p\" answer 0.26..0.29 }\n"
             "numeric c { prompt \"p\" answer 42 }\n"
             "numeric d { prompt \"p\" answer -1.5e3 }\n");
    struct ast_question *a = question(0), *b = question(1), *c = question(2), *d = question(3);
    cr_assert_eq(a->numeric->kind, NUM_TOLERANCE);
    cr_assert_float_eq(a->numeric->value.num, 0.2727, 1e-12);
    cr_assert_float_eq(a->numeric->tolerance.num, 0.01, 1e-12);
    cr_assert_eq(loc_start(&a->numeric->tolerance.loc).col, 45);
    cr_assert_str_eq(ast_text_get(a->numeric->unit, NULL)->raw, "fraction");
    cr_assert_eq(b->numeric->kind, NUM_RANGE);
    cr_assert_float_eq(b->numeric->lo.num, 0.26, 1e-12);
    cr_assert_float_eq(b->numeric->hi.num, 0.29, 1e-12);
    cr_assert_eq(c->numeric->kind, NUM_EXACT);
    cr_assert_eq(c->numeric->value.num, 42);
    cr_assert(c->numeric->value.integral);
    cr_assert(c->has_answer);
    cr_assert_eq(d->numeric->value.num, -1500);
}

Test(parser, a_text_question_accepts_a_list_of_strings)
{
    parse_ok("text q12 { prompt \"p\" accept \"NVLink\", \"nvlink 4\" ,\"NV link\" }");
    struct ast_question *q = question(0);
    cr_assert_eq(q->kind, Q_TEXT);
    cr_assert_eq(q->accept.n, 3);
    cr_assert_str_eq(q->accept.items[1].raw, "nvlink 4");
    cr_assert_null(q->accept.items[1].lang);
    cr_assert_eq(loc_start(&q->accept.items[1].loc).col, 40);
}

Test(parser, a_lab_reference_takes_arguments_and_expectations)
{
    parse_ok("numeric q {\n"
             "  prompt \"p\" answer 0.75 within 0.01\n"
             "  lab bubble (stages = 4, microbatches = 1)\n"
             "    expect bubble_fraction > 0.7\n"
             "  lab bubble (stages = 4, microbatches = 16, schedule = gpipe, check = true, label = \"x\")\n"
             "    expect bubble_fraction < 0.2\n"
             "    expect step_ms <= 10\n"
             "    expect a >= 1  expect b == 2\n"
             "    expect bubble_fraction within 0.03 of answer\n"
             "    expect bubble_fraction within 5% of 0.5\n"
             "  lab plain\n"
             "  snippet bubble:gpipe-schedule\n"
             "}\n");
    struct ast_question *q = question(0);
    cr_assert_eq(q->extra->labs.n, 3);
    struct ast_labref *r = &q->extra->labs.items[0];
    cr_assert_str_eq(r->name, "bubble");
    cr_assert_eq(loc_start(&r->name_loc).line, 3);
    cr_assert_eq(loc_start(&r->name_loc).col, 7);
    cr_assert_eq(r->args.n, 2);
    cr_assert_str_eq(r->args.items[1].name, "microbatches");
    cr_assert_eq(loc_start(&r->args.items[1].loc).col, 27);
    cr_assert_eq(r->args.items[1].value.kind, VAL_NUMBER);
    cr_assert_eq(r->expects.n, 1);
    cr_assert_eq(r->expects.items[0].op, CMP_GT);
    cr_assert_float_eq(r->expects.items[0].value.num, 0.7, 1e-12);
    cr_assert_eq(loc_start(&r->expects.items[0].metric_loc).line, 4);
    cr_assert_eq(loc_start(&r->expects.items[0].metric_loc).col, 12);

    r = &q->extra->labs.items[1];
    cr_assert_eq(r->args.n, 5);
    cr_assert_eq(r->args.items[2].value.kind, VAL_IDENT);
    cr_assert_str_eq(r->args.items[2].value.str, "gpipe");
    cr_assert_eq(r->args.items[3].value.kind, VAL_BOOL);
    cr_assert(r->args.items[3].value.boolean);
    cr_assert_eq(r->args.items[4].value.kind, VAL_STRING);
    cr_assert_eq(r->expects.n, 6);
    enum ast_cmp ops[] = { CMP_LT, CMP_LE, CMP_GE, CMP_EQ, CMP_WITHIN, CMP_WITHIN };
    for (int i = 0; i < 6; i++) cr_assert_eq(r->expects.items[i].op, ops[i], "expect %d", i);
    cr_assert(r->expects.items[4].of_answer);
    cr_assert_float_eq(r->expects.items[4].tolerance.num, 0.03, 1e-12);
    cr_assert_not(r->expects.items[5].of_answer);
    cr_assert(r->expects.items[5].tolerance.percent);
    cr_assert_float_eq(r->expects.items[5].value.num, 0.5, 1e-12);
    cr_assert_eq(loc_start(&r->expects.items[4].loc).line, 9);
    cr_assert_eq(loc_start(&r->expects.items[4].loc).col, 5);
    cr_assert_eq(loc_end(&r->expects.items[4].loc).col, 48);

    cr_assert_eq(q->extra->labs.items[2].args.n, 0);
    cr_assert_eq(q->extra->snippets.n, 1);
    cr_assert_str_eq(q->extra->snippets.items[0].lab, "bubble");
    cr_assert_str_eq(q->extra->snippets.items[0].region, "gpipe-schedule");
    cr_assert_eq(loc_start(&q->extra->snippets.items[0].loc).line, 12);
    cr_assert_eq(loc_start(&q->extra->snippets.items[0].loc).col, 3);
}

Test(parser, keywords_serve_as_names_where_a_name_is_expected)
{
    parse_ok("quiz text {\n"
             "  languages id, in\n"
             "  text text { prompt \"p\" accept \"a\" lab lab (mode = text, of = in) expect quiz < 1 }\n"
             "  single prompt { prompt { in: \"x\" } correct \"a\" wrong \"b\" snippet text:answer }\n"
             "}\n");
    cr_assert_str_eq(file->quiz->id, "text");
    cr_assert_str_eq(file->quiz->langs.items[1].tag, "in");
    struct ast_question *q = question(0);
    cr_assert_str_eq(q->id, "text");
    cr_assert_str_eq(q->extra->labs.items[0].name, "lab");
    cr_assert_str_eq(q->extra->labs.items[0].args.items[0].value.str, "text");
    cr_assert_str_eq(q->extra->labs.items[0].args.items[1].name, "of");
    cr_assert_str_eq(q->extra->labs.items[0].expects.items[0].metric, "quiz");
    struct ast_question *s = question(1);
    cr_assert_str_eq(s->id, "prompt");
    cr_assert_str_eq(s->prompt->trs[0].lang, "in");
    cr_assert_str_eq(s->extra->snippets.items[0].region, "answer");
}

Test(parser, includes_and_questions_keep_source_order)
{
    parse_ok("quiz q {\n"
             "  single a { prompt \"p\" correct \"x\" wrong \"y\" }\n"
             "  include \"more.qz\"\n"
             "  title \"late title\"\n"
             "  truefalse b { prompt \"p\" answer true }\n"
             "}\n");
    cr_assert_eq(file->questions.n, 2);
    cr_assert_eq(file->includes.n, 1);
    const struct ast_include *inc = file->includes.items[0];
    cr_assert_str_eq(inc->path, "more.qz");
    cr_assert_eq(inc->before, 1, "it stands after the first question");
    cr_assert_eq(loc_start(&inc->loc).line, 3);
    cr_assert_eq(loc_start(&inc->loc).col, 3);
    cr_assert_null(inc->file);
    cr_assert_str_eq(question(0)->id, "a");
    cr_assert_str_eq(question(1)->id, "b");
    cr_assert_not_null(file->quiz->title);
}

Test(parser, a_file_of_questions_and_includes_needs_no_quiz)
{
    parse_ok("# included\nsingle a { prompt \"p\" correct \"x\" wrong \"y\" }\ninclude \"c.qz\"\n");
    cr_assert_null(file->quiz);
    cr_assert_eq(file->questions.n, 1);
    cr_assert_eq(file->includes.n, 1);
    cr_assert_eq(file->includes.items[0]->before, 1);
}

Test(parser, a_byte_order_mark_is_skipped_and_columns_start_after_it)
{
    parse_ok("\xEF\xBB\xBFquiz q {\r\n  title \"t\"\r\n}\r\n");
    cr_assert_eq(loc_start(&file->quiz->loc).line, 1);
    cr_assert_eq(loc_start(&file->quiz->loc).col, 1);
    cr_assert_eq(src_off(file->src, file->quiz->loc.from), 3);
    cr_assert_eq(loc_start(ast_text_loc(file->quiz->title)).line, 2);
    cr_assert_eq(loc_start(ast_text_loc(file->quiz->title)).col, 9);
}

Test(parser, an_empty_file_is_an_empty_tree)
{
    parse_ok("  # nothing here\n");
    cr_assert_null(file->quiz);
    cr_assert_null(file->lab);
    cr_assert_eq(file->questions.n, 0);
    cr_assert_eq(file->includes.n, 0);
}

/* ---- Errors -------------------------------------------------------------- */

Test(parser, an_unknown_statement_gets_a_did_you_mean_for_a_near_miss)
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

Test(parser, an_unknown_statement_suggests_only_statements_of_its_block)
{
    parse("quiz q {\n  titel \"x\"\n  numeric n { prompt \"p\" anwser 4 unti \"kg\" }\n  bogus 1\n}\n");
    assert_error(0, 2, 3, "unknown statement 'titel' in quiz 'q'; did you mean 'title'?");
    assert_error(1, 3, 26, "unknown statement 'anwser' in numeric question 'n'; did you mean 'answer'?");
    assert_error(2, 3, 35, "unknown statement 'unti' in numeric question 'n'; did you mean 'unit'?");
    assert_error(3, 4, 3, "unknown statement 'bogus' in quiz 'q'");
    cr_assert_null(strstr(cap_error(&cap, 3)->msg, "did you mean"));
    cr_assert_eq(cap_errors(&cap), 4);
}

Test(parser, an_unknown_word_at_the_top_of_a_file_is_reported)
{
    parse("qiuz q { }\n");
    assert_error(0, 1, 1, "unknown statement 'qiuz' in this file; did you mean 'quiz'?");
}

Test(parser, a_keyword_out_of_place_is_named_with_its_block)
{
    parse("quiz q {\n  single a { prompt \"p\" title \"t\" correct \"x\" }\n}\n");
    assert_error(0, 2, 25, "'title' cannot appear in single question 'a'");
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(parser, an_unclosed_block_is_reported_where_it_opened_with_a_note_at_the_end)
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

Test(parser, an_unclosed_question_before_the_next_one_is_closed_there)
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

Test(parser, an_unclosed_language_block_is_reported_where_it_opened)
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

Test(parser, an_unclosed_block_is_found_by_the_indentation_of_the_brace_that_closed_it)
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

Test(parser, an_unclosed_quiz_is_reported_at_its_brace)
{
    parse("quiz paralelisme {\n  title \"t\"\n\n");
    assert_error(0, 1, 18, "unclosed '{' of quiz 'paralelisme'");
    assert_note("the file ended here", 2, 12);
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(parser, a_value_of_the_wrong_kind_names_what_was_expected)
{
    parse("quiz q {\n  passing \"high\"\n  single a { points many }\n}\n");
    assert_error(0, 2, 11, "expected a number, found a string");
    assert_error(1, 3, 21, "expected a number, found 'many'");
    cr_assert_eq(cap_errors(&cap), 2);
}

Test(parser, a_string_where_a_statement_should_start_is_reported)
{
    parse("single a { prompt \"p\" \"stray\" correct \"x\" }");
    assert_error(0, 1, 23, "expected a statement in single question 'a', found a string");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(question(0)->choices.n, 1);
}

Test(parser, a_missing_colon_in_a_language_block_recovers_inside_the_block)
{
    parse("single a {\n  prompt { id \"x\" en: \"y\" }\n  correct \"c\"\n}\n");
    assert_error(0, 2, 15, "expected ':', found a string");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(question(0)->prompt->n, 1);
    cr_assert_str_eq(question(0)->prompt->trs[0].lang, "en");
    cr_assert_eq(question(0)->choices.n, 1);
}

Test(parser, three_independent_errors_are_all_reported)
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

Test(parser, syntax_errors_in_separate_questions_are_each_reported)
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

Test(parser, an_unknown_statement_in_a_lab_manifest_gets_a_suggestion)
{
    parse("lab l {\n  title \"t\"\n  parma x = 1\n  metric y\n}\n");
    assert_error(0, 3, 3, "unknown statement 'parma' in lab 'l'; did you mean 'param'?");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(file->lab->metrics.n, 1);
}

Test(parser, a_stray_closing_brace_is_reported)
{
    parse("single a { prompt \"p\" } }\nsingle b { prompt \"q\" }\n");
    assert_error(0, 1, 25, "found '}'");
    cr_assert_eq(file->questions.n, 2);
}

/* Quadratic work on one long line would take minutes here; linear work takes well under a second. */
Test(parser, a_long_line_of_open_braces_is_parsed_in_linear_time, .timeout = 20)
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
Test(parser, an_unclosed_question_named_alias_is_named_like_any_other)
{
    parse("single alias {\n  prompt \"p\"\n");
    assert_error(0, 1, 14, "unclosed '{' of single question 'alias'");
    assert_note("the file ended here", 2, 13);
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_str_eq(question(0)->id, "alias");
}

Test(parser, a_quiz_and_a_lab_named_alias_are_named_when_unclosed)
{
    parse("quiz alias { title \"t\"\n");
    assert_error(0, 1, 12, "unclosed '{' of quiz 'alias'");
    ast_file_free(file);
    cap_fini(&cap);
    cap_init(&cap);
    parse("lab alias { title \"t\"\n");
    assert_error(0, 1, 11, "unclosed '{' of lab 'alias'");
}

Test(parser, alias_followed_by_a_colon_in_a_language_block_is_a_language_tag)
{
    parse_ok("single a { prompt { alias: \"x\" en: \"y\" } }\n");
    cr_assert_eq(question(0)->prompt->n, 2);
    cr_assert_str_eq(question(0)->prompt->trs[0].lang, "alias");
}

Test(parser, alias_where_a_statement_starts_cannot_appear_there)
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

Test(parser, a_missing_name_says_what_name_was_expected)
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
