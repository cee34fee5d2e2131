/*
 * render.c — the Markdown subset of author text as escaped HTML, in one
 * language or as Moodle multi-language spans, and the general feedback of a
 * question (explanation and lab box) built from it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lab_text.h"
#include "media.h"
#include "render.h"
#include "render_runs.h"
#include "scorm.h"

const char *render_lang(const struct render *r)
{
    if (r->lang)
        return r->lang;
    return r->quiz && r->quiz->langs.n ? r->quiz->langs.items[0].tag : NULL;
}

static void put(struct membuf *b, const char *s)
{
    membuf_append(b, s, strlen(s));
}

static const char *const span_tag[] = {
    [MD_CODE] = "code", [MD_EM] = "em", [MD_STRONG] = "strong",
};

/* An image as the format carries it (enum render_images). */
static void render_image(struct render *r, struct membuf *b, const struct md_span *s)
{
    const struct qz_image *im = r->course ? media_image(r->course, s->text) : NULL;
    if (r->images == RENDER_IMG_ALT || !im || !im->bytes) {
        if (r->warn && r->images == RENDER_IMG_ALT) {
            char *needle = xasprintf("](%s)", s->text);
            struct src_loc at = r->at ? media_locate(&r->at->loc, needle, 2, strlen(s->text)) : (struct src_loc){ 0 };
            free(needle);
            diag_warning(r->warn, r->at ? &at : NULL,
                         "image '%s' cannot travel in this format: its alt text is written in its place", s->text);
        }
        put(b, "[");
        render_escaped(r, b, s->alt);
        put(b, "]");
        return;
    }
    put(b, "<img src=\"");
    if (r->images == RENDER_IMG_PLUGINFILE) {
        put(b, "@@PLUGINFILE@@/");
        put(b, im->name + strlen("media/"));
    } else {
        put(b, r->base ? r->base : "");
        put(b, im->name);
    }
    put(b, "\" alt=\"");
    render_escaped(r, b, s->alt);
    put(b, "\"/>");
    size_t k = 0;
    while (k < r->used.n && r->used.items[k] != im)
        k++;
    if (k == r->used.n)
        VEC_PUSH(r->used, im);
}

/* A formula: MathML, or its TeX in the delimiters MathJax reads. */
static void render_formula(struct render *r, struct membuf *b, const struct md_span *s)
{
    bool display = s->kind == MD_DMATH;
    const struct qz_formula *f = r->course ? media_formula(r->course, s->text, display) : NULL;
    if (r->mathml && f && f->mathml) {
        put(b, f->mathml);
        return;
    }
    put(b, display ? "\\[" : "\\(");
    render_escaped(r, b, s->text);
    put(b, display ? "\\]" : "\\)");
}

static void render_spans(struct render *r, struct membuf *b, const struct md_block *blk)
{
    for (size_t i = 0; i < blk->spans.n; i++) {
        const struct md_span *s = &blk->spans.items[i];
        if (s->kind == MD_IMAGE) {
            render_image(r, b, s);
        } else if (s->kind == MD_MATH || s->kind == MD_DMATH) {
            render_formula(r, b, s);
        } else if (s->kind == MD_BREAK) {
            put(b, "<br/>");
        } else if (s->kind == MD_PLAIN) {
            render_escaped(r, b, s->text);
        } else {
            put(b, "<");
            put(b, span_tag[s->kind]);
            put(b, ">");
            render_escaped(r, b, s->text);
            put(b, "</");
            put(b, span_tag[s->kind]);
            put(b, ">");
        }
    }
}

/* A code block: <pre><code>, the language as a class the way highlighters look for it. */
static void render_code(struct render *r, struct membuf *b, const char *code, const char *info)
{
    put(b, "<pre><code");
    if (info && *info) {
        put(b, " class=\"language-");
        render_escaped(r, b, info);
        put(b, "\"");
    }
    put(b, ">");
    render_escaped(r, b, code);
    put(b, "</code></pre>");
}

void render_md(struct render *r, struct membuf *b, const struct md_doc *doc)
{
    if (doc->blocks.n == 1 && doc->blocks.items[0].kind == MD_PARAGRAPH) {
        render_spans(r, b, &doc->blocks.items[0]);
        return;
    }
    for (size_t i = 0; i < doc->blocks.n; i++) {
        const struct md_block *blk = &doc->blocks.items[i];
        if (blk->kind == MD_CODEBLOCK) {
            render_code(r, b, blk->code, blk->info);
            continue;
        }
        put(b, "<p>");
        render_spans(r, b, blk);
        put(b, "</p>");
    }
}

/* What a piece of output is, in one language. */
typedef void (*render_fn)(struct render *r, struct membuf *b, const void *what, const char *lang);

/*
 * fn in r's language, or once per quiz language inside multi-language spans.
 * A piece that reads the same in every language (neutral) is written once.
 */
static void each_lang(struct render *r, struct membuf *b, render_fn fn, const void *what, bool neutral)
{
    const struct ast_quiz *q = r->quiz;
    if (r->lang || neutral || !q || q->langs.n < 2) {
        fn(r, b, what, render_lang(r));
        return;
    }
    for (size_t i = 0; i < q->langs.n; i++) {
        put(b, "<span lang=\"");
        render_escaped(r, b, q->langs.items[i].tag);
        put(b, "\" class=\"multilang\">");
        fn(r, b, what, q->langs.items[i].tag);
        put(b, "</span>");
    }
}

/* A translation's Markdown as HTML, parsed for this once; nothing for NULL. */
static void render_tr(struct render *r, struct membuf *b, const struct ast_tr *tr)
{
    if (!tr)
        return;
    struct md_doc doc = { 0 };
    md_parse(tr->raw, &doc);
    r->at = tr;
    render_md(r, b, &doc);
    r->at = NULL;
    md_doc_clear(&doc);
}

static void text_in(struct render *r, struct membuf *b, const void *what, const char *lang)
{
    render_tr(r, b, ast_text_get(what, lang));
}

void render_text(struct render *r, struct membuf *b, const struct ast_text *t)
{
    if (t)
        each_lang(r, b, text_in, t, t->neutral);
}

bool render_has_feedback(const struct ast_question *q)
{
    return q->explain || q->extra->labs.n || q->extra->snippets.n;
}

/* As a block: a one-paragraph text rendered inline gets its <p> back. */
static void block_tr(struct render *r, struct membuf *b, const struct ast_tr *tr)
{
    if (!tr)
        return;
    struct md_doc doc = { 0 };
    md_parse(tr->raw, &doc);
    bool inline_one = doc.blocks.n == 1 && doc.blocks.items[0].kind == MD_PARAGRAPH;
    if (inline_one)
        put(b, "<p>");
    r->at = tr;
    render_md(r, b, &doc);
    r->at = NULL;
    if (inline_one)
        put(b, "</p>");
    md_doc_clear(&doc);
}

static void para(struct render *r, struct membuf *b, const char *s)
{
    put(b, "<p>");
    render_escaped(r, b, s);
    put(b, "</p>");
}

/* The lab box in one language: the same pieces, in the same order, as the player's. */
static void feedback_in(struct render *r, struct membuf *b, const void *what, const char *lang)
{
    const struct ast_question *q = what;
    block_tr(r, b, ast_text_get(q->explain, lang));
    if (!q->extra->labs.n && !q->extra->snippets.n)
        return;
    put(b, "<p><strong>");
    render_escaped(r, b, labtext_word(LABTEXT_TRY, lang));
    put(b, "</strong></p>");
    for (size_t i = 0; i < q->extra->labs.n; i++) {
        const struct ast_labref *ref = &q->extra->labs.items[i];
        if (ref->def && ref->def->title)
            block_tr(r, b, qz_lab_text(ref->def->title, lang));
        para(r, b, labtext_word(LABTEXT_RUN, lang));
        char *cmd = qz_lab_command(ref);
        render_code(r, b, cmd, NULL);
        free(cmd);
        if (ref->expects.n) {
            para(r, b, labtext_word(LABTEXT_EXPECT, lang));
            put(b, "<ul>");
            for (size_t k = 0; k < ref->expects.n; k++) {
                const struct ast_expect *x = &ref->expects.items[k];
                char *wanted = labtext_wanted(ref, x, lang);
                put(b, "<li>");
                render_metric(r, b, ref, x, lang);
                put(b, ": ");
                render_escaped(r, b, wanted);
                put(b, "</li>");
                free(wanted);
            }
            put(b, "</ul>");
        }
        /* What a machine measured for these claims (quizc --runs), after them. */
        render_run(r, b, q, ref, lang);
    }
    for (size_t i = 0; i < q->extra->snippets.n; i++) {
        const struct ast_snippet *s = &q->extra->snippets.items[i];
        char *cap = xasprintf("%s: labs/%s/%s (%s)", labtext_word(LABTEXT_SNIPPET, lang), s->lab,
                              s->file ? s->file : "", s->region);
        para(r, b, cap);
        free(cap);
        render_code(r, b, s->code ? s->code : "", NULL);
    }
}

/* Whether the feedback reads the same in every language: neither words of ours nor translations. */
static bool feedback_neutral(const struct ast_question *q)
{
    return !q->extra->labs.n && !q->extra->snippets.n && (!q->explain || q->explain->neutral);
}

void render_feedback(struct render *r, struct membuf *b, const struct ast_question *q)
{
    if (render_has_feedback(q))
        each_lang(r, b, feedback_in, q, feedback_neutral(q));
}

char *render_plain(const struct render *r, const struct ast_text *t)
{
    return scorm_plain_text(t, render_lang(r));
}

const char *render_number(char buf[RENDER_NUM_MAX], double x)
{
    int prec = 1;
    for (; prec < 17; prec++) {
        snprintf(buf, RENDER_NUM_MAX, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    if (!strchr(buf, 'e'))
        return buf;
    /* prec significant digits, written out: as many decimals as reach the last of them. */
    int exp10 = x == 0 ? 0 : (int)floor(log10(fabs(x)));
    int decimals = prec - 1 - exp10;
    snprintf(buf, RENDER_NUM_MAX, "%.*f", decimals > 0 ? decimals : 0, x);
    return buf;
}

double render_round(double x)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", x);
    return strtod(buf, NULL);
}

/* The prompt, then a numeric question's unit as a paragraph, "Unit: fraction". */
static void prompt_in(struct render *r, struct membuf *b, const void *what, const char *lang)
{
    const struct ast_question *q = what;
    render_tr(r, b, ast_text_get(q->prompt, lang));
    if (q->kind != Q_NUMERIC || !q->numeric->unit)
        return;
    put(b, "<p>");
    render_escaped(r, b, labtext_word(LABTEXT_UNIT, lang));
    put(b, ": ");
    render_tr(r, b, ast_text_get(q->numeric->unit, lang));
    put(b, "</p>");
}

/*
 * One span per language for the two: Moodle's multi-language filter takes
 * spans that follow each other as one group and keeps one span per
 * language, so a prompt's spans followed by the unit's lost the prompt.
 */
void render_prompt(struct render *r, struct membuf *b, const struct ast_question *q)
{
    bool unit = q->kind == Q_NUMERIC && q->numeric->unit;
    if (q->prompt || unit)
        each_lang(r, b, prompt_in, q, !unit && (!q->prompt || q->prompt->neutral));
}
