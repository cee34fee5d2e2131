/*
 * xw.h — a small streaming XML writer: elements, attributes, escaped text,
 * two-space indentation.  Its bytes are those libxml2's xmlTextWriter writes
 * for the same calls (indentation on, a UTF-8 document: characters beyond
 * ASCII are written as they are, in attributes too).  xw.c writes them
 * itself through one fixed buffer; xw_libxml.c is the same interface over
 * xmlTextWriter, and the tests hold the two byte for byte on every document
 * quizc writes (course, SCORM manifest, Moodle XML, QTI).  So quizc loads no
 * libxml2: with ICU and libstdc++ it was a third of quizc's start-up.
 *
 * Every call after a failed write does nothing; xw_finish says so.
 */
#ifndef QZ_XW_H
#define QZ_XW_H

#include <stdbool.h>
#include <stddef.h>

#include "emit.h"

struct xw;

/* A writer to write(ctx, ...), indenting with two spaces when indent is set. */
struct xw *xw_new(emit_write_fn write, void *ctx, bool indent);

/* <?xml version="1.0" encoding="UTF-8"?> and a newline. */
void xw_declaration(struct xw *w);
/* name must stay valid until its xw_end (every caller passes a literal). */
void xw_start(struct xw *w, const char *name);
/* An attribute of the element just started (before any content), escaped (also LF, CR, tab). */
void xw_attr(struct xw *w, const char *name, const char *value);
/* Character data, escaped (& < > " and CR as references). */
void xw_text(struct xw *w, const char *s);
/* Markup the caller has made well-formed, written as it is where text would go. */
void xw_raw(struct xw *w, const char *s);
/*
 * s as one CDATA section where text would go (a "]]>" in s split across two
 * sections): a reader gets s whole, its white space included.  s holds no
 * character XML forbids.
 */
void xw_cdata(struct xw *w, const char *s);
/* <!--text--> at the top of the document (before its root element), on a line of its own. */
void xw_comment(struct xw *w, const char *text);
void xw_end(struct xw *w);
/* <name>text</name> */
void xw_element(struct xw *w, const char *name, const char *text);
/*
 * Mixed content: from xw_mixed until the element open at that moment ends,
 * nothing is indented, so text and inline elements keep their exact spacing.
 */
void xw_mixed(struct xw *w);

/* Close every open element, end the document and flush: 0, or -1 when a write failed. */
int xw_finish(struct xw *w);
void xw_free(struct xw *w);

#endif
