/*
 * libxml/xmlwriter.h (web build) — the part of libxml2's xmlTextWriter the
 * timeline picture uses (report_svg.c), for the WebAssembly module: Debian
 * packages libxml2 only as a native library.  Same names and meanings, so
 * report_svg.c compiles unchanged; xmlwriter_web.c implements them.
 */
#ifndef RT_WEB_XMLWRITER_H
#define RT_WEB_XMLWRITER_H

typedef unsigned char xmlChar;
#define BAD_CAST (const xmlChar *)

typedef struct xmlBuffer xmlBuffer;
typedef xmlBuffer *xmlBufferPtr;
typedef struct xmlTextWriter xmlTextWriter;
typedef xmlTextWriter *xmlTextWriterPtr;

xmlBufferPtr xmlBufferCreate(void);
const xmlChar *xmlBufferContent(const xmlBuffer *buf);
int xmlBufferLength(const xmlBuffer *buf);
void xmlBufferFree(xmlBufferPtr buf);

xmlTextWriterPtr xmlNewTextWriterMemory(xmlBufferPtr buf, int compression);
void xmlFreeTextWriter(xmlTextWriterPtr w);
int xmlTextWriterSetIndent(xmlTextWriterPtr w, int indent);
int xmlTextWriterStartDocument(xmlTextWriterPtr w, const char *version, const char *encoding,
                               const char *standalone);
int xmlTextWriterEndDocument(xmlTextWriterPtr w);
int xmlTextWriterStartElement(xmlTextWriterPtr w, const xmlChar *name);
int xmlTextWriterEndElement(xmlTextWriterPtr w);
int xmlTextWriterWriteAttribute(xmlTextWriterPtr w, const xmlChar *name, const xmlChar *value);
int xmlTextWriterWriteString(xmlTextWriterPtr w, const xmlChar *text);

#endif
