/*
 * test_course_json.c — compiler/course_json.c: the quiz as the player reads
 * it, parsed back with jansson.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "scorm.h"
#include "support.h"

static struct capture *cap;
static struct qz_course *course;
static json_t *root;

static void setup(void)
{
    cap = capture_new();
}

static void teardown(void)
{
    json_decref(root);
    root = NULL;
    qz_course_free(course);
    course = NULL;
    capture_free(cap);
}

TestSuite(quiz_data, .init = setup, .fini = teardown);

static void load(const char *path, enum scorm_version v)
{
    course = capture_load(cap, path);
    cr_assert_not_null(course);
    check_course(cap->d, course, NULL);
    cr_assert_eq(diag_errors(cap->d), 0, "%s", capture_dump(cap));
    struct emit_opts o = { .scorm = v };
    char *s = scorm_quiz_json(course, &o);
    cr_assert_not_null(s);
    json_error_t err;
    root = json_loads(s, 0, &err);
    cr_assert_not_null(root, "not JSON: %s", err.text);
    free(s);
}

static json_t *question(const char *id)
{
    json_t *qs = json_object_get(root, "questions"), *q;
    size_t i;
    json_array_foreach(qs, i, q)
        if (!strcmp(json_string_value(json_object_get(q, "id")), id))
            return q;
    cr_assert_fail("no question %s", id);
    return NULL;
}

/* The text of span k of paragraph 0 of TEXT t in lang, and its kind. */
static const char *span(json_t *t, const char *lang, size_t k, const char **kind)
{
    json_t *doc = json_object_get(t, lang);
    cr_assert(json_is_array(doc), "no %s text", lang);
    json_t *p = json_object_get(json_array_get(doc, 0), "p");
    json_t *sp = json_array_get(p, k);
    cr_assert_not_null(sp, "no span %zu", k);
    *kind = json_string_value(json_array_get(sp, 0));
    return json_string_value(json_array_get(sp, 1));
}

Test(quiz_data, the_header_says_languages_feedback_shuffle_passing_and_version)
{
    load("tests/scorm/data/bilingual.qz", SCORM_2004);
    cr_assert_str_eq(json_string_value(json_object_get(root, "id")), "pipa");
    cr_assert_str_eq(json_string_value(json_object_get(root, "scorm")), "2004");
    json_t *langs = json_object_get(root, "languages");
    cr_assert_eq(json_array_size(langs), 2);
    cr_assert_str_eq(json_string_value(json_array_get(langs, 0)), "id", "the default comes first");
    cr_assert_str_eq(json_string_value(json_array_get(langs, 1)), "en");
    cr_assert_str_eq(json_string_value(json_object_get(root, "feedback")), "immediate");
    cr_assert_str_eq(json_string_value(json_object_get(root, "shuffle")), "none");
    cr_assert_eq(json_number_value(json_object_get(root, "passing")), 60);
    cr_assert_eq(json_array_size(json_object_get(root, "questions")), 5);
}

Test(quiz_data, each_kind_names_the_interaction_type_the_lms_records)
{
    load("tests/data/compiler/kinds.qz", SCORM_12);
    static const struct { const char *id, *type; } want[] = {
        { "pick", "choice" }, { "several", "choice" }, { "yes", "true-false" },
        { "share", "numeric" }, { "range", "numeric" }, { "exact", "numeric" }, { "link", "fill-in" },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect_str_eq(json_string_value(json_object_get(question(want[i].id), "interaction")), want[i].type,
                         "%s", want[i].id);
}

Test(quiz_data, markdown_arrives_as_structure_in_every_language)
{
    load("tests/scorm/data/bilingual.qz", SCORM_12);
    const char *kind;
    json_t *title = json_object_get(root, "title");
    cr_assert_str_eq(span(title, "id", 0, &kind), "Kuis Pipa ");
    cr_assert_str_eq(kind, "text");
    cr_assert_str_eq(span(title, "id", 1, &kind), "Mini");
    cr_assert_str_eq(kind, "strong");
    cr_assert_str_eq(span(title, "en", 1, &kind), "Pipeline");
    cr_assert_str_eq(kind, "strong");
    json_t *intro = json_object_get(root, "intro");
    cr_assert_str_eq(span(intro, "en", 1, &kind), "labrun");
    cr_assert_str_eq(kind, "code");
}

Test(quiz_data, choices_carry_course_xml_ids_correctness_and_because)
{
    load("tests/scorm/data/bilingual.qz", SCORM_12);
    json_t *ch = json_object_get(question("s1"), "choices");
    cr_assert_eq(json_array_size(ch), 3);
    static const char *const ids[] = { "a", "b", "c" };
    for (size_t i = 0; i < 3; i++) {
        json_t *c = json_array_get(ch, i);
        cr_assert_str_eq(json_string_value(json_object_get(c, "id")), ids[i]);
        cr_assert_eq(json_is_true(json_object_get(c, "correct")), i == 1);
    }
    const char *kind;
    cr_assert_str_eq(span(json_object_get(json_array_get(ch, 0), "because"), "en", 0, &kind),
                     "The disk plays no part here.");
    cr_assert(json_is_null(json_object_get(json_array_get(ch, 2), "because")));
    cr_assert_eq(json_integer_value(json_object_get(question("m1"), "points")), 2);
}

Test(quiz_data, truefalse_numeric_and_text_answers_are_there)
{
    load("tests/scorm/data/bilingual.qz", SCORM_12);
    cr_assert(json_is_true(json_object_get(question("t1"), "answer")));
    json_t *n = question("n1");
    cr_assert_float_eq(json_number_value(json_object_get(n, "min")), 0.2627, 1e-12);
    cr_assert_float_eq(json_number_value(json_object_get(n, "max")), 0.2827, 1e-12);
    cr_assert_float_eq(json_number_value(json_object_get(n, "answer")), 0.2727, 1e-12);
    const char *kind;
    cr_assert_str_eq(span(json_object_get(n, "unit"), "en", 0, &kind), "fraction");
    json_t *acc = json_object_get(question("x1"), "accept");
    cr_assert_eq(json_array_size(acc), 2);
    cr_assert_str_eq(json_string_value(json_array_get(acc, 0)), "NVLink");
    cr_assert_str_eq(json_string_value(json_array_get(acc, 1)), "nvlink 4");
}

Test(quiz_data, a_lab_gives_its_labrun_command_expectations_and_snippet)
{
    load("tests/scorm/data/bilingual.qz", SCORM_12);
    json_t *lab = json_array_get(json_object_get(question("s1"), "labs"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(lab, "command")),
                     "labrun labs/pipe --stages 4 --microbatches 16 --schedule gpipe");
    json_t *x = json_array_get(json_object_get(lab, "expects"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(x, "metric")), "bubble_fraction");
    /* The metric's description from the manifest, in each of the quiz's languages. */
    const char *kind;
    json_t *help = json_object_get(x, "help");
    cr_assert_str_eq(span(help, "en", 0, &kind), "share of stage time spent idle");
    cr_assert_str_eq(span(help, "id", 0, &kind), "bagian waktu tahap yang dihabiskan untuk menganggur");
    cr_assert_str_eq(span(json_object_get(lab, "title"), "id", 0, &kind), "Pipeline mainan");
    cr_assert_str_eq(span(json_object_get(lab, "title"), "en", 0, &kind), "Pipeline toy");
    cr_assert_str_eq(json_string_value(json_object_get(x, "op")), "<");
    cr_assert_float_eq(json_number_value(json_object_get(x, "value")), 0.2, 1e-12);

    json_t *n = json_array_get(json_object_get(question("n1"), "labs"), 0);
    json_t *w = json_array_get(json_object_get(n, "expects"), 0);
    cr_assert(json_is_true(json_object_get(w, "of_answer")));
    cr_assert_float_eq(json_number_value(json_object_get(w, "tolerance")), 0.03, 1e-12);

    json_t *s = json_array_get(json_object_get(question("s1"), "snippets"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(s, "lab")), "pipe");
    cr_assert_str_eq(json_string_value(json_object_get(s, "region")), "schedule");
    cr_assert_str_eq(json_string_value(json_object_get(s, "file")), "pipe.c");
    const char *code = json_string_value(json_object_get(s, "code"));
    cr_assert(code && strlen(code) > 0);
    cr_assert_null(strstr(code, "// snippet:"), "the markers are not part of the region");
}

Test(quiz_data, lab_values_are_spelt_as_in_course_xml)
{
    load("tests/data/compiler/spellings.qz", SCORM_12);
    json_t *lab = json_array_get(json_object_get(question("share"), "labs"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(lab, "command")),
                     "labrun labs/pipe --stages 4 --microbatches 10 --rate 0.5 --schedule 1f1b");
    json_t *args = json_object_get(lab, "args");
    cr_assert_eq(json_integer_value(json_array_get(json_array_get(args, 0), 1)), 4);
    cr_assert_eq(json_integer_value(json_array_get(json_array_get(args, 1), 1)), 10);
    cr_assert_float_eq(json_number_value(json_array_get(json_array_get(args, 2), 1)), 0.5, 1e-15);
    json_t *x = json_array_get(json_object_get(lab, "expects"), 0);
    /* `within 5% of answer` (0.5): 5 as written, and the interval it works out to. */
    cr_assert_float_eq(json_number_value(json_object_get(x, "tolerance")), 5, 1e-15);
    cr_assert(json_is_true(json_object_get(x, "percent")));
    cr_assert_eq(json_number_value(json_object_get(x, "lo")), 0.475);
    cr_assert_eq(json_number_value(json_object_get(x, "hi")), 0.525);
}

Test(quiz_data, a_percent_tolerance_is_a_share_of_the_answer)
{
    load("tests/data/compiler/percent.qz", SCORM_12);
    json_t *q = question("pct");
    cr_assert_eq(json_number_value(json_object_get(q, "min")), 0.2565);
    cr_assert_eq(json_number_value(json_object_get(q, "max")), 0.2835);
    q = question("neg");
    cr_assert_eq(json_number_value(json_object_get(q, "min")), -2.2);
    cr_assert_eq(json_number_value(json_object_get(q, "max")), -1.8);
    q = question("abs");
    cr_assert_eq(json_number_value(json_object_get(q, "min")), 0.2627);
    cr_assert_eq(json_number_value(json_object_get(q, "max")), 0.2827);
}

Test(quiz_data, author_markup_stays_a_string)
{
    load("tests/scorm/data/hostile.qz", SCORM_12);
    json_t *langs = json_object_get(root, "languages");
    cr_assert_eq(json_array_size(langs), 1);
    cr_assert_str_eq(json_string_value(json_array_get(langs, 0)), "und", "a quiz with no languages");
    const char *kind;
    cr_assert_str_eq(span(json_object_get(root, "title"), "und", 0, &kind),
                     "<script>window.__pwned = 'title'</script> Hostile");
    cr_assert_str_eq(kind, "text");
}

/* The JSON that the data file (quiz-data.js) of course hands JSON.parse, parsed with jansson. */
static json_t *data_file_json(void)
{
    struct membuf out = { 0 };
    struct emit_opts o = { .scorm = SCORM_12 };
    cr_assert_eq(scorm_quiz_data(course, &o, &out, cap->d), 0);
    char *js = xstrndup((const char *)out.data, out.len);
    const char *eq = strstr(js, "window.QUIZ_DATA = JSON.parse('");
    cr_assert_not_null(eq);
    cr_assert_str_eq(js + strlen(js) - 4, "');\n");
    /* The script string back to JSON: a backslash escapes the character after it. */
    const char *body = eq + strlen("window.QUIZ_DATA = JSON.parse('");
    size_t n = strlen(body) - 4, k = 0;
    char *json = xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        cr_assert_neq(body[i], '\'', "an unescaped quote at %zu", i);
        cr_assert_neq(body[i], '\n', "a line end at %zu", i);
        if (body[i] == '\\' && body[i + 1] == 'u')
            json[k++] = body[i++];      /* \u2028, \u2029: the same escape in JSON */
        else if (body[i] == '\\')
            i++;
        json[k++] = body[i];
    }
    json_error_t err;
    json_t *j = json_loadb(json, k, 0, &err);
    cr_assert_not_null(j, "%s", err.text);
    free(json);
    free(js);
    membuf_free(&out);
    return j;
}

Test(quiz_data, the_data_file_sets_window_quiz_data)
{
    course = capture_load(cap, "tests/scorm/data/bilingual.qz");
    cr_assert_not_null(course);
    root = data_file_json();
}

/* A language named __proto__ keeps its text; quotes, backslashes and U+2028 survive the script string. */
Test(quiz_data, the_data_file_keeps_every_language_and_character)
{
    course = capture_load_text(cap, "p.qz",
        "quiz p {\n    title { en: \"it's \\\\ \\\"q\\\" \xe2\x80\xa8 end\" __proto__: \"P\" }\n"
        "    languages en, __proto__\n"
        "    single constructor {\n        prompt { en: \"p\" __proto__: \"p\" }\n"
        "        correct { en: \"a\" __proto__: \"a\" }\n        wrong { en: \"b\" __proto__: \"b\" }\n    }\n}\n");
    cr_assert_not_null(course, "%s", capture_dump(cap));
    root = data_file_json();
    json_t *title = json_object_get(root, "title");
    const char *kind;
    cr_assert_str_eq(span(title, "__proto__", 0, &kind), "P");
    cr_assert_str_eq(span(title, "en", 0, &kind), "it's \\ \"q\" \xe2\x80\xa8 end");
}

/* The ids the LMS hears are course.xml's: every choice's key and correctness agree. */
Test(quiz_data, choice_ids_and_correct_choices_agree_with_course_xml)
{
    load("tests/scorm/data/bilingual.qz", SCORM_12);
    struct membuf xml = { 0 };
    cr_assert_eq(emit_course_xml(course, &xml, cap->d), 0);
    xmlDocPtr doc = xmlReadMemory((const char *)xml.data, (int)xml.len, "course.xml", NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc);
    xmlXPathContextPtr xp = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(xp, BAD_CAST "c", BAD_CAST "urn:x-quizc:course:1");
    json_t *qs = json_object_get(root, "questions"), *q;
    size_t i, checked = 0;
    json_array_foreach(qs, i, q) {
        json_t *chs = json_object_get(q, "choices"), *ch;
        size_t k;
        json_array_foreach(chs, k, ch) {
            char *expr = xasprintf("string(//c:question[@id='%s']/c:choices/c:choice[%zu]/@key)",
                                   json_string_value(json_object_get(q, "id")), k + 1);
            xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, xp);
            cr_assert_str_eq((const char *)r->stringval, json_string_value(json_object_get(ch, "id")), "%s", expr);
            xmlXPathFreeObject(r);
            free(expr);
            expr = xasprintf("string(//c:question[@id='%s']/c:choices/c:choice[%zu]/@correct)",
                             json_string_value(json_object_get(q, "id")), k + 1);
            r = xmlXPathEvalExpression(BAD_CAST expr, xp);
            cr_assert_str_eq((const char *)r->stringval, json_is_true(json_object_get(ch, "correct")) ? "true" : "false",
                             "%s", expr);
            xmlXPathFreeObject(r);
            free(expr);
            checked++;
        }
    }
    cr_assert_eq(checked, 6, "s1 and m1 have three choices each");
    xmlXPathFreeContext(xp);
    xmlFreeDoc(doc);
    membuf_free(&xml);
}
