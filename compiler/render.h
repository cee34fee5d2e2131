/*
 * render.h — author text as the HTML that question banks and QTI items
 * carry: the Markdown subset rebuilt as <p> <code> <em> <strong> <br/>
 * <pre><code>, everything else escaped as text, so an author's <script>
 * stays text.  Shared by the GIFT, Moodle XML and QTI emitters.
 *
 * The HTML is also well-formed XML (every element closed, & < > " escaped,
 * characters XML 1.0 forbids left out), so the QTI emitter writes it into
 * its items as it stands.
 */
#ifndef QZ_RENDER_H
#define QZ_RENDER_H

#include <stddef.h>

#include "emit.h"

/* How a format carries an image (![alt](path)). */
enum render_images {
    RENDER_IMG_ALT,         /* it cannot: the alt text in its place (GIFT), warned about when warn is set */
    RENDER_IMG_PLUGINFILE,  /* <img src="@@PLUGINFILE@@/NAME">, the file embedded beside the text (Moodle XML) */
    RENDER_IMG_PACKAGE,     /* <img src="media/NAME">, the file in the package (QTI) */
};

struct render {
    const struct ast_quiz *quiz;
    /* The course's figures and formulas (media.h); NULL: alt texts and TeX only. */
    const struct qz_course *course;
    enum render_images images;
    const char *base;               /* RENDER_IMG_PACKAGE: the way from the document to the package's root ("../") */
    /*
     * Formulas as MathML (QTI), else as their TeX between \( \) or \[ \],
     * the delimiters MathJax (Moodle's TeX filter) reads.
     */
    bool mathml;
    struct diag *warn;              /* RENDER_IMG_ALT: a warning at each image, when set */
    const struct ast_tr *at;        /* the translation being rendered (where the warnings point) */
    struct render_used { const struct qz_image **items; size_t n, cap; } used;  /* images rendered since the caller last emptied it, once each */
    /*
     * The one language to write, or NULL: every language the quiz declares,
     * each in Moodle's multi-language spans
     * (<span lang="id" class="multilang">...</span>).
     */
    const char *lang;
    size_t dropped;     /* characters XML 1.0 cannot carry, left out so far */
};

/*
 * The language to write for r in the single-language parts of an output
 * (titles, category names): r->lang, else the quiz's first, else NULL.
 */
const char *render_lang(const struct render *r);

/*
 * Append the HTML of a parsed text.  A text of a single paragraph is
 * written inline, without <p>, so a one-line choice stays one line.
 */
void render_md(struct render *r, struct membuf *b, const struct md_doc *doc);

/* Append s escaped as HTML text (no Markdown); render_escape.c. */
void render_escaped(struct render *r, struct membuf *b, const char *s);

/* Append a TEXT: in r->lang, or as multi-language spans (see struct render). */
void render_text(struct render *r, struct membuf *b, const struct ast_text *t);

/*
 * Append the general feedback of q: its explanation, then the lab box (each
 * lab's title, the labrun command, what the learner should see, and each
 * snippet), in r->lang or as multi-language spans.  Nothing for a question
 * with neither.
 */
void render_feedback(struct render *r, struct membuf *b, const struct ast_question *q);

/* Whether q has any general feedback for render_feedback to write. */
bool render_has_feedback(const struct ast_question *q);

/*
 * x as a plain decimal in the fewest digits that read back as x, never with
 * an exponent (GIFT's numbers have none): 70e9 is 70000000000, 1e-3 0.001.
 * Returns buf.
 */
#define RENDER_NUM_MAX 400
const char *render_number(char buf[RENDER_NUM_MAX], double x);

/*
 * x rounded to 15 significant digits: what is left of a sum of decimals
 * (the middle of 0.26..0.29 is 0.275, not 0.27500000000000002).
 */
double render_round(double x);

/*
 * Append q's prompt and, for a numeric question with a unit, the unit as a
 * paragraph ("Unit: fraction"), for formats with no place of their own for
 * it: in r->lang, or one multi-language span per language holding both.
 */
void render_prompt(struct render *r, struct membuf *b, const struct ast_question *q);

/* The plain text of t in render_lang(r) (titles).  A new string. */
char *render_plain(const struct render *r, const struct ast_text *t);

#endif
