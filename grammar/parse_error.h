/*
 * parse_error.h — the messages of syntax errors: what was found and what
 * could stand there, and unknown statements with a "did you mean".  The
 * grammar (quiz.y) hands them the tokens Bison saw; the words come from the
 * keyword table.  Private to libqz.
 */
#ifndef QZ_PARSE_ERROR_H
#define QZ_PARSE_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "lex.h"

struct perr_state {
    struct diag *d;                 /* where errors go (borrowed) */
    const struct lex_state *lx;     /* the token stream: open blocks, recent tokens (borrowed) */
    /* The latest unknown statement word: the words after it on its line are its arguments. */
    bool unknown_at_set;            /* there was one */
    size_t unknown_at;              /* where it (or its latest argument) starts */
    int unknown_line;               /* its line */
    bool junk_recovery;             /* the parser recovers from the arguments of an unknown word */
    /* The '{' of an unknown word's block argument: errors inside it are the word's, not reported. */
    bool arg_open;                  /* there is one */
    size_t arg_depth;               /* its index in the scanner's brace stack */
    uint32_t arg_from;              /* its position */
    /* The latest tag of a `languages` list: a word right after it on its line is a missing comma. */
    const char *lang;               /* its text (the tree's arena's), or NULL */
    size_t lang_at;                 /* where it starts */
    struct src_loc lang_loc;        /* its span (its line is found only for a message: no cost per tag) */
    bool lang_words;                /* the unknown word was such a tag: its arguments are tags too */
};

/* One token as Bison names it: its code (a T_ token, a character, 0 at the end) and its name. */
struct perr_tok {
    int tok;                        /* -1: Bison's own symbols (error, invalid token) */
    const char *name;               /* "name", "'{'", "prompt", ... */
};

/* Start reporting for a source read through lx. */
void perr_init(struct perr_state *e, struct diag *d, const struct lex_state *lx);

/*
 * A word where a statement starts: an unknown statement, with the nearest
 * statement of its block.  recovering: the parser is recovering from a
 * syntax error.  word is borrowed (the tree's arena holds it).  True when
 * the word is a language tag a `languages` list left out for want of a
 * comma (reported as such): the caller lists it, so that the texts in that
 * language are not reported too.
 */
bool perr_unknown_statement(struct perr_state *e, char *word, const struct src_loc *loc, bool recovering);

/* A tag of a `languages` list (tag borrowed): a plain word right after it is taken for a second tag. */
void perr_language(struct perr_state *e, const char *tag, const struct src_loc *loc);

/* A syntax error at found (at loc), where the tokens expected[0..n) could stand. */
void perr_syntax(struct perr_state *e, struct perr_tok found, const struct src_loc *loc,
                 const struct perr_tok *expected, int n);

#endif
