/*
 * xmlwriter_web.c — the XML writer behind the web build's libxml/xmlwriter.h:
 * elements, attributes and text, escaped as libxml2 escapes them, into a
 * growing buffer.  Elements without content close as <name/>.
 */
#include <libxml/xmlwriter.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct xmlBuffer {
    char *s;
    size_t n, cap;
};

struct xmlTextWriter {
    xmlBufferPtr out;
    char **open;            /* names of the open elements */
    size_t depth, cap;
    bool in_tag;            /* the last start tag is not closed with '>' yet */
    bool indent;
    bool had_child;         /* the current element holds an element (indent its end tag) */
};

static void put(xmlBufferPtr b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        while (b->n + n + 1 > b->cap)
            b->cap = b->cap ? 2 * b->cap : 1024;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void puts_(xmlBufferPtr b, const char *s) { put(b, s, strlen(s)); }

/* s escaped for text (quote false) or an attribute value (quote true). */
static void escaped(xmlBufferPtr b, const char *s, bool quote)
{
    for (; *s; s++)
        switch (*s) {
        case '<': puts_(b, "&lt;"); break;
        case '>': puts_(b, "&gt;"); break;
        case '&': puts_(b, "&amp;"); break;
        case '"':
            if (quote) {
                puts_(b, "&quot;");
                break;
            }
            /* fall through */
        default: put(b, s, 1);
        }
}

xmlBufferPtr xmlBufferCreate(void) { return xcalloc(1, sizeof(xmlBuffer)); }
const xmlChar *xmlBufferContent(const xmlBuffer *b) { return (const xmlChar *)(b->s ? b->s : ""); }
int xmlBufferLength(const xmlBuffer *b) { return (int)b->n; }

void xmlBufferFree(xmlBufferPtr b)
{
    if (b)
        free(b->s);
    free(b);
}

xmlTextWriterPtr xmlNewTextWriterMemory(xmlBufferPtr buf, int compression)
{
    xmlTextWriterPtr w = xcalloc(1, sizeof *w);
    w->out = buf;
    return w;
}

void xmlFreeTextWriter(xmlTextWriterPtr w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->depth; i++)
        free(w->open[i]);
    free(w->open);
    free(w);
}

int xmlTextWriterSetIndent(xmlTextWriterPtr w, int indent)
{
    w->indent = indent != 0;
    return 0;
}

int xmlTextWriterStartDocument(xmlTextWriterPtr w, const char *version, const char *encoding,
                               const char *standalone)
{
    puts_(w->out, "<?xml version=\"1.0\" encoding=\"");
    puts_(w->out, encoding ? encoding : "UTF-8");
    puts_(w->out, "\"?>\n");
    return 0;
}

static void close_tag(xmlTextWriterPtr w)
{
    if (w->in_tag)
        puts_(w->out, ">");
    w->in_tag = false;
}

static void newline(xmlTextWriterPtr w, size_t depth)
{
    if (!w->indent)
        return;
    puts_(w->out, "\n");
    for (size_t i = 0; i < depth; i++)
        puts_(w->out, " ");
}

int xmlTextWriterStartElement(xmlTextWriterPtr w, const xmlChar *name)
{
    close_tag(w);
    if (w->depth)
        newline(w, w->depth);
    if (w->depth == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        w->open = xrealloc(w->open, w->cap * sizeof *w->open);
    }
    w->open[w->depth++] = xstrdup((const char *)name);
    puts_(w->out, "<");
    puts_(w->out, (const char *)name);
    w->in_tag = true;
    w->had_child = false;
    return 0;
}

int xmlTextWriterWriteAttribute(xmlTextWriterPtr w, const xmlChar *name, const xmlChar *value)
{
    if (!w->in_tag)
        return -1;
    puts_(w->out, " ");
    puts_(w->out, (const char *)name);
    puts_(w->out, "=\"");
    escaped(w->out, (const char *)value, true);
    puts_(w->out, "\"");
    return 0;
}

int xmlTextWriterWriteString(xmlTextWriterPtr w, const xmlChar *text)
{
    close_tag(w);
    escaped(w->out, (const char *)text, false);
    return 0;
}

int xmlTextWriterEndElement(xmlTextWriterPtr w)
{
    if (!w->depth)
        return -1;
    char *name = w->open[--w->depth];
    if (w->in_tag) {
        puts_(w->out, "/>");
        w->in_tag = false;
    } else {
        if (w->had_child)
            newline(w, w->depth);
        puts_(w->out, "</");
        puts_(w->out, name);
        puts_(w->out, ">");
    }
    free(name);
    w->had_child = true;
    return 0;
}

int xmlTextWriterEndDocument(xmlTextWriterPtr w)
{
    while (w->depth)
        xmlTextWriterEndElement(w);
    puts_(w->out, "\n");
    return 0;
}
