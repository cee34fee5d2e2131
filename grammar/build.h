/*
 * build.h — the builders: the grammar actions of quiz.y (build.c, and
 * build_lab.c for lab manifests), and what they keep while one source is
 * parsed.  Private to libqz.
 *
 * The strings, values and texts passed in belong to the tree's arena (or its
 * source), never to a builder; a lab manifest copies what it keeps.
 * The grammar rule a builder builds sits in a comment above it.
 */
#ifndef QZ_BUILD_H
#define QZ_BUILD_H

#include <stdbool.h>

#include "ast.h"
#include "diag.h"
#include "keywords.h"

/* Where each once-only statement of one block was first given (keywords.def's ONCE column). */
struct kw_seen {
    bool has[KW_N];                 /* by kw_index */
    struct src_loc at[KW_N];        /* the first one's keyword, where has[] */
};

struct build_state {
    struct diag *d;                 /* where errors go (borrowed) */
    const struct source *src;       /* the source being parsed (borrowed) */
    struct ast_file *file;          /* the tree being built; owned until the parse returns it */
    struct intern *names;           /* the scanner's interned names, in file's arena (borrowed) */

    struct ast_quiz *quiz;          /* the quiz block being built (a second one is not kept), or NULL */
    struct kw_seen quiz_seen;       /* its header statements */
    bool skip_langs;                /* a repeated `languages`: its tags are dropped */
    struct ast_question *q;         /* the question being built, or NULL */
    struct kw_seen q_seen;          /* its statements */
    VEC(struct ast_choice) choices; /* its choices so far (heap; q_flush moves them to the arena) */
    VEC(struct ast_tr) trs;         /* the strings of the { lang: "..." } block being read (heap) */
    bool accept_ok;                 /* the current `accept` is valid for the question's kind */
    struct ast_labdef *lab;         /* the manifest being built, or NULL */
    struct kw_seen lab_seen;        /* its statements */
    struct ast_value *range_lo, *range_hi;  /* the current parameter's `in LO..HI` (arena's) */

    /* What the file holds so far, to report what does not fit: a quiz, a manifest, questions. */
    struct src_loc first_quiz, first_lab, first_question;
    bool has_quiz, has_lab, has_question;
    struct src_loc quiz_end;        /* the '}' that closed the quiz */
    bool outside_reported;          /* a question outside the quiz was reported (once is enough) */
};

/* Start building the tree of src; errors go to d. */
void b_init(struct build_state *b, struct diag *d, const struct source *src);
/* Release what an abandoned parse left open; returns the tree (the caller's). */
struct ast_file *b_finish(struct build_state *b);

/* The spelling of a keyword token at loc (a keyword used as a name). */
char *b_loc_text(struct build_state *b, const struct src_loc *loc);
/* A top-level quiz, lab, question or include: report what does not fit the file's kind. */
void b_top_item(struct build_state *b, const char *what, const struct src_loc *at);
void b_top_quiz_open(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc);
void b_top_quiz_close(struct build_state *b, const struct src_loc *end);
void b_question_open(struct build_state *b, int kind, const struct src_loc *kw, char *name,
                     const struct src_loc *name_loc);
void b_question_close(struct build_state *b);
void b_include(struct build_state *b, const struct src_loc *kw, char *path, const struct src_loc *loc);

/* Quiz headers; tok is the header's keyword token (T_TITLE, T_INTRO). */
void b_hdr_text(struct build_state *b, int tok, const struct src_loc *kw, struct ast_text *t);
void b_hdr_languages(struct build_state *b, const struct src_loc *kw);
void b_hdr_lang(struct build_state *b, char *tag, const struct src_loc *loc);
void b_hdr_feedback(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc);
void b_hdr_shuffle(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc);
void b_hdr_scoring(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc);
void b_hdr_passing(struct build_state *b, const struct src_loc *kw, struct ast_value *v);

/* Text. */
struct ast_text *b_text_string(struct build_state *b, char *s, const struct src_loc *loc);
void b_text_block_start(struct build_state *b);
void b_text_block_add(struct build_state *b, char *tag, const struct src_loc *tag_loc, char *s,
                      const struct src_loc *loc);
struct ast_text *b_text_block_end(struct build_state *b, const struct src_loc *loc);

/* Question statements. */
void b_q_prompt(struct build_state *b, const struct src_loc *kw, struct ast_text *t);
void b_q_explain(struct build_state *b, const struct src_loc *kw, struct ast_text *t);
void b_q_unit(struct build_state *b, const struct src_loc *kw, struct ast_text *t);
void b_q_choice(struct build_state *b, bool correct, const struct src_loc *kw, struct ast_text *t,
                struct ast_text *because);
void b_q_points(struct build_state *b, const struct src_loc *kw, struct ast_value *v);
void b_q_scoring(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc);
void b_q_answer_word(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc);
void b_q_answer_num(struct build_state *b, const struct src_loc *kw, struct ast_value *v, struct ast_value *tol);
void b_q_answer_range(struct build_state *b, const struct src_loc *kw, struct ast_value *lo, struct ast_value *hi);
/* The answers written as on paper, each reported with its spelling in the language (build_mistake.c). */
void b_q_answer_comma(struct build_state *b, const struct src_loc *kw, struct ast_value *v,
                      const struct src_loc *comma, struct ast_value *frac);
void b_q_answer_plusminus(struct build_state *b, const struct src_loc *kw, struct ast_value *v,
                          const struct src_loc *pm, struct ast_value *tol);
void b_q_answer_string(struct build_state *b, const struct src_loc *kw, char *s, const struct src_loc *loc);
void b_q_accept_start(struct build_state *b, const struct src_loc *kw);
void b_q_accept(struct build_state *b, char *s, const struct src_loc *loc);
void b_q_lab(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc);
void b_q_lab_end(struct build_state *b, const struct src_loc *loc);
void b_q_lab_arg(struct build_state *b, char *name, const struct src_loc *loc, struct ast_value *v);
void b_q_expect(struct build_state *b, const struct src_loc *stmt, char *metric, const struct src_loc *mloc,
                int op, struct ast_value *v);
void b_q_expect_within(struct build_state *b, const struct src_loc *stmt, char *metric,
                       const struct src_loc *mloc, struct ast_value *tol, struct ast_value *v);
void b_q_snippet(struct build_state *b, const struct src_loc *stmt, char *lab, char *region);

/* Values. */
struct ast_value *b_value_name(struct build_state *b, char *s, const struct src_loc *loc);
struct ast_value *b_value_string(struct build_state *b, char *s, const struct src_loc *loc);

/* Lab manifests (build_lab.c); tok is the statement's keyword token (T_TITLE, T_SUMMARY). */
void b_lab_open(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc);
void b_lab_close(struct build_state *b);
void b_lab_text(struct build_state *b, int tok, const struct src_loc *kw, struct ast_text *t);
void b_lab_param(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc,
                 struct ast_value *def);
void b_lab_param_range(struct build_state *b, struct ast_value *lo, struct ast_value *hi);
void b_lab_param_choice(struct build_state *b, char *word, const struct src_loc *loc);
void b_lab_param_end(struct build_state *b, struct ast_text *help);
void b_lab_param_alias(struct build_state *b, char *alias, const struct src_loc *loc);
void b_lab_metric(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc,
                  struct ast_text *help, char *unit);

/*
 * A statement given for the first time in its block (KWB_QUIZ: the quiz's
 * header, KWB_LAB: the manifest, a question's block: the question)?  When
 * keywords.def says the block takes keyword tok once and it was given
 * before, report it ("'title' is given twice in quiz 'q'") with a note at
 * the first, and return false.
 */
bool b_once(struct build_state *b, enum kw_place block, int tok, const struct src_loc *kw);

#endif
