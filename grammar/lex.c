/*
 * lex.c — numbers, keywords, stray characters, and the token stream the
 * grammar reads (qzplex), which keeps a stack of open braces.  (Positions and
 * string literals: lex_text.c.)
 *
 * The brace stack is what lets an unclosed block be reported where it
 * opened: at the end of the file, or when a block cannot go on (the next
 * question's head inside a question, a statement keyword inside a language
 * block), the scanner reports the innermost open brace and hands the grammar
 * the '}' that was missing, so the rest of the file parses normally.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "quiz.tab.h"

int qz_lex_raw(QZPSTYPE *lval, QZPLTYPE *lloc, void *scanner);

/* Errors in one file after which its parse stops. */
enum { LEX_MAX_ERRORS = 50 };

/* Past the limit, the scanner's own floods (stray bytes) stay quiet until the parse stops. */
bool lex_too_many(const struct qz_parser *p)
{
    return diag_errors(p->d) - p->errors_at_start >= LEX_MAX_ERRORS;
}

/* ---- Numbers, keywords, stray characters -------------------------------- */

struct ast_value *lex_number(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n)
{
    struct ast_value *v = xcalloc(1, sizeof *v);
    v->kind = VAL_NUMBER;
    v->str = xstrndup(s, n);
    v->percent = n > 0 && s[n - 1] == '%';
    v->integral = !v->percent && !memchr(s, '.', n) && !memchr(s, 'e', n) && !memchr(s, 'E', n);
    v->loc = *loc;
    errno = 0;
    v->num = strtod(v->str, NULL);
    if (errno == ERANGE && isinf(v->num))
        diag_error(p->d, loc, "number %s is out of range", v->str);
    return v;
}

/* Keywords (tagged KEYWORDS: keep quiz.y's tokens and keyword rule in sync), sorted. */
static const struct { const char *word; int tok; } keywords[] = {
    { "accept", T_ACCEPT },     { "alias", T_ALIAS },         { "answer", T_ANSWER },       { "because", T_BECAUSE },
    { "correct", T_CORRECT },   { "expect", T_EXPECT },       { "explain", T_EXPLAIN },
    { "false", T_FALSE },       { "feedback", T_FEEDBACK },   { "in", T_IN },
    { "include", T_INCLUDE },   { "intro", T_INTRO },         { "lab", T_LAB },
    { "languages", T_LANGUAGES }, { "metric", T_METRIC },     { "multiple", T_MULTIPLE },
    { "numeric", T_NUMERIC },   { "of", T_OF },               { "param", T_PARAM },
    { "passing", T_PASSING },   { "points", T_POINTS },       { "prompt", T_PROMPT },
    { "quiz", T_QUIZ },         { "shuffle", T_SHUFFLE },     { "single", T_SINGLE },
    { "snippet", T_SNIPPET },   { "summary", T_SUMMARY },     { "text", T_TEXT },
    { "title", T_TITLE },       { "true", T_TRUE },           { "truefalse", T_TRUEFALSE },
    { "unit", T_UNIT },         { "within", T_WITHIN },       { "wrong", T_WRONG },
};

int lex_keyword(const char *s, size_t n)
{
    size_t lo = 0, hi = sizeof keywords / sizeof keywords[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        /* The first letters first: most probes differ there, and a call costs more than the compare. */
        int c = (unsigned char)s[0] - (unsigned char)keywords[mid].word[0];
        if (c == 0)
            c = strncmp(s, keywords[mid].word, n);
        if (c == 0 && keywords[mid].word[n] != '\0') c = -1;
        if (c == 0) return keywords[mid].tok;
        if (c < 0) hi = mid; else lo = mid + 1;
    }
    return 0;
}

static bool is_keyword_tok(int tok)
{
    return tok >= T_QUIZ && tok <= T_FALSE;
}

void lex_stray(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n)
{
    /* Once per line: text outside its quotes would otherwise give an error per character. */
    if (lex_too_many(p)) return;
    if (p->stray_line == loc->line) {
        if ((unsigned char)s[0] >= 0x80) lex_check_utf8(p, loc, s, n);   /* bad bytes are still named */
        return;
    }
    p->stray_line = loc->line;
    unsigned char c = (unsigned char)s[0];
    if (c >= 0x80) {
        if (!lex_check_utf8(p, loc, s, n)) return;
        size_t len = lex_char_len(s, n);
        if (!strncmp(s, "\xE2\x80\x9C", 3) || !strncmp(s, "\xE2\x80\x9D", 3))
            diag_error(p->d, loc, "unexpected character '%.*s' (strings are written in straight quotes \"...\")",
                       (int)len, s);
        else
            diag_error(p->d, loc, "unexpected character '%.*s'", (int)len, s);
    } else if (c < 0x20 || c == 0x7F) {
        diag_error(p->d, loc, "unexpected control character U+%04X", c);
    } else {
        diag_error(p->d, loc, "unexpected character '%c'", c);
    }
}

/* ---- The token stream --------------------------------------------------- */

static const char *skip_space(const char *s, const char *end)
{
    while (s < end) {
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
        else if (*s == '#') { while (s < end && *s != '\n' && *s != '\r') s++; }
        else break;
    }
    return s;
}

/* After the token just read: NAME '{' (a question's head follows the kind keyword). */
static bool head_follows(const struct qz_parser *p)
{
    const char *end = p->src->text + p->src->len;
    const char *s = skip_space(p->src->text + p->off, end);
    const char *name = s;
    while (s < end && (*s == '_' || *s == '-' || (*s >= '0' && *s <= '9') || ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z')))
        s++;
    if (s == name) return false;
    s = skip_space(s, end);
    return s < end && *s == '{';
}

/* After the token just read: ':' (a keyword used as a language tag). */
static bool colon_follows(const struct qz_parser *p)
{
    const char *end = p->src->text + p->src->len;
    const char *s = p->src->text + p->off;
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s < end && *s == ':';
}

/* The spelling of the token at loc, ending where the scanner stands. */
static char *token_text(const struct qz_parser *p, const struct src_loc *loc)
{
    return xstrndup(p->src->text + loc->off, p->off - loc->off);
}

/*
 * The leading whitespace of the line being scanned (which holds the brace at
 * off); with !whole_line, -1 when something else precedes off on it.  Cached
 * per line: a line of many braces is measured once.
 */
static int indent_before(struct qz_parser *p, size_t off, bool whole_line)
{
    const char *t = p->src->text;
    if (p->indent_for != p->line_off + 1) {
        size_t a = p->line_off, n = 0;
        while (a + n < p->src->len && (t[a + n] == ' ' || t[a + n] == '\t')) n++;
        p->indent = n > 1000000 ? 1000000 : (int)n;
        p->indent_for = p->line_off + 1;
    }
    if (!whole_line && p->line_off + (size_t)p->indent != off) return -1;
    return p->indent;
}

static void push_brace(struct qz_parser *p, const struct src_loc *loc)
{
    struct brace b = { .kind = BR_OTHER, .loc = *loc, .indent = indent_before(p, loc->off, true) };
    const char *name = p->prev_text ? p->prev_text : "?";
    int t2 = p->prev2_tok;
    bool named = p->prev_tok == T_IDENT || is_keyword_tok(p->prev_tok);
    if (named && t2 == T_QUIZ) {
        b.kind = BR_QUIZ;
        b.what = xasprintf("quiz '%s'", name);
    } else if (named && t2 >= T_SINGLE && t2 <= T_TEXT) {
        b.kind = BR_QUESTION;
        b.qkind = t2 == T_SINGLE ? Q_SINGLE : t2 == T_MULTIPLE ? Q_MULTIPLE : t2 == T_TRUEFALSE ? Q_TRUEFALSE
                : t2 == T_NUMERIC ? Q_NUMERIC : Q_TEXT;
        b.what = xasprintf("%s question '%s'", ast_qkind_name((enum ast_qkind)b.qkind), name);
    } else if (named && t2 == T_LAB) {
        b.kind = BR_LAB;
        b.what = xasprintf("lab '%s'", name);
    } else {
        switch (p->prev_tok) {
        case T_TITLE: case T_INTRO: case T_PROMPT: case T_WRONG: case T_CORRECT:
        case T_BECAUSE: case T_EXPLAIN: case T_UNIT: case T_SUMMARY:
            b.kind = BR_LANG;
            b.what = xstrdup("language block");
            break;
        default:
            b.what = xstrdup("block");
        }
    }
    VEC_PUSH(p->braces, b);
}

static void pop_brace(struct qz_parser *p)
{
    if (!p->braces.n) return;
    free(p->braces.items[--p->braces.n].what);
}

/* A '}' in the file closes the innermost block; remember it when its indentation says otherwise. */
static void close_brace(struct qz_parser *p, const struct src_loc *loc)
{
    if (!p->braces.n) return;
    struct brace *b = &p->braces.items[p->braces.n - 1];
    int ind = indent_before(p, loc->off, false);
    if (!p->suspect.what && b->kind != BR_LANG && ind >= 0 && ind < b->indent) {
        p->suspect = *b;
        p->suspect.what = xstrdup(b->what);
        p->suspect_close = *loc;
    }
    pop_brace(p);
}

/* Where the file ends, for "file ended here": just after its last visible character. */
static struct src_loc eof_loc(const struct qz_parser *p)
{
    const char *t = p->src->text;
    size_t n = p->src->len, pos = n;
    int line = p->line;
    while (pos > 0 && (t[pos - 1] == ' ' || t[pos - 1] == '\t' || t[pos - 1] == '\n' || t[pos - 1] == '\r')) {
        pos--;
        /* A line break stepped over: "\r\n" is one. */
        if (t[pos] == '\r' || (t[pos] == '\n' && !(pos > 0 && t[pos - 1] == '\r'))) line--;
    }
    size_t a = pos;
    while (a > 0 && t[a - 1] != '\n' && t[a - 1] != '\r') a--;
    if (a == 0 && n >= 3 && !memcmp(t, "\xEF\xBB\xBF", 3)) a = pos >= 3 ? 3 : pos;
    struct src_loc l = { .src = p->src, .line = line < 1 ? 1 : line, .off = pos };
    l.col = utf8_width(t + a, pos - a) + 1;
    l.end_line = l.line;
    l.end_col = l.col;
    return l;
}

/* Report the innermost open brace as unclosed, with a note at `at`. */
static void report_unclosed(struct qz_parser *p, const struct src_loc *at, const char *note)
{
    const struct brace *b = &p->braces.items[p->braces.n - 1];
    diag_error(p->d, &b->loc, "unclosed '{' of %s", b->what);
    diag_note(p->d, at, "%s", note);
}

/* Copy a spelling into buffer slot i of the parser, grown only when too small. */
static char *keep_spelling(struct qz_parser *p, int i, const char *s, size_t n)
{
    if (n + 1 > p->spell_cap[i]) {
        p->spell_cap[i] = n + 1 < 64 ? 64 : (n + 1) * 2;
        p->spell[i] = xrealloc(p->spell[i], p->spell_cap[i]);
    }
    memcpy(p->spell[i], s, n);
    p->spell[i][n] = '\0';
    return p->spell[i];
}

/* Record a token handed to the grammar. */
static int deliver(struct qz_parser *p, int tok, QZPSTYPE *lval, const struct src_loc *loc)
{
    p->tok_text = tok == T_IDENT ? keep_spelling(p, 0, lval->str, strlen(lval->str))
                : tok == T_NUMBER ? keep_spelling(p, 0, lval->val->str, strlen(lval->val->str)) : NULL;
    if (tok == '{') push_brace(p, loc);
    else if (tok == '}') close_brace(p, loc);
    /* prev2_text keeps the slot prev_text was in; prev_text moves to the other. */
    int slot = p->prev_slot == 1 ? 2 : 1;
    p->prev2_text = p->prev_text;
    p->prev_text = tok == T_IDENT ? keep_spelling(p, slot, lval->str, strlen(lval->str))
                 : is_keyword_tok(tok) ? keep_spelling(p, slot, p->src->text + loc->off, (size_t)(loc->end_col - loc->col + 1))
                 : NULL;
    p->prev_slot = slot;
    p->prev2_tok = p->prev_tok;
    p->prev_tok = tok;
    memmove(p->recent + 1, p->recent, sizeof p->recent - sizeof p->recent[0]);
    p->recent[0] = loc->off;
    return tok;
}

/* Hand out a '}' the file lacks; tok (already read) comes next. */
static int supply_close(struct qz_parser *p, int tok, QZPSTYPE *lval, QZPLTYPE *lloc)
{
    p->pending.tok = tok;
    if (tok == T_IDENT || tok == T_STRING) p->pending.v.str = lval->str;
    else if (tok == T_NUMBER) p->pending.v.val = lval->val;
    p->pending.loc = *lloc;
    pop_brace(p);
    p->synthetic = true;
    p->prev2_tok = p->prev_tok;
    p->prev_tok = '}';
    return '}';
}

int qzplex(QZPSTYPE *lval, QZPLTYPE *lloc, yyscan_t scanner, struct qz_parser *p)
{
    int tok;
    p->synthetic = false;
    if (p->pending.tok) {
        tok = p->pending.tok;
        if (tok == T_IDENT || tok == T_STRING) lval->str = p->pending.v.str;
        else if (tok == T_NUMBER) lval->val = p->pending.v.val;
        *lloc = p->pending.loc;
        p->pending.tok = 0;
    } else if (p->eof_seen) {
        tok = 0;
    } else {
        tok = qz_lex_raw(lval, lloc, scanner);
    }
    if (tok != 0 && lex_too_many(p)) {
        /* Past this many, later errors are mostly echoes of the first: stop here. */
        diag_note(p->d, lloc, "too many errors in this file; the rest of it is not read");
        if (tok == T_IDENT || tok == T_STRING) free(lval->str);
        else if (tok == T_NUMBER) { ast_value_clear(lval->val); free(lval->val); }
        p->eof_reported = true;
        tok = 0;
    }

    if (tok == 0) {
        if (!p->eof_seen) p->eof_loc = eof_loc(p);   /* once: its last line may be long */
        p->eof_seen = true;
        struct src_loc end = p->eof_loc;
        *lloc = end;
        if (p->braces.n) {
            if (!p->eof_reported && !p->eof_in_string && p->suspect.what) {
                /* The block whose '}' went to its parent, going by indentation. */
                diag_error(p->d, &p->suspect.loc, "unclosed '{' of %s", p->suspect.what);
                diag_note(p->d, &p->suspect_close, "this '}' closed it, though its indentation matches the enclosing block");
                diag_note(p->d, &end, "the file ended here");
            } else if (!p->eof_reported && !p->eof_in_string) {
                report_unclosed(p, &end, "the file ended here");
            }
            p->eof_reported = true;
            pop_brace(p);
            p->synthetic = true;
            return '}';
        }
        return 0;
    }

    const struct brace *top = p->braces.n ? &p->braces.items[p->braces.n - 1] : NULL;
    if (top && top->kind == BR_LANG && is_keyword_tok(tok)) {
        if (colon_follows(p)) {
            /* `text: "..."`: a keyword spelled like a language tag is one. */
            lval->str = token_text(p, lloc);
            tok = T_IDENT;
        } else if (p->prev_tok == T_STRING || p->prev_tok == '{') {
            char *word = token_text(p, lloc);
            char *note = xasprintf("expected '}' before '%s'", word);
            report_unclosed(p, lloc, note);
            free(note);
            free(word);
            return supply_close(p, tok, lval, lloc);
        }
    }
    if (top && top->kind == BR_QUESTION && tok >= T_SINGLE && tok <= T_TEXT && head_follows(p)) {
        report_unclosed(p, lloc, "the next question starts here");
        return supply_close(p, tok, lval, lloc);
    }
    return deliver(p, tok, lval, lloc);
}

size_t lex_token_before(const struct qz_parser *p, size_t off)
{
    for (size_t i = 0; i + 1 < sizeof p->recent / sizeof p->recent[0]; i++)
        if (p->recent[i] == off) return p->recent[i + 1];
    return (size_t)-1;
}

void lex_state_free(struct qz_parser *p)
{
    while (p->braces.n) pop_brace(p);
    VEC_FREE(p->braces);
    free(p->suspect.what);
    p->suspect.what = NULL;
    if (p->pending.tok == T_IDENT || p->pending.tok == T_STRING) free(p->pending.v.str);
    else if (p->pending.tok == T_NUMBER) { ast_value_clear(p->pending.v.val); free(p->pending.v.val); }
    p->pending.tok = 0;
    free(p->buf);
    for (int i = 0; i < 3; i++) {
        free(p->spell[i]);
        p->spell[i] = NULL;
        p->spell_cap[i] = 0;
    }
    p->buf = p->tok_text = p->prev_text = p->prev2_text = NULL;
}
