/*
 * xw.c — the XML writer of xw.h, writing its bytes itself.  A document is a
 * stream of small pieces (a tag, an attribute, a translation's text); they
 * go into one fixed buffer, which goes to the caller's write function when
 * full and at the end, so the cost of a piece is the copy of its bytes.
 *
 * The layout rules are xmlTextWriter's with indentation on: an element
 * starts on a line of its own, indented two spaces per level; its start tag
 * is closed by its first child (then a newline) or its first text (no
 * newline); an element with no content is <name/>; an end tag is indented
 * only when the element's last content was an element; every tag ends its
 * line.  Inside mixed content (xw_mixed) nothing is indented or broken.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "xw.h"

/*
 * As large as the pieces quizc writes to its output file (main.c), which
 * takes a full buffer as it is, without copying it again.
 */
enum { XW_BUF = 1 << 20 };

struct level {
    const char *name;
    size_t len;                 /* strlen(name) */
    bool open;                  /* its start tag still waits for its '>' */
    bool mixed;                 /* xw_mixed was called on it */
};

struct xw {
    emit_write_fn write;
    void *ctx;
    bool indent;
    bool doindent;              /* the next end tag goes on an indented line */
    int mixed;                  /* open elements in mixed content (no layout) */
    bool failed;
    struct level *stack;
    size_t depth, cap;
    size_t n;
    char buf[XW_BUF];
};

struct xw *xw_new(emit_write_fn write, void *ctx, bool indent)
{
    /*
     * Field by field: a compound literal would zero the buffer too, touching
     * every page of it (256 page faults, most of a small document's cost).
     */
    struct xw *w = xmalloc(sizeof *w);
    w->write = write;
    w->ctx = ctx;
    w->indent = indent;
    w->doindent = true;
    w->mixed = 0;
    w->failed = false;
    w->stack = NULL;
    w->depth = w->cap = 0;
    w->n = 0;
    return w;
}

static void flush(struct xw *w)
{
    if (w->n && !w->failed && w->write(w->ctx, w->buf, (int)w->n) != (int)w->n)
        w->failed = true;
    w->n = 0;
}

/* put when the buffer has no room for the piece: flush, and send a piece bigger than the buffer on. */
static void put_slow(struct xw *w, const char *p, size_t len)
{
    if (w->failed)
        return;
    flush(w);
    /* A piece bigger than the buffer goes straight out, in pieces the write function can take. */
    while (len > sizeof w->buf && !w->failed) {
        if (w->write(w->ctx, p, XW_BUF) != XW_BUF)
            w->failed = true;
        p += XW_BUF;
        len -= XW_BUF;
    }
    if (w->failed)
        return;
    memcpy(w->buf, p, len);
    w->n = len;
}

/*
 * The bytes of a piece into the buffer.  Inline, so that the many pieces of
 * a known small size (">", "</", a newline) are a store, not a call.  After
 * a failed write bytes still go into the buffer, which is never sent again.
 */
static inline void put(struct xw *w, const char *p, size_t len)
{
    if (len <= sizeof w->buf - w->n) {
        memcpy(w->buf + w->n, p, len);
        w->n += len;
    } else {
        put_slow(w, p, len);
    }
}

static inline void put_char(struct xw *w, char c)
{
    if (w->n < sizeof w->buf)
        w->buf[w->n++] = c;
    else
        put_slow(w, &c, 1);
}

static void puts_(struct xw *w, const char *s)
{
    put(w, s, strlen(s));
}

static bool layout(const struct xw *w)
{
    return w->indent && w->mixed == 0;
}

static void indent(struct xw *w, size_t levels)
{
    static const char spaces[] = "                                                                ";
    while (levels > 0) {
        size_t k = levels * 2 < sizeof spaces - 1 ? levels * 2 : sizeof spaces - 1;
        put(w, spaces, k);
        levels -= k / 2;
    }
}

/* Close the top element's start tag, if open, because content follows: a newline only before an element. */
static void close_start(struct xw *w, bool element_follows)
{
    if (w->depth == 0 || !w->stack[w->depth - 1].open)
        return;
    w->stack[w->depth - 1].open = false;
    put_char(w, '>');
    if (element_follows && layout(w))
        put_char(w, '\n');
}

void xw_declaration(struct xw *w)
{
    puts_(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
}

void xw_start(struct xw *w, const char *name)
{
    close_start(w, true);
    if (w->depth == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        w->stack = xrealloc(w->stack, w->cap * sizeof *w->stack);
    }
    size_t len = strlen(name);
    w->stack[w->depth++] = (struct level){ .name = name, .len = len, .open = true };
    if (layout(w))
        indent(w, w->depth - 1);
    put_char(w, '<');
    put(w, name, len);
}

/* s with the characters of set (all ASCII) written as the references of ref. */
static void escaped(struct xw *w, const char *s, const char *set)
{
    for (;;) {
        size_t k = strcspn(s, set);
        put(w, s, k);
        s += k;
        switch (*s) {
        case '\0': return;
        case '&': put(w, "&amp;", 5); break;
        case '<': put(w, "&lt;", 4); break;
        case '>': put(w, "&gt;", 4); break;
        case '"': put(w, "&quot;", 6); break;
        case '\r': put(w, "&#13;", 5); break;
        case '\n': put(w, "&#10;", 5); break;
        default: put(w, "&#9;", 4); break;     /* tab */
        }
        s++;
    }
}

void xw_attr(struct xw *w, const char *name, const char *value)
{
    if (w->depth == 0 || !w->stack[w->depth - 1].open) {
        w->failed = true;       /* an attribute after content: a bug in the caller, never valid output */
        return;
    }
    put_char(w, ' ');
    puts_(w, name);
    put(w, "=\"", 2);
    escaped(w, value, "&<>\"\r\n\t");
    put_char(w, '"');
}

void xw_text(struct xw *w, const char *s)
{
    close_start(w, false);
    if (layout(w))
        w->doindent = false;
    escaped(w, s, "&<>\"\r");
}

void xw_raw(struct xw *w, const char *s)
{
    close_start(w, false);
    if (layout(w))
        w->doindent = false;
    puts_(w, s);
}

void xw_cdata(struct xw *w, const char *s)
{
    close_start(w, false);
    if (layout(w))
        w->doindent = false;
    put(w, "<![CDATA[", 9);
    /* "]]>" would end the section: end it after "]]" and open another for ">". */
    for (const char *p; (p = strstr(s, "]]>")) != NULL; s = p + 2) {
        put(w, s, (size_t)(p + 2 - s));
        put(w, "]]><![CDATA[", 12);
    }
    puts_(w, s);
    put(w, "]]>", 3);
}

void xw_comment(struct xw *w, const char *text)
{
    if (w->depth > 0) {
        w->failed = true;       /* only the document's own comment is written */
        return;
    }
    put(w, "<!--", 4);
    puts_(w, text);
    put(w, "-->", 3);
    if (w->indent)
        put_char(w, '\n');
}

void xw_mixed(struct xw *w)
{
    close_start(w, false);
    if (w->indent)
        w->doindent = false;
    if (w->depth > 0 && !w->stack[w->depth - 1].mixed) {
        w->stack[w->depth - 1].mixed = true;
        w->mixed++;
    }
}

void xw_end(struct xw *w)
{
    if (w->depth == 0) {
        w->failed = true;
        return;
    }
    struct level *top = &w->stack[w->depth - 1];
    if (top->mixed)
        w->mixed--;
    bool lay = layout(w);
    if (top->open) {
        put(w, "/>", 2);
        if (lay)
            w->doindent = true;
    } else {
        if (lay && w->doindent)
            indent(w, w->depth - 1);
        if (lay)
            w->doindent = true;
        put(w, "</", 2);
        put(w, top->name, top->len);
        put_char(w, '>');
    }
    if (lay)
        put_char(w, '\n');
    w->depth--;
}

void xw_element(struct xw *w, const char *name, const char *text)
{
    xw_start(w, name);
    xw_text(w, text);
    xw_end(w);
}

int xw_finish(struct xw *w)
{
    while (w->depth > 0 && !w->failed)
        xw_end(w);
    if (!w->indent)
        put_char(w, '\n');
    flush(w);
    return w->failed ? -1 : 0;
}

void xw_free(struct xw *w)
{
    if (!w)
        return;
    free(w->stack);
    free(w);
}
