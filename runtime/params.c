/*
 * params.c — a lab's parameters: defaults from the manifest, values from the
 * command line or a quiz, with errors that name the parameter and what it
 * allows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "labref.h"
#include "params.h"
#include "util.h"

struct lab_params *lab_params_new(const struct ast_labdef *def)
{
    struct lab_params *p = xcalloc(1, sizeof *p);
    p->def = def;
    p->n = def->params.n;
    p->v = xcalloc(p->n ? p->n : 1, sizeof *p->v);
    for (size_t i = 0; i < p->n; i++) {
        const struct ast_param *d = &def->params.items[i];
        struct lab_pvalue *v = &p->v[i];
        v->decl = d;
        switch (d->type) {
        case PARAM_INT:
        case PARAM_REAL:
            v->num = d->def.num;
            break;
        case PARAM_BOOL:
            v->boolean = d->def.boolean;
            break;
        case PARAM_ENUM:
        case PARAM_STRING:
            v->str = xstrdup(d->def.str ? d->def.str : "");
            break;
        }
    }
    return p;
}

void lab_params_free(struct lab_params *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].str);
    free(p->v);
    free(p);
}

const struct lab_pvalue *lab_params_get(const struct lab_params *p, const char *name)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->v[i].decl->name, name) == 0)
            return &p->v[i];
    return NULL;
}


/* A declared range: both ends finite and in order. */
static bool has_range(const struct ast_param *d)
{
    return isfinite(d->lo) && isfinite(d->hi) && d->lo <= d->hi && !(d->lo == 0 && d->hi == 0);
}

char *lab_param_allowed(const struct ast_param *d)
{
    char lo[FMT_NUMBER_MAX], hi[FMT_NUMBER_MAX];
    switch (d->type) {
    case PARAM_INT:
    case PARAM_REAL:
        if (!has_range(d))
            return xstrdup(d->type == PARAM_INT ? "an integer" : "a number");
        fmt_number(lo, d->lo);
        fmt_number(hi, d->hi);
        return xasprintf("%s..%s", lo, hi);
    case PARAM_ENUM: {
        size_t n = 1;
        for (size_t i = 0; i < d->choices.n; i++)
            n += strlen(d->choices.items[i]) + 1;
        char *s = xcalloc(1, n);
        for (size_t i = 0; i < d->choices.n; i++) {
            if (i)
                strcat(s, "|");
            strcat(s, d->choices.items[i]);
        }
        return s;
    }
    case PARAM_BOOL:
        return xstrdup("true|false");
    case PARAM_STRING:
        return xstrdup("any text");
    }
    return xstrdup("?");
}

char *lab_pvalue_text(const struct lab_pvalue *v)
{
    char buf[FMT_NUMBER_MAX];
    switch (v->decl->type) {
    case PARAM_INT:
    case PARAM_REAL:
        fmt_number(buf, v->num);
        return xstrdup(buf);
    case PARAM_BOOL:
        return xstrdup(v->boolean ? "true" : "false");
    default:
        return xstrdup(v->str ? v->str : "");
    }
}

static const char *lab_name(const struct lab_params *p)
{
    return p->def->name ? p->def->name : "lab";
}

/* "labrun: error: bubble: --stages: 100 is out of range; allowed: 1..64" */
static int bad_value(const struct lab_params *p, const struct ast_param *d, const char *text,
                     const char *why, FILE *err)
{
    if (err) {
        char *allowed = lab_param_allowed(d);
        fprintf(err, "labrun: error: %s: --%s: '%s' %s; allowed: %s\n", lab_name(p), d->name, text,
                why, allowed);
        free(allowed);
    }
    return -1;
}

static struct lab_pvalue *find(struct lab_params *p, const char *name, FILE *err)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->v[i].decl->name, name) == 0)
            return &p->v[i];
    if (err) {
        struct qz_near near;
        qz_near_init(&near, name);
        for (size_t i = 0; i < p->n; i++)
            qz_near_offer(&near, p->v[i].decl->name);
        if (near.best)
            fprintf(err, "labrun: error: %s has no parameter --%s; did you mean '--%s'?\n",
                    lab_name(p), name, near.best);
        else
            fprintf(err, "labrun: error: %s has no parameter --%s (see labrun %s --help)\n",
                    lab_name(p), name, lab_name(p));
    }
    return NULL;
}

int lab_params_set(struct lab_params *p, const char *name, const char *text, FILE *err)
{
    struct lab_pvalue *v = find(p, name, err);
    if (!v)
        return -1;
    const struct ast_param *d = v->decl;
    switch (d->type) {
    case PARAM_INT:
    case PARAM_REAL: {
        char *end;
        errno = 0;
        double x = strtod(text, &end);
        if (end == text || *end || errno == ERANGE || !isfinite(x))
            return bad_value(p, d, text, d->type == PARAM_INT ? "is not an integer" : "is not a number",
                             err);
        if (d->type == PARAM_INT && x != trunc(x))
            return bad_value(p, d, text, "is not an integer", err);
        if (has_range(d) && (x < d->lo || x > d->hi))
            return bad_value(p, d, text, "is out of range", err);
        v->num = x;
        break;
    }
    case PARAM_ENUM: {
        size_t i = 0;
        while (i < d->choices.n && strcmp(d->choices.items[i], text) != 0)
            i++;
        if (i == d->choices.n)
            return bad_value(p, d, text, "is not one of the choices", err);
        free(v->str);
        v->str = xstrdup(text);
        break;
    }
    case PARAM_BOOL:
        if (strcmp(text, "true") == 0 || strcmp(text, "yes") == 0 || strcmp(text, "1") == 0)
            v->boolean = true;
        else if (strcmp(text, "false") == 0 || strcmp(text, "no") == 0 || strcmp(text, "0") == 0)
            v->boolean = false;
        else
            return bad_value(p, d, text, "is not true or false", err);
        break;
    case PARAM_STRING:
        free(v->str);
        v->str = xstrdup(text);
        break;
    }
    v->given = true;
    return 0;
}

/* The name of the parameter whose alias is s (`-b` → minbytes), or NULL. */
static const char *alias_of(const struct lab_params *p, const char *s)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct ast_param *d = p->v[i].decl;
        if (d->alias && strcmp(d->alias, s) == 0)
            return d->name;
    }
    return NULL;
}

int lab_params_parse_args(struct lab_params *p, int *argc, char **argv, FILE *err)
{
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        char *a = argv[i];
        const char *alias = a[0] == '-' && a[1] != '-' && a[1] ? alias_of(p, a + 1) : NULL;
        if (!alias && (strncmp(a, "--", 2) != 0 || a[2] == '\0')) {
            argv[out++] = a;
            continue;
        }
        char *name = xstrdup(alias ? alias : a + 2), *eq = alias ? NULL : strchr(name, '=');
        const char *text = NULL;
        if (eq) {
            *eq = '\0';
            text = eq + 1;
        }
        const struct lab_pvalue *v = lab_params_get(p, name);
        bool negated = false;
        if (!v && strncmp(name, "no-", 3) == 0) {
            const struct lab_pvalue *nv = lab_params_get(p, name + 3);
            if (nv && nv->decl->type == PARAM_BOOL && !text) {
                v = nv;
                negated = true;
            }
        }
        if (!v) {
            /* Not a parameter: the caller's own options (--json ...) stay in argv. */
            free(name);
            argv[out++] = a;
            continue;
        }
        int rc;
        if (negated)
            rc = lab_params_set(p, v->decl->name, "false", err);
        else if (text)
            rc = lab_params_set(p, name, text, err);
        else if (v->decl->type == PARAM_BOOL)
            rc = lab_params_set(p, name, "true", err);
        else if (i + 1 < *argc)
            rc = lab_params_set(p, name, argv[++i], err);
        else {
            char *allowed = lab_param_allowed(v->decl);
            if (err)
                fprintf(err, "labrun: error: %s: --%s needs a value; allowed: %s\n", lab_name(p),
                        name, allowed);
            free(allowed);
            rc = -1;
        }
        free(name);
        if (rc < 0)
            return -1;
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

/* ---- what labs call ---- */

static const struct lab_pvalue *need(const struct lab_params *p, const char *name)
{
    const struct lab_pvalue *v = lab_params_get(p, name);
    if (!v) {
        fprintf(stderr, "labrun: internal error: lab %s asked for parameter '%s', which its "
                "manifest does not declare\n", lab_name(p), name);
        abort();
    }
    return v;
}

long lab_param_int(const struct lab_params *p, const char *name)
{
    return (long)need(p, name)->num;
}

double lab_param_real(const struct lab_params *p, const char *name)
{
    return need(p, name)->num;
}

const char *lab_param_str(const struct lab_params *p, const char *name)
{
    const struct lab_pvalue *v = need(p, name);
    return v->str ? v->str : "";
}

bool lab_param_bool(const struct lab_params *p, const char *name)
{
    return need(p, name)->boolean;
}
