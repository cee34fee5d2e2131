/*
 * test_emit_gift.c — GIFT: the golden file (reviewed by eye), the warnings
 * for what GIFT cannot hold, one language with --lang, and the escaping of
 * GIFT's syntax characters.  (tests/formats/gift-check.js has gift-pegjs
 * read the output back.)
 */
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
}

TestSuite(emit_gift, .init = setup, .fini = teardown);

static void gift(const char *path, const char *lang)
{
    course = golden_load(cap, path);
    struct emit_opts o = { .lang = lang };
    cr_assert_eq(emit_gift(course, &o, &out, cap->d), 0, "%s", capture_dump(cap));
}

Test(emit_gift, every_question_kind_matches_its_golden_file)
{
    gift("tests/data/compiler/kinds.qz", NULL);
    golden_compare(&out, "tests/data/golden/kinds.gift");
}

Test(emit_gift, points_and_the_passing_score_are_warned_about_at_their_place)
{
    gift("tests/data/compiler/kinds.qz", NULL);
    cr_assert_eq(capture_count(cap, DIAG_WARNING), 2, "%s", capture_dump(cap));
    const struct rec *pass = capture_nth(cap, DIAG_WARNING, 0), *points = capture_nth(cap, DIAG_WARNING, 1);
    cr_expect_eq(pass->line, 12);
    cr_expect(strstr(pass->msg, "passing score 60%") != NULL, "%s", pass->msg);
    cr_expect_eq(points->line, 19);
    cr_expect(strstr(points->msg, "question 'pick' has 2 points") != NULL, "%s", points->msg);
    cr_expect_eq(capture_count(cap, DIAG_ERROR), 0);
}

Test(emit_gift, several_languages_become_multilang_spans_and_lang_picks_one)
{
    gift("tests/data/compiler/kinds.qz", NULL);
    cr_expect(strstr((char *)out.data, "<span lang\\=\"en\" class\\=\"multilang\">Which one?</span>"
                                       "<span lang\\=\"id\" class\\=\"multilang\">Yang mana?</span>") != NULL);
    membuf_free(&out);
    qz_course_free(course);
    struct emit_opts o = { .lang = "id" };
    course = golden_load(cap, "tests/data/compiler/kinds.qz");
    cr_assert_eq(emit_gift(course, &o, &out, cap->d), 0);
    cr_expect(strstr((char *)out.data, "::pick::[html]Yang mana?{") != NULL, "%s", out.data);
    cr_expect(strstr((char *)out.data, "multilang") == NULL);
    cr_expect(strstr((char *)out.data, "Satuan\\: pecahan") != NULL, "the unit, in the question text");
}

Test(emit_gift, a_percent_tolerance_becomes_the_absolute_tolerance_it_works_out_to)
{
    gift("tests/data/compiler/percent.qz", NULL);
    cr_expect(strstr((char *)out.data, "{#0.27:0.0135}") != NULL, "%s", out.data);
    cr_expect(strstr((char *)out.data, "{#-2:0.2}") != NULL, "%s", out.data);
    cr_expect(strstr((char *)out.data, "{#0.2727:0.01}") != NULL, "%s", out.data);
}

Test(emit_gift, syntax_characters_are_escaped_and_markup_is_text)
{
    course = capture_load_text(cap, "q.qz",
        "quiz q { title \"T\" single s { prompt \"a~b=c#d{e}f:g\\\\h <script>\" correct \"%x\" wrong \"y\" } }");
    cr_assert(check_course(cap->d, course, NULL), "%s", capture_dump(cap));
    cr_assert_eq(emit_gift(course, NULL, &out, cap->d), 0);
    cr_expect(strstr((char *)out.data, "::s::[html]a\\~b\\=c\\#d\\{e\\}f\\:g\\\\h &lt;script&gt;{") != NULL, "%s", out.data);
    cr_expect(strstr((char *)out.data, "\t=%100%%x\n") != NULL, "a text starting with %% gets its weight first:\n%s", out.data);
}
