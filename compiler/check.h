/*
 * check.h — semantic checks on a loaded course: what the grammar cannot say
 * (unique ids, exactly one correct choice, every declared language present,
 * numbers in range).  Lab references are checked by libqz when the course is
 * loaded (qz_resolve_labs); these checks assume nothing about them.
 */
#ifndef QZ_CHECK_H
#define QZ_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "qz.h"

/* The most choices a question may have: SCORM 1.2 names choices with one character 0-9a-z. */
#define CHECK_MAX_CHOICES 36

/*
 * Run every check over c, reporting each problem to d at its location (with
 * notes for related places).  Returns true when no check reported an error.
 */
bool check_course(struct diag *d, const struct qz_course *c);

/*
 * The same, after reading reported errors at these places (borrowed).  A
 * question holding one of them, between its keyword and the next question,
 * was not read whole: the checks that something is missing from it (a prompt,
 * an answer, enough choices) are skipped there, as are the quiz's missing
 * title and its lack of questions when its own file has one, so that a
 * mistyped statement is reported once and not again as an absence.
 */
bool check_course_after(struct diag *d, const struct qz_course *c, const struct src_loc *errors,
                        size_t nerrors);

#endif
