/*
 * lex.c — numbers, stray characters, and the token stream the grammar
 * reads (qzplex), which keeps a stack of open braces.  (Positions and string
 * literals: lex_text.c; keywords: kw_lookup, which kwgen writes from
 * keywords.def.)
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

#include "keywords.h"
#include "lex.h"
#include "quiz.tab.h"

int qz_lex_raw(QZPSTYPE *lval, QZPLTYPE *lloc, void *scanner);

/* Errors in one file after which its parse stops. */

/* ---- Numbers and stray characters ------------------------------------- */

struct ast_value *lex_number(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n)
{
    struct ast_value *v = arena_alloc(lx->arena, sizeof *v);
    v->kind = VAL_NUMBER;
    v->str = arena_strndup(lx->arena, s, n);
    v->percent = n > 0 && s[n - 1] == '%';
    v->integral = !v->percent && !memchr(s, '.', n) && !memchr(s, 'e', n) && !memchr(s, 'E', n);
    v->loc = *loc;
    errno = 0;
    v->num = strtod(v->str, NULL);
    if (errno == ERANGE && isinf(v->num))
        diag_error(lx->d, loc, "number %s is out of range", v->str);
    return v;
}

char *lex_name(struct lex_state *lx, const char *s, size_t n)
{
    if (kw_opens_question(kw_of(lx->prev_tok)))
        return arena_strndup(lx->arena, s, n);
    return (char *)intern_name(&lx->names, s, n);
}

void lex_stray(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n)
{
    /* Once per line: text outside its quotes would otherwise give an error per character. */
    if (lex_too_many(lx)) return;
    size_t line = lex_line_start(lx, lex_off(lx, loc)) + 1;
    if (lx->stray_line == line) {
        if ((unsigned char)s[0] >= 0x80) lex_check_utf8(lx, loc, s, n);   /* bad bytes are still named */
        return;
    }
    lx->stray_line = line;
    unsigned char c = (unsigned char)s[0];
    if (c >= 0x80) {
        if (!lex_check_utf8(lx, loc, s, n)) return;
        size_t len = utf8_char_len(s, n);
        if (!strncmp(s, "\xE2\x80\x9C", 3) || !strncmp(s, "\xE2\x80\x9D", 3))
            diag_error(lx->d, loc, "unexpected character '%.*s' (strings are written in straight quotes \"...\")",
                       (int)len, s);
        else
            diag_error(lx->d, loc, "unexpected character '%.*s'", (int)len, s);
    } else if (c < 0x20 || c == 0x7F) {
        diag_error(lx->d, loc, "unexpected control character U+%04X", c);
    } else {
        diag_error(lx->d, loc, "unexpected character '%c'", c);
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
static bool head_follows(const struct lex_state *lx)
{
    const char *end = lx->src->text + lx->src->len;
    const char *s = skip_space(lx->src->text + lx->off, end);
    const char *name = s;
    while (s < end && (*s == '_' || *s == '-' || (*s >= '0' && *s <= '9') || ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z')))
        s++;
    if (s == name) return false;
    s = skip_space(s, end);
    return s < end && *s == '{';
}

/* After the token just read: ':' (a keyword used as a language tag). */
static bool colon_follows(const struct lex_state *lx)
{
    const char *end = lx->src->text + lx->src->len;
    const char *s = lx->src->text + lx->off;
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s < end && *s == ':';
}

/* The spelling of the token at loc, ending where the scanner stands. */
static char *token_text(const struct lex_state *lx, const struct src_loc *loc)
{
    size_t off = lex_off(lx, loc);
    return xstrndup(lx->src->text + off, lx->off - off);
}

/*
 * The leading whitespace of the line being scanned (which holds the brace at
 * off); with !whole_line, -1 when something else precedes off on it.  Cached
 * per line: a line of many braces is measured once.
 */
static int indent_before(struct lex_state *lx, size_t off, bool whole_line)
{
    const char *t = lx->src->text;
    size_t line = lex_line_start(lx, off);
    if (lx->indent_for != line + 1) {
        size_t a = line, n = 0;
        while (a + n < lx->src->len && (t[a + n] == ' ' || t[a + n] == '\t')) n++;
        lx->indent = n > 1000000 ? 1000000 : (int)n;
        lx->indent_for = line + 1;
    }
    if (!whole_line && line + (size_t)lx->indent != off) return -1;
    return lx->indent;
}

/* A '{': what it opens follows from the tokens before it, as keywords.def says. */
static void push_brace(struct lex_state *lx, const struct src_loc *loc)
{
    struct brace b = { .kind = BR_OTHER, .loc = *loc, .block = KWB_NONE, .indent = indent_before(lx, lex_off(lx, loc), true) };
    const struct kw *head = kw_of(lx->prev2_tok), *before = kw_of(lx->prev_tok);
    bool named = lx->prev_tok == T_IDENT || before;
    b.name = lx->prev_text;
    if (named && head && head->opens != KWB_NONE) {
        b.block = head->opens;
        b.kind = head->opens == KWB_QUIZ ? BR_QUIZ : head->opens == KWB_LAB ? BR_LAB : BR_QUESTION;
        b.head = head->word;
    } else if (before && before->text) {
        b.kind = BR_LANG;
    }
    VEC_PUSH(lx->braces, b);
}

static void pop_brace(struct lex_state *lx)
{
    if (lx->braces.n) lx->braces.n--;
}

const char *lex_brace_what(const struct lex_state *lx, const struct brace *b)
{
    const char *name = b->name ? b->name : "?";
    switch (b->kind) {
    case BR_QUIZ: return arena_printf(lx->arena, "quiz '%s'", name);
    case BR_LAB: return arena_printf(lx->arena, "lab '%s'", name);
    case BR_QUESTION: return arena_printf(lx->arena, "%s question '%s'", b->head, name);
    case BR_LANG: return "language block";
    default: return "block";
    }
}

/* A '}' in the file closes the innermost block; remember it when its indentation says otherwise. */
static void close_brace(struct lex_state *lx, const struct src_loc *loc)
{
    if (!lx->braces.n) return;
    struct brace *b = &lx->braces.items[lx->braces.n - 1];
    int ind = indent_before(lx, lex_off(lx, loc), false);
    if (!lx->suspected && b->kind != BR_LANG && ind >= 0 && ind < b->indent) {
        lx->suspect = *b;
        lx->suspected = true;
        lx->suspect_close = *loc;
    }
    pop_brace(lx);
    lx->closed = true;
}

/* Where the file ends, for "file ended here": just after its last visible character. */
static struct src_loc eof_loc(const struct lex_state *lx)
{
    const char *t = lx->src->text;
    size_t pos = lx->src->len;
    while (pos > lx->text_start && (t[pos - 1] == ' ' || t[pos - 1] == '\t' || t[pos - 1] == '\n' || t[pos - 1] == '\r'))
        pos--;
    return loc_bytes(lx->src, pos, 0);
}

/* Report the innermost open brace as unclosed, with a note at `at`. */
static void report_unclosed(struct lex_state *lx, const struct src_loc *at, const char *note)
{
    const struct brace *b = &lx->braces.items[lx->braces.n - 1];
    diag_error(lx->d, &b->loc, "unclosed '{' of %s", lex_brace_what(lx, b));
    diag_note(lx->d, at, "%s", note);
}

size_t lex_line_start(struct lex_state *lx, size_t off)
{
    /*
     * Every line break the scanner reads is matched by a rule that notes
     * where it ends: a token read since then starts on that line.  Other
     * offsets are looked for, in the order the scanner reads, so that each
     * byte is looked at about once, by memrchr.
     */
    if (off >= lx->nl_end && off <= lx->off) return lx->nl_end;
    const char *t = lx->src->text;
    size_t floor = off >= lx->ls_seen ? lx->ls_seen : lx->text_start, a;
    const char *lf = memrchr(t + floor, '\n', off - floor);
    size_t from = lf ? (size_t)(lf - t) + 1 : floor;
    const char *cr = memrchr(t + from, '\r', off - from);
    if (cr) a = (size_t)(cr - t) + 1;
    else if (lf) a = from;
    else a = floor == lx->ls_seen ? lx->ls_start : floor;
    lx->ls_start = a;
    lx->ls_seen = off;
    return a;
}

/* Record a token handed to the grammar. */
static int deliver(struct lex_state *lx, int tok, QZPSTYPE *lval, const struct src_loc *loc)
{
    lx->tok_text = tok == T_IDENT ? lval->str : tok == T_NUMBER ? lval->val->str : NULL;
    lx->closed = false;
    if (tok == '{') push_brace(lx, loc);
    else if (tok == '}') close_brace(lx, loc);
    lx->prev_text = tok == T_IDENT ? lval->str : kw_is(tok) ? kw_of(tok)->word : NULL;
    lx->prev2_tok = lx->prev_tok;
    lx->prev_tok = tok;
    memmove(lx->recent + 1, lx->recent, sizeof lx->recent - sizeof lx->recent[0]);
    lx->recent[0] = lex_off(lx, loc);
    return tok;
}

/* Hand out a '}' the file lacks; tok (already read) comes next. */
static int supply_close(struct lex_state *lx, int tok, QZPSTYPE *lval, QZPLTYPE *lloc)
{
    lx->pending.tok = tok;
    if (tok == T_IDENT || tok == T_STRING) lx->pending.v.str = lval->str;
    else if (tok == T_NUMBER) lx->pending.v.val = lval->val;
    lx->pending.loc = *lloc;
    pop_brace(lx);
    lx->closed = false;
    lx->synthetic = true;
    lx->prev2_tok = lx->prev_tok;
    lx->prev_tok = '}';
    return '}';
}

int qzplex(QZPSTYPE *lval, QZPLTYPE *lloc, struct lex_state *lx)
{
    int tok;
    lx->synthetic = false;
    if (lx->pending.tok) {
        tok = lx->pending.tok;
        if (tok == T_IDENT || tok == T_STRING) lval->str = lx->pending.v.str;
        else if (tok == T_NUMBER) lval->val = lx->pending.v.val;
        *lloc = lx->pending.loc;
        lx->pending.tok = 0;
    } else if (lx->eof_seen) {
        tok = 0;
    } else {
        tok = qz_lex_raw(lval, lloc, lx->scanner);
    }
    if (tok != 0 && lex_too_many(lx)) {
        /* Past this many, later errors are mostly echoes of the first: stop here. */
        diag_stop(lx->d, lloc);
        lx->eof_reported = true;
        tok = 0;
    }

    if (tok == 0) {
        if (!lx->eof_seen) lx->eof_loc = eof_loc(lx);   /* once: its last line may be long */
        lx->eof_seen = true;
        struct src_loc end = lx->eof_loc;
        *lloc = end;
        if (lx->braces.n) {
            if (!lx->eof_reported && !lx->eof_in_string && lx->suspected) {
                /* The block whose '}' went to its parent, going by indentation. */
                diag_error(lx->d, &lx->suspect.loc, "unclosed '{' of %s", lex_brace_what(lx, &lx->suspect));
                diag_note(lx->d, &lx->suspect_close, "this '}' closed it, though its indentation matches the enclosing block");
                diag_note(lx->d, &end, "the file ended here");
            } else if (!lx->eof_reported && !lx->eof_in_string) {
                report_unclosed(lx, &end, "the file ended here");
            }
            lx->eof_reported = true;
            pop_brace(lx);
            lx->synthetic = true;
            return '}';
        }
        return 0;
    }

    const struct brace *top = lx->braces.n ? &lx->braces.items[lx->braces.n - 1] : NULL;
    if (top && top->kind == BR_LANG && kw_is(tok)) {
        if (colon_follows(lx)) {
            /* `text: "..."`: a keyword spelled like a language tag is one. */
            size_t at = lex_off(lx, lloc);
            lval->str = (char *)intern_name(&lx->names, lx->src->text + at, lx->off - at);
            tok = T_IDENT;
        } else if (lx->prev_tok == T_STRING || lx->prev_tok == '{') {
            char *word = token_text(lx, lloc);
            char *note = xasprintf("expected '}' before '%s'", word);
            report_unclosed(lx, lloc, note);
            free(note);
            free(word);
            return supply_close(lx, tok, lval, lloc);
        }
    }
    if (top && top->kind == BR_QUESTION && kw_opens_question(kw_of(tok)) && head_follows(lx)) {
        report_unclosed(lx, lloc, "the next question starts here");
        return supply_close(lx, tok, lval, lloc);
    }
    return deliver(lx, tok, lval, lloc);
}

size_t lex_token_before(const struct lex_state *lx, size_t off)
{
    for (size_t i = 0; i + 1 < sizeof lx->recent / sizeof lx->recent[0]; i++)
        if (lx->recent[i] == off) return lx->recent[i + 1];
    return (size_t)-1;
}

const struct brace *lex_innermost_block(const struct lex_state *lx)
{
    for (size_t i = lx->braces.n; i-- > 0;)
        if (lx->braces.items[i].kind != BR_LANG) return &lx->braces.items[i];
    return NULL;
}

void lex_init(struct lex_state *lx, struct diag *d, const struct source *src, struct arena *a)
{
    *lx = (struct lex_state){ .d = d, .src = src, .arena = a };
    intern_init(&lx->names, a);
    if (src->xml == SRC_XML_UNSCANNED) ((struct source *)src)->xml = SRC_XML_CLEAN;
    /* A leading byte order mark is no text: skip it, columns start after it. */
    size_t start = src->len >= 3 && !memcmp(src->text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    lx->off = lx->text_start = lx->ls_start = lx->ls_seen = lx->nl_end = start;
    lx->in = src->text + start;
    lx->in_len = src->len - start;
    lx->scanner = lex_open(lx);
}

void lex_fini(struct lex_state *lx)
{
    lex_close(lx->scanner);
    lx->scanner = NULL;
    VEC_FREE(lx->braces);
    lx->suspected = false;
    lx->pending.tok = 0;
    intern_fini(&lx->names);
    free(lx->buf);
    lx->buf = NULL;
    lx->tok_text = lx->prev_text = NULL;
}
