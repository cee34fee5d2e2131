/*
 * manifest.c — imsmanifest.xml, the package description an LMS reads first,
 * written through xw (xw.h), byte for byte what xmlTextWriter writes.
 *
 * SCORM 1.2 (IMS CP 1.1.2 + ADL CP 1.2) and SCORM 2004 4th Edition (IMS CP
 * 1.1.4 + ADL CP 1.3 + IMS Simple Sequencing).  One organization with one
 * item, launching one SCO (the player) whose resource lists every file.  The
 * mastery score comes from the quiz's `passing`: as adlcp:masteryscore (0-100)
 * in 1.2, as the primary objective's minNormalizedMeasure (0-1) in 2004.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scorm.h"
#include "xw.h"

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

/* XML identifiers (xsd:ID) are NCNames; quiz ids already are, prefixed with a letter. */
static char *ident(const char *prefix, const char *id)
{
    return xasprintf("%s-%s", prefix, id && *id ? id : "quiz");
}

static void write_manifest(struct xw *w, const struct qz_course *c, enum scorm_version v,
                          const char *const *files, size_t nfiles)
{
    const struct ast_quiz *q = c->quiz;
    const bool is12 = v == SCORM_12;
    char *title = scorm_plain_text(q->title, scorm_default_lang(q));
    char *mid = ident("quizc", q->id), *oid = ident("org", q->id);
    char *iid = ident("item", q->id), *rid = ident("sco", q->id);
    char num[64];

    xw_declaration(w);
    xw_start(w, "manifest");
    xw_attr(w, "identifier", mid);
    xw_attr(w, "version", "1.0");
    xw_attr(w, "xmlns", is12 ? NS_CP12 : NS_CP2004);
    xw_attr(w, "xmlns:adlcp", is12 ? NS_ADL12 : NS_ADL2004);
    if (!is12)
        xw_attr(w, "xmlns:imsss", NS_SS);
    xw_attr(w, "xmlns:xsi", NS_XSI);
    xw_attr(w, "xsi:schemaLocation", is12 ? loc12 : loc2004);

    xw_start(w, "metadata");
    xw_element(w, "schema", "ADL SCORM");
    xw_element(w, "schemaversion", is12 ? "1.2" : "2004 4th Edition");
    xw_end(w);

    xw_start(w, "organizations");
    xw_attr(w, "default", oid);
    xw_start(w, "organization");
    xw_attr(w, "identifier", oid);
    xw_element(w, "title", title);
    xw_start(w, "item");
    xw_attr(w, "identifier", iid);
    xw_attr(w, "identifierref", rid);
    xw_element(w, "title", title);
    if (is12) {
        fmt_num(num, sizeof num, q->passing);
        xw_element(w, "adlcp:masteryscore", num);
    } else {
        /* Success is decided by the score: satisfied when scaled >= passing/100. */
        fmt_num(num, sizeof num, q->passing / 100.0);
        xw_start(w, "imsss:sequencing");
        xw_start(w, "imsss:objectives");
        xw_start(w, "imsss:primaryObjective");
        xw_attr(w, "objectiveID", "passing");
        xw_attr(w, "satisfiedByMeasure", "true");
        xw_element(w, "imsss:minNormalizedMeasure", num);
        xw_end(w);
        xw_end(w);
        xw_end(w);
    }
    xw_end(w);  /* item */
    xw_end(w);  /* organization */
    xw_end(w);  /* organizations */

    xw_start(w, "resources");
    xw_start(w, "resource");
    xw_attr(w, "identifier", rid);
    xw_attr(w, "type", "webcontent");
    /* The attribute's case differs between the versions; both schemas let the wrong one through. */
    xw_attr(w, is12 ? "adlcp:scormtype" : "adlcp:scormType", "sco");
    xw_attr(w, "href", "index.html");
    for (size_t i = 0; i < nfiles; i++) {
        xw_start(w, "file");
        xw_attr(w, "href", files[i]);
        xw_end(w);
    }
    xw_end(w);  /* resource */
    xw_end(w);  /* resources */
    xw_end(w);  /* manifest */
    free(title);
    free(mid);
    free(oid);
    free(iid);
    free(rid);
}

int scorm_manifest(const struct qz_course *c, enum scorm_version v,
                   const char *const *files, size_t nfiles,
                   struct membuf *out, struct diag *d)
{
    struct membuf doc = { 0 };
    struct xw *w = xw_new(membuf_write, &doc, true);
    write_manifest(w, c, v, files, nfiles);
    int rc = xw_finish(w);
    xw_free(w);
    if (rc < 0)
        diag_error(d, NULL, "cannot write imsmanifest.xml");
    else
        membuf_append(out, doc.data, doc.len);
    membuf_free(&doc);
    return rc;
}
