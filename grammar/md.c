/*
 * md.c — the Markdown subset of .qz text, parsed into structure:
 *
 *   paragraphs      separated by blank lines; a single line break inside one
 *                   is kept as MD_BREAK
 *   ```info         a fenced code block, lines verbatim, up to a closing ```
 *   `code`          inline code (a run of n backticks closes with n backticks)
 *   **strong**      *emphasis*
 *   ![alt](path)    an image: a PNG, JPEG or SVG file, path relative to the quiz
 *   \( TeX \)       inline math, \[ TeX \] displayed; both end on the line they start
 *
 * A marker without its partner, or whose content starts or ends with a space
 * (2 * 3 * 4), is literal text.  Spans do not nest: the output is meant to be
 * escaped and written, never passed through as HTML.
 */
#include <stdint.h>
#include <string.h>

#include "ast.h"

static bool blank_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
    return true;
}

/* A fence line: optional indentation, then ```; *rest is what follows. */
static bool fence(const char *s, size_t n, const char **rest, size_t *rn)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (n - i < 3 || strncmp(s + i, "```", 3)) return false;
    *rest = s + i + 3;
    *rn = n - i - 3;
    return true;
}

static bool space(char c)
{
    return c == ' ' || c == '\t';
}

/* s[0..n) and a NUL in the doc's pool, which md_parse sized for every copy of the text. */
static const char *pool_copy(struct md_doc *d, const char *s, size_t n)
{
    char *p = d->pool + d->pool_n;
    memcpy(p, s, n);
    p[n] = '\0';
    d->pool_n += n + 1;
    return p;
}

/* A new block at the end of the doc, reusing the span vector of a block parsed before. */
static struct md_block *add_block(struct md_doc *d, enum md_block_kind k)
{
    if (d->blocks.n == d->kept) {
        struct md_block fresh = { 0 };
        VEC_PUSH(d->blocks, fresh);
        d->kept++;
    } else {
        d->blocks.n++;
    }
    struct md_block *b = &d->blocks.items[d->blocks.n - 1];
    b->kind = k;
    b->spans.n = 0;
    b->info = b->code = NULL;
    return b;
}

static void add_span(struct md_doc *d, struct md_block *b, enum md_span_kind k, const char *s, size_t n)
{
    if (k == MD_PLAIN && n == 0) return;
    struct md_span *last = b->spans.n ? &b->spans.items[b->spans.n - 1] : NULL;
    if (k == MD_PLAIN && last && last->kind == MD_PLAIN &&
        last->text + strlen(last->text) + 1 == d->pool + d->pool_n) {
        /* Plain text after plain text: one span, the copy extended in place. */
        d->pool_n--;
        pool_copy(d, s, n);
        return;
    }
    struct md_span sp = { .kind = k, .text = k == MD_BREAK ? NULL : pool_copy(d, s, n) };
    VEC_PUSH(b->spans, sp);
}

/* An image span: path and alt text, each copied into the pool. */
static void add_image(struct md_doc *d, struct md_block *b, const char *alt, size_t an, const char *path,
                      size_t pn)
{
    struct md_span sp = { .kind = MD_IMAGE, .alt = pool_copy(d, alt, an) };
    sp.text = pool_copy(d, path, pn);
    VEC_PUSH(b->spans, sp);
}

/* Where s[from..n) holds the two characters close, or 0. */
static size_t find2(const char *s, size_t n, size_t from, const char *close)
{
    for (size_t j = from; j + 1 < n; j++)
        if (s[j] == close[0] && s[j + 1] == close[1]) return j;
    return 0;
}

/*
 * ![alt](path) at s[i]: its length, with the alt text and the path; 0 if
 * the text there is not one (then it is literal).  The alt text holds no
 * ']', the path neither ')' nor a space.
 */
static size_t image_at(const char *s, size_t n, size_t i, size_t *alt_end, size_t *path, size_t *path_end)
{
    if (i + 1 >= n || s[i + 1] != '[') return 0;
    size_t j = i + 2;
    while (j < n && s[j] != ']') j++;
    if (j + 1 >= n || s[j + 1] != '(') return 0;
    *alt_end = j;
    *path = j + 2;
    size_t k = j + 2;
    while (k < n && s[k] != ')' && !space(s[k])) k++;
    if (k >= n || s[k] != ')' || k == *path) return 0;
    *path_end = k;
    return k + 1 - i;
}


/*
 * The end of the delimiter `mark` (length m) closing a span that opens at
 * s[from]; 0 if none.  Whether a delimiter closes does not depend on where
 * the span opened, so once a search from *none_from found nothing, no later
 * opener can find anything: remembering that keeps a line of many unclosed
 * '*' linear instead of quadratic.
 */
static size_t closing(const char *s, size_t n, size_t from, const char *mark, size_t m,
                      size_t *none_from)
{
    if (from >= n || space(s[from]) || from >= *none_from) return 0;
    for (size_t j = from + 1; j + m <= n; j++) {
        if (strncmp(s + j, mark, m)) continue;
        if (m == 1 && j + 1 < n && s[j + 1] == '*') { j++; continue; }   /* ** is not a closing * */
        if (space(s[j - 1])) continue;
        return j;
    }
    *none_from = from;
    return 0;
}

/* One line of a paragraph into spans. */
static void inline_line(struct md_doc *d, struct md_block *b, const char *s, size_t n)
{
    size_t plain = 0, i = 0;
    size_t none_from[2] = { SIZE_MAX, SIZE_MAX };  /* closing()'s memory, for * and ** */
    while (i < n) {
        if (s[i] == '`') {
            size_t run = 0;
            while (i + run < n && s[i + run] == '`') run++;
            size_t j = i + run, close = 0;
            while (j < n) {
                if (s[j] != '`') { j++; continue; }
                size_t r = 0;
                while (j + r < n && s[j + r] == '`') r++;
                if (r == run) { close = j; break; }
                j += r;
            }
            if (close > i + run) {
                add_span(d, b, MD_PLAIN, s + plain, i - plain);
                add_span(d, b, MD_CODE, s + i + run, close - i - run);
                i = plain = close + run;
            } else {
                i += run;
            }
            continue;
        }
        if (s[i] == '*') {
            bool strong = i + 1 < n && s[i + 1] == '*';
            size_t m = strong ? 2 : 1;
            size_t close = closing(s, n, i + m, strong ? "**" : "*", m, &none_from[m - 1]);
            if (close) {
                add_span(d, b, MD_PLAIN, s + plain, i - plain);
                add_span(d, b, strong ? MD_STRONG : MD_EM, s + i + m, close - i - m);
                i = plain = close + m;
            } else {
                i += m;
            }
            continue;
        }
        size_t alt_end, path, path_end, len;
        if (s[i] == '!' && (len = image_at(s, n, i, &alt_end, &path, &path_end))) {
            add_span(d, b, MD_PLAIN, s + plain, i - plain);
            add_image(d, b, s + i + 2, alt_end - i - 2, s + path, path_end - path);
            i = plain = i + len;
            continue;
        }
        if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '(' || s[i + 1] == '[')) {
            bool display = s[i + 1] == '[';
            size_t close = find2(s, n, i + 2, display ? "\\]" : "\\)");
            if (close) {
                add_span(d, b, MD_PLAIN, s + plain, i - plain);
                add_span(d, b, display ? MD_DMATH : MD_MATH, s + i + 2, close - i - 2);
                i = plain = close + 2;
                continue;
            }
        }
        /* On to the next marker; the line ends at a line break or at the text's NUL. */
        i += 1 + strcspn(s + i + 1, "`*\n!\\");
        if (i > n) i = n;
    }
    add_span(d, b, MD_PLAIN, s + plain, n - plain);
}

void md_parse(const char *raw, struct md_doc *d)
{
    d->blocks.n = 0;
    d->pool_n = 0;
    if (!raw) return;
    /*
     * Most texts are one line with no marker at all: one paragraph of one
     * plain span.  One strcspn finds that out, instead of the loops below
     * looking at every byte three times.
     */
    size_t n = strcspn(raw, "\n`*!\\"), i = 0;
    if (raw[n] == '\0') {
        if (!blank_line(raw, n)) {
            /* The span is raw itself: no copy of the text a second time. */
            struct md_span sp = { .kind = MD_PLAIN, .text = raw };
            struct md_block *b = add_block(d, MD_PARAGRAPH);
            VEC_PUSH(b->spans, sp);
        }
        return;
    }
    n += strlen(raw + n);
    /*
     * Every copy is a piece of raw and its NUL, and the pieces do not
     * overlap but for a code block's info word: 2n + 2 bytes always do.
     */
    if (d->pool_cap < 2 * n + 2) {
        free(d->pool);
        d->pool_cap = 2 * n + 2;
        d->pool = xmalloc(d->pool_cap);
    }
    struct md_block *para = NULL;
    /* No closing fence at or after this offset (a closing fence does not depend on its opener). */
    size_t no_fence_from = SIZE_MAX;
    while (i < n) {
        const char *lf = memchr(raw + i, '\n', n - i);
        size_t e = lf ? (size_t)(lf - raw) : n;
        const char *line = raw + i;
        size_t len = e - i;
        size_t next = e < n ? e + 1 : e;
        const char *info;
        size_t infolen;

        if (blank_line(line, len)) {
            para = NULL;
            i = next;
            continue;
        }
        if (fence(line, len, &info, &infolen) && next < no_fence_from) {
            /* Look for the closing fence; without one the line is plain text. */
            size_t j = next, body = next, end = 0;
            bool found = false;
            while (j < n) {
                size_t f = j;
                while (f < n && raw[f] != '\n') f++;
                const char *r;
                size_t rn;
                if (fence(raw + j, f - j, &r, &rn) && blank_line(r, rn)) {
                    end = j;
                    found = true;
                    next = f < n ? f + 1 : f;
                    break;
                }
                j = f < n ? f + 1 : f;
            }
            if (!found)
                no_fence_from = next;
            if (found) {
                while (infolen && space(*info)) { info++; infolen--; }
                size_t w = 0;
                while (w < infolen && !space(info[w]) && info[w] != '\r') w++;
                struct md_block *b = add_block(d, MD_CODEBLOCK);
                b->info = w ? pool_copy(d, info, w) : NULL;
                size_t clen = end > body ? end - body - 1 : 0;   /* without the last line break */
                b->code = pool_copy(d, raw + body, clen);
                para = NULL;
                i = next;
                continue;
            }
        }
        if (!para) {
            para = add_block(d, MD_PARAGRAPH);
        } else {
            add_span(d, para, MD_BREAK, NULL, 0);
        }
        inline_line(d, para, line, len);
        i = next;
    }
}
