/*
 * test_emit_qti.c — the QTI 2.1 package: its files, the golden text of them
 * all (reviewed by eye), one language with xml:lang on every item.  (The
 * schemas and a QTI player check it in tests/formats and tests/browser.)
 */
#include "formats_golden.h"

static struct capture *cap;
static struct qz_course *course;
static struct emit_files files;

static void setup(void) { cap = capture_new(); course = NULL; memset(&files, 0, sizeof files); }
static void teardown(void)
{
    emit_files_free(&files);
    qz_course_free(course);
    capture_free(cap);
}

TestSuite(emit_qti, .init = setup, .fini = teardown);

static void qti(const char *path, const char *lang)
{
    course = golden_load(cap, path);
    struct emit_opts o = { .lang = lang };
    cr_assert_eq(emit_qti_files(course, &o, &files, cap->d), 0, "%s", capture_dump(cap));
}

static const struct emit_file *find(const char *name)
{
    for (size_t i = 0; i < files.files.n; i++)
        if (strcmp(files.files.items[i].name, name) == 0)
            return &files.files.items[i];
    return NULL;
}

Test(emit_qti, a_package_holds_the_manifest_the_test_and_one_item_per_question)
{
    qti("tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(files.files.n, course->questions.n + 2);
    cr_expect_not_null(find("imsmanifest.xml"));
    cr_expect_not_null(find("assessmentTest.xml"));
    for (size_t i = 0; i < course->questions.n; i++) {
        char *name = xasprintf("items/%s.xml", course->questions.items[i]->id);
        cr_expect_not_null(find(name), "%s", name);
        free(name);
    }
}

Test(emit_qti, every_file_matches_the_golden_text)
{
    qti("tests/data/compiler/kinds.qz", NULL);
    struct membuf all = { 0 };
    const char *order[] = { "imsmanifest.xml", "assessmentTest.xml", "items/pick.xml", "items/several.xml",
                            "items/yes.xml", "items/share.xml", "items/range.xml", "items/exact.xml",
                            "items/link.xml" };
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        const struct emit_file *f = find(order[i]);
        cr_assert_not_null(f, "%s", order[i]);
        char *head = xasprintf("==== %s\n", order[i]);
        membuf_append(&all, head, strlen(head));
        membuf_append(&all, f->data, f->len);
        free(head);
    }
    golden_compare(&all, "tests/data/golden/kinds.qti.txt");
    membuf_free(&all);
}

Test(emit_qti, one_language_per_package_and_xml_lang_on_every_item)
{
    qti("tests/data/compiler/kinds.qz", "id");
    for (size_t i = 0; i < files.files.n; i++) {
        const struct emit_file *f = &files.files.items[i];
        if (strncmp(f->name, "items/", 6) != 0)
            continue;
        cr_expect(strstr((char *)f->data, " xml:lang=\"id\"") != NULL, "%s", f->name);
        cr_expect(strstr((char *)f->data, "multilang") == NULL, "%s", f->name);
    }
    cr_expect(strstr((char *)find("items/pick.xml")->data, "<div>Yang mana?</div>") != NULL);
    cr_expect(strstr((char *)find("items/yes.xml")->data, ">Benar</simpleChoice>") != NULL);
}

Test(emit_qti, the_test_passes_at_the_quizs_passing_share_of_the_points)
{
    qti("tests/data/compiler/kinds.qz", NULL);
    const char *t = (const char *)find("assessmentTest.xml")->data;
    /* 8 points in all (pick has 2), passing 60%: 4.8 */
    cr_expect(strstr(t, "<value>8</value>") != NULL, "%s", t);
    cr_expect(strstr(t, "<baseValue baseType=\"float\">4.8</baseValue>") != NULL, "%s", t);
    cr_expect(strstr(t, "submissionMode=\"simultaneous\"") != NULL, "feedback on-submit");
}

Test(emit_qti, text_answers_match_whatever_their_case)
{
    qti("tests/data/compiler/kinds.qz", NULL);
    const char *t = (const char *)find("items/link.xml")->data;
    cr_expect(strstr(t, "<mapEntry mapKey=\"NVLink\" mappedValue=\"1\" caseSensitive=\"false\"/>") != NULL, "%s", t);
}
