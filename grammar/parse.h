/*
 * parse.h — the state shared by the scanner (quiz.l, lex.c) and the grammar
 * actions (quiz.y, build.c) while one source is parsed.  Private to libqz.
 */
#ifndef QZ_PARSE_H
#define QZ_PARSE_H

#include <stdbool.h>

#include "ast.h"
#include "diag.h"

/* What an open '{' belongs to; the scanner classifies it from the tokens before it. */
enum brace_kind {
    BR_OTHER,       /* a '{' the grammar has no place for */
    BR_QUIZ,        /* quiz NAME { */
    BR_QUESTION,    /* single|multiple|truefalse|numeric|text NAME { */
    BR_LAB,         /* lab NAME { (a manifest) */
    BR_LANG,        /* prompt { id: "..." }: a language block */
};

struct brace {
    enum brace_kind kind;
    struct src_loc loc;     /* the '{' */
    char *what;             /* "single question 'q3'": used in messages; owned */
    int qkind;              /* BR_QUESTION: its enum ast_qkind */
    int indent;             /* columns of whitespace before the first token of the '{' line */
};

/* Statements a question may hold only once (tagged ONCE_: keep once_name in build.c in sync). */
enum q_once { ONCE_PROMPT, ONCE_EXPLAIN, ONCE_POINTS, ONCE_ANSWER, ONCE_UNIT, ONCE_N };
/* Quiz header statements (tagged HDR_: keep hdr_name in build.c in sync). */
enum q_hdr { HDR_TITLE, HDR_LANGUAGES, HDR_INTRO, HDR_FEEDBACK, HDR_SHUFFLE, HDR_PASSING, HDR_N };
/* Lab manifest statements given once. */
enum q_labonce { LABONCE_TITLE, LABONCE_SUMMARY, LABONCE_N };

/* A token the scanner hands out later (after a '}' it supplies itself). */
struct pending_tok {
    int tok;
    union { char *str; struct ast_value *val; } v;
    struct src_loc loc;
};

struct qz_parser {
    struct diag *d;
    const struct source *src;
    struct ast_file *file;          /* the tree being built; owned until qz_parse returns it */
    void *scanner;                  /* the Flex scanner */
    const char *in;                 /* the text it reads (borrowed), in_len bytes; in_pos read so far */
    size_t in_len, in_pos;

    /* Scanner position: the next character's line, column and byte offset. */
    int line, col;
    size_t off;
    bool after_cr;                  /* the last character was '\r' (so a '\n' is part of it) */
    size_t line_off;                /* where the line being scanned starts */
    size_t indent_for;              /* line_off + 1 of the line whose indentation is cached; 0: none */
    int indent;                     /* that line's leading whitespace, in characters */

    /* The string literal being scanned. */
    struct src_loc str_open;        /* its opening quote(s) */
    char *buf;
    size_t blen, bcap;
    bool eof_in_string;             /* the file ended inside a string: no unclosed-block noise */

    /* Open braces, innermost last; kept by the scanner. */
    VEC(struct brace) braces;
    bool eof_seen;                  /* end of file reached; closing braces are being supplied */
    bool eof_reported;
    struct src_loc eof_loc;         /* just after the last visible character */

    /*
     * The first block closed by a '}' indented less than the line that opened
     * it: when the file ends with a block open, this is the likelier culprit.
     */
    struct brace suspect;           /* suspect.what == NULL: none */
    struct src_loc suspect_close;   /* the '}' that closed it */

    struct pending_tok pending;     /* pending.tok == 0: none */
    bool synthetic;                 /* the last token handed out was supplied by the scanner */
    int prev_tok, prev2_tok;        /* the two tokens before, for classifying '{' */
    char *prev_text, *prev2_text;   /* their spellings (names only), in spell[]; or NULL */
    char *tok_text;                 /* spelling of the last token, for messages, in spell[0]; or NULL */
    /*
     * The buffers those spellings live in, reused from token to token: a
     * copy per token would be three mallocs and frees per token of a bank.
     * spell[0] holds tok_text; prev_text and prev2_text take turns in
     * spell[1] and spell[2] (prev_slot: the one prev_text is in).
     */
    char *spell[3];                 /* owned */
    size_t spell_cap[3];
    int prev_slot;
    size_t recent[4];               /* where the last tokens handed out start, latest at [0] */
    size_t unknown_at;              /* where the latest unknown statement word starts */
    int unknown_line;
    bool junk_recovery;             /* the parser recovers from the arguments of an unknown word */
    bool unknown_at_set;

    /* Grammar actions' state. */
    struct ast_quiz *quiz;          /* the quiz block being built (a second one is not kept), or NULL */
    struct ast_question *q;         /* the question being built, or NULL */
    bool accept_ok;                 /* the current `accept` is valid for the question's kind */
    struct src_loc q_once[ONCE_N];  /* where each once-only statement was first given */
    bool q_has[ONCE_N];
    struct src_loc hdr_loc[HDR_N];
    bool hdr_has[HDR_N];
    bool skip_langs;                /* a repeated `languages`: its tags are dropped */
    struct ast_labdef *lab;         /* the manifest being built, or NULL */
    struct src_loc lab_once[LABONCE_N];
    bool lab_has[LABONCE_N];
    struct ast_value *range_lo, *range_hi;  /* the current parameter's `in LO..HI`; owned */
    struct src_loc first_quiz, first_lab, first_question;
    bool has_quiz, has_lab, has_question;
    struct src_loc quiz_end;        /* the '}' that closed the quiz */
    bool outside_reported;          /* a question outside the quiz was reported (once is enough) */
    int errors_at_start;            /* the diag's count when this parse began */
    int stray_line;                 /* the line of the last stray character reported */
};

/* ---- Scanner support (lex.c) -------------------------------------------- */

/* A scanner over text[0..len) (copied), and its end (quiz.l). */
void *lex_open(struct qz_parser *p, const char *text, size_t len);
void lex_close(void *scanner);
/* Release what the scanner support holds in p (braces, buffers, a pending token). */
void lex_state_free(struct qz_parser *p);
/* A NUMBER token's value (reported when out of range). */
struct ast_value *lex_number(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n);
/* A character that starts no token: report it (invalid UTF-8 as such). */
void lex_stray(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n);

/* Where the token handed out just before the one at off starts ((size_t)-1 when unknown). */
size_t lex_token_before(const struct qz_parser *p, size_t off);
/* Bytes in the UTF-8 character at s (n bytes left), or 0 when it is not valid UTF-8 (lex_text.c). */
size_t lex_char_len(const char *s, size_t n);
/* This file has had enough errors: the scanner stops reporting and the parse ends. */
bool lex_too_many(const struct qz_parser *p);
/* Move the position over s[0..n) and give loc the span it covers. */
void lex_advance(struct qz_parser *p, struct src_loc *loc, const char *s, size_t n);
/* String buffer. */
void lex_buf_reset(struct qz_parser *p);
void lex_buf_add(struct qz_parser *p, const char *s, size_t n);
/* Append a high-byte run, reporting invalid UTF-8 (replaced by U+FFFD); loc is the run. */
void lex_buf_add_utf8(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n);
/* Check a run of bytes >= 0x80; report the first invalid one.  Returns true when valid. */
bool lex_check_utf8(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n);
/* Decode \u{HEX} (the whole escape in s) into the buffer, or report it at loc. */
void lex_escape_u(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n);
/* The buffer as a string (""" strings: dedented); the buffer is reset. */
char *lex_take_string(struct qz_parser *p, bool triple);
/* The keyword token for s[0..n), or 0 for a plain identifier. */
int lex_keyword(const char *s, size_t n);
/* The span from a to b (inclusive). */
struct src_loc loc_span(const struct src_loc *a, const struct src_loc *b);
/* The location of byte `byte` of a one-line token s at loc, one character wide. */
struct src_loc loc_at(const struct src_loc *loc, const char *s, size_t byte);

/* ---- Grammar actions (build.c) ------------------------------------------ */

char *b_loc_text(struct qz_parser *p, const struct src_loc *loc);
/* A top-level quiz, lab, question or include: report what does not fit the file's kind. */
void b_top_item(struct qz_parser *p, const char *what, const struct src_loc *at);
void b_top_quiz_open(struct qz_parser *p, const struct src_loc *kw, char *name, const struct src_loc *name_loc);
void b_top_quiz_close(struct qz_parser *p, const struct src_loc *end);
void b_question_open(struct qz_parser *p, int kind, const struct src_loc *kw, char *name,
                     const struct src_loc *name_loc);
void b_question_close(struct qz_parser *p);
void b_include(struct qz_parser *p, const struct src_loc *kw, char *path, const struct src_loc *loc);

/* Quiz headers. */
void b_hdr_text(struct qz_parser *p, enum q_hdr h, const struct src_loc *kw, struct ast_text *t);
void b_hdr_languages(struct qz_parser *p, const struct src_loc *kw);
void b_hdr_lang(struct qz_parser *p, char *tag, const struct src_loc *loc);
void b_hdr_feedback(struct qz_parser *p, const struct src_loc *kw, char *word, const struct src_loc *loc);
void b_hdr_shuffle(struct qz_parser *p, const struct src_loc *kw, char *word, const struct src_loc *loc);
void b_hdr_passing(struct qz_parser *p, const struct src_loc *kw, struct ast_value *v);

/* Text. */
struct ast_text *b_text_string(struct qz_parser *p, char *s, const struct src_loc *loc);
struct ast_text *b_text_block_add(struct qz_parser *p, struct ast_text *t, char *tag,
                                  const struct src_loc *tag_loc, char *s, const struct src_loc *loc);
struct ast_text *b_text_block_end(struct qz_parser *p, struct ast_text *t, const struct src_loc *loc);

/* Question statements. */
void b_q_prompt(struct qz_parser *p, const struct src_loc *kw, struct ast_text *t);
void b_q_explain(struct qz_parser *p, const struct src_loc *kw, struct ast_text *t);
void b_q_unit(struct qz_parser *p, const struct src_loc *kw, struct ast_text *t);
void b_q_choice(struct qz_parser *p, bool correct, const struct src_loc *kw, struct ast_text *t,
                struct ast_text *because);
void b_q_points(struct qz_parser *p, const struct src_loc *kw, struct ast_value *v);
void b_q_answer_word(struct qz_parser *p, const struct src_loc *kw, char *word, const struct src_loc *loc);
void b_q_answer_num(struct qz_parser *p, const struct src_loc *kw, struct ast_value *v, struct ast_value *tol);
void b_q_answer_range(struct qz_parser *p, const struct src_loc *kw, struct ast_value *lo, struct ast_value *hi);
void b_q_accept_start(struct qz_parser *p, const struct src_loc *kw);
void b_q_accept(struct qz_parser *p, char *s, const struct src_loc *loc);
void b_q_lab(struct qz_parser *p, const struct src_loc *kw, char *name, const struct src_loc *name_loc);
void b_q_lab_end(struct qz_parser *p, const struct src_loc *loc);
void b_q_lab_arg(struct qz_parser *p, char *name, const struct src_loc *loc, struct ast_value *v);
void b_q_expect(struct qz_parser *p, const struct src_loc *stmt, char *metric, const struct src_loc *mloc,
                int op, struct ast_value *v);
void b_q_expect_within(struct qz_parser *p, const struct src_loc *stmt, char *metric,
                       const struct src_loc *mloc, struct ast_value *tol, struct ast_value *v);
void b_q_snippet(struct qz_parser *p, const struct src_loc *stmt, char *lab, char *region);

/* Values. */
struct ast_value *b_value_name(struct qz_parser *p, char *s, const struct src_loc *loc);
struct ast_value *b_value_string(struct qz_parser *p, char *s, const struct src_loc *loc);
void b_value_free(struct ast_value *v);

/* Lab manifests. */
void b_lab_open(struct qz_parser *p, const struct src_loc *kw, char *name, const struct src_loc *name_loc);
void b_lab_close(struct qz_parser *p);
void b_lab_text(struct qz_parser *p, enum q_labonce w, const struct src_loc *kw, struct ast_text *t);
void b_lab_param(struct qz_parser *p, const struct src_loc *kw, char *name, const struct src_loc *name_loc,
                 struct ast_value *def);
void b_lab_param_range(struct qz_parser *p, struct ast_value *lo, struct ast_value *hi);
void b_lab_param_choice(struct qz_parser *p, char *word, const struct src_loc *loc);
void b_lab_param_end(struct qz_parser *p, char *help, const struct src_loc *loc);
void b_lab_param_alias(struct qz_parser *p, char *alias, const struct src_loc *loc);
void b_lab_metric(struct qz_parser *p, const struct src_loc *kw, char *name, const struct src_loc *name_loc,
                  char *help, char *unit);

/* The closest of cands (NULL-terminated) to word within edit distance 2, or NULL. */
const char *b_suggest(const char *word, const char *const *cands);

#endif
