/*
 * xw_libxml.c — xw.h over libxml2's xmlTextWriter, as quizc's XML was
 * written before xw.c.  Not part of quizc: the tests link it into a second
 * quizc and hold xw.c's bytes against it on every test quiz, in every
 * format (tests/compiler/xw_same.sh).
 * Mixed content goes through a writer of its own, indentation off, whose
 * output is spliced in whole when its element ends.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "util.h"
#include "xw.h"

struct xw {
    xmlTextWriterPtr out;
    xmlTextWriterPtr inner;     /* the mixed content's writer, while one is open */
    xmlBufferPtr inner_buf;
    size_t depth, mixed_at;     /* depth of the element whose content is mixed; 0: none */
};

struct xw *xw_new(emit_write_fn write, void *ctx, bool indent)
{
    struct xw *w = xmalloc(sizeof *w);
    *w = (struct xw){ .out = xmlNewTextWriter(xmlOutputBufferCreateIO(write, NULL, ctx, NULL)) };
    xmlTextWriterSetIndent(w->out, indent);
    xmlTextWriterSetIndentString(w->out, BAD_CAST "  ");
    return w;
}

static xmlTextWriterPtr cur(struct xw *w)
{
    return w->inner ? w->inner : w->out;
}

void xw_declaration(struct xw *w)
{
    xmlTextWriterStartDocument(w->out, "1.0", "UTF-8", NULL);
}

void xw_start(struct xw *w, const char *name)
{
    xmlTextWriterStartElement(cur(w), BAD_CAST name);
    w->depth++;
}

void xw_attr(struct xw *w, const char *name, const char *value)
{
    xmlTextWriterWriteAttribute(cur(w), BAD_CAST name, BAD_CAST value);
}

void xw_text(struct xw *w, const char *s)
{
    xmlTextWriterWriteString(cur(w), BAD_CAST s);
}

void xw_raw(struct xw *w, const char *s)
{
    xmlTextWriterWriteRaw(cur(w), BAD_CAST s);
}

void xw_cdata(struct xw *w, const char *s)
{
    /* libxml2's CDATA writer leaves a "]]>" in s as it is: split it as xw.c does. */
    xmlTextWriterStartCDATA(cur(w));
    for (const char *p; (p = strstr(s, "]]>")) != NULL; s = p + 2) {
        xmlTextWriterWriteFormatRaw(cur(w), "%.*s", (int)(p + 2 - s), s);
        xmlTextWriterEndCDATA(cur(w));
        xmlTextWriterStartCDATA(cur(w));
    }
    xmlTextWriterWriteRaw(cur(w), BAD_CAST s);
    xmlTextWriterEndCDATA(cur(w));
}

void xw_comment(struct xw *w, const char *text)
{
    xmlTextWriterWriteComment(w->out, BAD_CAST text);
}

void xw_mixed(struct xw *w)
{
    if (w->inner)
        return;
    w->inner_buf = xmlBufferCreate();
    w->inner = xmlNewTextWriterMemory(w->inner_buf, 0);
    w->mixed_at = w->depth;
}

void xw_end(struct xw *w)
{
    if (w->inner && w->depth == w->mixed_at) {
        xmlTextWriterFlush(w->inner);
        xmlTextWriterWriteRawLen(w->out, xmlBufferContent(w->inner_buf), xmlBufferLength(w->inner_buf));
        xmlFreeTextWriter(w->inner);
        xmlBufferFree(w->inner_buf);
        w->inner = NULL;
    }
    xmlTextWriterEndElement(cur(w));
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
    while (w->depth > 0)
        xw_end(w);
    return xmlTextWriterEndDocument(w->out) < 0 ? -1 : 0;
}

void xw_free(struct xw *w)
{
    if (!w)
        return;
    xmlFreeTextWriter(w->out);
    free(w);
}
