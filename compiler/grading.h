/*
 * grading.h — how a choice question scores, defined once for every output:
 * GIFT's and Moodle XML's weights, QTI's mapping and the player's data all
 * take a choice's weight from here.
 */
#ifndef QZ_GRADING_H
#define QZ_GRADING_H

#include <stddef.h>

#include "ast.h"

/*
 * The share of q's points that picking choice i gives (q single or
 * multiple): a single's right choice 1, the others 0; a multiple's right
 * choices share 1 and its wrong ones share -1, so picking every choice
 * gives 0.  A multiple scores the sum of the picked shares, between 0 and 1
 * (Moodle's rule for the weights it reads).
 */
double grade_choice_weight(const struct ast_question *q, size_t i);

#endif
