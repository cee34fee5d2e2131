/*
 * emit_moodle.c — the quiz as Moodle XML, the question bank's own format
 * (Question bank → Import → Moodle XML), through xw (xw.h).
 * The subset written is described by compiler/moodle.xsd.
 *
 *   <quiz>
 *     <question type="category">     the quiz's title as the category, the intro as its info
 *     <question type="description">  the intro, shown where the questions are
 *     <question type="multichoice|truefalse|numerical|shortanswer"> per question
 *
 * Texts are HTML (format="html", rendered by render.c), in one language or
 * in Moodle's multi-language spans.  The passing score belongs to a Moodle
 * quiz, not to its questions, and is warned about.
 */
#include <stdio.h>
#include <string.h>

#include "grading.h"
#include "interval.h"
#include <stdlib.h>

#include <nettle/base64.h>

#include "kinds.h"
#include "media.h"
#include "render.h"
#include "xw.h"

struct moodle {
    struct render r;
    struct xw *w;
    struct membuf html;
};

static void start(struct moodle *m, const char *name)
{
    xw_start(m->w, name);
}

static void end(struct moodle *m)
{
    xw_end(m->w);
}

static void attr(struct moodle *m, const char *name, const char *value)
{
    xw_attr(m->w, name, value);
}

static void element(struct moodle *m, const char *name, const char *content)
{
    xw_element(m->w, name, content);
}

static void element_num(struct moodle *m, const char *name, double x)
{
    char buf[RENDER_NUM_MAX];
    element(m, name, render_number(buf, x));
}

/*
 * <text> with what was rendered into m->html, which is then emptied.  As
 * CDATA, as Moodle's own export writes it: Moodle's XML reader drops a run
 * of character data that is only white space, so the space between
 * `</em>` and `— dan` in escaped text would be lost.
 */
static void html_text(struct moodle *m)
{
    start(m, "text");
    if (m->html.len)
        xw_cdata(m->w, (const char *)m->html.data);
    end(m);
    /*
     * The images the text shows, embedded beside it as Moodle's own export
     * does (the text names each @@PLUGINFILE@@/NAME): Moodle files each
     * into the text's file area on import.
     */
    for (size_t i = 0; i < m->r.used.n; i++) {
        const struct qz_image *im = m->r.used.items[i];
        char *b64 = xmalloc(BASE64_ENCODE_RAW_LENGTH(im->len) + 1);
        base64_encode_raw(b64, im->len, im->bytes);
        b64[BASE64_ENCODE_RAW_LENGTH(im->len)] = '\0';
        start(m, "file");
        attr(m, "name", im->name + strlen("media/"));
        attr(m, "path", "/");
        attr(m, "encoding", "base64");
        xw_text(m->w, b64);
        end(m);
        free(b64);
    }
    m->r.used.n = 0;
    m->html.len = 0;
    if (m->html.data)
        m->html.data[0] = '\0';
}

/* <name format="html"><text>HTML</text></name> from what was rendered into m->html. */
static void html_element(struct moodle *m, const char *name)
{
    start(m, name);
    attr(m, "format", "html");
    html_text(m);
    end(m);
}

static void text_element(struct moodle *m, const char *name, const struct ast_text *t)
{
    render_text(&m->r, &m->html, t);
    html_element(m, name);
}

/* <answer fraction="F" format="html"><text>..</text><feedback>..</feedback></answer> */
static void answer(struct moodle *m, double fraction, const struct ast_text *t, const char *plain,
                   const struct ast_text *because)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.7g", fraction);
    start(m, "answer");
    attr(m, "fraction", buf);
    attr(m, "format", plain ? "plain_text" : "html");
    if (plain) {
        element(m, "text", plain);
    } else {
        render_text(&m->r, &m->html, t);
        html_text(m);
    }
    if (because) {
        text_element(m, "feedback", because);
    } else {
        start(m, "feedback");
        attr(m, "format", "html");
        element(m, "text", "");
        end(m);
    }
    end(m);
}

static void choices(struct moodle *m, const struct ast_question *q, bool shuffle)
{
    element(m, "single", q->kind == Q_SINGLE ? "true" : "false");
    element(m, "shuffleanswers", shuffle ? "1" : "0");
    element(m, "answernumbering", "abc");
    for (size_t i = 0; i < q->choices.n; i++) {
        const struct ast_choice *ch = &q->choices.items[i];
        answer(m, 100 * grade_choice_weight(q, i), ch->text, NULL, ch->because);
    }
}

static void numerical(struct moodle *m, const struct ast_question *q)
{
    const struct ast_numeric *n = q->numeric;
    double key, tol;
    struct qz_interval k = qz_answer_key(n);
    if (n->kind == NUM_RANGE) {     /* Moodle's answers are a value and a tolerance: the middle and half the width */
        key = render_round((k.lo + k.hi) / 2);
        tol = render_round((k.hi - k.lo) / 2);
    } else {                        /* a percentage worked out to the absolute tolerance Moodle takes */
        key = k.lo;
        tol = n->kind == NUM_TOLERANCE ? render_round(qz_tolerance_at(&n->tolerance, key)) : 0;
    }
    char buf[RENDER_NUM_MAX];
    start(m, "answer");
    attr(m, "fraction", "100");
    attr(m, "format", "plain_text");
    element(m, "text", render_number(buf, key));
    element_num(m, "tolerance", tol);
    start(m, "feedback");
    attr(m, "format", "html");
    element(m, "text", "");
    end(m);
    end(m);
    /*
     * The learner reads the unit in the question text, in each language (the
     * "Unit: …" line render_prompt writes).  Moodle's own unit handling is
     * off: no unit field is shown (showunits 3) and none is graded
     * (unitgradingtype 0); <units> keeps the unit, in the quiz's first
     * language, with multiplier 1 for Moodle's record of the question.
     */
    element(m, "unitgradingtype", "0");
    element(m, "unitpenalty", "0");
    element(m, "showunits", "3");
    element(m, "unitsleft", "0");
    if (q->numeric->unit) {
        char *unit = render_plain(&m->r, q->numeric->unit);
        start(m, "units");
        start(m, "unit");
        element(m, "multiplier", "1");
        element(m, "unit_name", unit);
        end(m);
        end(m);
        free(unit);
    }
}

static void question(struct moodle *m, const struct ast_question *q, bool shuffle, struct diag *d)
{
    size_t dropped = m->r.dropped;
    start(m, "question");
    attr(m, "type", kind_of(q->kind)->moodle);
    start(m, "name");
    element(m, "text", q->id);
    end(m);
    render_prompt(&m->r, &m->html, q);
    html_element(m, "questiontext");
    render_feedback(&m->r, &m->html, q);
    html_element(m, "generalfeedback");
    element_num(m, "defaultgrade", q->extra->points);
    element(m, "penalty", "0.3333333");
    element(m, "hidden", "0");
    element(m, "idnumber", q->id);

    switch (q->kind) {
    case Q_SINGLE:
    case Q_MULTIPLE:
        choices(m, q, shuffle);
        break;
    case Q_TRUEFALSE:
        answer(m, q->tf_answer ? 100 : 0, NULL, "true", NULL);
        answer(m, q->tf_answer ? 0 : 100, NULL, "false", NULL);
        break;
    case Q_NUMERIC:
        numerical(m, q);
        break;
    case Q_TEXT:
        element(m, "usecase", "0");     /* the language's accepted answers are case-insensitive */
        for (size_t i = 0; i < q->accept.n; i++) {
            /* * is Moodle's wildcard in short answers; an author's * is literal. */
            struct membuf a = { 0 };
            for (const char *p = q->accept.items[i].raw; p && *p; p++) {
                if (*p == '*')
                    membuf_append(&a, "\\", 1);
                membuf_append(&a, p, 1);
            }
            answer(m, 100, NULL, a.data ? (const char *)a.data : "", NULL);
            membuf_free(&a);
        }
        break;
    }
    end(m);
    struct src_loc at = ast_question_id_loc(q);
    if (m->r.dropped > dropped)
        diag_warning(d, &at, "question '%s': %zu characters that XML 1.0 cannot carry were left out",
                     q->id, m->r.dropped - dropped);
}

int emit_moodle_xml(const struct qz_course *c, const struct emit_opts *o, struct membuf *out,
                    struct diag *d)
{
    const struct ast_quiz *quiz = c->quiz;
    if (!quiz) {
        diag_error(d, NULL, "no quiz to write");
        return -1;
    }
    if (quiz->has_passing) {
        char p[RENDER_NUM_MAX];
        diag_warning(d, &quiz->passing_loc,
                     "Moodle XML holds questions only: the passing score %s%% is not carried (set it on the Moodle quiz)",
                     render_number(p, quiz->passing));
    }
    grade_warn_all_or_nothing(d, c, "Moodle XML");
    struct membuf doc = { 0 };
    struct moodle m = { .r = { .quiz = quiz, .lang = o ? o->lang : NULL, .course = c, .images = RENDER_IMG_PLUGINFILE },
                        .w = xw_new(membuf_write, &doc, true) };
    xw_declaration(m.w);
    xw_comment(m.w, " written by quizc for Moodle's question bank (Import, Moodle XML format) ");
    start(&m, "quiz");

    char *title = render_plain(&m.r, quiz->title);
    start(&m, "question");
    attr(&m, "type", "category");
    start(&m, "category");
    /* Category paths separate levels with /; a / in a name is written //. */
    struct membuf path = { 0 };
    membuf_append(&path, "$course$/top/", 13);
    for (const char *p = *title ? title : quiz->id; p && *p; p++)
        membuf_append(&path, *p == '/' ? "//" : p, *p == '/' ? 2 : 1);
    element(&m, "text", path.data ? (const char *)path.data : "");
    membuf_free(&path);
    end(&m);
    text_element(&m, "info", quiz->intro);
    end(&m);

    if (quiz->intro) {
        start(&m, "question");
        attr(&m, "type", "description");
        start(&m, "name");
        element(&m, "text", *title ? title : quiz->id);
        end(&m);
        text_element(&m, "questiontext", quiz->intro);
        render_text(&m.r, &m.html, NULL);
        html_element(&m, "generalfeedback");
        element(&m, "defaultgrade", "0");
        element(&m, "penalty", "0");
        element(&m, "hidden", "0");
        end(&m);
    }
    free(title);

    bool shuffle = quiz->shuffle == SHUFFLE_CHOICES || quiz->shuffle == SHUFFLE_ALL;
    for (size_t i = 0; i < c->questions.n; i++)
        question(&m, c->questions.items[i], shuffle, d);
    end(&m);
    int rc = xw_finish(m.w);
    xw_free(m.w);
    membuf_free(&m.html);
    VEC_FREE(m.r.used);
    if (rc < 0) {
        diag_error(d, NULL, "cannot write the Moodle XML document");
        membuf_free(&doc);
        return -1;
    }
    membuf_append(out, doc.data, doc.len);
    membuf_free(&doc);
    return 0;
}
