/*
 * qti_package.c — a QTI 2.1 content package: the items (emit_qti.c), one
 * assessmentTest that holds them in order with the quiz's title, intro and
 * passing score, and imsmanifest.xml (IMS Content Packaging 1.1, the
 * resource types QTI 2.1 defines) that lists them all.
 *
 * The test sums the items' SCORE and MAXSCORE, and PASS is SCORE reaching
 * `passing` percent of the points.  `feedback immediate` submits each item
 * on its own (submissionMode individual), `on-submit` all together, `never`
 * turns feedback off (showFeedback false).
 */
#include <stdio.h>
#include <string.h>


#include "qti.h"
#include "xw.h"

#define CP_NS "http://www.imsglobal.org/xsd/imscp_v1p1"
#define CP_XSD "http://www.imsglobal.org/xsd/imscp_v1p1.xsd"

static struct xw *writer(struct membuf *out)
{
    struct xw *w = xw_new(membuf_write, out, true);
    xw_declaration(w);
    return w;
}

static void attr(struct xw *w, const char *name, const char *value)
{
    xw_attr(w, name, value);
}

static void start(struct xw *w, const char *name)
{
    xw_start(w, name);
}

static void end(struct xw *w)
{
    xw_end(w);
}

static void outcome(struct xw *w, const char *id, const char *type, const char *def)
{
    start(w, "outcomeDeclaration");
    attr(w, "identifier", id);
    attr(w, "cardinality", "single");
    attr(w, "baseType", type);
    if (def) {
        start(w, "defaultValue");
        xw_element(w, "value", def);
        end(w);
    }
    end(w);
}

static void base_num(struct xw *w, double x)
{
    char buf[RENDER_NUM_MAX];
    start(w, "baseValue");
    attr(w, "baseType", "float");
    xw_text(w, render_number(buf, x));
    end(w);
}

static void sum_of(struct xw *w, const char *id)
{
    start(w, "setOutcomeValue");
    attr(w, "identifier", id);
    start(w, "sum");
    start(w, "testVariables");
    attr(w, "variableIdentifier", id);
    end(w);
    end(w);
    end(w);
}

static int test_doc(struct render *r, const struct qz_course *c, struct membuf *out)
{
    const struct ast_quiz *quiz = c->quiz;
    double total = 0;
    for (size_t i = 0; i < c->questions.n; i++)
        total += c->questions.items[i]->extra->points;
    char buf[RENDER_NUM_MAX];
    char *title = render_plain(r, quiz->title);

    struct xw *w = writer(out);
    start(w, "assessmentTest");
    attr(w, "xmlns", QTI_NS);
    attr(w, "xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance");
    attr(w, "xsi:schemaLocation", QTI_NS " " QTI_XSD);
    attr(w, "identifier", quiz->id ? quiz->id : "quiz");
    attr(w, "title", title);
    outcome(w, "SCORE", "float", "0");
    outcome(w, "MAXSCORE", "float", render_number(buf, total));
    outcome(w, "PASS", "boolean", "false");

    start(w, "testPart");
    attr(w, "identifier", "part");
    attr(w, "navigationMode", "nonlinear");
    attr(w, "submissionMode", quiz->feedback == FEEDBACK_IMMEDIATE ? "individual" : "simultaneous");
    start(w, "itemSessionControl");
    attr(w, "showFeedback", quiz->feedback == FEEDBACK_NEVER ? "false" : "true");
    end(w);
    start(w, "assessmentSection");
    attr(w, "identifier", "questions");
    attr(w, "title", title);
    attr(w, "visible", "true");
    if (quiz->shuffle == SHUFFLE_QUESTIONS || quiz->shuffle == SHUFFLE_ALL) {
        start(w, "ordering");
        attr(w, "shuffle", "true");
        end(w);
    }
    if (quiz->intro) {
        struct membuf html = { 0 };
        render_text(r, &html, quiz->intro);
        start(w, "rubricBlock");
        attr(w, "view", "candidate");
        start(w, "div");
        if (html.len)
            xw_raw(w, (const char *)html.data);
        end(w);
        end(w);
        membuf_free(&html);
    }
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        char *href = qti_item_path(q);
        start(w, "assessmentItemRef");
        attr(w, "identifier", q->id);
        attr(w, "href", href);
        end(w);
        free(href);
    }
    end(w);
    end(w);

    start(w, "outcomeProcessing");
    sum_of(w, "SCORE");
    start(w, "setOutcomeValue");
    attr(w, "identifier", "PASS");
    start(w, "gte");
    start(w, "variable");
    attr(w, "identifier", "SCORE");
    end(w);
    base_num(w, total * quiz->passing / 100);
    end(w);
    end(w);
    end(w);
    end(w);
    int rc = xw_finish(w);
    xw_free(w);
    free(title);
    return rc < 0 ? -1 : 0;
}

static void file(struct xw *w, const char *href)
{
    start(w, "file");
    attr(w, "href", href);
    end(w);
}

/* The figures each document shows: [0] the test's (its rubric), [1 + i] question i's item's. */
typedef struct render_used image_list;

static void files_of(struct xw *w, const image_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        file(w, l->items[i]->name);
}

static int manifest(const struct qz_course *c, const image_list *shown, struct membuf *out)
{
    const char *id = c->quiz->id ? c->quiz->id : "quiz";
    struct xw *w = writer(out);
    start(w, "manifest");
    attr(w, "xmlns", CP_NS);
    attr(w, "xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance");
    attr(w, "xsi:schemaLocation", CP_NS " " CP_XSD);
    char *mid = xasprintf("MANIFEST-%s", id);
    attr(w, "identifier", mid);
    free(mid);
    start(w, "metadata");
    xw_element(w, "schema", "QTIv2.1 Package");
    xw_element(w, "schemaversion", "1.0.0");
    end(w);
    xw_element(w, "organizations", "");
    start(w, "resources");
    start(w, "resource");
    attr(w, "identifier", "test");
    attr(w, "type", "imsqti_test_xmlv2p1");
    attr(w, "href", "assessmentTest.xml");
    file(w, "assessmentTest.xml");
    files_of(w, &shown[0]);
    for (size_t i = 0; i < c->questions.n; i++) {
        char *ref = xasprintf("item-%s", c->questions.items[i]->id);
        start(w, "dependency");
        attr(w, "identifierref", ref);
        end(w);
        free(ref);
    }
    end(w);
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        char *ref = xasprintf("item-%s", q->id);
        char *href = qti_item_path(q);
        start(w, "resource");
        attr(w, "identifier", ref);
        attr(w, "type", "imsqti_item_xmlv2p1");
        attr(w, "href", href);
        file(w, href);
        files_of(w, &shown[1 + i]);
        end(w);
        free(href);
        free(ref);
    }
    end(w);
    end(w);
    int rc = xw_finish(w);
    xw_free(w);
    return rc < 0 ? -1 : 0;
}

static void free_shown(image_list *shown, size_t n, struct render *r)
{
    for (size_t i = 0; i < n; i++)
        VEC_FREE(shown[i]);
    free(shown);
    VEC_FREE(r->used);
}

int emit_qti_files(const struct qz_course *c, const struct emit_opts *o, struct emit_files *out,
                   struct diag *d)
{
    const struct ast_quiz *quiz = c->quiz;
    if (!quiz) {
        diag_error(d, NULL, "no quiz to package");
        return -1;
    }
    /* Figures are files of the package (media/), formulas MathML inside the items. */
    struct render r = { .quiz = quiz, .lang = o && o->lang ? o->lang : render_lang(&(struct render){ .quiz = quiz }),
                        .course = c, .images = RENDER_IMG_PACKAGE, .mathml = true, .base = "../" };
    image_list *shown = xcalloc(c->questions.n + 1, sizeof *shown);
    bool shuffle = quiz->shuffle == SHUFFLE_CHOICES || quiz->shuffle == SHUFFLE_ALL;
    struct emit_files fs = { 0 };
    struct membuf buf = { 0 };
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        size_t dropped = r.dropped;
        struct src_loc at = ast_question_id_loc(q);
        if (qti_item(&r, q, shuffle, &buf) < 0) {
            diag_error(d, &at, "cannot write the QTI item of question '%s'", q->id);
            goto fail;
        }
        if (r.dropped > dropped)
            diag_warning(d, &at, "question '%s': %zu characters that XML 1.0 cannot carry were left out",
                         q->id, r.dropped - dropped);
        shown[1 + i] = r.used;
        r.used = (image_list){ 0 };
        char *path = qti_item_path(q);
        emit_files_take(&fs, path, &buf);
        free(path);
    }
    r.base = "";
    if (test_doc(&r, c, &buf) < 0) {
        diag_error(d, NULL, "cannot write the QTI assessmentTest");
        goto fail;
    }
    emit_files_take(&fs, "assessmentTest.xml", &buf);
    shown[0] = r.used;
    r.used = (image_list){ 0 };
    for (size_t i = 0; i < c->media.images.n; i++) {
        const struct qz_image *im = &c->media.images.items[i];
        if (im->bytes)
            emit_files_add(&fs, im->name, im->bytes, im->len);
    }
    if (manifest(c, shown, &buf) < 0) {
        diag_error(d, NULL, "cannot write the QTI package's manifest");
        goto fail;
    }
    emit_files_take(&fs, "imsmanifest.xml", &buf);
    emit_files_move(out, &fs);
    free_shown(shown, c->questions.n + 1, &r);
    return 0;
fail:
    membuf_free(&buf);
    emit_files_free(&fs);
    free_shown(shown, c->questions.n + 1, &r);
    return -1;
}
