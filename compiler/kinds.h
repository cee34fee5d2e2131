/*
 * kinds.h — what each question kind is in every output, one row a kind.
 *
 * The keyword and its grammar are grammar/keywords.def's; how a kind scores
 * is compiler/grading.c's.  Everything else a writer needs to name a kind —
 * its SCORM interaction type, its Moodle question type, its QTI response's
 * cardinality and base type, whether it is answered by picking choices —
 * is read from here, and the player gets the SCORM type in its data, so no
 * writer and no script holds a table of its own.
 */
#ifndef QZ_KINDS_H
#define QZ_KINDS_H

#include <stdbool.h>

#include "ast.h"

struct kind_info {
    bool choices;               /* answered by picking from the author's choices (single, multiple) */
    bool several;               /* the response holds several values (QTI cardinality multiple) */
    const char *scorm;          /* cmi.interactions.n.type: choice, true-false, numeric, fill-in */
    const char *moodle;         /* Moodle XML's question type: multichoice, truefalse, numerical, shortanswer */
    const char *qti_base_type;  /* the QTI response's baseType: identifier, float, string */
};

/* The row of kind k. */
const struct kind_info *kind_of(enum ast_qkind k);

#endif
