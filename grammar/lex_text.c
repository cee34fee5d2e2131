/*
 * lex_text.c — the scanner's text work: token spans, and string literals (escapes, invalid UTF-8, the dedent of """ strings).
 */
#include <stdint.h>
#include <string.h>

#include "lex.h"

/* Past the per-file cap (diag.h), the scanner's own floods (stray bytes) stay quiet until it stops. */
bool lex_too_many(const struct lex_state *lx)
{
    return diag_source_full(lx->src) || lx->src->stopped;
}

/* ---- Positions ---------------------------------------------------------- */

/* Lines and columns are not counted here: a location is its bytes (loc.h). */
void lex_unread(struct lex_state *lx, struct src_loc *loc, size_t n)
{
    lx->off = lx->tok_off + n;
    loc->to = lx->src->base + (uint32_t)lx->off;
}

struct src_loc loc_at(const struct src_loc *loc, const char *s, size_t byte)
{
    size_t len = s[byte] ? utf8_char_len(s + byte, strnlen(s + byte, 4)) : 0;
    uint32_t at = loc->from + (uint32_t)byte;
    return (struct src_loc){ .from = at, .to = at + (uint32_t)(len ? len : 1) };
}

/* ---- Strings ------------------------------------------------------------ */

void lex_read(struct lex_state *lx, const char *s, size_t n)
{
    /* The one writer of a source's nul_free, as of its text (loc.h). */
    struct source *src = (struct source *)lx->src;
    size_t at = (size_t)(lx->in - src->text) + lx->in_pos;
    if (src->nul_free != at && !(at == (size_t)(lx->in - src->text) && src->nul_free == 0)) return;
    const char *z = memchr(s, '\0', n);
    src->nul_free = z ? at + (size_t)(z - s) : at + n;
}

void lex_buf_reset(struct lex_state *lx)
{
    lx->blen = 0;
    lx->verbatim = false;
}

void lex_str_open(struct lex_state *lx)
{
    lx->blen = 0;
    lx->verbatim = true;
    lx->simple = true;
    lx->str_start = lx->off;    /* just past the opening quote */
}

static void buf_put(struct lex_state *lx, const char *s, size_t n)
{
    if (lx->blen + n + 1 > lx->bcap) {
        lx->bcap = (lx->blen + n + 1) * 2;
        lx->buf = xrealloc(lx->buf, lx->bcap);
    }
    memcpy(lx->buf + lx->blen, s, n);
    lx->blen += n;
    lx->buf[lx->blen] = '\0';
}

void lex_str_edit(struct lex_state *lx)
{
    lx->simple = false;
    if (!lx->verbatim) return;
    lx->verbatim = false;
    buf_put(lx, lx->src->text + lx->str_start, lx->tok_off - lx->str_start);
}

void lex_str_text(struct lex_state *lx, const char *s, size_t n)
{
    if (!lx->verbatim) buf_put(lx, s, n);
}

size_t lex_plain_run(const char *s, const char *end)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    const char *p = s;
    for (; end - p >= 8; p += 8) {
        uint64_t x, q, b;
        memcpy(&x, p, 8);
        q = x ^ (ones * '"');
        b = x ^ (ones * '\\');
        /* A byte at or above 0x80, below 0x20, or zero in q or b (a quote, a backslash): stop. */
        if ((x | ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b)) & highs)
            break;
    }
    while (p < end && (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x80 && *p != '"' && *p != '\\')
        p++;
    return (size_t)(p - s);
}

void lex_escape_quote(struct lex_state *lx, char c)
{
    bool simple = lx->simple;
    lex_str_edit(lx);
    lx->simple = simple;
    buf_put(lx, &c, 1);
}

void lex_buf_add(struct lex_state *lx, const char *s, size_t n)
{
    lex_str_edit(lx);
    buf_put(lx, s, n);
}

bool lex_check_utf8(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n)
{
    size_t bad = utf8_check(s, n);
    if (bad == n) return true;
    if (lex_too_many(lx)) return false;
    struct src_loc at = loc_at(loc, s, bad);
    diag_error(lx->d, &at, "invalid UTF-8 byte 0x%02X", (unsigned char)s[bad]);
    return false;
}

void lex_xml_unsafe(struct lex_state *lx)
{
    ((struct source *)lx->src)->xml = SRC_XML_UNSAFE;
}

void lex_buf_add_utf8(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n)
{
    if (lex_check_utf8(lx, loc, s, n)) {
        /* U+FFFE and U+FFFF are UTF-8 but not XML 1.0. */
        size_t at;
        unsigned cp;
        if (xml_forbidden(s, n, &at, &cp))
            lex_xml_unsafe(lx);
        lex_str_text(lx, s, n);
        return;
    }
    /* Reported once for the run; the text keeps a replacement character per bad byte. */
    size_t i = 0;
    while (i < n) {
        size_t ok = utf8_check(s + i, n - i);
        lex_buf_add(lx, s + i, ok);
        i += ok;
        if (i < n) {
            lex_buf_add(lx, "\xEF\xBF\xBD", 3);
            i++;
        }
    }
}

static void add_code_point(struct lex_state *lx, unsigned long cp)
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
    lex_buf_add(lx, b, n);
}

void lex_escape_u(struct lex_state *lx, const struct src_loc *loc, const char *s, size_t n)
{
    /* s is \u{HEX}: the digits sit between s + 3 and the closing brace. */
    unsigned long cp = strtoul(s + 3, NULL, 16);
    lex_str_edit(lx);
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        diag_error(lx->d, loc, "'%.*s' is not a Unicode character", (int)n, s);
        return;
    }
    if (xml_forbidden_cp((unsigned)cp))
        lex_xml_unsafe(lx);
    add_code_point(lx, cp);
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
static char *dedent(struct arena *ar, const char *s, size_t n)
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

    char *out = arena_alloc(ar, n + 1);
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

char *lex_take_string(struct lex_state *lx, bool triple, bool closed)
{
    if (lx->verbatim && closed && lx->tok_off < lx->src->nul_free) {
        /* The quote just matched (at tok_off) ends the value in place; the scanner has read past it. */
        char *r = lx->src->text + lx->str_start;
        lx->src->text[lx->tok_off] = '\0';
        lx->verbatim = false;
        return r;
    }
    if (!triple && closed && lx->simple && lx->tok_off < lx->src->nul_free) {
        /*
         * Only \" and \\ escapes: the value is shorter than the literal.  It
         * goes where the literal starts, then its NUL, then a quote for each
         * byte up to the closing quote, so that every line and column past it
         * stays where it was; src_restore gives the literal back.
         */
        struct source *src = (struct source *)lx->src;
        char *r = src->text + lx->str_start;
        memcpy(r, lx->buf, lx->blen);
        r[lx->blen] = '\0';
        memset(r + lx->blen + 1, '"', lx->tok_off - lx->str_start - lx->blen);
        src_note_edit(src, lx->str_start, lx->tok_off + 1);
        lx->blen = 0;
        lx->simple = false;
        return r;
    }
    lex_str_edit(lx);
    const char *s = lx->buf ? lx->buf : "";
    char *r = triple ? dedent(lx->arena, s, lx->blen) : arena_strndup(lx->arena, s, lx->blen);
    lx->blen = 0;
    return r;
}
