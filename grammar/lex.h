/*
 * lex.h — the scanner's state while it reads one source (quiz.l, lex.c,
 * lex_text.c), and the token stream the grammar reads (qzplex).  Private to
 * libqz.
 */
#ifndef QZ_LEX_H
#define QZ_LEX_H

#include <stdbool.h>

#include "ast.h"
#include "diag.h"
#include "keywords.h"

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
    const char *name;       /* the name before it (lex_name's, or a keyword's word), or NULL */
    const char *head;       /* BR_QUESTION: the kind's keyword ("single") */
    enum kw_place block;    /* BR_QUIZ, BR_QUESTION, BR_LAB: the block, for its statements; else KWB_NONE */
    int indent;             /* columns of whitespace before the first token of the '{' line */
};

/* A token the scanner hands out later (after a '}' it supplies itself). */
struct pending_tok {
    int tok;
    union { char *str; struct ast_value *val; } v;
    struct src_loc loc;
};

struct lex_state {
    struct diag *d;                 /* where errors go (borrowed) */
    const struct source *src;       /* the source being read (borrowed; string literals end in it: loc.h) */
    struct arena *arena;            /* where token values go: the tree's (borrowed) */
    struct intern names;            /* names, interned in arena */
    void *scanner;                  /* the Flex scanner; owned */
    const char *in;                 /* the text it reads (borrowed), in_len bytes; in_pos read so far */
    size_t in_len, in_pos;
    size_t stray_line;              /* where the line of the last stray character reported starts, plus 1 */

    /* Position: the next character's byte offset (lines and columns are found when asked: loc.h). */
    size_t off;
    size_t tok_off;                 /* where the token being matched starts */
    size_t text_start;              /* where the text starts: past a byte order mark */
    /* Line starts asked for so far: no line break in [ls_start, ls_seen), and ls_start starts a line. */
    size_t ls_start, ls_seen;
    size_t nl_end;                  /* just past the last line break the scanner matched (or text_start) */
    size_t indent_for;              /* the line start + 1 of the line whose indentation is cached; 0: none */
    int indent;                     /* that line's leading whitespace, in characters */

    /* The string literal being scanned. */
    struct src_loc str_open;        /* its opening quote(s) */
    /*
     * verbatim: its value so far is the source from str_start to the token
     * being matched, not copied; the first escape (or anything else that
     * makes the value differ from the source) copies it into buf.
     */
    bool verbatim;
    bool simple;                    /* its only escapes so far are \" and \\: it can be decoded in place */
    size_t str_start;
    char *buf;                      /* its text so far, blen bytes of bcap; owned */
    size_t blen, bcap;
    bool eof_in_string;             /* the file ended inside a string: no unclosed-block noise */

    /* Open braces, innermost last. */
    VEC(struct brace) braces;
    bool closed;                    /* the latest token was a '}' that closed braces.items[braces.n] */
    bool eof_seen;                  /* end of file reached; closing braces are being supplied */
    bool eof_reported;              /* the unclosed block at the end has been reported */
    struct src_loc eof_loc;         /* just after the last visible character */

    /*
     * The first block closed by a '}' indented less than the line that opened
     * it: when the file ends with a block open, this is the likelier culprit.
     */
    struct brace suspect;
    bool suspected;                 /* suspect holds such a block */
    struct src_loc suspect_close;   /* the '}' that closed it */

    /* The tokens handed out. */
    struct pending_tok pending;     /* pending.tok == 0: none */
    bool synthetic;                 /* the last token handed out was supplied by the scanner */
    int prev_tok, prev2_tok;        /* the last token handed out and the one before */
    /*
     * Their spellings (names and keywords only), or NULL: a name's string (lex_name)
     * or a keyword's word, both alive as long as the tree, so no
     * token is copied for messages that are seldom written.
     */
    const char *prev_text;
    const char *tok_text;           /* spelling of the last name or number, for messages; or NULL */
    size_t recent[4];               /* where the last tokens handed out start, latest at [0] */
};

/* ---- The token stream (lex.c) ------------------------------------------- */

/*
 * Start reading src (a leading byte order mark skipped); errors go to d.
 * The tokens' strings and values are a's (or, for string literals that need
 * no unescaping, src's own bytes: loc.h); nothing a token holds is freed.
 */
void lex_init(struct lex_state *lx, struct diag *d, const struct source *src, struct arena *a);
/* Close the scanner and release what lx holds (braces, buffers, a pending token). */
void lex_fini(struct lex_state *lx);
/* The next token for the grammar: its code (0 at the end), value and location. */
union QZPSTYPE;
int qzplex(union QZPSTYPE *lval, struct src_loc *lloc, struct lex_state *lx);
/* Where the token handed out just before the one at off starts ((size_t)-1 when unknown). */
size_t lex_token_before(const struct lex_state *lx, size_t off);
/* The innermost open brace that holds statements (not a language block), or NULL at the top. */
const struct brace *lex_innermost_block(const struct lex_state *lx);
/* What a block is called in messages ("single question 'q3'"), written in the tree's arena. */
const char *lex_brace_what(const struct lex_state *lx, const struct brace *b);
/* This file has had enough errors: the scanner stops reporting and the parse ends. */
bool lex_too_many(const struct lex_state *lx);

/* ---- Scanner support (quiz.l, lex.c, lex_text.c) ------------------------ */

/*
 * The scanner's input has taken the next n bytes of the source (a copy of
 * them at s): the source's nul_free moves past them while they hold no NUL
 * (loc.h).  Checked here, in the block just copied, not in a pass of its own.
 */
void lex_read(struct lex_state *lx, const char *s, size_t n);
/* The Flex scanner over the text lx reads, and its end (quiz.l). */
void *lex_open(struct lex_state *lx);
void lex_close(void *scanner);
/* A NUMBER token's value (reported when out of range). */
struct ast_value *lex_number(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n);
/*
 * A name's string: interned (a language tag or a lab's name is written
 * many times), except a question's id, written once in a bank: in the
 * table it would take a slot per question for nothing, so it is copied.
 */
char *lex_name(struct lex_state *lx, const char *s, size_t n);
/* A character that starts no token: report it (invalid UTF-8 as such). */
void lex_stray(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n);
/* Where the line holding byte off starts (cheap when asked in the order the scanner reads). */
size_t lex_line_start(struct lex_state *lx, size_t off);
/* Move the position over the n bytes of a token and give loc the span it covers. */
static inline void lex_advance(struct lex_state *lx, struct src_loc *loc, size_t n)
{
    lx->tok_off = lx->off;
    loc->from = lx->src->base + (uint32_t)lx->off;
    lx->off += n;
    loc->to = lx->src->base + (uint32_t)lx->off;
}
/* The byte offset in the source being read of where loc starts. */
static inline size_t lex_off(const struct lex_state *lx, const struct src_loc *loc)
{
    return src_off(lx->src, loc->from);
}
/*
 * A string literal holds a character XML 1.0 cannot carry (a C0 control
 * but tab and line breaks, U+FFFE, U+FFFF): the source says so
 * (struct source's xml), so that a writer of XML checks its strings only then.
 */
void lex_xml_unsafe(struct lex_state *lx);
/* The token just matched keeps only its first n bytes (after yyless(n)): its span and the position follow. */
void lex_unread(struct lex_state *lx, struct src_loc *loc, size_t n);
/* String buffer.  lex_str_open: a "..." literal starts (kept in place while it can be). */
void lex_str_open(struct lex_state *lx);
void lex_buf_reset(struct lex_state *lx);
/* The literal's own text s[0..n), as it stands in the source. */
void lex_str_text(struct lex_state *lx, const char *s, size_t n);
/*
 * How many bytes of s, before end, are plain text of a "..." literal:
 * printable ASCII but the quote and the backslash.  Eight bytes at a time;
 * the scanner's rules take over at the first byte that is not (stopping
 * early is always safe: those rules read plain text too).
 */
size_t lex_plain_run(const char *s, const char *end);
/* The literal's value departs from its source text here (an escape, a dropped or replaced byte). */
void lex_str_edit(struct lex_state *lx);
/* Text the literal's value gets that is not its source text (an escape's character). */
void lex_buf_add(struct lex_state *lx, const char *s, size_t n);
/* Append a high-byte run, reporting invalid UTF-8 (replaced by U+FFFD); loc is the run. */
void lex_buf_add_utf8(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n);
/* Check a run of bytes >= 0x80; report the first invalid one.  Returns true when valid. */
bool lex_check_utf8(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n);
/* A \" or \\ escape: c into the buffer; the literal can still be decoded in place. */
void lex_escape_quote(struct lex_state *lx, char c);
/* Decode \u{HEX} (the whole escape in s) into the buffer, or report it at loc. */
void lex_escape_u(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n);
/*
 * The literal's value, the arena's (""" strings: dedented) or, when it is
 * closed by the quote just matched and verbatim, or simple, in place in the
 * source (loc.h); the buffer is reset.
 */
char *lex_take_string(struct lex_state *lx, bool triple, bool closed);
/* The location of byte `byte` of a one-line token s at loc, one character wide. */
struct src_loc loc_at(const struct src_loc *loc, const char *s, size_t byte);

#endif
