/*
 * labref.c — a `lab` line's values as labrun takes them, and its command
 * line (labref.h).  quizc's checks, course.xml, the player's data and labrun
 * --verify all go through qz_param_canon, so `stages = 4.0` is `--stages 4`
 * everywhere and a percentage means the same to each of them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labref.h"
#include "util.h"

/* ---- A manifest's declarations ------------------------------------------ */

const struct ast_param *qz_lab_param(const struct ast_labdef *def, const char *name)
{
    for (size_t i = 0; def && i < def->params.n; i++)
        if (strcmp(def->params.items[i].name, name) == 0)
            return &def->params.items[i];
    return NULL;
}

const struct ast_metric *qz_lab_metric(const struct ast_labdef *def, const char *name)
{
    for (size_t i = 0; def && i < def->metrics.n; i++)
        if (strcmp(def->metrics.items[i].name, name) == 0)
            return &def->metrics.items[i];
    return NULL;
}

/* Whether tag is lang or lang's primary subtag ("en" for "en-GB"). */
static bool tag_covers(const char *tag, const char *lang)
{
    size_t n = strlen(tag);
    return strncmp(tag, lang, n) == 0 && (lang[n] == '\0' || lang[n] == '-');
}

const struct ast_tr *qz_lab_text(const struct ast_text *t, const char *lang)
{
    if (!t || !t->n)
        return NULL;
    for (int pass = 0; lang && pass < 2; pass++)
        for (size_t i = 0; i < t->n; i++) {
            const char *tag = t->trs[i].lang;
            if (tag && (pass == 0 ? strcmp(tag, lang) == 0 : tag_covers(tag, lang)))
                return &t->trs[i];
        }
    for (size_t i = 0; i < t->n; i++)
        if (!t->trs[i].lang)
            return &t->trs[i];
    /* A manifest's words in a quiz that names no language (or one it lacks): its English. */
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->trs[i].lang, "en") == 0)
            return &t->trs[i];
    return &t->trs[0];
}

bool qz_lab_speaks(const struct ast_labdef *def, const char *lang)
{
    const struct ast_tr *tr = def ? qz_lab_text(def->title, lang) : NULL;
    return tr && tr->lang && strcmp(tr->lang, lang) == 0;
}

/* ---- Values --------------------------------------------------------------- */

double qz_value_number(const struct ast_value *v)
{
    return v->percent ? v->num / 100 : v->num;
}

static char *shortest(double x)
{
    char buf[FMT_NUMBER_MAX];
    return xstrdup(fmt_number(buf, x));
}

/* How a value is named in "got ..." messages; a new string. */
char *qz_describe_value(const struct ast_value *v)
{
    switch (v->kind) {
    case VAL_NUMBER: return xasprintf("%s", v->str ? v->str : "a number");
    case VAL_IDENT:  return xasprintf("'%s'", v->str);
    case VAL_STRING: return xasprintf("the string \"%s\"", v->str);
    case VAL_BOOL:   return xasprintf("%s", v->boolean ? "true" : "false");
    }
    return xstrdup("?");
}

/* "naive|gpipe|1f1b"; a new string. */
static char *choice_list(const struct ast_param *p)
{
    size_t n = 1;
    for (size_t i = 0; i < p->choices.n; i++)
        n += strlen(p->choices.items[i]) + 1;
    char *s = xmalloc(n);
    s[0] = '\0';
    for (size_t i = 0; i < p->choices.n; i++) {
        if (i)
            strcat(s, "|");
        strcat(s, p->choices.items[i]);
    }
    return s;
}

static char *in_range(const struct ast_param *p, const struct ast_value *v, double x, char **why)
{
    if (x >= p->lo && x <= p->hi)
        return shortest(x);
    char lo[FMT_NUMBER_MAX], hi[FMT_NUMBER_MAX];
    fmt_number(lo, p->lo);
    fmt_number(hi, p->hi);
    *why = xasprintf("%s = %s is out of range %s..%s", p->name, v->str ? v->str : "?", lo, hi);
    return NULL;
}

static char *choice(const struct ast_param *p, const struct ast_value *v, const char *got, char **why)
{
    const char *word = v->kind == VAL_BOOL ? (v->boolean ? "true" : "false") : v->str;
    struct qz_near near;
    qz_near_init(&near, word);
    for (size_t i = 0; word && i < p->choices.n; i++) {
        if (strcmp(word, p->choices.items[i]) == 0)
            return xstrdup(word);
        qz_near_offer(&near, p->choices.items[i]);
    }
    char *list = choice_list(p);
    if (near.best)
        *why = xasprintf("parameter '%s' takes one of %s, got %s; did you mean '%s'?", p->name, list, got,
                         near.best);
    else
        *why = xasprintf("parameter '%s' takes one of %s, got %s", p->name, list, got);
    free(list);
    return NULL;
}

char *qz_param_canon(const struct ast_param *p, const struct ast_value *v, char **why)
{
    *why = NULL;
    char *got = qz_describe_value(v), *canon = NULL;
    switch (p->type) {
    case PARAM_INT:
        if (v->kind != VAL_NUMBER || v->percent || v->num != trunc(v->num))
            *why = xasprintf("parameter '%s' takes an integer, got %s", p->name, got);
        else
            canon = in_range(p, v, v->num, why);
        break;
    case PARAM_REAL:
        if (v->kind != VAL_NUMBER)
            *why = xasprintf("parameter '%s' takes a number, got %s", p->name, got);
        else
            canon = in_range(p, v, qz_value_number(v), why);
        break;
    case PARAM_ENUM:
        canon = choice(p, v, got, why);
        break;
    case PARAM_BOOL:
        if (v->kind != VAL_BOOL)
            *why = xasprintf("parameter '%s' takes true or false, got %s", p->name, got);
        else
            canon = xstrdup(v->boolean ? "true" : "false");
        break;
    case PARAM_STRING:
        if (v->kind != VAL_STRING)
            *why = xasprintf("parameter '%s' takes a string, got %s", p->name, got);
        else
            canon = xstrdup(v->str ? v->str : "");
        break;
    }
    free(got);
    return canon;
}

/* ---- The command line --------------------------------------------------- */

/* A growing string. */
struct text {
    char *s;
    size_t n, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
    if (t->n + n + 1 > t->cap) {
        t->cap = (t->n + n + 1) * 2;
        t->s = xrealloc(t->s, t->cap);
    }
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = '\0';
}

static void puts_(struct text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* s quoted for a POSIX shell when it needs it, so the command can be pasted. */
static void shell_word(struct text *t, const char *s)
{
    bool plain = *s != '\0';
    for (const char *c = s; *c && plain; c++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/+=@%", *c) != NULL;
    if (plain) {
        puts_(t, s);
        return;
    }
    put(t, "'", 1);
    for (const char *c = s; *c; c++) {
        if (*c == '\'')
            put(t, "'\\''", 4);
        else
            put(t, c, 1);
    }
    put(t, "'", 1);
}

/* The value as written, for one that does not fit its parameter (its error is reported elsewhere). */
static char *as_written(const struct ast_value *v)
{
    switch (v->kind) {
    case VAL_NUMBER: return v->str ? xstrdup(v->str) : shortest(v->num);
    case VAL_BOOL:   return xstrdup(v->boolean ? "true" : "false");
    case VAL_IDENT:
    case VAL_STRING: return xstrdup(v->str ? v->str : "");
    }
    return xstrdup("");
}

char *qz_arg_value(const struct ast_labref *ref, const struct ast_arg *a)
{
    const struct ast_param *p = ref->def ? qz_lab_param(ref->def, a->name) : NULL;
    char *why = NULL;
    char *v = p ? qz_param_canon(p, &a->value, &why) : NULL;
    free(why);
    return v ? v : as_written(&a->value);
}

char *qz_lab_command(const struct ast_labref *ref)
{
    struct text t = { 0 };
    puts_(&t, "labrun labs/");
    shell_word(&t, ref->name ? ref->name : "");
    for (size_t i = 0; i < ref->args.n; i++) {
        const struct ast_arg *a = &ref->args.items[i];
        char *v = qz_arg_value(ref, a);
        puts_(&t, " --");
        shell_word(&t, a->name);
        put(&t, " ", 1);
        shell_word(&t, v);
        free(v);
    }
    return t.s;
}
