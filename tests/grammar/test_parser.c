/*
 * test_parser.c — the grammar (quiz.y): every construct into the tree.
 * Its syntax errors, unclosed blocks and recovery: test_parse_errors.c.
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

static void parse_ok(const char *text) { file = cap_parse_ok(&cap, text); }
static struct ast_question *question(size_t i) { return cap_question(file, i); }

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
