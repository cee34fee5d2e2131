/*
 * check.h — semantic checks on a loaded course: what the grammar cannot say
 * (unique ids, exactly one correct choice, every declared language present,
 * numbers in range), with lab references resolved in the same pass.
 */
#ifndef QZ_CHECK_H
#define QZ_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "qz.h"

/* The most choices a question may have: SCORM 1.2 names choices with one character 0-9a-z. */
#define CHECK_MAX_CHOICES 36

/* The longest quiz or question id: a QTI package names a file after each question's. */
#define CHECK_MAX_ID 64

/*
 * The largest magnitude of points, numeric answers, range ends, tolerances
 * and claim values: below it every integer is exact in a double, and no
 * sum or answer +- tolerance an output computes can overflow.
 */
#define CHECK_MAX_NUMBER 1e15
/* The most points one question may be worth. */
#define CHECK_MAX_POINTS 1000

/*
 * The semantic pass over c, a question at a time in order: every check, and
 * with labpath (not NULL) the resolution of the question's lab references
 * and snippets (qz_resolve_question), each problem reported to d at its
 * location (with notes for related places).  A question holding an error
 * already reported to d (a syntax error, between its keyword and the next
 * question) was not read whole: the checks that something is missing from
 * it (a prompt, an answer, enough choices) are skipped there, as are the
 * quiz's missing title and its lack of questions when its own file has one,
 * so that a mistyped statement is reported once and not again as an absence.
 * Returns true when the pass reported no error.
 */
bool check_course(struct diag *d, struct qz_course *c, const struct qz_labpath *labpath);

/*
 * A single or multiple question has at most CHECK_MAX_CHOICES choices: false,
 * with the error at its id and a note at the first choice past them, when
 * not.  check_course applies it; a package writer given an unchecked course
 * calls it too, so the rule and its message exist once.
 */
bool check_choice_count(struct diag *d, const struct ast_question *q);

#endif
