/*
 * emit_qti.c — one question as a QTI 2.1 assessmentItem (IMS QTI 2.1.2,
 * imsqti_v2p1p2.xsd), through xw (xw.h); the HTML of author
 * text comes from render.c and is well-formed XML, so it is written as it
 * stands.
 *
 * Scoring is map_response's rules, written out in the item (and named by its
 * template URI where the item has no feedback to set): SCORE is the mapped
 * value of the response, 0 when there is none.  The mapping carries the
 * question's points: a right choice maps to them, a multiple's right choices
 * share them and its wrong ones take them back (bounded by 0 and the points).
 * Numeric answers have no standard template: SCORE is the points when the
 * number lies in the accepted interval.  FEEDBACK is set to the response, so
 * each choice's `because` shows as a modal feedback; GENERAL shows the
 * explanation and the lab box once the item is answered.
 */
#include <stdio.h>
#include <string.h>

#include "grading.h"
#include "grading.h"
#include "interval.h"
#include "kinds.h"
#include "lab_text.h"
#include "qti.h"
#include "xw.h"

#define MAP_RESPONSE "http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"

struct item {
    struct render *r;
    struct xw *w;
    struct membuf html;
};

static void start(struct item *it, const char *name)
{
    xw_start(it->w, name);
}

static void end(struct item *it)
{
    xw_end(it->w);
}

static void attr(struct item *it, const char *name, const char *value)
{
    xw_attr(it->w, name, value);
}

static void attr_num(struct item *it, const char *name, double x)
{
    char buf[RENDER_NUM_MAX];
    attr(it, name, render_number(buf, x));
}

/* Write what was rendered into it->html as markup, and empty it. */
static void raw_html(struct item *it)
{
    if (it->html.len)
        xw_raw(it->w, (const char *)it->html.data);
    it->html.len = 0;
}

/* <div>TEXT</div>: a div takes both a one-line text and paragraphs. */
static void div_text(struct item *it, const struct ast_text *t)
{
    start(it, "div");
    render_text(it->r, &it->html, t);
    raw_html(it);
    end(it);
}

/* A choice's identifier: its course.xml id while that is a letter (an NCName), else cN. */
static void choice_id(char buf[24], size_t i)
{
    char c = emit_choice_id(i);
    if (c >= 'a' && c <= 'z')
        snprintf(buf, 24, "%c", c);
    else
        snprintf(buf, 24, "c%zu", i);
}

static void value(struct item *it, const char *v)
{
    xw_element(it->w, "value", v);
}

static void base_value(struct item *it, const char *type, const char *v)
{
    start(it, "baseValue");
    attr(it, "baseType", type);
    xw_text(it->w, v);
    end(it);
}

static void base_num(struct item *it, double x)
{
    char buf[RENDER_NUM_MAX];
    base_value(it, "float", render_number(buf, x));
}

static void map_entry(struct item *it, const char *key, double mapped, bool case_sensitive)
{
    start(it, "mapEntry");
    attr(it, "mapKey", key);
    attr_num(it, "mappedValue", mapped);
    attr(it, "caseSensitive", case_sensitive ? "true" : "false");
    end(it);
}

static void outcome(struct item *it, const char *id, const char *card, const char *type, const char *def)
{
    start(it, "outcomeDeclaration");
    attr(it, "identifier", id);
    attr(it, "cardinality", card);
    attr(it, "baseType", type);
    if (def) {
        start(it, "defaultValue");
        value(it, def);
        end(it);
    }
    end(it);
}

/* The accepted interval of a numeric answer (interval.c), and the key shown as correct. */
static void bounds(const struct ast_numeric *n, double *lo, double *hi, double *key)
{
    struct qz_interval in = qz_answer_interval(n), k = qz_answer_key(n);
    *key = n->kind == NUM_RANGE ? render_round((k.lo + k.hi) / 2) : k.lo;
    *lo = n->kind == NUM_RANGE ? in.lo : render_round(in.lo);
    *hi = n->kind == NUM_RANGE ? in.hi : render_round(in.hi);
}

static bool has_because(const struct ast_question *q)
{
    for (size_t i = 0; i < q->choices.n; i++)
        if (q->choices.items[i].because)
            return true;
    return false;
}

static void declarations(struct item *it, const struct ast_question *q)
{
    char id[24], buf[RENDER_NUM_MAX];
    start(it, "responseDeclaration");
    attr(it, "identifier", "RESPONSE");
    const struct kind_info *k = kind_of(q->kind);
    attr(it, "cardinality", k->several ? "multiple" : "single");
    attr(it, "baseType", k->qti_base_type);
    start(it, "correctResponse");
    switch (q->kind) {
    case Q_SINGLE:
    case Q_MULTIPLE:
        for (size_t i = 0; i < q->choices.n; i++)
            if (q->choices.items[i].correct)
                value(it, (choice_id(id, i), id));
        break;
    case Q_TRUEFALSE:
        value(it, q->tf_answer ? "true" : "false");
        break;
    case Q_NUMERIC: {
        double lo, hi, key;
        bounds(q->numeric, &lo, &hi, &key);
        value(it, render_number(buf, key));
        break;
    }
    case Q_TEXT:
        value(it, q->accept.n && q->accept.items[0].raw ? q->accept.items[0].raw : "");
        break;
    }
    end(it);
    if (q->kind != Q_NUMERIC) {
        start(it, "mapping");
        attr(it, "defaultValue", "0");
        if (q->kind == Q_MULTIPLE) {
            attr(it, "lowerBound", "0");
            attr_num(it, "upperBound", q->extra->points);
        }
        switch (q->kind) {
        case Q_SINGLE:
        case Q_MULTIPLE:
            for (size_t i = 0; i < q->choices.n; i++) {
                double v = q->extra->points * grade_choice_weight(q, i);
                choice_id(id, i);
                map_entry(it, id, v, true);
            }
            break;
        case Q_TRUEFALSE:
            map_entry(it, q->tf_answer ? "true" : "false", q->extra->points, true);
            break;
        case Q_TEXT:    /* accepted answers match whatever their case, as the language says */
            for (size_t i = 0; i < q->accept.n; i++)
                map_entry(it, q->accept.items[i].raw ? q->accept.items[i].raw : "", q->extra->points, false);
            break;
        case Q_NUMERIC:
            break;
        }
        end(it);
    }
    end(it);

    outcome(it, "SCORE", "single", "float", "0");
    outcome(it, "MAXSCORE", "single", "float", render_number(buf, q->extra->points));
    if (has_because(q))
        outcome(it, "FEEDBACK", kind_of(q->kind)->several ? "multiple" : "single", "identifier", NULL);
    if (render_has_feedback(q))
        outcome(it, "GENERAL", "single", "identifier", NULL);
}

static void choice_interaction(struct item *it, const struct ast_question *q, bool shuffle)
{
    char id[24];
    start(it, "choiceInteraction");
    attr(it, "responseIdentifier", "RESPONSE");
    attr(it, "shuffle", shuffle && q->kind != Q_TRUEFALSE ? "true" : "false");
    attr(it, "maxChoices", kind_of(q->kind)->several ? "0" : "1");
    if (q->kind == Q_TRUEFALSE) {
        const char *lang = render_lang(it->r);
        for (int v = 1; v >= 0; v--) {
            start(it, "simpleChoice");
            attr(it, "identifier", v ? "true" : "false");
            xw_text(it->w, labtext_word(v ? LABTEXT_TRUE : LABTEXT_FALSE, lang));
            end(it);
        }
    }
    for (size_t i = 0; q->kind != Q_TRUEFALSE && i < q->choices.n; i++) {
        start(it, "simpleChoice");
        choice_id(id, i);
        attr(it, "identifier", id);
        render_text(it->r, &it->html, q->choices.items[i].text);
        raw_html(it);
        end(it);
    }
    end(it);
}

static void body(struct item *it, const struct ast_question *q, bool shuffle)
{
    start(it, "itemBody");
    div_text(it, q->prompt);
    if (q->kind == Q_NUMERIC || q->kind == Q_TEXT) {
        start(it, "p");
        start(it, "textEntryInteraction");
        attr(it, "responseIdentifier", "RESPONSE");
        attr(it, "expectedLength", q->kind == Q_NUMERIC ? "12" : "20");
        end(it);
        if (q->numeric->unit) {      /* the unit, right after the box */
            xw_text(it->w, " ");
            char *unit = render_plain(it->r, q->numeric->unit);
            xw_text(it->w, unit);
            free(unit);
        }
        end(it);
    } else {
        choice_interaction(it, q, shuffle);
    }
    end(it);
}

static void set_outcome(struct item *it, const char *id)
{
    start(it, "setOutcomeValue");
    attr(it, "identifier", id);
}

static void variable(struct item *it, const char *id)
{
    start(it, "variable");
    attr(it, "identifier", id);
    end(it);
}

static void processing(struct item *it, const struct ast_question *q)
{
    start(it, "responseProcessing");
    /*
     * An engine that knows the template may run it instead of the rules
     * (qti-components does), and the template sets no feedback: it is named
     * only where the item has none.
     */
    bool whole = grade_all_or_nothing(it->r->quiz, q);
    if (q->kind != Q_NUMERIC && !whole && !has_because(q) && !render_has_feedback(q))
        attr(it, "template", MAP_RESPONSE);
    start(it, "responseCondition");
    start(it, "responseIf");
    if (q->kind == Q_NUMERIC) {
        double lo, hi, key;
        bounds(q->numeric, &lo, &hi, &key);
        start(it, "and");
        start(it, "gte");
        variable(it, "RESPONSE");
        base_num(it, lo);
        end(it);
        start(it, "lte");
        variable(it, "RESPONSE");
        base_num(it, hi);
        end(it);
        end(it);
        set_outcome(it, "SCORE");
        base_num(it, q->extra->points);
        end(it);
        end(it);
        start(it, "responseElse");
        set_outcome(it, "SCORE");
        base_num(it, 0);
        end(it);
        end(it);
    } else {
        start(it, "isNull");
        variable(it, "RESPONSE");
        end(it);
        set_outcome(it, "SCORE");
        base_num(it, 0);
        end(it);
        end(it);
        if (whole) {    /* all or nothing: the points for exactly the right choices */
            start(it, "responseElseIf");
            start(it, "match");
            variable(it, "RESPONSE");
            start(it, "correct");
            attr(it, "identifier", "RESPONSE");
            end(it);
            end(it);
            set_outcome(it, "SCORE");
            base_num(it, q->extra->points);
            end(it);
            end(it);
        }
        start(it, "responseElse");
        set_outcome(it, "SCORE");
        if (whole) {
            base_num(it, 0);
        } else {
            start(it, "mapResponse");
            attr(it, "identifier", "RESPONSE");
            end(it);
        }
        end(it);
        end(it);
    }
    end(it);
    if (has_because(q)) {
        set_outcome(it, "FEEDBACK");
        variable(it, "RESPONSE");
        end(it);
    }
    if (render_has_feedback(q)) {
        set_outcome(it, "GENERAL");
        base_value(it, "identifier", "shown");
        end(it);
    }
    end(it);
}

static void feedback(struct item *it, const char *outcome_id, const char *id)
{
    start(it, "modalFeedback");
    attr(it, "outcomeIdentifier", outcome_id);
    attr(it, "showHide", "show");
    attr(it, "identifier", id);
    raw_html(it);
    end(it);
}

static void feedbacks(struct item *it, const struct ast_question *q)
{
    char id[24];
    for (size_t i = 0; i < q->choices.n; i++) {
        if (!q->choices.items[i].because)
            continue;
        choice_id(id, i);
        start(it, "modalFeedback");
        attr(it, "outcomeIdentifier", "FEEDBACK");
        attr(it, "showHide", "show");
        attr(it, "identifier", id);
        render_text(it->r, &it->html, q->choices.items[i].because);
        raw_html(it);
        end(it);
    }
    if (render_has_feedback(q)) {
        render_feedback(it->r, &it->html, q);
        feedback(it, "GENERAL", "shown");
    }
}

char *qti_item_path(const struct ast_question *q)
{
    return xasprintf("items/%s.xml", q->id);
}

int qti_item(struct render *r, const struct ast_question *q, bool shuffle, struct membuf *out)
{
    struct item it = { .r = r, .w = xw_new(membuf_write, out, true) };
    xw_declaration(it.w);
    start(&it, "assessmentItem");
    attr(&it, "xmlns", QTI_NS);
    attr(&it, "xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance");
    attr(&it, "xsi:schemaLocation", QTI_NS " " QTI_XSD);
    attr(&it, "identifier", q->id);
    attr(&it, "title", q->id);
    attr(&it, "adaptive", "false");
    attr(&it, "timeDependent", "false");
    if (r->lang)
        attr(&it, "xml:lang", r->lang);
    declarations(&it, q);
    body(&it, q, shuffle);
    processing(&it, q);
    feedbacks(&it, q);
    end(&it);
    int rc = xw_finish(it.w);
    xw_free(it.w);
    membuf_free(&it.html);
    return rc < 0 ? -1 : 0;
}
