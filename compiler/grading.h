/*
 * grading.h — how a choice question scores, defined once for every output:
 * GIFT's and Moodle XML's weights, QTI's mapping and the player's data all
 * take a choice's weight from here.
 */
#ifndef QZ_GRADING_H
#define QZ_GRADING_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"

/*
 * The share of q's points that picking choice i gives (q single or
 * multiple): a single's right choice 1, the others 0; a multiple's right
 * choices share 1 and its wrong ones share -1, so picking every choice
 * gives 0.  A multiple scores the sum of the picked shares, between 0 and 1
 * (Moodle's rule for the weights it reads).
 */
double grade_choice_weight(const struct ast_question *q, size_t i);

/*
 * Whether multiple question q scores all or nothing: its own `scoring`, else
 * the quiz's (quiz may be NULL), else partial credit.  False for every
 * other kind.
 */
bool grade_all_or_nothing(const struct ast_quiz *quiz, const struct ast_question *q);

/*
 * For a format whose multiple-choice questions always score each choice
 * (Moodle's): a warning at each `scoring all-or-nothing` that some multiple
 * question of c follows — the question's own, or the quiz's once — saying
 * that format carries partial credit instead.
 */
struct qz_course;
void grade_warn_all_or_nothing(struct diag *d, const struct qz_course *c, const char *format);

#endif
