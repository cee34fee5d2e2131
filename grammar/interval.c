/*
 * interval.c — the intervals of interval.h.  The rules are doc/language.md's
 * (answers) and doc/claims.md's (claims).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "interval.h"
#include "labref.h"

/*
 * x to 15 significant digits: the decimal the author means.  0.27 plus 5 %
 * of it is 0.28350000000000003 in binary; the interval's end is 0.2835, the
 * same double a learner who types 0.2835 gets, so the edge counts everywhere.
 */
static double decimal(double x)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", x);
    return strtod(buf, NULL);
}

double qz_tolerance_at(const struct ast_value *tol, double x)
{
    /* A negative tolerance is an error quizc reports; its size is what was meant. */
    double t = fabs(tol->num);
    return tol->percent ? decimal(t / 100 * fabs(x)) : t;
}

struct qz_interval qz_answer_key(const struct ast_numeric *k)
{
    if (k->kind == NUM_RANGE)
        return (struct qz_interval){ qz_value_number(&k->lo), qz_value_number(&k->hi) };
    double v = qz_value_number(&k->value);
    return (struct qz_interval){ v, v };
}

struct qz_interval qz_widen(struct qz_interval about, const struct ast_value *tol)
{
    return (struct qz_interval){ decimal(about.lo - qz_tolerance_at(tol, about.lo)),
                                 decimal(about.hi + qz_tolerance_at(tol, about.hi)) };
}

struct qz_interval qz_answer_interval(const struct ast_numeric *k)
{
    struct qz_interval key = qz_answer_key(k);
    return k->kind == NUM_TOLERANCE ? qz_widen(key, &k->tolerance) : key;
}

struct qz_interval qz_within_interval(const struct ast_expect *e, const struct ast_numeric *key)
{
    struct qz_interval about;
    if (e->of_answer)
        about = qz_answer_key(key);
    else
        about.lo = about.hi = qz_value_number(&e->value);
    return qz_widen(about, &e->tolerance);
}
