/*
 * keywords.h — what the language's keywords are and where each may stand,
 * read from the one table (keywords.def).  Private to libqz.
 */
#ifndef QZ_KEYWORDS_H
#define QZ_KEYWORDS_H

#include <stdbool.h>
#include <stddef.h>

/* The places a keyword can stand: blocks that hold statements, then statements that hold words. */
enum kw_place {
    KWB_NONE = -1,  /* (OPENS: the keyword opens no block) */
    KWB_FILE,       /* the top of a file: a quiz, a manifest, questions, includes */
    KWB_QUIZ,       /* quiz NAME { ... } */
    KWB_LAB,        /* lab NAME { ... }: a lab manifest */
    KWB_SINGLE,     /* a question, by kind: KWB_SINGLE + enum ast_qkind */
    KWB_MULTIPLE,
    KWB_TRUEFALSE,
    KWB_NUMERIC,
    KWB_TEXT,
    KWC_CHOICE,     /* wrong/correct TEXT because TEXT */
    KWC_ANSWER,     /* answer N within TOL */
    KWC_EXPECT,     /* expect METRIC within TOL of VALUE */
    KWC_PARAM,      /* param NAME = DEFAULT in ... alias NAME */
    KWC_METRIC,     /* metric NAME HELP unit STRING */
    KWC_VALUE,      /* a value: true, false */
};
#define KW_AT(place) (1u << (place))
/* The block of a question of kind k (an enum ast_qkind). */
#define KWB_QUESTION(k) ((enum kw_place)(KWB_SINGLE + (int)(k)))

/* One keyword: a row of keywords.def. */
struct kw {
    int tok;                /* its token (T_...) */
    const char *word;       /* its spelling */
    unsigned takes;         /* KW_AT bits: blocks it starts a statement in, statements it is a word of */
    unsigned once;          /* KW_AT bits: blocks in which its statement may be given only once */
    enum kw_place opens;    /* the block `KEYWORD NAME {` opens, or KWB_NONE */
    bool text;              /* a TEXT follows: a '{' after it opens a language block */
    const char *named;      /* what messages call the name that follows it, or NULL */
    const char *owners;     /* who owns the statement where some question kinds lack it, or NULL */
};

/* Whether k (or NULL) is a question's kind keyword: `single NAME {` and the rest open a question. */
static inline bool kw_opens_question(const struct kw *k)
{
    return k && k->opens >= KWB_SINGLE && k->opens <= KWB_TEXT;
}

/* Rows, in token order: kw_table[i].tok == kw_table[0].tok + i (checked where it is built). */
enum { KW_N =
#define KW(tok, ...) +1
#include "keywords.def"
#undef KW
};
extern const struct kw kw_table[KW_N];

/* Is tok a keyword token?  (Inline: the scanner asks of every token.) */
static inline bool kw_is(int tok)
{
    return (unsigned)(tok - kw_table[0].tok) < (unsigned)KW_N;
}
/* The row of keyword token tok, or NULL when tok is no keyword. */
static inline const struct kw *kw_of(int tok)
{
    return kw_is(tok) ? &kw_table[tok - kw_table[0].tok] : (const struct kw *)0;
}
/* The row's index (0 .. KW_N-1), for arrays kept per keyword. */
int kw_index(const struct kw *k);

/*
 * The spellings of the statements block b holds, in table order, NULL-
 * terminated into out (KW_N + 1 entries): what "did you mean" picks from.
 */
void kw_statements(enum kw_place b, const char *out[KW_N + 1]);
/* Does keyword tok start a statement in some block? */
bool kw_starts_statement(int tok);
/*
 * The question kinds whose block has k as a statement, for messages:
 * "single and multiple", "numeric"; written into buf (size bytes).
 */
void kw_kinds(const struct kw *k, char *buf, size_t size);

#endif
