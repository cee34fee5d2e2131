/*
 * lex_text.c — the scanner's text work: positions counted in characters,
 * and string literals (escapes, invalid UTF-8, the dedent of """ strings).
 */
#include <stdint.h>
#include <string.h>

#include "parse.h"

/* ---- Positions ---------------------------------------------------------- */

/*
 * Bytes at s (n of them) before the first one that is not ASCII or is a line
 * end.  Eight at a time: string literals are most of a file, and every byte
 * of them passes through here.
 */
static size_t ascii_run(const char *s, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, lf, cr;
        memcpy(&x, s + i, 8);
        lf = x ^ (ones * '\n');
        cr = x ^ (ones * '\r');
        /* A byte of lf or cr is zero where s has that line end; (v - 1) & ~v sets its top bit. */
        if ((x | ((lf - ones) & ~lf) | ((cr - ones) & ~cr)) & highs)
            break;
    }
    while (i < n && (unsigned char)s[i] < 0x80 && s[i] != '\n' && s[i] != '\r')
        i++;
    return i;
}

/* Bytes in the UTF-8 character at s (n bytes left), or 0 when it is not valid UTF-8. */
size_t lex_char_len(const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    if (c < 0x80) return 1;
    size_t w = n < 4 ? n : 4;
    if (utf8_check(s, w) == 0) return 0;
    size_t len = 1;
    while (len < w && ((unsigned char)s[len] & 0xC0) == 0x80) len++;
    return len;
}

void lex_advance(struct qz_parser *p, struct src_loc *loc, const char *s, size_t n)
{
    loc->src = p->src;
    loc->off = p->off;
    loc->line = loc->end_line = p->line;
    loc->col = loc->end_col = p->col;
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if ((unsigned char)c < 0x80 && c != '\n' && c != '\r') {
            /* A run of ASCII, one column a byte: most of every file, so no per-byte UTF-8 check. */
            size_t j = i + 1 + ascii_run(s + i + 1, n - i - 1);
            p->after_cr = false;
            loc->end_line = p->line;
            p->col += (int)(j - i);
            loc->end_col = p->col - 1;
            i = j;
            continue;
        }
        if (c == '\n') {
            if (!p->after_cr) { p->line++; p->col = 1; }
            p->after_cr = false;
            i++;
            p->line_off = p->off + i;
            continue;
        }
        p->after_cr = false;
        if (c == '\r') {
            p->line++;
            p->col = 1;
            p->after_cr = true;
            i++;
            p->line_off = p->off + i;
            continue;
        }
        size_t len = lex_char_len(s + i, n - i);
        loc->end_line = p->line;
        loc->end_col = p->col;
        p->col++;
        i += len ? len : 1;     /* an invalid byte counts as one character, as diag shows it */
    }
    p->off += n;
}

struct src_loc loc_span(const struct src_loc *a, const struct src_loc *b)
{
    struct src_loc l = *a;
    l.end_line = b->end_line;
    l.end_col = b->end_col;
    return l;
}

struct src_loc loc_at(const struct src_loc *loc, const char *s, size_t byte)
{
    struct src_loc l = *loc;
    int col = loc->col;
    size_t i = 0;
    while (i < byte) {
        size_t len = lex_char_len(s + i, byte - i);
        i += len ? len : 1;
        col++;
    }
    l.col = l.end_col = col;
    l.end_line = l.line;
    l.off = loc->off + byte;
    return l;
}

/* ---- Strings ------------------------------------------------------------ */

void lex_buf_reset(struct qz_parser *p)
{
    p->blen = 0;
}

void lex_buf_add(struct qz_parser *p, const char *s, size_t n)
{
    if (p->blen + n + 1 > p->bcap) {
        p->bcap = (p->blen + n + 1) * 2;
        p->buf = xrealloc(p->buf, p->bcap);
    }
    memcpy(p->buf + p->blen, s, n);
    p->blen += n;
    p->buf[p->blen] = '\0';
}

bool lex_check_utf8(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n)
{
    size_t bad = utf8_check(s, n);
    if (bad == n) return true;
    if (lex_too_many(p)) return false;
    struct src_loc at = loc_at(loc, s, bad);
    diag_error(p->d, &at, "invalid UTF-8 byte 0x%02X", (unsigned char)s[bad]);
    return false;
}

void lex_buf_add_utf8(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n)
{
    if (lex_check_utf8(p, loc, s, n)) {
        lex_buf_add(p, s, n);
        return;
    }
    /* Reported once for the run; the text keeps a replacement character per bad byte. */
    size_t i = 0;
    while (i < n) {
        size_t ok = utf8_check(s + i, n - i);
        lex_buf_add(p, s + i, ok);
        i += ok;
        if (i < n) {
            lex_buf_add(p, "\xEF\xBF\xBD", 3);
            i++;
        }
    }
}

static void add_code_point(struct qz_parser *p, unsigned long cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) { b[0] = (char)cp; n = 1; }
    else if (cp < 0x800) { b[0] = (char)(0xC0 | (cp >> 6)); b[1] = (char)(0x80 | (cp & 0x3F)); n = 2; }
    else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12)); b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        b[0] = (char)(0xF0 | (cp >> 18)); b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); b[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
    }
    lex_buf_add(p, b, n);
}

void lex_escape_u(struct qz_parser *p, const struct src_loc *loc, const char *s, size_t n)
{
    /* s is \u{HEX}: the digits sit between s + 3 and the closing brace. */
    unsigned long cp = strtoul(s + 3, NULL, 16);
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        diag_error(p->d, loc, "'%.*s' is not a Unicode character", (int)n, s);
        return;
    }
    add_code_point(p, cp);
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return false;
    return true;
}

static size_t indent_of(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    return i;
}

/*
 * A """ string's lines lose: the first line when it is blank (the text
 * starts on the line after the quotes), the last when it holds only the
 * indentation of the closing quotes, and the leading whitespace common to
 * every non-blank line (a first line written right after the quotes is not
 * counted: it has no indentation of its own).  Blank lines become empty.
 */
static char *dedent(const char *s, size_t n)
{
    VEC(struct { const char *p; size_t n; }) lines = { 0 };
    size_t a = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '\n') {
            size_t len = i - a;
            VEC_PUSH(lines, ((__typeof__(*lines.items)){ s + a, len }));
            a = i + 1;
        }
    }
    size_t first = 0, last = lines.n;
    bool first_counts = true;
    if (lines.n && blank(lines.items[0].p, lines.items[0].n)) first = 1;
    else first_counts = false;
    if (last > first && blank(lines.items[last - 1].p, lines.items[last - 1].n)) last--;

    const char *ref = NULL;
    size_t common = 0;
    for (size_t i = first; i < last; i++) {
        if (i == 0 && !first_counts) continue;
        const char *l = lines.items[i].p;
        size_t ln = lines.items[i].n;
        if (blank(l, ln)) continue;
        size_t ind = indent_of(l, ln);
        if (!ref) { ref = l; common = ind; continue; }
        size_t k = 0;
        while (k < common && k < ind && l[k] == ref[k]) k++;
        common = k;
    }

    char *out = xmalloc(n + 1);
    size_t o = 0;
    for (size_t i = first; i < last; i++) {
        const char *l = lines.items[i].p;
        size_t ln = lines.items[i].n;
        if (i > first) out[o++] = '\n';
        if (blank(l, ln)) continue;
        size_t cut = (i == 0 && !first_counts) ? 0 : common;
        memcpy(out + o, l + cut, ln - cut);
        o += ln - cut;
    }
    out[o] = '\0';
    VEC_FREE(lines);
    return out;
}

char *lex_take_string(struct qz_parser *p, bool triple)
{
    const char *s = p->buf ? p->buf : "";
    char *r = triple ? dedent(s, p->blen) : xstrndup(s, p->blen);
    p->blen = 0;
    return r;
}
