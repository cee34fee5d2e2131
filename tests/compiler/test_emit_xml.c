/*
 * test_emit_xml.c — the course document: golden files (reviewed by eye),
 * validity against compiler/course.xsd, byte-identical output, escaping of
 * author text, and characters XML 1.0 cannot carry.
 *
 * UPDATE_GOLDEN=1 rewrites the golden files instead of comparing with them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "check.h"
#include "emit.h"
#include "support.h"

#define SCHEMA "compiler/course.xsd"

static struct capture *cap;
static struct qz_course *course;
static struct membuf xml;

static void setup(void) { cap = capture_new(); course = NULL; memset(&xml, 0, sizeof xml); }
static void teardown(void)
{
    membuf_free(&xml);
    qz_course_free(course);
    capture_free(cap);
    xmlCleanupParser();
}

TestSuite(emit_xml, .init = setup, .fini = teardown);

/* Load, check and emit into xml; every step must succeed. */
static void compile(struct qz_course *c)
{
    course = c;
    cr_assert_not_null(course);
    cr_assert(check_course(cap->d, course, NULL), "checks failed:%s", capture_dump(cap));
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "got:%s", capture_dump(cap));
    cr_assert_eq(emit_course_xml(course, &xml, cap->d), 0, "emit failed:%s", capture_dump(cap));
}

static void compile_file(const char *path)
{
    compile(capture_load(cap, path));
}

static void compile_text(const char *text)
{
    compile(capture_load_text(cap, "quiz.qz", text));
}

/* Validate xml against the schema in-process; returns libxml2's result (0: valid). */
static int validate(const struct membuf *b)
{
    xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt(SCHEMA);
    xmlSchemaPtr schema = xmlSchemaParse(pc);
    cr_assert_not_null(schema, "the schema does not compile");
    xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
    xmlDocPtr doc = xmlReadMemory((const char *)b->data, (int)b->len, "course.xml", NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc, "not well-formed:\n%s", b->data);
    int rc = xmlSchemaValidateDoc(vc, doc);
    xmlFreeDoc(doc);
    xmlSchemaFreeValidCtxt(vc);
    xmlSchemaFree(schema);
    xmlSchemaFreeParserCtxt(pc);
    return rc;
}

static void assert_golden(const char *golden)
{
    if (getenv("UPDATE_GOLDEN")) {
        FILE *f = fopen(golden, "wb");
        cr_assert_not_null(f);
        fwrite(xml.data, 1, xml.len, f);
        fclose(f);
    }
    size_t len;
    char *want = read_file(golden, &len);
    cr_assert_not_null(want, "no golden file %s (UPDATE_GOLDEN=1 writes it)", golden);
    cr_expect_eq(xml.len, len, "length %zu, golden %zu", xml.len, len);
    cr_expect(xml.len == len && memcmp(xml.data, want, len) == 0,
              "output differs from %s:\n%s", golden, xml.data);
    free(want);
}

/* The string value of an XPath expression over xml (course namespace bound to c:). */
static char *xpath_string(const char *expr)
{
    xmlDocPtr doc = xmlReadMemory((const char *)xml.data, (int)xml.len, "course.xml", NULL, 0);
    cr_assert_not_null(doc);
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(ctx, BAD_CAST "c", BAD_CAST "urn:x-quizc:course:1");
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    cr_assert_not_null(r, "bad expression %s", expr);
    xmlChar *s = xmlXPathCastToString(r);
    char *out = xstrdup((const char *)s);
    xmlFree(s);
    xmlXPathFreeObject(r);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return out;
}

static void expect_xpath(const char *expr, const char *want)
{
    char *got = xpath_string(expr);
    cr_expect_str_eq(got, want, "%s", expr);
    free(got);
}

Test(emit_xml, every_question_kind_matches_its_golden_file)
{
    compile_file("tests/data/compiler/kinds.qz");
    assert_golden("tests/data/golden/kinds.xml");
}

Test(emit_xml, markdown_and_escaping_match_their_golden_file)
{
    compile_file("tests/data/compiler/markdown.qz");
    assert_golden("tests/data/golden/markdown.xml");
}

Test(emit_xml, the_golden_documents_are_valid_against_the_schema)
{
    compile_file("tests/data/compiler/kinds.qz");
    cr_expect_eq(validate(&xml), 0, "kinds.xml is not valid:\n%s", xml.data);
    membuf_free(&xml);
    qz_course_free(course);
    course = NULL;
    compile_file("tests/data/compiler/markdown.qz");
    cr_expect_eq(validate(&xml), 0, "markdown.xml is not valid:\n%s", xml.data);
}

Test(emit_xml, the_seed_quiz_gives_a_valid_document)
{
    course = qz_load(cap->d, "quizzes/paralelisme.qz");
    cr_assert_not_null(course);
    cr_assert(check_course(cap->d, course, NULL), "got:%s", capture_dump(cap));
    cr_assert_eq(emit_course_xml(course, &xml, cap->d), 0);
    cr_expect_eq(validate(&xml), 0, "not valid:\n%s", xml.data);
    cr_expect_geq(course->questions.n, 8, "the seed's eight questions at least");
    char n[32];
    snprintf(n, sizeof n, "%zu", course->questions.n);
    expect_xpath("count(/c:course/c:questions/c:question)", n);
    expect_xpath("string(/c:course/c:languages/@default)", "id");
}

Test(emit_xml, the_second_shipped_quiz_gives_a_valid_bilingual_document)
{
    course = qz_load(cap->d, "quizzes/paralelisme-lanjut.qz");
    cr_assert_not_null(course);
    cr_assert(check_course(cap->d, course, NULL), "got:%s", capture_dump(cap));
    cr_assert_eq(emit_course_xml(course, &xml, cap->d), 0);
    cr_expect_eq(validate(&xml), 0, "not valid:\n%s", xml.data);
    cr_expect_geq(course->questions.n, 8);
    expect_xpath("string(/c:course/c:languages/@default)", "id");
}

Test(emit_xml, the_same_course_gives_the_same_bytes_twice)
{
    compile_file("tests/data/compiler/kinds.qz");
    struct membuf again = { 0 };
    cr_assert_eq(emit_course_xml(course, &again, cap->d), 0);
    cr_expect_eq(again.len, xml.len);
    cr_expect(again.len == xml.len && memcmp(again.data, xml.data, xml.len) == 0);
    membuf_free(&again);
}

Test(emit_xml, author_markup_is_text_not_elements)
{
    compile_file("tests/data/compiler/markdown.qz");
    expect_xpath("string(//c:question[@id='md']/c:choices/c:choice[@key='a']/c:content/c:text/c:p)",
                 "<script>alert('x')</script>");
    expect_xpath("count(//c:script)", "0");
    cr_expect(strstr((const char *)xml.data, "&lt;script&gt;") != NULL);
}

Test(emit_xml, markdown_becomes_paragraphs_inline_elements_and_code_blocks)
{
    compile_file("tests/data/compiler/markdown.qz");
    expect_xpath("string(//c:prompt/c:text/c:p[1]/c:code)", "matmul");
    expect_xpath("string(//c:prompt/c:text/c:p[1]/c:em)", "split");
    expect_xpath("string(//c:prompt/c:text/c:p[1]/c:strong)", "sum");
    expect_xpath("string(//c:prompt/c:text/c:pre/@lang)", "c");
    expect_xpath("string(//c:prompt/c:text/c:pre)", "y = A @ x;  // <b>not bold</b>");
}

Test(emit_xml, localized_strings_carry_xml_lang_and_neutral_ones_do_not)
{
    compile_file("tests/data/compiler/kinds.qz");
    expect_xpath("string(/c:course/c:title/c:text[1]/@xml:lang)", "en");
    expect_xpath("string(/c:course/c:title/c:text[2]/@xml:lang)", "id");
    expect_xpath("count(/c:course/c:intro/c:text)", "1");
    expect_xpath("count(/c:course/c:intro/c:text/@xml:lang)", "0");
    /* Written id first, emitted in the declared order: en, then id. */
    expect_xpath("string(//c:question[@id='several']/c:prompt/c:text[1]/@xml:lang)", "en");
    expect_xpath("string(//c:question[@id='several']/c:prompt/c:text[1])", "Pick two.");
}

Test(emit_xml, choices_get_stable_keys_and_the_correct_response_lists_them)
{
    compile_file("tests/data/compiler/kinds.qz");
    expect_xpath("string(//c:question[@id='several']/c:choices/c:choice[3]/@key)", "c");
    expect_xpath("string(//c:question[@id='several']/c:correct-response)", "a c");
    expect_xpath("string(//c:question[@id='pick']/c:correct-response)", "b");
}

Test(emit_xml, choice_keys_run_from_a_to_z_then_0_to_9)
{
    cr_expect_eq(emit_choice_id(0), 'a');
    cr_expect_eq(emit_choice_id(25), 'z');
    cr_expect_eq(emit_choice_id(26), '0');
    cr_expect_eq(emit_choice_id(35), '9');
    cr_expect_eq(emit_choice_id(CHECK_MAX_CHOICES), '\0');
}

Test(emit_xml, labs_carry_their_command_parameters_and_expectations)
{
    compile_file("tests/data/compiler/kinds.qz");
    expect_xpath("string(//c:lab/@command)", "labrun labs/pipe --stages 4 --microbatches 4 --schedule gpipe");
    expect_xpath("string(//c:lab/c:param[3]/@value)", "gpipe");
    expect_xpath("string(//c:lab/c:expect[1]/@of)", "answer");
    expect_xpath("string(//c:lab/c:expect[1]/@tolerance)", "0.03");
    expect_xpath("string(//c:lab/c:expect[2]/@op)", "gt");
    expect_xpath("string(//c:snippet/@file)", "pipe.c");
    expect_xpath("string(//c:snippet/@lang)", "c");
}

Test(emit_xml, lab_values_are_spelt_as_labrun_takes_them_in_the_command_and_the_parameters)
{
    compile_file("tests/data/compiler/spellings.qz");
    expect_xpath("string(//c:lab/@command)", "labrun labs/pipe --stages 4 --microbatches 10 --rate 0.5 --schedule 1f1b");
    expect_xpath("string(//c:lab/c:param[1]/@value)", "4");
    expect_xpath("string(//c:lab/c:param[2]/@value)", "10");
    expect_xpath("string(//c:lab/c:param[3]/@value)", "0.5");
    /* A claim's percentage tolerance as written, and the interval it works out to about the answer 0.5. */
    expect_xpath("string(//c:lab/c:expect[1]/@tolerance-percent)", "5");
    expect_xpath("string(//c:lab/c:expect[1]/@min)", "0.475");
    expect_xpath("string(//c:lab/c:expect[1]/@max)", "0.525");
    expect_xpath("count(//c:lab/c:expect[1]/@tolerance)", "0");
    expect_xpath("string(//c:lab/c:expect[2]/@value)", "100");
}

Test(emit_xml, a_percent_tolerance_keeps_its_source_and_carries_its_interval)
{
    compile_file("tests/data/compiler/percent.qz");
    expect_xpath("string(//c:question[@id='pct']/c:answer/@tolerance-percent)", "5");
    expect_xpath("string(//c:question[@id='pct']/c:answer/@min)", "0.2565");
    expect_xpath("string(//c:question[@id='pct']/c:answer/@max)", "0.2835");
    expect_xpath("string(//c:question[@id='abs']/c:answer/@tolerance)", "0.01");
    expect_xpath("count(//c:question[@id='abs']/c:answer/@min)", "0");
}

Test(emit_xml, numbers_are_written_in_their_shortest_exact_form)
{
    compile_file("tests/data/compiler/kinds.qz");
    expect_xpath("string(//c:question[@id='share']/c:answer/@value)", "0.4286");
    expect_xpath("string(//c:question[@id='exact']/c:answer/@value)", "70000000000");
    expect_xpath("string(//c:question[@id='range']/c:answer/@min)", "0.26");
    expect_xpath("string(/c:course/c:settings/@passing)", "60");
}

Test(emit_xml, a_control_character_from_an_escape_is_reported_at_the_escape)
{
    course = capture_load_text(cap, "quiz.qz",
                               "quiz c {\n"
                               "    title \"T\"\n"
                               "    truefalse q { prompt \"bell \\u{7} here\" answer true }\n"
                               "}\n");
    cr_assert_not_null(course);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "got:%s", capture_dump(cap));
    cr_expect_eq(emit_course_xml(course, &xml, cap->d), -1);
    cr_expect_eq(xml.len, 0, "nothing is produced");
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "got:%s", capture_dump(cap));
    const struct rec *r = capture_nth(cap, DIAG_ERROR, 0);
    cr_expect_str_eq(r->msg, "the prompt holds the character U+0007, which XML 1.0 cannot carry");
    cr_expect_eq(r->line, 3);
    cr_expect_eq(r->col, 32);
}

Test(emit_xml, a_control_character_typed_in_a_string_is_reported_at_its_column)
{
    course = capture_load_text(cap, "quiz.qz",
                               "quiz c {\n"
                               "    title \"T\"\n"
                               "    truefalse q { prompt \"éb\x01\" answer true }\n"
                               "}\n");
    cr_assert_not_null(course);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "got:%s", capture_dump(cap));
    cr_expect_eq(emit_course_xml(course, &xml, cap->d), -1);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 1, "got:%s", capture_dump(cap));
    const struct rec *r = capture_nth(cap, DIAG_ERROR, 0);
    cr_expect_str_eq(r->msg, "the prompt holds the character U+0001, which XML 1.0 cannot carry");
    cr_expect_eq(r->line, 3);
    cr_expect_eq(r->col, 29, "columns count characters: the two-byte e-acute is one");
}

Test(emit_xml, every_forbidden_character_is_reported_in_one_run)
{
    course = capture_load_text(cap, "quiz.qz",
                               "quiz c {\n"
                               "    title \"T\\u{1}\"\n"
                               "    text q { prompt \"P\" accept \"a\\u{FFFF}\" }\n"
                               "}\n");
    cr_assert_not_null(course);
    cr_assert_eq(capture_count(cap, DIAG_ERROR), 0, "got:%s", capture_dump(cap));
    cr_expect_eq(emit_course_xml(course, &xml, cap->d), -1);
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 2, "got:%s", capture_dump(cap));
    cr_expect_str_eq(capture_nth(cap, DIAG_ERROR, 1)->msg,
                     "this accepted answer holds the character U+FFFF, which XML 1.0 cannot carry");
}

Test(emit_xml, a_quiz_without_languages_has_no_languages_element)
{
    compile_text("quiz plain {\n    title \"T\"\n    truefalse q { prompt \"P\" answer true }\n}\n");
    expect_xpath("count(/c:course/c:languages)", "0");
    expect_xpath("string(/c:course/c:settings/@feedback)", "immediate");
    expect_xpath("string(/c:course/c:settings/@passing)", "80");
    cr_expect_eq(validate(&xml), 0, "not valid:\n%s", xml.data);
}
