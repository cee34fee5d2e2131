/*
 * lablimits.c — refusing a manifest that would widen what a lab's code admits.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "lablimits.h"
#include "params.h"
#include "util.h"

const struct lab_limit *lab_limit_find(const struct lab_limits *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->params[i].name, name) == 0)
            return &l->params[i];
    return NULL;
}

static const char *type_name(enum ast_ptype t)
{
    switch (t) {
    case PARAM_INT: return "an integer";
    case PARAM_REAL: return "a number";
    case PARAM_BOOL: return "true|false";
    case PARAM_ENUM: return "a choice";
    case PARAM_STRING: return "text";
    }
    return "?";
}

/* lo == hi == 0 is how the grammar says "no range" (as params.c reads it). */
static int ranged(double lo, double hi)
{
    return isfinite(lo) && isfinite(hi) && lo <= hi && !(lo == 0 && hi == 0);
}

/* "1..64", or what the built-in limit allows in words. */
static char *limit_allowed(const struct lab_limit *l)
{
    struct ast_param p = { .type = l->type, .lo = l->lo, .hi = l->hi };
    p.choices.items = (char **)l->choices;
    p.choices.n = l->nchoices;
    return lab_param_allowed(&p);
}

static void report(struct diag *d, const struct ast_labdef *def, const struct src_loc *loc,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void report(struct diag *d, const struct ast_labdef *def, const struct src_loc *loc,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (d) {
        diag_vreport(d, DIAG_ERROR, loc, fmt, ap);
    } else {
        fprintf(stderr, "labrun: error: %s/lab.qz: ", def->dir ? def->dir : def->name);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
    va_end(ap);
}

/* 1 when the manifest's declaration p asks for more than the code's l admits. */
static int widens(const struct ast_param *p, const struct lab_limit *l)
{
    if (p->type != l->type)
        return 1;
    switch (p->type) {
    case PARAM_INT:
    case PARAM_REAL:
        if (!ranged(l->lo, l->hi))
            return 0;
        return !ranged(p->lo, p->hi) || p->lo < l->lo || p->hi > l->hi || p->def.num < l->lo ||
               p->def.num > l->hi;
    case PARAM_ENUM:
        for (size_t i = 0; i < p->choices.n; i++) {
            size_t k = 0;
            while (k < l->nchoices && strcmp(l->choices[k], p->choices.items[i]) != 0)
                k++;
            if (k == l->nchoices)
                return 1;
        }
        return 0;
    case PARAM_BOOL:
    case PARAM_STRING:
        return 0;
    }
    return 1;
}

int lab_limits_check(const struct lab_impl *impl, const struct ast_labdef *def, struct diag *d)
{
    const struct lab_limits *lim = impl->limits;
    if (!lim)
        return 0;
    int bad = 0;
    for (size_t i = 0; i < lim->n; i++) {
        const struct lab_limit *l = &lim->params[i];
        const struct ast_param *p = NULL;
        for (size_t k = 0; k < def->params.n && !p; k++)
            if (strcmp(def->params.items[k].name, l->name) == 0)
                p = &def->params.items[k];
        char *code = limit_allowed(l);
        if (!p) {
            report(d, def, &def->name_loc, "lab %s: parameter '%s' is missing; the lab's code reads it "
                   "(%s, %s in %s)", def->name, l->name, type_name(l->type), code, lim->manifest);
            bad = 1;
        } else if (widens(p, l)) {
            char *mine = lab_param_allowed(p);
            struct lab_pvalue dv = { .decl = p, .num = p->def.num, .boolean = p->def.boolean,
                                     .str = p->def.str };
            char *dflt = lab_pvalue_text(&dv);
            if (p->type != l->type)
                report(d, def, &p->loc, "lab %s: parameter '%s' is declared as %s (%s); the lab's code "
                       "is written for %s, %s (%s)", def->name, p->name, type_name(p->type), mine,
                       type_name(l->type), code, lim->manifest);
            else
                report(d, def, &p->loc, "lab %s: parameter '%s' allows %s (default %s), more than the "
                       "lab's code is written for: %s (%s); a manifest may narrow a range, never widen it",
                       def->name, p->name, mine, dflt, code, lim->manifest);
            free(dflt);
            free(mine);
            bad = 1;
        }
        free(code);
    }
    return bad ? -1 : 0;
}
