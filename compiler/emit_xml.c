/*
 * emit_xml.c — the course document (compiler/course.xsd) through the XML
 * writer of xw.h, so every piece of author text is escaped by the writer and
 * never pasted in as markup.  The same course always gives the same bytes:
 * no timestamps, no paths of the machine that compiled it, numbers printed
 * in their shortest exact form.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "grading.h"
#include "interval.h"
#include "media.h"
#include "runs.h"
#include "xml_chars.h"
#include "xw.h"

#define COURSE_NS "urn:x-quizc:course:1"

struct emitter {
    struct xw *w;
    struct diag *d;
    const struct ast_quiz *quiz;
    const struct qz_course *c;
    bool failed;            /* a string could not be written; keep going to report every one */
    struct md_doc md;       /* the text being written, parsed; reused from text to text */
};

/* ---- Characters XML 1.0 cannot carry (xml_chars.h) ----------------------- */

/* A string that cannot be written is reported; the writer goes on to report every one. */
static bool xml_safe(struct emitter *e, const char *s, const struct src_loc *at, const char *what)
{
    if (xmlchars_safe(e->d, s, at, what))
        return true;
    e->failed = true;
    return false;
}

static bool literal_safe(struct emitter *e, const char *s, const struct src_loc *lit, const char *what)
{
    if (xmlchars_literal_safe(e->d, s, lit, what))
        return true;
    e->failed = true;
    return false;
}

/* ---- Writer helpers ----------------------------------------------------- */

static void start(struct emitter *e, const char *name)
{
    xw_start(e->w, name);
}

static void end(struct emitter *e)
{
    xw_end(e->w);
}

static void attr(struct emitter *e, const char *name, const char *value)
{
    xw_attr(e->w, name, value);
}

static void attr_num(struct emitter *e, const char *name, double x)
{
    char buf[FMT_NUMBER_MAX];
    attr(e, name, fmt_number(buf, x));
}

/* A tolerance as written: tolerance="0.01", or tolerance-percent="5" for `within 5%`. */
static void tolerance_attrs(struct emitter *e, const struct ast_value *tol)
{
    attr_num(e, tol->percent ? "tolerance-percent" : "tolerance", fabs(tol->num));
}

/* The interval a percentage works out to (interval.c): min="…" max="…". */
static void interval_attrs(struct emitter *e, struct qz_interval in)
{
    attr_num(e, "min", in.lo);
    attr_num(e, "max", in.hi);
}

/* Whether q has a numeric answer key for a `within … of answer` claim. */
static bool has_key(const struct ast_question *q)
{
    return q->kind == Q_NUMERIC && q->has_answer;
}

static void element(struct emitter *e, const char *name, const char *content)
{
    xw_element(e->w, name, content);
}

/* ---- Markdown as structure ---------------------------------------------- */

static const char *const span_element[] = {
    [MD_PLAIN] = NULL, [MD_CODE] = "code", [MD_EM] = "em", [MD_STRONG] = "strong", [MD_BREAK] = "br",
};

/*
 * An image: its path as written, type and SHA-256 (the media pass's, so a
 * reader can tell the figure the course was built with), and its alt text.
 */
static void write_image(struct emitter *e, const struct md_span *s)
{
    struct xw *w = e->w;
    const struct qz_image *im = media_image(e->c, s->text);
    xw_start(w, "img");
    xw_attr(w, "src", s->text);
    if (im && im->mime) {
        xw_attr(w, "type", im->mime);
        xw_attr(w, "sha256", im->sha256);
    }
    xw_attr(w, "alt", s->alt);
    xw_end(w);
}

/* A formula: its TeX, and the MathML it was made into (media.h) in MathML's namespace. */
static void write_formula(struct emitter *e, const struct md_span *s)
{
    struct xw *w = e->w;
    bool display = s->kind == MD_DMATH;
    const struct qz_formula *f = media_formula(e->c, s->text, display);
    xw_start(w, "formula");
    xw_attr(w, "display", display ? "block" : "inline");
    xw_element(w, "tex", s->text);
    if (f && f->mathml)
        xw_raw(w, f->mathml);
    xw_end(w);
}

static void write_md(struct emitter *e, const struct md_doc *doc)
{
    struct xw *w = e->w;
    for (size_t i = 0; i < doc->blocks.n; i++) {
        const struct md_block *b = &doc->blocks.items[i];
        if (b->kind == MD_CODEBLOCK) {
            xw_start(w, "pre");
            if (b->info && *b->info)
                xw_attr(w, "lang", b->info);
            xw_text(w, b->code ? b->code : "");
            xw_end(w);
            continue;
        }
        xw_start(w, "p");
        for (size_t j = 0; j < b->spans.n; j++) {
            const struct md_span *s = &b->spans.items[j];
            if (s->kind == MD_PLAIN) {
                xw_text(w, s->text ? s->text : "");
            } else if (s->kind == MD_BREAK) {
                xw_start(w, "br");
                xw_end(w);
            } else if (s->kind == MD_IMAGE) {
                write_image(e, s);
            } else if (s->kind == MD_MATH || s->kind == MD_DMATH) {
                write_formula(e, s);
            } else {
                xw_element(w, span_element[s->kind], s->text ? s->text : "");
            }
        }
        xw_end(w);
    }
}

/*
 * One <text> for a translation.  Its content is mixed: no indentation
 * inside it, which would change the text.
 */
static void write_tr(struct emitter *e, const struct ast_tr *tr, const char *what)
{
    if (!literal_safe(e, tr->raw, &tr->loc, what))
        return;
    start(e, "text");
    if (tr->lang)
        attr(e, "xml:lang", tr->lang);
    md_parse(tr->raw, &e->md);
    if (e->md.blocks.n > 0) {
        xw_mixed(e->w);
        write_md(e, &e->md);
    }
    end(e);
}

/* A TEXT as <name> with one <text> per translation, the quiz's languages first in their order. */
static void write_text(struct emitter *e, const char *name, const struct ast_text *t, const char *what)
{
    if (!t)
        return;
    start(e, name);
    bool few[16] = { false };     /* no allocation for the usual handful of translations */
    bool *done = t->n < 16 ? few : xcalloc(t->n + 1, sizeof *done);
    if (e->quiz && !t->neutral) {
        for (size_t l = 0; l < e->quiz->langs.n; l++) {
            for (size_t i = 0; i < t->n; i++) {
                const struct ast_tr *tr = &t->trs[i];
                if (!done[i] && tr->lang && strcmp(tr->lang, e->quiz->langs.items[l].tag) == 0) {
                    write_tr(e, tr, what);
                    done[i] = true;
                    break;
                }
            }
        }
    }
    for (size_t i = 0; i < t->n; i++)
        if (!done[i])
            write_tr(e, &t->trs[i], what);
    if (done != few)
        free(done);
    end(e);
}

/* ---- Questions ---------------------------------------------------------- */

static void write_choices(struct emitter *e, const struct ast_question *q)
{
    start(e, "choices");
    for (size_t i = 0; i < q->choices.n; i++) {
        const struct ast_choice *ch = &q->choices.items[i];
        char key[2] = { emit_choice_id(i), '\0' };
        start(e, "choice");
        attr(e, "key", key);
        attr(e, "correct", ch->correct ? "true" : "false");
        write_text(e, "content", ch->text, "this choice");
        write_text(e, "because", ch->because, "this feedback");
        end(e);
    }
    end(e);

    /* The correct choices' keys, space-separated: what a learner must pick. */
    char ids[2 * 36 + 1];
    size_t n = 0;
    for (size_t i = 0; i < q->choices.n && n + 2 < sizeof ids; i++) {
        if (!q->choices.items[i].correct)
            continue;
        if (n)
            ids[n++] = ' ';
        ids[n++] = emit_choice_id(i);
    }
    ids[n] = '\0';
    element(e, "correct-response", ids);
}

static void attr_opt(struct emitter *e, const char *name, const char *value)
{
    if (value && *value)
        attr(e, name, value);
}

/* A run's checks (with whether each passed, in the run's own words), notes and timeline. */
static void write_run_text(struct emitter *e, struct qz_run_text t, bool pass)
{
    for (size_t i = 0; i < t.nchecks; i++) {
        start(e, "check");
        attr(e, "name", t.checks[i].name);
        if (pass)
            attr(e, "pass", t.checks[i].pass ? "true" : "false");
        xw_text(e->w, t.checks[i].detail ? t.checks[i].detail : "");
        end(e);
    }
    for (size_t i = 0; i < t.nnotes; i++)
        element(e, "note", t.notes[i]);
    /* The timeline as text: a reader parses it as the SVG it is, or shows it as an image. */
    if (t.svg)
        element(e, "timeline", t.svg);
}

/*
 * What a machine measured for this lab and these values (quizc --runs).  Its
 * text was checked as XML text when the runs file was read (runs.c).
 */
static void write_run(struct emitter *e, const struct qz_run *r)
{
    start(e, "run");
    attr(e, "backend", r->backend);
    attr(e, "date", r->date);
    attr(e, "labrun", r->labrun);
    attr_opt(e, "hash", r->hash);
    attr_opt(e, "lang", r->lang);
    start(e, "machine");
    attr_opt(e, "cpu", r->machine.cpu);
    if (r->machine.cores)
        attr_num(e, "cores", (double)r->machine.cores);
    attr_opt(e, "gpu", r->machine.gpu);
    if (r->machine.gpus)
        attr_num(e, "gpus", (double)r->machine.gpus);
    attr_opt(e, "driver", r->machine.driver);
    attr_opt(e, "nccl", r->machine.nccl);
    end(e);
    if (r->placement)
        element(e, "placement", r->placement);
    for (size_t i = 0; i < r->params.n; i++) {
        start(e, "param");
        attr(e, "name", r->params.items[i].name);
        attr(e, "value", r->params.items[i].value);
        end(e);
    }
    for (size_t i = 0; i < r->metrics.n; i++) {
        const struct qz_run_metric *m = &r->metrics.items[i];
        start(e, "metric");
        attr(e, "name", m->name);
        if (m->known)
            attr_num(e, "value", m->value);
        attr(e, "basis", m->basis);
        end(e);
    }
    write_run_text(e, qz_run_text(r, NULL), true);
    for (size_t i = 0; i < r->words.n; i++) {
        start(e, "words");
        attr(e, "lang", r->words.items[i].lang);
        write_run_text(e, qz_run_text(r, r->words.items[i].lang), false);
        end(e);
    }
    end(e);
}

static void write_lab(struct emitter *e, const struct ast_question *q, const struct ast_labref *ref)
{
    start(e, "lab");
    attr(e, "name", ref->name);
    /* A value XML cannot carry is reported once, here, and its words left out of the document. */
    bool safe = true;
    for (size_t i = 0; i < ref->args.n; i++) {
        char *v = qz_arg_value(ref, &ref->args.items[i]);
        safe &= xml_safe(e, v, &ref->args.items[i].value.loc, "this value");
        free(v);
    }
    char *cmd = safe ? qz_lab_command(ref) : xstrdup("");
    attr(e, "command", cmd);
    free(cmd);
    /* The manifest's words in each of its languages: the lab box reads in the learner's. */
    const struct ast_labdef *def = ref->def;
    if (def && def->title)
        write_text(e, "title", def->title, "the lab's title");
    if (def && def->summary)
        write_text(e, "summary", def->summary, "the lab's summary");
    for (size_t i = 0; i < ref->args.n; i++) {
        const struct ast_arg *a = &ref->args.items[i];
        const struct ast_param *p = def ? qz_lab_param(def, a->name) : NULL;
        char *v = qz_arg_value(ref, a);
        size_t off;
        unsigned cp;
        if (!xml_forbidden(v, strlen(v), &off, &cp)) {    /* reported once, with the command above */
            start(e, "param");
            attr(e, "name", a->name);
            attr(e, "value", v);
            if (p && p->help)
                write_text(e, "help", p->help, "the parameter's help");
            end(e);
        }
        free(v);
    }
    for (size_t i = 0; i < ref->expects.n; i++) {
        const struct ast_expect *x = &ref->expects.items[i];
        const struct ast_metric *m = def ? qz_lab_metric(def, x->metric) : NULL;
        start(e, "expect");
        attr(e, "metric", x->metric);
        attr(e, "op", ast_cmp_word(x->op));
        /* A claim's numbers as --verify reads them: a percentage value is a fraction. */
        if (x->op == CMP_WITHIN)
            tolerance_attrs(e, &x->tolerance);
        if (x->of_answer)
            attr(e, "of", "answer");
        else
            attr_num(e, "value", qz_value_number(&x->value));
        if (x->op == CMP_WITHIN && x->tolerance.percent && (!x->of_answer || has_key(q)))
            interval_attrs(e, qz_within_interval(x, x->of_answer ? q->numeric : NULL));
        if (m && m->unit)
            attr(e, "unit", m->unit);
        if (m && m->help)
            write_text(e, "description", m->help, "the metric's description");
        end(e);
    }
    if (ref->run)
        write_run(e, ref->run);
    end(e);
}

static const char *snippet_lang(const char *file)
{
    static const struct { const char *ext, *lang; } langs[] = {
        { ".c", "c" }, { ".h", "c" }, { ".cu", "cuda" }, { ".cuh", "cuda" },
        { ".py", "python" }, { ".sh", "sh" }, { ".qz", "qz" },
    };
    const char *dot = file ? strrchr(file, '.') : NULL;
    for (size_t i = 0; dot && i < sizeof langs / sizeof *langs; i++)
        if (strcmp(dot, langs[i].ext) == 0)
            return langs[i].lang;
    return NULL;
}

static void write_snippet(struct emitter *e, const struct ast_snippet *s)
{
    if (!xml_safe(e, s->code, &s->loc, "this snippet"))
        return;
    start(e, "snippet");
    attr(e, "lab", s->lab);
    attr(e, "region", s->region);
    if (s->file)
        attr(e, "file", s->file);
    const char *lang = snippet_lang(s->file);
    if (lang)
        attr(e, "lang", lang);
    xw_text(e->w, s->code ? s->code : "");
    end(e);
}

static void write_question(struct emitter *e, const struct ast_question *q)
{
    start(e, "question");
    attr(e, "kind", ast_qkind_name(q->kind));
    attr(e, "id", q->id ? q->id : "");
    attr_num(e, "points", q->extra->points);
    if (grade_all_or_nothing(e->quiz, q))
        attr(e, "scoring", "all-or-nothing");
    write_text(e, "prompt", q->prompt, "the prompt");

    switch (q->kind) {
    case Q_SINGLE:
    case Q_MULTIPLE:
        write_choices(e, q);
        break;
    case Q_TRUEFALSE:
        start(e, "answer");
        attr(e, "value", q->tf_answer ? "true" : "false");
        end(e);
        break;
    case Q_NUMERIC: {
        const struct ast_numeric *a = q->numeric;
        start(e, "answer");
        if (a->kind == NUM_RANGE) {
            attr(e, "kind", "range");
            interval_attrs(e, qz_answer_key(a));
        } else {
            attr(e, "kind", a->kind == NUM_EXACT ? "exact" : "tolerance");
            attr_num(e, "value", qz_value_number(&a->value));
            if (a->kind == NUM_TOLERANCE) {
                tolerance_attrs(e, &a->tolerance);
                if (a->tolerance.percent)
                    interval_attrs(e, qz_answer_interval(a));
            }
        }
        end(e);
        write_text(e, "unit", q->numeric->unit, "the unit");
        break;
    }
    case Q_TEXT:
        for (size_t i = 0; i < q->accept.n; i++) {
            const struct ast_tr *a = &q->accept.items[i];
            if (literal_safe(e, a->raw, &a->loc, "this accepted answer"))
                element(e, "accept", a->raw ? a->raw : "");
        }
        break;
    }
    write_text(e, "explain", q->explain, "the explanation");
    for (size_t i = 0; i < q->extra->labs.n; i++)
        write_lab(e, q, &q->extra->labs.items[i]);
    for (size_t i = 0; i < q->extra->snippets.n; i++)
        write_snippet(e, &q->extra->snippets.items[i]);
    end(e);
}

/* ---- The document ------------------------------------------------------- */

/* The writer's output goes straight into the caller's membuf: no second copy of the document. */
int emit_course_xml_stream(const struct qz_course *c, emit_write_fn write, void *ctx,
                           struct diag *d)
{
    const struct ast_quiz *quiz = c->quiz;
    if (!quiz) {
        diag_error(d, NULL, "no quiz to write");
        return -1;
    }
    int errors_before = diag_errors(d);
    struct emitter e = { .w = xw_new(write, ctx, true), .d = d, .quiz = quiz, .c = c };
    xw_declaration(e.w);

    start(&e, "course");
    attr(&e, "xmlns", COURSE_NS);
    attr(&e, "id", quiz->id ? quiz->id : "");
    write_text(&e, "title", quiz->title, "the title");
    write_text(&e, "intro", quiz->intro, "the intro");
    if (quiz->langs.n > 0) {
        start(&e, "languages");
        attr(&e, "default", quiz->langs.items[0].tag);
        for (size_t i = 0; i < quiz->langs.n; i++)
            element(&e, "language", quiz->langs.items[i].tag);
        end(&e);
    }
    start(&e, "settings");
    attr(&e, "feedback", ast_feedback_name(quiz->feedback));
    attr(&e, "shuffle", ast_shuffle_name(quiz->shuffle));
    attr_num(&e, "passing", quiz->passing);
    end(&e);

    start(&e, "questions");
    for (size_t i = 0; i < c->questions.n; i++)
        write_question(&e, c->questions.items[i]);
    end(&e);
    end(&e);
    int rc = xw_finish(e.w);
    xw_free(e.w);
    md_doc_clear(&e.md);

    if (rc < 0 && !e.failed) {
        if (diag_errors(d) == errors_before)    /* a failing write may have said why */
            diag_error(d, NULL, "cannot write the course document");
        e.failed = true;
    }
    return e.failed ? -1 : 0;
}

int emit_course_xml(const struct qz_course *c, struct membuf *out, struct diag *d)
{
    size_t start_len = out->len;
    int rc = emit_course_xml_stream(c, membuf_write, out, d);
    if (rc != 0) {
        /* Nothing of a failed document stays in out. */
        out->len = start_len;
        if (out->data)
            out->data[start_len] = '\0';
    }
    return rc;
}
