/*
 * loc.c — the space of positions every source has a place in, and lines
 * and columns of byte offsets, found when asked.
 */
#include "loc.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/*
 * Bytes at s (n of them) before the first one that is not ASCII or is a line
 * end.  Eight at a time: a column is most often asked of a long line of text.
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

size_t utf8_char_len(const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    if (c < 0x80) return 1;
    /* The lead byte says how long the character is; a continuation byte after it is not part of it. */
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    return len <= n && utf8_check(s, len) == len ? len : 0;
}

/* The table of line starts: line k (from 0) starts at lines[k]. */
static void make_lines(struct source *s)
{
    const char *t = s->text;
    size_t n = 1;
    for (size_t i = 0; i < s->len; i++)
        if (t[i] == '\n' || (t[i] == '\r' && !(i + 1 < s->len && t[i + 1] == '\n')))
            n++;
    uint32_t *lines = xmalloc(n * sizeof *lines);
    size_t k = 0;
    lines[k++] = 0;
    for (size_t i = 0; i < s->len; i++)
        if (t[i] == '\n' || (t[i] == '\r' && !(i + 1 < s->len && t[i + 1] == '\n')))
            lines[k++] = (uint32_t)(i + 1);
    s->lines = lines;
    s->nlines = n;
}

/* Line k (from 0) of s's table, made now if need be. */
static const uint32_t *lines_of(const struct source *cs)
{
    /* The table is a cache: making it changes nothing a reader of the source sees. */
    struct source *s = (struct source *)cs;
    if (!s->lines) make_lines(s);
    return s->lines;
}

/* Where the characters of the line holding off are counted from: its start, past a BOM on line 1. */
static size_t count_from(const struct source *s, size_t line0, size_t start, size_t off)
{
    if (line0 == 0 && s->len >= 3 && !memcmp(s->text, "\xEF\xBB\xBF", 3) && off >= 3)
        return 3;
    return start;
}

struct src_pos src_pos(const struct source *s, size_t off)
{
    const uint32_t *lines = lines_of(s);
    if (off > s->len) off = s->len;
    size_t lo = 0, hi = s->nlines;      /* the last line start <= off is in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (lines[mid] <= off) lo = mid;
        else hi = mid;
    }
    /* Counted in the line as written: literals decoded in place are escaped again (loc.h). */
    size_t from = count_from(s, lo, lines[lo], off);
    char *tmp;
    const char *t = src_view(s, from, off, &tmp);
    size_t i = 0, n = off - from;
    int col = 1;
    while (i < n) {
        size_t run = ascii_run(t + i, n - i);
        if (run) {
            i += run;
            col += (int)run;
            continue;
        }
        size_t len = t[i] == '\r' || t[i] == '\n' ? 1 : utf8_char_len(t + i, n - i);
        i += len ? len : 1;
        col++;
    }
    free(tmp);
    return (struct src_pos){ .line = (int)lo + 1, .col = col };
}

size_t src_offset(const struct source *s, int line, int col)
{
    const uint32_t *lines = lines_of(s);
    size_t k = line < 1 ? 0 : (size_t)line - 1;
    if (k >= s->nlines) return s->len;
    size_t end = k + 1 < s->nlines ? lines[k + 1] : s->len;
    size_t from = count_from(s, k, lines[k], end), i = 0, n = end - from;
    char *tmp;
    const char *t = src_view(s, from, end, &tmp);
    for (int c = 1; c < col && i < n && t[i] != '\n' && t[i] != '\r'; c++) {
        size_t len = utf8_char_len(t + i, n - i);
        i += len ? len : 1;
    }
    free(tmp);
    return from + i;
}

void src_lines_free(struct source *s)
{
    free(s->lines);
    s->lines = NULL;
    s->nlines = 0;
}

static size_t edit_after(const struct source *s, size_t a);

const char *src_view(const struct source *s, size_t a, size_t b, char **tmp)
{
    *tmp = NULL;
    /* No literal decoded in place within [a, b): the text as it lies, no copy. */
    size_t k = edit_after(s, a);
    if (k == s->nedits || s->edits[k][0] >= b) return s->text + a;
    *tmp = xmalloc(b - a + 1);
    src_restore(s, a, b, *tmp);
    (*tmp)[b - a] = '\0';
    return *tmp;
}

void src_note_edit(struct source *s, size_t from, size_t to)
{
    if (s->nedits == s->capedits) {
        s->capedits = s->capedits ? 2 * s->capedits : 64;
        s->edits = xrealloc(s->edits, s->capedits * sizeof *s->edits);
    }
    s->edits[s->nedits][0] = (uint32_t)from;
    s->edits[s->nedits][1] = (uint32_t)to;
    s->nedits++;
}

/* The first edit of s that ends past byte a (nedits when none does). */
static size_t edit_after(const struct source *s, size_t a)
{
    /* The parser asks about the bytes it has just read, past every edit but the latest, most often. */
    if (!s->nedits || s->edits[s->nedits - 1][1] <= a) return s->nedits;
    size_t lo = 0, hi = s->nedits - 1;
    if (s->nedits > 1 && s->edits[hi - 1][1] <= a) return hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->edits[mid][1] <= a) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void src_restore(const struct source *s, size_t a, size_t b, char *out)
{
    memcpy(out, s->text + a, b - a);
    for (size_t k = edit_after(s, a); k < s->nedits && s->edits[k][0] < b; k++) {
        size_t at = s->edits[k][0];
        /* The value, escaped again, and its closing quote: as long as the literal was. */
        for (const char *v = s->text + at;; v++) {
            bool esc = *v == '"' || *v == '\\';
            char put[2] = { esc ? '\\' : *v ? *v : '"', *v };
            for (int i = 0; i < 1 + esc; i++, at++)
                if (at >= a && at < b) out[at - a] = put[i];
            if (!*v || at >= b) break;
        }
    }
}

uint32_t loc_last(const struct src_loc *l)
{
    const struct source *s = loc_src(l);
    if (!s) return l->from;
    const unsigned char *t = (const unsigned char *)s->text;
    size_t off = src_off(s, l->from), end = src_off(s, l->to);
    while (end > off && (t[end - 1] == '\n' || t[end - 1] == '\r'))
        end--;
    if (end == off)
        return l->from;
    size_t k = edit_after(s, end - 1);
    if (k < s->nedits && s->edits[k][0] < end) {
        /* Ending inside a literal decoded in place: its last bytes as written (line breaks never move, loc.h). */
        char win[4];
        size_t a = end - off > 4 ? end - 4 : off, n = end - a, j = n - 1;
        src_restore(s, a, end, win);
        while (j > 0 && n - j < 4 && (win[j] & 0xC0) == 0x80)
            j--;
        return s->base + (uint32_t)(a + (utf8_char_len(win + j, n - j) == n - j ? j : n - 1));
    }
    /*
     * Backward, with the scanner's count: every byte that is not a
     * continuation byte starts a character, and the last character is the
     * one from there to the end when that is valid UTF-8, else the last byte
     * alone.  O(1): the parser asks this of every empty rule.
     */
    size_t j = end - 1;
    while (j > off && end - j < 4 && (t[j] & 0xC0) == 0x80)
        j--;
    size_t last = utf8_char_len((const char *)t + j, end - j) == end - j ? j : end - 1;
    return s->base + (uint32_t)last;
}

struct src_pos loc_start(const struct src_loc *l)
{
    const struct source *s = loc_src(l);
    if (!s) return (struct src_pos){ 0, 0 };
    return src_pos(s, src_off(s, l->from));
}

struct src_pos loc_end(const struct src_loc *l)
{
    const struct source *s = loc_src(l);
    if (!s) return (struct src_pos){ 0, 0 };
    return src_pos(s, src_off(s, loc_last(l)));
}

/* ---- The space of positions ---------------------------------------------- */

/* The sources entered and not left, by base (each is entered after the ones before it). */
static struct {
    const struct source **v;
    size_t n, cap;
    uint32_t next;          /* the base of the next source; 0 before the first */
} space;

bool src_enter(struct source *s)
{
    if (space.n == 0)
        space.next = 1;     /* position 0 is no location */
    if ((uint64_t)space.next + s->len + 1 > UINT32_MAX)
        return false;
    if (space.n == space.cap) {
        space.cap = space.cap ? 2 * space.cap : 8;
        space.v = xrealloc(space.v, space.cap * sizeof *space.v);
    }
    s->base = space.next;
    space.next += (uint32_t)s->len + 1;     /* its end, where an empty span may stand, is its own */
    space.v[space.n++] = s;
    return true;
}

void src_leave(const struct source *s)
{
    for (size_t i = space.n; i-- > 0;)
        if (space.v[i] == s) {
            memmove(space.v + i, space.v + i + 1, (space.n - i - 1) * sizeof *space.v);
            space.n--;
            break;
        }
    if (space.n == 0) {
        free(space.v);
        space.v = NULL;
        space.cap = 0;
    }
}

const struct source *src_at(uint32_t pos)
{
    if (pos == 0) return NULL;
    /* The last source whose base is at or below the position; most quizzes have one. */
    size_t lo = 0, hi = space.n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (space.v[mid]->base <= pos) lo = mid;
        else hi = mid;
    }
    const struct source *s = space.n ? space.v[lo] : NULL;
    return s && s->base <= pos && pos <= s->base + s->len ? s : NULL;
}
