/*
 * keywords.c — the keyword table (keywords.def) as data, and the questions
 * the scanner, the builders and the error messages ask of it.
 */
#include <stdio.h>
#include <string.h>

#include "ast.h"
#include "keywords.h"
#include "keywords.gen.h"
#include "quiz.tab.h"

/* kwgen declares the keyword tokens in the table's order, one after another: kw_of relies on it. */
enum kw_id {
#define KW(tok, ...) KW_ID_##tok,
#include "keywords.def"
#undef KW
};
#define KW(tok, ...) _Static_assert(T_##tok - KW_FIRST_TOK == KW_ID_##tok, "keyword tokens follow keywords.def");
#include "keywords.def"
#undef KW

_Static_assert(KWB_TEXT - KWB_SINGLE == Q_TEXT && KWB_MULTIPLE - KWB_SINGLE == Q_MULTIPLE &&
               KWB_TRUEFALSE - KWB_SINGLE == Q_TRUEFALSE && KWB_NUMERIC - KWB_SINGLE == Q_NUMERIC,
               "a question's block follows enum ast_qkind");

const struct kw kw_table[KW_N] = {
#define KW(tok, word, takes, once, opens, text, named, owners) \
    { T_##tok, word, takes, once, opens, text, named, owners },
#include "keywords.def"
#undef KW
};

int kw_index(const struct kw *k)
{
    return (int)(k - kw_table);
}

/* The blocks: the places that hold statements (the rest hold words of a statement). */
static const unsigned blocks = KW_AT(KWB_FILE) | KW_AT(KWB_QUIZ) | KW_AT(KWB_LAB) | KW_AT(KWB_SINGLE) |
                               KW_AT(KWB_MULTIPLE) | KW_AT(KWB_TRUEFALSE) | KW_AT(KWB_NUMERIC) | KW_AT(KWB_TEXT);

void kw_statements(enum kw_place b, const char *out[KW_N + 1])
{
    int n = 0;
    for (int i = 0; i < KW_N; i++)
        if (kw_table[i].takes & KW_AT(b)) out[n++] = kw_table[i].word;
    out[n] = NULL;
}

bool kw_starts_statement(int tok)
{
    const struct kw *k = kw_of(tok);
    return k && (k->takes & blocks);
}

void kw_kinds(const struct kw *k, char *buf, size_t size)
{
    int n = 0, shown = 0;
    for (int q = Q_SINGLE; q <= Q_TEXT; q++)
        if (k->takes & KW_AT(KWB_QUESTION(q))) n++;
    buf[0] = '\0';
    for (int q = Q_SINGLE; q <= Q_TEXT; q++) {
        if (!(k->takes & KW_AT(KWB_QUESTION(q)))) continue;
        size_t len = strlen(buf);
        const char *sep = shown == 0 ? "" : shown == n - 1 ? " and " : ", ";
        snprintf(buf + len, size - len, "%s%s", sep, ast_qkind_name((enum ast_qkind)q));
        shown++;
    }
}
