/*
 * build_lab.c — grammar actions for lab manifests (`lab NAME { ... }`):
 * parameters get their type from their default and range here, so that
 * quizc and labrun read one meaning out of a manifest.
 */
#include <math.h>
#include <string.h>

#include "build.h"
#include "quiz.tab.h"

/* A manifest outlives the tree it is read into (ast.h): what it keeps is copied to the heap. */
static char *keep(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

/* labdefhead: LAB name '{' */
void b_lab_open(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc)
{
    struct ast_labdef *l = ast_labdef_new();
    l->name = keep(name);
    l->loc = *kw;
    l->name_loc = *name_loc;
    b_top_item(b, "lab", kw);
    if (!b->file->lab) b->file->lab = l;
    b->lab = l;
    memset(b->lab_seen.has, 0, sizeof b->lab_seen.has);
}

/* labdef: labdefhead lstmts '}' */
void b_lab_close(struct build_state *b)
{
    struct ast_labdef *l = b->lab;
    if (l && !l->title)
        diag_error(b->d, &l->name_loc, "lab '%s' has no title (add `title \"...\"`)", l->name);
    if (l && l != b->file->lab) ast_labdef_free(l);   /* a second manifest, already reported */
    b->lab = NULL;
}

/* lstmt: TITLE text | SUMMARY text */
void b_lab_text(struct build_state *b, int tok, const struct src_loc *kw, struct ast_text *t)
{
    if (!b_once(b, KWB_LAB, tok, kw)) return;
    if (tok == T_TITLE) b->lab->title = ast_text_heap_copy(t);
    else b->lab->summary = ast_text_heap_copy(t);
}

/* paramhead: PARAM name '=' value */
void b_lab_param(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc,
                 struct ast_value *def)
{
    (void)kw;
    struct ast_labdef *l = b->lab;
    for (size_t i = 0; i < l->params.n; i++)
        if (!strcmp(l->params.items[i].name, name)) {
            diag_error(b->d, name_loc, "parameter '%s' is declared twice in lab '%s'", name, l->name);
            diag_note(b->d, &l->params.items[i].loc, "the first '%s' is here", name);
            break;      /* kept, so that its range and help parse into something; reported */
        }
    struct ast_param prm = { .name = keep(name), .def = *def, .loc = *name_loc, .lo = -INFINITY, .hi = INFINITY };
    prm.def.str = keep(def->str);
    VEC_PUSH(l->params, prm);
    b->range_lo = b->range_hi = NULL;
}

/* prange: IN NUMBER DOTDOT NUMBER */
void b_lab_param_range(struct build_state *b, struct ast_value *lo, struct ast_value *hi)
{
    b->range_lo = lo;
    b->range_hi = hi;
}

/* choices: name | choices '|' name */
void b_lab_param_choice(struct build_state *b, char *word, const struct src_loc *loc)
{
    struct ast_param *prm = &b->lab->params.items[b->lab->params.n - 1];
    for (size_t i = 0; i < prm->choices.n; i++)
        if (!strcmp(prm->choices.items[i], word)) {
            diag_error(b->d, loc, "choice '%s' is listed twice for parameter '%s'", word, prm->name);
            return;
        }
    VEC_PUSH(prm->choices, keep(word));
}

static char *choice_list(const struct ast_param *prm)
{
    size_t n = 1;
    for (size_t i = 0; i < prm->choices.n; i++) n += strlen(prm->choices.items[i]) + 1;
    char *s = xcalloc(1, n);
    for (size_t i = 0; i < prm->choices.n; i++) {
        if (i) strcat(s, "|");
        strcat(s, prm->choices.items[i]);
    }
    return s;
}

/* The enum parameter's default is one of its choices. */
static void enum_param(struct build_state *b, struct ast_param *prm)
{
    prm->type = PARAM_ENUM;
    const struct ast_value *d = &prm->def;
    if (d->kind != VAL_IDENT) {
        diag_error(b->d, &d->loc, "parameter '%s' lists its choices, so its default must be one of them",
                   prm->name);
        return;
    }
    for (size_t i = 0; i < prm->choices.n; i++)
        if (!strcmp(prm->choices.items[i], d->str)) return;
    char *list = choice_list(prm);
    diag_error(b->d, &d->loc, "default '%s' of parameter '%s' is not one of %s", d->str, prm->name, list);
    free(list);
}

/* A numeric parameter: integral when its default and both ends are; the default within the range. */
static void number_param(struct build_state *b, struct ast_param *prm)
{
    const struct ast_value *d = &prm->def, *lo = b->range_lo, *hi = b->range_hi;
    if (d->kind != VAL_NUMBER) {
        diag_error(b->d, &d->loc, "parameter '%s' has a range, so its default must be a number", prm->name);
        prm->type = PARAM_REAL;
        return;
    }
    bool integral = d->integral && (!lo || (lo->integral && hi->integral));
    prm->type = integral ? PARAM_INT : PARAM_REAL;
    if (!lo) return;
    prm->lo = lo->num;
    prm->hi = hi->num;
    if (lo->num > hi->num)
        diag_error(b->d, &lo->loc, "range %s..%s of parameter '%s' is empty (its low end is above its high end)",
                   lo->str, hi->str, prm->name);
    else if (d->num < lo->num || d->num > hi->num)
        diag_error(b->d, &d->loc, "default %s of parameter '%s' is outside its range %s..%s", d->str, prm->name,
                   lo->str, hi->str);
}

/* phelp: ltext — the parameter's type follows from what was written.  help (the arena's) is copied. */
void b_lab_param_end(struct build_state *b, struct ast_text *help)
{
    struct ast_param *prm = &b->lab->params.items[b->lab->params.n - 1];
    prm->help = ast_text_heap_copy(help);
    const struct ast_value *d = &prm->def;
    if (prm->choices.n) {
        enum_param(b, prm);
    } else if (b->range_lo || d->kind == VAL_NUMBER) {
        number_param(b, prm);
    } else if (d->kind == VAL_BOOL) {
        prm->type = PARAM_BOOL;
    } else if (d->kind == VAL_STRING) {
        prm->type = PARAM_STRING;
    } else {
        prm->type = PARAM_ENUM;
        diag_error(b->d, &d->loc, "parameter '%s' has the word '%s' as default but no choices (add `in %s|...`)",
                   prm->name, d->str, d->str);
    }
    b->range_lo = b->range_hi = NULL;
}

/*
 * palias: ALIAS name — a short option for the parameter (`alias b`: labrun's
 * -b), unique among the lab's parameters' names and aliases; alias is copied.
 */
void b_lab_param_alias(struct build_state *b, char *alias, const struct src_loc *loc)
{
    struct ast_labdef *l = b->lab;
    struct ast_param *prm = &l->params.items[l->params.n - 1];
    for (size_t i = 0; i + 1 < l->params.n; i++) {
        const struct ast_param *o = &l->params.items[i];
        if (strcmp(o->name, alias) == 0 || (o->alias && strcmp(o->alias, alias) == 0)) {
            diag_error(b->d, loc, "alias '%s' of parameter '%s' is already %s", alias, prm->name,
                       strcmp(o->name, alias) == 0 ? "a parameter's name" : "an alias");
            diag_note(b->d, &o->loc, "parameter '%s' is declared here", o->name);
            return;
        }
    }
    prm->alias = keep(alias);
}

/* lstmt: METRIC name ltext munit — name, help and unit (the arena's) are copied. */
void b_lab_metric(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc,
                  struct ast_text *help, char *unit)
{
    (void)kw;
    struct ast_labdef *l = b->lab;
    for (size_t i = 0; i < l->metrics.n; i++)
        if (!strcmp(l->metrics.items[i].name, name)) {
            diag_error(b->d, name_loc, "metric '%s' is declared twice in lab '%s'", name, l->name);
            diag_note(b->d, &l->metrics.items[i].loc, "the first '%s' is here", name);
            return;
        }
    struct ast_metric m = { .name = keep(name), .help = ast_text_heap_copy(help), .unit = keep(unit), .loc = *name_loc };
    VEC_PUSH(l->metrics, m);
}
