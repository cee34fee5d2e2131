/*
 * lab_text.h — a lab reference as words a learner reads: the labrun command
 * line that runs it, and each `expect` claim as "what you should see".
 * Every output that shows a lab (course.xml, the player's data, GIFT, Moodle
 * XML, QTI) takes them from here, so they cannot drift apart.
 */
#ifndef QZ_LAB_TEXT_H
#define QZ_LAB_TEXT_H

#include "ast.h"

/*
 * "labrun labs/NAME --param value ...", each value as labrun takes it on its
 * command line and quoted for a POSIX shell where it must be, so the line can
 * be pasted.  A new string; the caller frees it.
 */
char *labtext_command(const struct ast_labref *ref);

/* One argument's value as written on that command line (unquoted).  A new string. */
char *labtext_value(const struct ast_value *v);

/* The learner-facing words of the lab box, in lang (en when there is no table for it). */
enum labtext_word {
    LABTEXT_TRY,        /* "Try it in the lab" */
    LABTEXT_RUN,        /* "Run:" */
    LABTEXT_EXPECT,     /* "What you should see:" */
    LABTEXT_SNIPPET,    /* "The code that runs" */
    LABTEXT_TRUE,       /* "True" */
    LABTEXT_FALSE,      /* "False" */
    LABTEXT_UNIT,       /* "Unit" */
};
const char *labtext_word(enum labtext_word w, const char *lang);

/*
 * One claim in words: "bubble_fraction (share of stage time spent idle):
 * below 0.2".  A new string.  The metric's help and unit come from the lab's
 * manifest when the reference was resolved.
 */
char *labtext_claim(const struct ast_labref *ref, const struct ast_expect *x, const char *lang);

#endif
