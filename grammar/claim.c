/*
 * claim.c — judging one claim: a measured figure against an `expect` line,
 * the numeric question's answer key for `within X of answer`.  In libqz, as
 * labrun --verify and quizc --runs both judge claims.
 *
 * The rules are doc/claims.md's; the player's compiler/player/claims.js
 * compares with the numbers quizc writes for it, and tests/data/claims.json
 * holds both to them (tests/runtime/test_claims.c, tests/browser/claims.test.js).
 */
#include <math.h>
#include <stdio.h>

#include "claim.h"
#include "interval.h"
#include "labref.h"

void qz_fmt_claim_num(char *buf, size_t n, double x)
{
    if (x == trunc(x) && fabs(x) < 1e15)
        snprintf(buf, n, "%.0f", x);
    else
        snprintf(buf, n, "%.4g", x);
}


bool qz_claim_holds(const struct ast_expect *e, const struct ast_question *q, double m,
                    char *expected, size_t n)
{
    char a[64], b[64];
    double y = qz_value_number(&e->value);
    qz_fmt_claim_num(a, sizeof a, y);
    switch (e->op) {
    case CMP_LT: snprintf(expected, n, "< %s", a); return m < y;
    case CMP_LE: snprintf(expected, n, "<= %s", a); return m <= y;
    case CMP_GT: snprintf(expected, n, "> %s", a); return m > y;
    case CMP_GE: snprintf(expected, n, ">= %s", a); return m >= y;
    case CMP_EQ: snprintf(expected, n, "== %s", a); return fabs(m - y) <= 1e-9 * fmax(1, fabs(y));
    case CMP_WITHIN:
        break;
    }
    /* The tolerance as written; a percentage adds the interval it works out to. */
    char t[72], iv[140] = "";
    qz_fmt_claim_num(b, sizeof b, e->tolerance.num);
    snprintf(t, sizeof t, "%s%s", b, e->tolerance.percent ? "%" : "");
    const struct ast_numeric *k = e->of_answer ? q->numeric : NULL;
    struct qz_interval in = qz_within_interval(e, k);
    if (e->tolerance.percent) {
        char l[64], h[64];
        qz_fmt_claim_num(l, sizeof l, in.lo);
        qz_fmt_claim_num(h, sizeof h, in.hi);
        snprintf(iv, sizeof iv, ": %s..%s", l, h);
    }
    if (!e->of_answer) {
        snprintf(expected, n, "within %s of %s%s", t, a, iv);
    } else if (k->kind == NUM_RANGE) {
        char kl[64], kh[64];
        qz_fmt_claim_num(kl, sizeof kl, qz_value_number(&k->lo));
        qz_fmt_claim_num(kh, sizeof kh, qz_value_number(&k->hi));
        snprintf(expected, n, "within %s of %s..%s%s", t, kl, kh, iv);
    } else {
        qz_fmt_claim_num(a, sizeof a, qz_value_number(&k->value));
        snprintf(expected, n, "within %s of %s (answer)%s", t, a, iv);
    }
    return m >= in.lo && m <= in.hi;
}
