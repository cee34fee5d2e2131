/*
 * test_emit_moodle.c — Moodle XML: the golden file (reviewed by eye), valid
 * against compiler/moodle.xsd, and what Moodle reads per question type.
 */
#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <libxml/xpath.h>

#include "formats_golden.h"

static struct capture *cap;
static struct qz_course *course;
static struct membuf out;

static void setup(void) { cap = capture_new(); course = NULL; memset(&out, 0, sizeof out); }
static void teardown(void)
{
    membuf_free(&out);
    qz_course_free(course);
    capture_free(cap);
    xmlCleanupParser();
}

TestSuite(emit_moodle, .init = setup, .fini = teardown);

static void moodle(const char *path, const char *lang)
{
    course = golden_load(cap, path);
    struct emit_opts o = { .lang = lang };
    cr_assert_eq(emit_moodle_xml(course, &o, &out, cap->d), 0, "%s", capture_dump(cap));
}

static char *xpath(const char *expr)
{
    xmlDocPtr doc = xmlReadMemory((const char *)out.data, (int)out.len, "bank.xml", NULL, 0);
    cr_assert_not_null(doc);
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    cr_assert_not_null(r, "bad expression %s", expr);
    xmlChar *s = xmlXPathCastToString(r);
    char *v = xstrdup((const char *)s);
    xmlFree(s);
    xmlXPathFreeObject(r);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return v;
}

static void expect_xpath(const char *expr, const char *want)
{
    char *got = xpath(expr);
    cr_expect_str_eq(got, want, "%s", expr);
    free(got);
}

Test(emit_moodle, every_question_kind_matches_its_golden_file)
{
    moodle("tests/data/compiler/kinds.qz", NULL);
    golden_compare(&out, "tests/data/golden/kinds.moodle.xml");
}

/* The bank written for quiz is valid against Moodle's schema. */
static void expect_valid_bank(const char *quiz)
{
    moodle(quiz, NULL);
    xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt("compiler/moodle.xsd");
    xmlSchemaPtr schema = xmlSchemaParse(pc);
    cr_assert_not_null(schema);
    xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
    xmlDocPtr doc = xmlReadMemory((const char *)out.data, (int)out.len, "bank.xml", NULL, XML_PARSE_NONET);
    cr_expect_eq(xmlSchemaValidateDoc(vc, doc), 0);
    xmlFreeDoc(doc);
    xmlSchemaFreeValidCtxt(vc);
    xmlSchemaFree(schema);
    xmlSchemaFreeParserCtxt(pc);
}

Test(emit_moodle, the_output_is_valid_against_the_schema)
{
    expect_valid_bank("quizzes/paralelisme.qz");
}

Test(emit_moodle, the_second_shipped_quiz_is_valid_against_the_schema)
{
    expect_valid_bank("quizzes/paralelisme-lanjut.qz");
}

Test(emit_moodle, single_has_one_answer_at_100_and_the_others_at_0)
{
    moodle("tests/data/compiler/kinds.qz", NULL);
    expect_xpath("string(//question[name/text='pick']/single)", "true");
    expect_xpath("string(//question[name/text='pick']/answer[1]/@fraction)", "0");
    expect_xpath("string(//question[name/text='pick']/answer[2]/@fraction)", "100");
    expect_xpath("string(//question[name/text='pick']/defaultgrade)", "2");
    expect_xpath("string(//question[name/text='pick']/shuffleanswers)", "1");
}

Test(emit_moodle, multiple_shares_100_among_the_right_and_takes_it_back_from_the_wrong)
{
    moodle("tests/data/compiler/kinds.qz", NULL);
    expect_xpath("string(//question[name/text='several']/single)", "false");
    expect_xpath("string(//question[name/text='several']/answer[1]/@fraction)", "50");
    expect_xpath("string(//question[name/text='several']/answer[2]/@fraction)", "-100");
    expect_xpath("string(//question[name/text='several']/answer[3]/@fraction)", "50");
}

Test(emit_moodle, numerical_answers_carry_their_tolerance_and_unit)
{
    moodle("tests/data/compiler/kinds.qz", "id");
    expect_xpath("string(//question[name/text='share']/answer/text)", "0.4286");
    expect_xpath("string(//question[name/text='share']/answer/tolerance)", "0.01");
    expect_xpath("string(//question[name/text='share']/units/unit/unit_name)", "pecahan");
    expect_xpath("string(//question[name/text='range']/answer/text)", "0.275");
    expect_xpath("string(//question[name/text='range']/answer/tolerance)", "0.015");
    expect_xpath("string(//question[name/text='exact']/answer/text)", "70000000000");
}

Test(emit_moodle, a_percent_tolerance_becomes_the_absolute_tolerance_it_works_out_to)
{
    moodle("tests/data/compiler/percent.qz", NULL);
    expect_xpath("string(//question[name/text='pct']/answer/text)", "0.27");
    expect_xpath("string(//question[name/text='pct']/answer/tolerance)", "0.0135");
    expect_xpath("string(//question[name/text='neg']/answer/tolerance)", "0.2");
    expect_xpath("string(//question[name/text='abs']/answer/tolerance)", "0.01");
}

Test(emit_moodle, html_texts_are_one_cdata_section_so_moodle_keeps_their_spaces)
{
    course = capture_load_text(cap, "q.qz",
        "quiz q { title \"T\" truefalse t { prompt \"*gelembung* \\u{2014} dan ]]> <b>\" answer true } }");
    cr_assert(check_course(cap->d, course, NULL), "%s", capture_dump(cap));
    cr_assert_eq(emit_moodle_xml(course, NULL, &out, cap->d), 0);
    /* One CDATA section a text; the author's markup is escaped HTML in it (so no "]]>" either). */
    cr_expect(strstr((char *)out.data, "<text><![CDATA[<em>gelembung</em> \u2014 dan ]]&gt; &lt;b&gt;]]></text>") != NULL,
              "%s", out.data);
    expect_xpath("string(//question[@type='truefalse']/questiontext/text)", "<em>gelembung</em> \u2014 dan ]]&gt; &lt;b&gt;");
}

Test(emit_moodle, short_answers_ignore_case_and_keep_an_authors_star_literal)
{
    course = capture_load_text(cap, "q.qz", "quiz q { title \"T\" text t { prompt \"?\" accept \"a*b\", \"NV\" } }");
    cr_assert(check_course(cap->d, course, NULL), "%s", capture_dump(cap));
    cr_assert_eq(emit_moodle_xml(course, NULL, &out, cap->d), 0);
    expect_xpath("string(//question[@type='shortanswer']/usecase)", "0");
    expect_xpath("string(//question[@type='shortanswer']/answer[1]/text)", "a\\*b");
    expect_xpath("string(//question[@type='shortanswer']/answer[2]/@fraction)", "100");
}

Test(emit_moodle, truefalse_puts_100_on_the_answer)
{
    moodle("tests/data/compiler/kinds.qz", NULL);
    expect_xpath("string(//question[name/text='yes']/answer[text='false']/@fraction)", "100");
    expect_xpath("string(//question[name/text='yes']/answer[text='true']/@fraction)", "0");
}
