/*
 * qti.h — the parts of a QTI 2.1 package: one assessmentItem per question
 * (emit_qti.c), the assessmentTest and the manifest (qti_package.c), which
 * emit_qti_files (emit.h) puts together.
 */
#ifndef QZ_QTI_H
#define QZ_QTI_H

#include "render.h"

#define QTI_NS "http://www.imsglobal.org/xsd/imsqti_v2p1"
#define QTI_XSD "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1p2.xsd"

/* The package path of question q's item: "items/ID.xml".  A new string. */
char *qti_item_path(const struct ast_question *q);

/*
 * The assessmentItem of q in r->lang (never multi-language: a package holds
 * one language).  Characters XML 1.0 cannot carry are left out and counted in
 * r->dropped.  Returns 0, or -1 when the writer failed.
 */
int qti_item(struct render *r, const struct ast_question *q, bool shuffle, struct membuf *out);

#endif
