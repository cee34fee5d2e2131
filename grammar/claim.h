/*
 * claim.h — whether a measured figure bears out a lab claim (libqz): the
 * rules of doc/claims.md, for labrun --verify and quizc --runs alike.
 */
#ifndef QZ_CLAIM_H
#define QZ_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"

/*
 * Whether measured bears out e in question q (the answer key for `within X
 * of answer`).  expected gets the claim as shown ("> 0.7", "within 0.03 of
 * 0.2727", "within 5% of 0.5: 0.475..0.525").  A percentage value is a
 * fraction (20% is 0.2); a percentage tolerance is a share of the value it
 * qualifies (interval.h); `==` allows a relative 1e-9 for rounding.
 */
bool qz_claim_holds(const struct ast_expect *e, const struct ast_question *q, double measured,
                    char *expected, size_t n);

/* A figure as a claim table shows it: 4, 0.2727, 1.2e-07. */
void qz_fmt_claim_num(char *buf, size_t n, double x);

#endif
