/*
 * labs.c — lab manifests and the references quizzes make to them: reading a
 * manifest, checking each `lab NAME (k = v) expect ...` against what it
 * declares, and the pass that does so over a course (labref.h).
 */
#include <stdio.h>
#include <string.h>

#include "qz.h"

/* ---- Manifests ---------------------------------------------------------- */

static const char *base_name(const char *dir, size_t *len)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    size_t start = n;
    while (start > 0 && dir[start - 1] != '/')
        start--;
    *len = n - start;
    return dir + start;
}

struct ast_labdef *qz_load_lab(struct diag *d, const char *dir, const struct src_loc *at)
{
    char *path = path_join(dir, "lab.qz");
    const struct source *src = diag_read_source(d, path, at);
    if (!src) {
        free(path);
        return NULL;
    }
    struct ast_file *f = qz_parse(d, src);
    struct ast_labdef *lab = f ? f->lab : NULL;
    if (!lab) {
        diag_error(d, at, "%s holds no `lab NAME { ... }` manifest", path);
        ast_file_free(f);
        free(path);
        return NULL;
    }
    f->lab = NULL;  /* the manifest outlives its file tree */
    ast_file_free(f);
    free(path);

    size_t blen;
    const char *base = base_name(dir, &blen);
    if (lab->name && (strlen(lab->name) != blen || strncmp(lab->name, base, blen) != 0)) {
        diag_error(d, &lab->name_loc, "lab '%s' is in folder '%.*s'; a lab's name must match its folder",
                   lab->name, (int)blen, base);
        if (at)
            diag_note(d, at, "lab '%.*s' referenced here", (int)blen, base);
    }
    lab->dir = xstrdup(dir);
    return lab;
}

/* ---- Checking a reference ----------------------------------------------- */

static const struct src_loc *value_loc(const struct ast_value *v, const struct src_loc *fallback)
{
    return loc_known(&v->loc) ? &v->loc : fallback;
}

/* One `name = value` against its declared parameter. */
static bool check_arg(struct diag *d, const struct ast_arg *a, const struct ast_param *p)
{
    char *why = NULL, *canon = qz_param_canon(p, &a->value, &why);
    if (!canon)
        diag_error(d, value_loc(&a->value, &a->loc), "%s", why);
    free(why);
    free(canon);
    return canon != NULL;
}

bool qz_check_expect(struct diag *d, const struct ast_labref *ref, const struct ast_expect *e,
                     const struct ast_labdef *def, enum ast_qkind qkind)
{
    bool ok = true;
    if (!qz_lab_metric(def, e->metric)) {
        struct qz_near near;
        qz_near_init(&near, e->metric);
        for (size_t i = 0; i < def->metrics.n; i++)
            qz_near_offer(&near, def->metrics.items[i].name);
        if (near.best)
            diag_error(d, &e->metric_loc, "lab '%s' reports no metric '%s'; did you mean '%s'?",
                       ref->name, e->metric, near.best);
        else
            diag_error(d, &e->metric_loc, "lab '%s' reports no metric '%s'", ref->name, e->metric);
        ok = false;
    }
    if (e->op == CMP_WITHIN) {
        const struct ast_value *t = &e->tolerance;
        if (t->kind != VAL_NUMBER || t->num < 0) {
            char *got = qz_describe_value(t);
            diag_error(d, value_loc(t, &e->loc), "the tolerance after 'within' must be a number >= 0, got %s", got);
            free(got);
            ok = false;
        }
    }
    if (e->of_answer) {
        if (qkind != Q_NUMERIC) {
            diag_error(d, value_loc(&e->value, &e->loc),
                       "'within ... of answer' needs a numeric question (this one is %s)",
                       ast_qkind_name(qkind));
            ok = false;
        }
    } else if (e->value.kind != VAL_NUMBER) {
        char *got = qz_describe_value(&e->value);
        diag_error(d, value_loc(&e->value, &e->loc), "expect compares '%s' with a number, got %s",
                   e->metric, got);
        free(got);
        ok = false;
    }
    return ok;
}

bool qz_check_args(struct diag *d, const struct ast_labref *ref, const struct ast_labdef *def)
{
    bool ok = true;
    for (size_t i = 0; i < ref->args.n; i++) {
        const struct ast_arg *a = &ref->args.items[i];
        const struct ast_param *p = qz_lab_param(def, a->name);
        if (p) {
            ok &= check_arg(d, a, p);
            continue;
        }
        struct qz_near near;
        qz_near_init(&near, a->name);
        for (size_t k = 0; k < def->params.n; k++)
            qz_near_offer(&near, def->params.items[k].name);
        if (near.best)
            diag_error(d, &a->loc, "lab '%s' has no parameter '%s'; did you mean '%s'?",
                       ref->name, a->name, near.best);
        else
            diag_error(d, &a->loc, "lab '%s' has no parameter '%s'", ref->name, a->name);
        ok = false;
    }
    return ok;
}

bool qz_check_labref(struct diag *d, struct ast_labref *ref, const struct ast_labdef *def,
                     enum ast_qkind qkind)
{
    bool ok = qz_check_args(d, ref, def);
    for (size_t i = 0; i < ref->expects.n; i++)
        ok &= qz_check_expect(d, ref, &ref->expects.items[i], def, qkind);
    ref->def = def;
    return ok;
}

/* ---- Resolution over a course ------------------------------------------- */

struct qz_resolver {
    struct diag *d;
    struct qz_course *c;
    const struct qz_labpath *path;
    VEC(char *) broken;         /* labs not found or whose manifest had errors: reported once, then skipped */
};

struct qz_resolver *qz_resolver_new(struct diag *d, struct qz_course *c, const struct qz_labpath *p)
{
    struct qz_resolver *r = xcalloc(1, sizeof *r);
    r->d = d;
    r->c = c;
    r->path = p;
    return r;
}

void qz_resolver_free(struct qz_resolver *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->broken.n; i++)
        free(r->broken.items[i]);
    VEC_FREE(r->broken);
    free(r);
}

static bool was_broken(const struct qz_resolver *r, const char *name)
{
    for (size_t i = 0; i < r->broken.n; i++)
        if (strcmp(r->broken.items[i], name) == 0)
            return true;
    return false;
}

void qz_report_unknown_lab(struct diag *d, const struct qz_labpath *path, const char *name,
                          const struct src_loc *at)
{
    char *near = qz_near_lab(path, name);
    if (near)
        diag_error(d, at, "unknown lab '%s'; did you mean '%s'?", name, near);
    else
        diag_error(d, at, "unknown lab '%s'", name);
    free(near);
    char *dirs = xstrdup("");
    for (size_t i = 0; path && i < path->dirs.n; i++) {
        char *more = xasprintf("%s%s%s", dirs, i ? ", " : "", path->dirs.items[i]);
        free(dirs);
        dirs = more;
    }
    diag_note(d, at, "looked for a folder '%s' holding a lab.qz in %s; a folder of labs elsewhere is "
              "added with -L DIR", name, *dirs ? dirs : "no folder");
    free(dirs);
}

/* The manifest of lab `name`, loading it on first use; NULL after reporting at `at` (once per name). */
static const struct ast_labdef *lab_for(struct qz_resolver *r, const char *name, const struct src_loc *at)
{
    for (size_t i = 0; i < r->c->labs.n; i++)
        if (strcmp(r->c->labs.items[i]->name, name) == 0)
            return r->c->labs.items[i];

    if (was_broken(r, name))
        return NULL;
    char *dir = qz_find_lab(r->path, name);
    if (dir) {
        int before = diag_errors(r->d);
        struct ast_labdef *def = qz_load_lab(r->d, dir, at);
        free(dir);
        if (def && diag_errors(r->d) == before) {
            VEC_PUSH(r->c->labs, def);
            return def;
        }
        /* A broken manifest was reported once; its references are not re-checked. */
        ast_labdef_free(def);
        VEC_PUSH(r->broken, xstrdup(name));
        return NULL;
    }

    qz_report_unknown_lab(r->d, r->path, name, at);
    /* Said once: the lab's other uses would only repeat it. */
    VEC_PUSH(r->broken, xstrdup(name));
    return NULL;
}

/* A snippet region the lab lacks: the nearest one it has, or how a region is marked. */
static void no_region(struct diag *d, const struct ast_snippet *s, const struct ast_labdef *def)
{
    struct qz_regions *regions = qz_snippet_regions(def->dir);
    const char *near = qz_region_near(regions, s->region);
    if (near)
        diag_error(d, &s->loc, "lab '%s' has no snippet region '%s'; did you mean '%s'?", s->lab, s->region, near);
    else
        diag_error(d, &s->loc, "lab '%s' has no snippet region '%s' (a `// snippet: %s` ... "
                   "`// end snippet` block in its sources; `labrun %s --help` lists its regions)",
                   s->lab, s->region, s->region, s->lab);
    qz_regions_free(regions);
}

void qz_resolve_question(struct qz_resolver *r, struct ast_question *q)
{
    for (size_t i = 0; i < q->extra->labs.n; i++) {
        struct ast_labref *ref = &q->extra->labs.items[i];
        const struct ast_labdef *def = lab_for(r, ref->name, &ref->name_loc);
        if (def)
            qz_check_labref(r->d, ref, def, q->kind);
    }
    for (size_t i = 0; i < q->extra->snippets.n; i++) {
        struct ast_snippet *s = &q->extra->snippets.items[i];
        const struct ast_labdef *def = lab_for(r, s->lab, &s->loc);
        if (!def)
            continue;
        free(s->code);
        free(s->file);
        s->file = NULL;
        char *outside;
        s->code = qz_snippet(def->dir, s->region, &s->file, &outside);
        if (outside)
            diag_error(r->d, &s->loc, "lab '%s': '%s' is a symbolic link that leads outside the lab's folder; "
                       "a snippet is read only from the lab's own files", s->lab, outside);
        else if (!s->code)
            no_region(r->d, s, def);
        free(outside);
    }
}

void qz_resolve_labs(struct diag *d, struct qz_course *c, const struct qz_labpath *p)
{
    struct qz_resolver *r = qz_resolver_new(d, c, p);
    for (size_t qi = 0; qi < c->questions.n; qi++)
        qz_resolve_question(r, c->questions.items[qi]);
    qz_resolver_free(r);
}
