/*
 * verify_expect.c — judging one claim: a measured figure against an
 * `expect` line, the numeric question's answer key for `within X of answer`.
 *
 * The rules are doc/claims.md's; the player's compiler/player/claims.js
 * implements the same ones, and tests/data/claims.json holds both to them
 * (tests/runtime/test_claims.c, tests/browser/claims.test.js).
 */
#include <math.h>
#include <stdio.h>

#include "labref.h"
#include "verify.h"

void verify_fmt_num(char *buf, size_t n, double x)
{
    if (x == trunc(x) && fabs(x) < 1e15)
        snprintf(buf, n, "%.0f", x);
    else
        snprintf(buf, n, "%.4g", x);
}


bool verify_expect(const struct ast_expect *e, const struct ast_question *q, double m,
                   char *expected, size_t n)
{
    char a[64], b[64];
    double y = qz_value_number(&e->value);
    verify_fmt_num(a, sizeof a, y);
    switch (e->op) {
    case CMP_LT: snprintf(expected, n, "< %s", a); return m < y;
    case CMP_LE: snprintf(expected, n, "<= %s", a); return m <= y;
    case CMP_GT: snprintf(expected, n, "> %s", a); return m > y;
    case CMP_GE: snprintf(expected, n, ">= %s", a); return m >= y;
    case CMP_EQ: snprintf(expected, n, "== %s", a); return fabs(m - y) <= 1e-9 * fmax(1, fabs(y));
    case CMP_WITHIN:
        break;
    }
    double tol = qz_value_number(&e->tolerance);
    verify_fmt_num(b, sizeof b, tol);
    if (!e->of_answer) {
        snprintf(expected, n, "within %s of %s", b, a);
        return fabs(m - y) <= tol;
    }
    const struct ast_numeric *k = q->numeric;
    if (k->kind == NUM_RANGE) {
        double lo = qz_value_number(&k->lo), hi = qz_value_number(&k->hi);
        char l[64], h[64];
        verify_fmt_num(l, sizeof l, lo);
        verify_fmt_num(h, sizeof h, hi);
        snprintf(expected, n, "within %s of %s..%s", b, l, h);
        return m >= lo - tol && m <= hi + tol;
    }
    y = qz_value_number(&k->value);
    verify_fmt_num(a, sizeof a, y);
    snprintf(expected, n, "within %s of %s (answer)", b, a);
    return fabs(m - y) <= tol;
}
