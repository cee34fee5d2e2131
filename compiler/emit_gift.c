/*
 * emit_gift.c — the quiz as GIFT, the text format of Moodle's question bank
 * (Question bank → Import → GIFT).  Every text is HTML ([html]), rendered by
 * render.c and then escaped for GIFT: the characters GIFT reads as syntax
 * (~ = # { } : and the backslash) get a backslash, and a newline becomes \n,
 * since a blank line would end the question.
 *
 *   $CATEGORY: $course$/top/TITLE
 *   ::QUIZ-ID::[html]INTRO                      a description, when there is an intro
 *   ::ID::[html]PROMPT{
 *       =RIGHT#FEEDBACK  ~WRONG#FEEDBACK  ~%50%PARTLY ...
 *       ####GENERAL FEEDBACK (explanation and lab box)
 *   }
 *
 * GIFT has no place for a question's points or the quiz's passing score;
 * both are warned about.  Units go into the question text.
 */
#include <stdio.h>
#include <string.h>

#include "grading.h"
#include "interval.h"
#include "render.h"

struct gift {
    struct render r;
    struct membuf *out;
    struct membuf html;     /* the text being rendered, before GIFT's escaping */
};

static void put(struct gift *g, const char *s)
{
    membuf_append(g->out, s, strlen(s));
}

/* Append the rendered html, escaped for GIFT, and empty it. */
static void flush_html(struct gift *g)
{
    const char *s = g->html.data ? (const char *)g->html.data : "";
    /* A leading [ would read as a format marker ([html], [plain], ...): say the format first. */
    if (*s == '[')
        put(g, "[html]");
    for (; *s; s++) {
        if (strchr("~=#{}:\\", *s)) {
            char esc[3] = { '\\', *s, '\0' };
            put(g, esc);
        } else if (*s == '\n') {
            put(g, "\\n");
        } else if (*s != '\r') {
            membuf_append(g->out, s, 1);
        }
    }
    g->html.len = 0;
    if (g->html.data)
        g->html.data[0] = '\0';
}

static void text(struct gift *g, const struct ast_text *t)
{
    render_text(&g->r, &g->html, t);
    flush_html(g);
}

/* Moodle's grades are percentages written as in its own list: 33.33333, 12.5, -100. */
static void weight(struct gift *g, double percent)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%%%.7g%%", percent);
    put(g, buf);
}

static void choices(struct gift *g, const struct ast_question *q)
{
    for (size_t i = 0; i < q->choices.n; i++) {
        const struct ast_choice *ch = &q->choices.items[i];
        put(g, "\t");
        render_text(&g->r, &g->html, ch->text);
        if (q->kind == Q_SINGLE) {
            put(g, ch->correct ? "=" : "~");
            /* A text that starts with % would read as a weight: give the weight first. */
            if (g->html.data && g->html.data[0] == '%')
                weight(g, ch->correct ? 100 : 0);
        } else {
            /* The right choices share 100%, the wrong ones share -100%: all of them give 0. */
            put(g, "~");
            weight(g, 100 * grade_choice_weight(q, i));
        }
        flush_html(g);
        if (ch->because) {
            put(g, "#");
            text(g, ch->because);
        }
        put(g, "\n");
    }
}

/* An accepted answer as Moodle's short-answer matching reads it: * is its wildcard. */
static void accepted(struct gift *g, const char *raw)
{
    for (const char *p = raw ? raw : ""; *p; p++) {
        if (*p == '*')
            membuf_append(&g->html, "\\", 1);
        membuf_append(&g->html, p, 1);
    }
    flush_html(g);
}

/* GIFT's numeric answers: exact, value:absolute tolerance (a percentage worked out), lo..hi. */
static void numeric(struct gift *g, const struct ast_numeric *n)
{
    char a[RENDER_NUM_MAX], b[RENDER_NUM_MAX];
    struct qz_interval key = qz_answer_key(n);
    put(g, "#");
    switch (n->kind) {
    case NUM_EXACT:
        put(g, render_number(a, key.lo));
        break;
    case NUM_TOLERANCE:
        put(g, render_number(a, key.lo));
        put(g, ":");
        put(g, render_number(b, qz_tolerance_at(&n->tolerance, key.lo)));
        break;
    case NUM_RANGE:
        put(g, render_number(a, key.lo));
        put(g, "..");
        put(g, render_number(b, key.hi));
        break;
    }
}

static void question(struct gift *g, const struct ast_question *q, struct diag *d)
{
    if (q->extra->points != 1) {
        char p[RENDER_NUM_MAX];
        struct src_loc id = ast_question_id_loc(q);
        diag_warning(d, loc_known(&q->extra->points_loc) ? &q->extra->points_loc : &id,
                     "question '%s' has %s points; GIFT cannot carry points (Moodle gives it the default mark 1)",
                     q->id, render_number(p, q->extra->points));
    }
    put(g, "::");
    put(g, q->id);
    put(g, "::[html]");
    render_prompt(&g->r, &g->html, q);
    flush_html(g);
    put(g, "{");
    switch (q->kind) {
    case Q_SINGLE:
    case Q_MULTIPLE:
        put(g, "\n");
        choices(g, q);
        break;
    case Q_TRUEFALSE:
        put(g, q->tf_answer ? "TRUE" : "FALSE");
        break;
    case Q_NUMERIC:
        numeric(g, q->numeric);
        break;
    case Q_TEXT:
        for (size_t i = 0; i < q->accept.n; i++) {
            put(g, i ? " =" : "=");
            accepted(g, q->accept.items[i].raw);
        }
        break;
    }
    if (render_has_feedback(q)) {
        put(g, q->kind == Q_SINGLE || q->kind == Q_MULTIPLE ? "\t####" : "####");
        render_feedback(&g->r, &g->html, q);
        flush_html(g);
        if (q->kind == Q_SINGLE || q->kind == Q_MULTIPLE)
            put(g, "\n");
    }
    put(g, "}\n\n");
}

/* Category paths separate levels with /; a / in a name is written //. */
static void category(struct gift *g, const char *title)
{
    put(g, "$CATEGORY: $course$/top/");
    for (const char *p = title; *p; p++)
        put(g, *p == '/' ? "//" : (char[]){ *p, '\0' });
    put(g, "\n\n");
}

int emit_gift(const struct qz_course *c, const struct emit_opts *o, struct membuf *out,
              struct diag *d)
{
    const struct ast_quiz *quiz = c->quiz;
    if (!quiz) {
        diag_error(d, NULL, "no quiz to write");
        return -1;
    }
    /* GIFT is one text file: an image cannot travel in it, and each is warned about. */
    struct gift g = { .r = { .quiz = quiz, .lang = o ? o->lang : NULL, .course = c, .images = RENDER_IMG_ALT, .warn = d },
                      .out = out };
    if (quiz->has_passing) {
        char p[RENDER_NUM_MAX];
        diag_warning(d, &quiz->passing_loc,
                     "GIFT holds questions only: the passing score %s%% is not carried (set it on the Moodle quiz)",
                     render_number(p, quiz->passing));
    }
    grade_warn_all_or_nothing(d, c, "GIFT");
    put(&g, "// ");
    put(&g, quiz->id ? quiz->id : "quiz");
    put(&g, ": written by quizc for Moodle's question bank (Import, GIFT format).\n\n");
    char *title = render_plain(&g.r, quiz->title);
    category(&g, *title ? title : quiz->id ? quiz->id : "quiz");
    free(title);
    if (quiz->intro) {
        put(&g, "::");
        put(&g, quiz->id ? quiz->id : "quiz");
        put(&g, "::[html]");
        text(&g, quiz->intro);
        put(&g, "\n\n");
    }
    for (size_t i = 0; i < c->questions.n; i++)
        question(&g, c->questions.items[i], d);
    membuf_free(&g.html);
    return 0;
}
