/*
 * test_manifest.c — compiler/manifest.c and emit_scorm.c: the package's files
 * and imsmanifest.xml, read back with libxml2 and XPath.
 *
 * The schema validation itself runs in tests/scorm/validate.sh (xmllint with
 * the ADL/IMS schemas); these tests check what the schemas let through: the
 * exact schemaversion, the case of scormtype / scormType, the mastery score,
 * and that the resource lists exactly the package's files.
 */
#include <criterion/criterion.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <string.h>

#include "check.h"
#include "scorm.h"
#include "support.h"

#define BILINGUAL "tests/scorm/data/bilingual.qz"

static struct capture *cap;
static struct qz_course *course;
static struct emit_files files;
static xmlDocPtr doc;
static xmlXPathContextPtr xp;

static void setup(void)
{
    cap = capture_new();
}

static void teardown(void)
{
    if (xp)
        xmlXPathFreeContext(xp);
    if (doc)
        xmlFreeDoc(doc);
    xp = NULL;
    doc = NULL;
    emit_files_free(&files);
    qz_course_free(course);
    course = NULL;
    capture_free(cap);
}

TestSuite(manifest, .init = setup, .fini = teardown);

static const struct emit_file *find(const char *name)
{
    for (size_t i = 0; i < files.files.n; i++)
        if (!strcmp(files.files.items[i].name, name))
            return &files.files.items[i];
    return NULL;
}

/* Package path as SCORM version v and parse its manifest. */
static void package(const char *path, enum scorm_version v)
{
    course = capture_load(cap, path);
    cr_assert_not_null(course);
    check_course(cap->d, course, NULL);
    cr_assert_eq(diag_errors(cap->d), 0, "%s", capture_dump(cap));
    struct emit_opts o = { .scorm = v };
    cr_assert_eq(emit_scorm_files(course, &o, &files, cap->d), 0, "%s", capture_dump(cap));
    const struct emit_file *m = find("imsmanifest.xml");
    cr_assert_not_null(m);
    doc = xmlReadMemory((const char *)m->data, (int)m->len, "imsmanifest.xml", NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc, "imsmanifest.xml is not well-formed XML");
    xp = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(xp, BAD_CAST "cp", BAD_CAST (v == SCORM_12 ? "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
                                                                 : "http://www.imsglobal.org/xsd/imscp_v1p1"));
    xmlXPathRegisterNs(xp, BAD_CAST "adlcp", BAD_CAST (v == SCORM_12 ? "http://www.adlnet.org/xsd/adlcp_rootv1p2"
                                                                     : "http://www.adlnet.org/xsd/adlcp_v1p3"));
    xmlXPathRegisterNs(xp, BAD_CAST "imsss", BAD_CAST "http://www.imsglobal.org/xsd/imsss");
}

/* The string value of an XPath expression ("" when it selects nothing). */
static char *str(const char *expr)
{
    char *full = xasprintf("string(%s)", expr);
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST full, xp);
    free(full);
    cr_assert_not_null(r);
    char *s = xstrdup(r->stringval ? (const char *)r->stringval : "");
    xmlXPathFreeObject(r);
    return s;
}

static double num(const char *expr)
{
    char *full = xasprintf("count(%s)", expr);
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST full, xp);
    free(full);
    cr_assert_not_null(r);
    double n = r->floatval;
    xmlXPathFreeObject(r);
    return n;
}

#define assert_xpath_str(expr, want)                                           \
    do {                                                                       \
        char *got_ = str(expr);                                                \
        cr_assert_str_eq(got_, want, "%s", expr);                              \
        free(got_);                                                            \
    } while (0)

Test(manifest, scorm_12_declares_its_schema_version_exactly)
{
    package(BILINGUAL, SCORM_12);
    cr_assert_eq(num("/cp:manifest"), 1, "the root is an IMS CP 1.1.2 manifest");
    assert_xpath_str("/cp:manifest/cp:metadata/cp:schema", "ADL SCORM");
    assert_xpath_str("/cp:manifest/cp:metadata/cp:schemaversion", "1.2");
}

Test(manifest, scorm_2004_declares_the_4th_edition_exactly)
{
    package(BILINGUAL, SCORM_2004);
    cr_assert_eq(num("/cp:manifest"), 1, "the root is an IMS CP 1.1.4 manifest");
    assert_xpath_str("/cp:manifest/cp:metadata/cp:schema", "ADL SCORM");
    assert_xpath_str("/cp:manifest/cp:metadata/cp:schemaversion", "2004 4th Edition");
}

Test(manifest, one_organization_with_one_item_launches_the_player)
{
    package(BILINGUAL, SCORM_12);
    cr_assert_eq(num("//cp:organization"), 1);
    cr_assert_eq(num("//cp:item"), 1);
    char *def = str("/cp:manifest/cp:organizations/@default");
    char *org = str("//cp:organization/@identifier");
    cr_assert_str_eq(def, org, "the default organization is the one there is");
    char *ref = str("//cp:item/@identifierref");
    char *res = str("//cp:resource/@identifier");
    cr_assert_str_eq(ref, res, "the item launches the resource");
    free(def);
    free(org);
    free(ref);
    free(res);
    assert_xpath_str("//cp:resource/@href", "index.html");
    assert_xpath_str("//cp:resource/@type", "webcontent");
    cr_assert_not_null(find("index.html"));
}

Test(manifest, titles_are_in_the_default_language_without_markdown_marks)
{
    package(BILINGUAL, SCORM_12);
    assert_xpath_str("//cp:organization/cp:title", "Kuis Pipa Mini");
    assert_xpath_str("//cp:item/cp:title", "Kuis Pipa Mini");
}

Test(manifest, scorm_12_mastery_score_comes_from_passing)
{
    package(BILINGUAL, SCORM_12);
    assert_xpath_str("//cp:item/adlcp:masteryscore", "60");
}

Test(manifest, scorm_12_resource_is_a_sco_spelled_scormtype)
{
    package(BILINGUAL, SCORM_12);
    assert_xpath_str("//cp:resource/@adlcp:scormtype", "sco");
    cr_assert_eq(num("//cp:resource/@adlcp:scormType"), 0, "1.2 spells it scormtype");
}

Test(manifest, scorm_2004_resource_is_a_sco_spelled_scormType)
{
    package(BILINGUAL, SCORM_2004);
    assert_xpath_str("//cp:resource/@adlcp:scormType", "sco");
    cr_assert_eq(num("//cp:resource/@adlcp:scormtype"), 0, "2004 spells it scormType");
    cr_assert_eq(num("//adlcp:masteryscore"), 0, "2004 has no masteryscore");
}

Test(manifest, scorm_2004_primary_objective_is_satisfied_by_the_passing_measure)
{
    package(BILINGUAL, SCORM_2004);
    const char *po = "//cp:item/imsss:sequencing/imsss:objectives/imsss:primaryObjective";
    cr_assert_eq(num(po), 1);
    char *p = xasprintf("%s/@satisfiedByMeasure", po);
    assert_xpath_str(p, "true");
    free(p);
    p = xasprintf("%s/imsss:minNormalizedMeasure", po);
    assert_xpath_str(p, "0.6");
    free(p);
}

/* Every file of the package is listed once, and the list holds nothing else. */
static void assert_files_listed(void)
{
    size_t listed = (size_t)num("//cp:resource/cp:file");
    cr_assert_eq(listed, files.files.n - 1, "every file but the manifest itself is listed");
    for (size_t i = 0; i < files.files.n; i++) {
        const char *name = files.files.items[i].name;
        if (!strcmp(name, "imsmanifest.xml"))
            continue;
        char *q = xasprintf("//cp:resource/cp:file[@href='%s']", name);
        cr_assert_eq(num(q), 1, "%s is listed once", name);
        free(q);
    }
}

Test(manifest, the_resource_lists_every_file_of_a_12_package)
{
    package(BILINGUAL, SCORM_12);
    assert_files_listed();
}

Test(manifest, the_resource_lists_every_file_of_a_2004_package)
{
    package(BILINGUAL, SCORM_2004);
    assert_files_listed();
}

Test(manifest, the_package_carries_the_player_course_xml_and_quiz_data)
{
    package(BILINGUAL, SCORM_12);
    static const char *const want[] = { "claims.js", "course.xml", "grade.js", "imsmanifest.xml", "index.html",
                                        "labbox.js", "labrun-web.js", "morph.js", "player.css", "player.js", "scorm.js",
                                        "shuffle.js", "ui.js", SCORM_DATA_FILE };
    cr_assert_eq(files.files.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert_not_null(find(want[i]), "%s is in the package", want[i]);

    /* course.xml is the course document itself. */
    struct membuf xml = { 0 };
    cr_assert_eq(emit_course_xml(course, &xml, cap->d), 0);
    const struct emit_file *f = find("course.xml");
    cr_assert_eq(f->len, xml.len);
    cr_assert(memcmp(f->data, xml.data, xml.len) == 0);
    membuf_free(&xml);

    /* index.html loads the data and the player from inside the package, nothing else. */
    f = find("index.html");
    char *html = xstrndup((const char *)f->data, f->len);
    cr_assert(strstr(html, "src=\"" SCORM_DATA_FILE "\""));
    cr_assert(strstr(html, "src=\"player.js\""));
    cr_assert(strstr(html, "src=\"scorm.js\""));
    cr_assert(strstr(html, "href=\"player.css\""));
    cr_assert_null(strstr(html, "http:"), "no network");
    cr_assert_null(strstr(html, "https:"), "no network");
    free(html);
}

/* The compiled-in player is the one in compiler/player/, byte for byte. */
Test(manifest, the_compiled_in_player_matches_its_sources)
{
    cr_assert_geq(scorm_player_count, 4);
    for (size_t i = 0; i < scorm_player_count; i++) {
        char *path = xasprintf("compiler/player/%s", scorm_player[i].name);
        size_t len;
        char *src = read_file(path, &len);
        cr_assert_not_null(src, "%s", path);
        cr_assert_eq(len, scorm_player[i].len, "%s", path);
        cr_assert(memcmp(src, scorm_player[i].data, len) == 0, "%s", path);
        if (i > 0)
            cr_assert_lt(strcmp(scorm_player[i - 1].name, scorm_player[i].name), 0, "in name order");
        free(src);
        free(path);
    }
}

Test(manifest, the_player_never_assigns_innerHTML)
{
    for (size_t i = 0; i < scorm_player_count; i++) {
        char *text = xstrndup((const char *)scorm_player[i].data, scorm_player[i].len);
        /* The one mention allowed is the comment that says so. */
        const char *p = strstr(text, "innerHTML");
        if (p)
            cr_assert_null(strstr(p + 1, "innerHTML"), "%s uses innerHTML", scorm_player[i].name);
        cr_assert_null(strstr(text, "outerHTML"), "%s", scorm_player[i].name);
        cr_assert_null(strstr(text, "insertAdjacentHTML"), "%s", scorm_player[i].name);
        cr_assert_null(strstr(text, "document.write"), "%s", scorm_player[i].name);
        cr_assert_null(strstr(text, "eval("), "%s", scorm_player[i].name);
        free(text);
    }
}

Test(manifest, the_same_quiz_gives_the_same_files)
{
    package(BILINGUAL, SCORM_2004);
    struct emit_files again = { 0 };
    struct emit_opts o = { .scorm = SCORM_2004 };
    cr_assert_eq(emit_scorm_files(course, &o, &again, cap->d), 0);
    cr_assert_eq(again.files.n, files.files.n);
    for (size_t i = 0; i < files.files.n; i++) {
        cr_assert_str_eq(again.files.items[i].name, files.files.items[i].name);
        cr_assert_eq(again.files.items[i].len, files.files.items[i].len);
        cr_assert(memcmp(again.files.items[i].data, files.files.items[i].data,
                         files.files.items[i].len) == 0, "%s differs", files.files.items[i].name);
    }
    emit_files_free(&again);
}

Test(manifest, a_title_with_markup_is_escaped_text)
{
    package("tests/scorm/data/hostile.qz", SCORM_12);
    assert_xpath_str("//cp:item/cp:title", "<script>window.__pwned = 'title'</script> Hostile");
    cr_assert_eq(num("//script"), 0);
}

Test(manifest, a_question_with_more_choices_than_scorm_ids_is_refused)
{
    struct membuf q = { 0 };
    const char *head = "quiz many {\n title \"Many\"\n single big {\n prompt \"Which?\"\n correct \"c0\"\n";
    membuf_append(&q, head, strlen(head));
    for (int i = 1; i <= SCORM_MAX_CHOICES; i++) {
        char line[32];
        int n = snprintf(line, sizeof line, " wrong \"c%d\"\n", i);
        membuf_append(&q, line, (size_t)n);
    }
    membuf_append(&q, "}\n}\n", 5);
    course = capture_load_text(cap, "many.qz", (const char *)q.data);
    membuf_free(&q);
    cr_assert_not_null(course);
    struct emit_opts o = { .scorm = SCORM_12 };
    int before = diag_errors(cap->d);
    cr_assert_eq(emit_scorm_files(course, &o, &files, cap->d), -1);
    cr_assert_gt(diag_errors(cap->d), before);
    cr_assert_eq(files.files.n, 0, "no files for a refused package");
    cr_assert(strstr(capture_dump(cap), "at most 36") != NULL, "%s", capture_dump(cap));
}
