/*
 * manifest.c — imsmanifest.xml, the package description an LMS reads first,
 * written with libxml2's xmlTextWriter.
 *
 * SCORM 1.2 (IMS CP 1.1.2 + ADL CP 1.2) and SCORM 2004 4th Edition (IMS CP
 * 1.1.4 + ADL CP 1.3 + IMS Simple Sequencing).  One organization with one
 * item, launching one SCO (the player) whose resource lists every file.  The
 * mastery score comes from the quiz's `passing`: as adlcp:masteryscore (0-100)
 * in 1.2, as the primary objective's minNormalizedMeasure (0-1) in 2004.
 */
#include <libxml/xmlwriter.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scorm.h"

#define NS_CP12   "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
#define NS_ADL12  "http://www.adlnet.org/xsd/adlcp_rootv1p2"
#define NS_CP2004 "http://www.imsglobal.org/xsd/imscp_v1p1"
#define NS_ADL2004 "http://www.adlnet.org/xsd/adlcp_v1p3"
#define NS_SS     "http://www.imsglobal.org/xsd/imsss"
#define NS_XSI    "http://www.w3.org/2001/XMLSchema-instance"

/* The schema files an LMS may resolve the namespaces to (conventional names). */
static const char loc12[] =
    NS_CP12 " imscp_rootv1p1p2.xsd " NS_ADL12 " adlcp_rootv1p2.xsd";
static const char loc2004[] =
    NS_CP2004 " imscp_v1p1.xsd " NS_ADL2004 " adlcp_v1p3.xsd " NS_SS " imsss_v1p0.xsd";

/* A decimal without a trailing ".0" or binary noise: 75, 62.5, 0.625. */
static void fmt_num(char *buf, size_t n, double x)
{
    char num[FMT_NUMBER_MAX];
    snprintf(buf, n, "%s", fmt_number(num, x));
}

/* Write one element with text content; returns libxml2's status (<0 on failure). */
static int text_el(xmlTextWriterPtr w, const char *name, const char *text)
{
    return xmlTextWriterWriteElement(w, BAD_CAST name, BAD_CAST text);
}

/* XML identifiers (xsd:ID) are NCNames; quiz ids already are, prefixed with a letter. */
static char *ident(const char *prefix, const char *id)
{
    return xasprintf("%s-%s", prefix, id && *id ? id : "quiz");
}

static int write_manifest(xmlTextWriterPtr w, const struct qz_course *c, enum scorm_version v,
                          const char *const *files, size_t nfiles)
{
    const struct ast_quiz *q = c->quiz;
    const bool is12 = v == SCORM_12;
    char *title = scorm_plain_text(q->title, scorm_default_lang(q));
    char *mid = ident("quizc", q->id), *oid = ident("org", q->id);
    char *iid = ident("item", q->id), *rid = ident("sco", q->id);
    char num[64];
    int rc = 0;

#define W(call) do { if ((call) < 0) { rc = -1; goto out; } } while (0)
    W(xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL));
    W(xmlTextWriterStartElement(w, BAD_CAST "manifest"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "identifier", BAD_CAST mid));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST "1.0"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns", BAD_CAST (is12 ? NS_CP12 : NS_CP2004)));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns:adlcp", BAD_CAST (is12 ? NS_ADL12 : NS_ADL2004)));
    if (!is12)
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns:imsss", BAD_CAST NS_SS));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns:xsi", BAD_CAST NS_XSI));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "xsi:schemaLocation", BAD_CAST (is12 ? loc12 : loc2004)));

    W(xmlTextWriterStartElement(w, BAD_CAST "metadata"));
    W(text_el(w, "schema", "ADL SCORM"));
    W(text_el(w, "schemaversion", is12 ? "1.2" : "2004 4th Edition"));
    W(xmlTextWriterEndElement(w));

    W(xmlTextWriterStartElement(w, BAD_CAST "organizations"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "default", BAD_CAST oid));
    W(xmlTextWriterStartElement(w, BAD_CAST "organization"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "identifier", BAD_CAST oid));
    W(text_el(w, "title", title));
    W(xmlTextWriterStartElement(w, BAD_CAST "item"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "identifier", BAD_CAST iid));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "identifierref", BAD_CAST rid));
    W(text_el(w, "title", title));
    if (is12) {
        fmt_num(num, sizeof num, q->passing);
        W(text_el(w, "adlcp:masteryscore", num));
    } else {
        /* Success is decided by the score: satisfied when scaled >= passing/100. */
        fmt_num(num, sizeof num, q->passing / 100.0);
        W(xmlTextWriterStartElement(w, BAD_CAST "imsss:sequencing"));
        W(xmlTextWriterStartElement(w, BAD_CAST "imsss:objectives"));
        W(xmlTextWriterStartElement(w, BAD_CAST "imsss:primaryObjective"));
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "objectiveID", BAD_CAST "passing"));
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "satisfiedByMeasure", BAD_CAST "true"));
        W(text_el(w, "imsss:minNormalizedMeasure", num));
        W(xmlTextWriterEndElement(w));
        W(xmlTextWriterEndElement(w));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));  /* item */
    W(xmlTextWriterEndElement(w));  /* organization */
    W(xmlTextWriterEndElement(w));  /* organizations */

    W(xmlTextWriterStartElement(w, BAD_CAST "resources"));
    W(xmlTextWriterStartElement(w, BAD_CAST "resource"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "identifier", BAD_CAST rid));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST "webcontent"));
    /* The attribute's case differs between the versions; both schemas let the wrong one through. */
    W(xmlTextWriterWriteAttribute(w, BAD_CAST (is12 ? "adlcp:scormtype" : "adlcp:scormType"), BAD_CAST "sco"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST "index.html"));
    for (size_t i = 0; i < nfiles; i++) {
        W(xmlTextWriterStartElement(w, BAD_CAST "file"));
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST files[i]));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));  /* resource */
    W(xmlTextWriterEndElement(w));  /* resources */
    W(xmlTextWriterEndElement(w));  /* manifest */
    W(xmlTextWriterEndDocument(w));
#undef W
out:
    free(title);
    free(mid);
    free(oid);
    free(iid);
    free(rid);
    return rc;
}

int scorm_manifest(const struct qz_course *c, enum scorm_version v,
                   const char *const *files, size_t nfiles,
                   struct membuf *out, struct diag *d)
{
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        xmlBufferFree(buf);
        diag_error(d, NULL, "cannot start writing imsmanifest.xml");
        return -1;
    }
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST "  ");
    int rc = write_manifest(w, c, v, files, nfiles);
    xmlFreeTextWriter(w);   /* flushes into buf */
    if (rc < 0) {
        /* The title is the only author text here; a character XML forbids is the likely cause. */
        diag_error(d, c->quiz->title ? ast_text_loc(c->quiz->title) : NULL,
                   "cannot write imsmanifest.xml (a character XML 1.0 does not allow in the title?)");
    } else {
        membuf_append(out, xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
    }
    xmlBufferFree(buf);
    return rc;
}
