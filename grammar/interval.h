/*
 * interval.h — what a numeric answer key and a `within` claim accept, worked
 * out once (libqz).  A tolerance is absolute (`within 0.01`) or a percentage
 * of the value it qualifies (`within 5%`: 5 % of |value|); a range is its two
 * ends.  Every output, the player's data and labrun --verify take their
 * numbers from here, so `within 5%` means one interval everywhere.
 */
#ifndef QZ_INTERVAL_H
#define QZ_INTERVAL_H

#include <stdbool.h>

#include "ast.h"

/* The values from lo to hi, both ends included. */
struct qz_interval {
    double lo, hi;
};

/* The absolute tolerance tol works out to about x: tol itself, or tol% of |x|. */
double qz_tolerance_at(const struct ast_value *tol, double x);

/* The values a numeric answer key marks right. */
struct qz_interval qz_answer_interval(const struct ast_numeric *k);

/*
 * The answer a `within … of answer` claim is measured against: the key's
 * value (its own tolerance plays no part), or a range's two ends.
 */
struct qz_interval qz_answer_key(const struct ast_numeric *k);

/*
 * The figures that bear out `expect M within TOL of (VALUE | answer)`:
 * about = the value (lo == hi) or the answer key; each end widened by TOL,
 * a percentage of that end's magnitude.
 */
struct qz_interval qz_widen(struct qz_interval about, const struct ast_value *tol);

/* e's interval (e->op is CMP_WITHIN); key is the question's answer key for `of answer`, else unused. */
struct qz_interval qz_within_interval(const struct ast_expect *e, const struct ast_numeric *key);

#endif
