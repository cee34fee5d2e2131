/*
 * labs.c — lab manifests and the references quizzes make to them: finding a
 * lab along the search path, reading its manifest, checking each `lab NAME
 * (k = v) expect ...` against what the manifest declares, and cutting
 * `snippet LAB:REGION` regions out of the lab's sources.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "qz.h"

/* ---- Search path -------------------------------------------------------- */

void qz_labpath_add(struct qz_labpath *p, const char *dir)
{
    VEC_PUSH(p->dirs, xstrdup(dir));
}

void qz_labpath_clear(struct qz_labpath *p)
{
    for (size_t i = 0; i < p->dirs.n; i++)
        free(p->dirs.items[i]);
    VEC_FREE(p->dirs);
}

static char *join_path(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    if (n > 0 && dir[n - 1] == '/')
        return xasprintf("%s%s", dir, name);
    return xasprintf("%s/%s", dir, name);
}

static bool is_manifest_dir(const char *dir)
{
    char *m = join_path(dir, "lab.qz");
    struct stat st;
    bool ok = stat(m, &st) == 0;
    free(m);
    return ok;
}

char *qz_find_lab(const struct qz_labpath *labpath, const char *name)
{
    /* A name is a folder name, never a path: "../x" must not escape the search path. */
    if (!labpath || !name || !*name || strchr(name, '/') || name[0] == '.')
        return NULL;
    for (size_t i = 0; i < labpath->dirs.n; i++) {
        char *dir = join_path(labpath->dirs.items[i], name);
        if (is_manifest_dir(dir))
            return dir;
        free(dir);
    }
    return NULL;
}

/* ---- "did you mean" ----------------------------------------------------- */

/* Whether cand is close enough to name to be offered as a suggestion. */
static bool near_miss(const char *name, const char *cand, int *best)
{
    int d = edit_distance(name, cand);
    int limit = (int)strlen(name) / 3;
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;
    /* A shortened name (bubble_frac for bubble_fraction) is a near miss at any distance. */
    size_t n = strlen(name), m = strlen(cand);
    bool prefix = n >= 3 && n < m && strncmp(name, cand, n) == 0;
    if (d == 0 || (d > limit && !prefix) || d >= *best)
        return false;
    *best = d;
    return true;
}

/* The nearest lab folder along the path, for "unknown lab"; NULL when none is near. */
static char *suggest_lab(const struct qz_labpath *labpath, const char *name)
{
    char *found = NULL;
    int best = 1 << 20;
    for (size_t i = 0; labpath && i < labpath->dirs.n; i++) {
        DIR *dp = opendir(labpath->dirs.items[i]);
        if (!dp)
            continue;
        struct dirent *e;
        while ((e = readdir(dp)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            int before = best;
            if (!near_miss(name, e->d_name, &best))
                continue;
            char *dir = join_path(labpath->dirs.items[i], e->d_name);
            if (is_manifest_dir(dir)) {
                free(found);
                found = xstrdup(e->d_name);
            } else {
                best = before;
            }
            free(dir);
        }
        closedir(dp);
    }
    return found;
}

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
    char *path = join_path(dir, "lab.qz");
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

/* ---- Checking a reference ----------------------------------------------- */

/* A number as an author wrote it: 64, not 64.000000 or 6.4e+01. */
static void fmt_num(char *buf, size_t n, double x)
{
    if (x == trunc(x) && fabs(x) < 1e15)
        snprintf(buf, n, "%.0f", x);
    else
        snprintf(buf, n, "%g", x);
}

/* How a value is named in "got ..." messages; a new string. */
static char *describe_value(const struct ast_value *v)
{
    switch (v->kind) {
    case VAL_NUMBER: return xasprintf("%s", v->str ? v->str : "a number");
    case VAL_IDENT:  return xasprintf("'%s'", v->str);
    case VAL_STRING: return xasprintf("the string \"%s\"", v->str);
    case VAL_BOOL:   return xasprintf("%s", v->boolean ? "true" : "false");
    }
    return xstrdup("?");
}

static const struct src_loc *value_loc(const struct ast_value *v, const struct src_loc *fallback)
{
    return v->loc.line > 0 ? &v->loc : fallback;
}

/* "naive|gpipe|1f1b"; a new string. */
static char *enum_list(const struct ast_param *p)
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

static bool check_range(struct diag *d, const struct ast_param *p, const struct ast_value *v,
                        const struct src_loc *at)
{
    if (v->num >= p->lo && v->num <= p->hi)
        return true;
    char lo[32], hi[32];
    fmt_num(lo, sizeof lo, p->lo);
    fmt_num(hi, sizeof hi, p->hi);
    diag_error(d, value_loc(v, at), "%s = %s is out of range %s..%s",
               p->name, v->str ? v->str : "?", lo, hi);
    return false;
}

/* One `name = value` against its declared parameter. */
static bool check_arg(struct diag *d, const struct ast_arg *a, const struct ast_param *p)
{
    const struct ast_value *v = &a->value;
    const struct src_loc *at = value_loc(v, &a->loc);
    char *got = describe_value(v);
    bool ok = true;

    switch (p->type) {
    case PARAM_INT:
        if (v->kind != VAL_NUMBER || v->percent || v->num != trunc(v->num)) {
            diag_error(d, at, "parameter '%s' takes an integer, got %s", p->name, got);
            ok = false;
        } else {
            ok = check_range(d, p, v, at);
        }
        break;
    case PARAM_REAL:
        if (v->kind != VAL_NUMBER) {
            diag_error(d, at, "parameter '%s' takes a number, got %s", p->name, got);
            ok = false;
        } else {
            ok = check_range(d, p, v, at);
        }
        break;
    case PARAM_ENUM: {
        const char *word = v->kind == VAL_BOOL ? (v->boolean ? "true" : "false") : v->str;
        bool found = false;
        const char *near = NULL;
        int best = 1 << 20;
        for (size_t i = 0; word && i < p->choices.n; i++) {
            if (strcmp(word, p->choices.items[i]) == 0)
                found = true;
            else if (near_miss(word, p->choices.items[i], &best))
                near = p->choices.items[i];
        }
        if (!found) {
            char *list = enum_list(p);
            if (near)
                diag_error(d, at, "parameter '%s' takes one of %s, got %s; did you mean '%s'?",
                           p->name, list, got, near);
            else
                diag_error(d, at, "parameter '%s' takes one of %s, got %s", p->name, list, got);
            free(list);
            ok = false;
        }
        break;
    }
    case PARAM_BOOL:
        if (v->kind != VAL_BOOL) {
            diag_error(d, at, "parameter '%s' takes true or false, got %s", p->name, got);
            ok = false;
        }
        break;
    case PARAM_STRING:
        if (v->kind != VAL_STRING) {
            diag_error(d, at, "parameter '%s' takes a string, got %s", p->name, got);
            ok = false;
        }
        break;
    }
    free(got);
    return ok;
}

static bool check_expect(struct diag *d, const struct ast_labref *ref, const struct ast_expect *e,
                         const struct ast_labdef *def, enum ast_qkind qkind)
{
    bool ok = true;
    if (!qz_lab_metric(def, e->metric)) {
        const char *near = NULL;
        int best = 1 << 20;
        for (size_t i = 0; i < def->metrics.n; i++)
            if (near_miss(e->metric, def->metrics.items[i].name, &best))
                near = def->metrics.items[i].name;
        if (near)
            diag_error(d, &e->metric_loc, "lab '%s' reports no metric '%s'; did you mean '%s'?",
                       ref->name, e->metric, near);
        else
            diag_error(d, &e->metric_loc, "lab '%s' reports no metric '%s'", ref->name, e->metric);
        ok = false;
    }
    if (e->op == CMP_WITHIN) {
        const struct ast_value *t = &e->tolerance;
        if (t->kind != VAL_NUMBER || t->num < 0) {
            char *got = describe_value(t);
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
        char *got = describe_value(&e->value);
        diag_error(d, value_loc(&e->value, &e->loc), "expect compares '%s' with a number, got %s",
                   e->metric, got);
        free(got);
        ok = false;
    }
    return ok;
}

bool qz_check_labref(struct diag *d, struct ast_labref *ref, const struct ast_labdef *def,
                     enum ast_qkind qkind)
{
    bool ok = true;
    for (size_t i = 0; i < ref->args.n; i++) {
        const struct ast_arg *a = &ref->args.items[i];
        const struct ast_param *p = qz_lab_param(def, a->name);
        if (p) {
            ok &= check_arg(d, a, p);
            continue;
        }
        const char *near = NULL;
        int best = 1 << 20;
        for (size_t k = 0; k < def->params.n; k++)
            if (near_miss(a->name, def->params.items[k].name, &best))
                near = def->params.items[k].name;
        if (near)
            diag_error(d, &a->loc, "lab '%s' has no parameter '%s'; did you mean '%s'?",
                       ref->name, a->name, near);
        else
            diag_error(d, &a->loc, "lab '%s' has no parameter '%s'", ref->name, a->name);
        ok = false;
    }
    for (size_t i = 0; i < ref->expects.n; i++)
        ok &= check_expect(d, ref, &ref->expects.items[i], def, qkind);
    ref->def = def;
    return ok;
}

/* ---- Snippets ----------------------------------------------------------- */

static bool snippet_ext(const char *name)
{
    static const char *const exts[] = { ".c", ".h", ".cu", ".cuh", ".py", ".sh", ".qz" };
    const char *dot = strrchr(name, '.');
    if (!dot)
        return false;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i]) == 0)
            return true;
    return false;
}

/*
 * Classify a line: a start marker `// snippet: NAME` (or `# snippet: NAME`)
 * returns 1 with the name in *name and *nlen, an end marker `// end snippet`
 * returns -1, anything else 0.
 */
static int marker(const char *line, size_t len, const char **name, size_t *nlen)
{
    const char *p = line, *end = line + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p >= 2 && p[0] == '/' && p[1] == '/')
        p += 2;
    else if (p < end && *p == '#')
        p++;
    else
        return 0;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    if ((size_t)(end - p) == strlen("end snippet") && memcmp(p, "end snippet", 11) == 0)
        return -1;
    if (end - p < 8 || memcmp(p, "snippet:", 8) != 0)
        return 0;
    p += 8;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    *name = p;
    *nlen = (size_t)(end - p);
    return 1;
}

static size_t indent_of(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i;
}

/* The region in text, dedented, or NULL.  Nested regions' markers are dropped. */
static char *cut_region(const char *text, size_t tlen, const char *region)
{
    struct { const char *p; size_t n; } *lines = NULL;
    size_t nlines = 0, cap = 0;
    int depth = 0;
    bool done = false;
    const char *p = text, *end = text + tlen;

    while (p < end && !done) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *name;
        size_t nlen;
        int m = marker(p, len, &name, &nlen);
        if (depth == 0) {
            if (m == 1 && nlen == strlen(region) && memcmp(name, region, nlen) == 0)
                depth = 1;
        } else if (m == 1) {
            depth++;
        } else if (m == -1) {
            if (--depth == 0)
                done = true;
        } else {
            if (len > 0 && p[len - 1] == '\r')
                len--;
            if (nlines == cap) {
                cap = cap ? 2 * cap : 16;
                lines = xrealloc(lines, cap * sizeof *lines);
            }
            lines[nlines].p = p;
            lines[nlines].n = len;
            nlines++;
        }
        p = nl ? nl + 1 : end;
    }
    if (!done) {
        free(lines);
        return NULL;
    }

    /* Common indentation of the non-blank lines, as a byte prefix they share. */
    size_t common = (size_t)-1;
    const char *ref = NULL;
    for (size_t i = 0; i < nlines; i++) {
        size_t ind = indent_of(lines[i].p, lines[i].n);
        if (ind == lines[i].n)
            continue;
        if (!ref) {
            ref = lines[i].p;
            common = ind;
            continue;
        }
        size_t k = 0;
        while (k < common && k < ind && lines[i].p[k] == ref[k])
            k++;
        common = k;
    }
    if (common == (size_t)-1)
        common = 0;

    size_t total = 1;
    for (size_t i = 0; i < nlines; i++)
        total += lines[i].n + 1;
    /* Lines joined by newlines, none after the last: as a fenced code block's code. */
    char *out = xmalloc(total), *o = out;
    for (size_t i = 0; i < nlines; i++) {
        size_t skip = lines[i].n < common ? lines[i].n : common;
        if (i)
            *o++ = '\n';
        memcpy(o, lines[i].p + skip, lines[i].n - skip);
        o += lines[i].n - skip;
    }
    *o = '\0';
    free(lines);
    return out;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Search dir (rel: its path relative to the lab) in name order, sub-folders included. */
static char *snippet_in(const char *dir, const char *rel, const char *region, char **file, int depth)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    if (n < 0)
        return NULL;
    char *found = NULL;
    for (int i = 0; i < n; i++) {
        const char *nm = ents[i]->d_name;
        if (found || nm[0] == '.')
            continue;
        char *path = join_path(dir, nm);
        char *relp = rel ? join_path(rel, nm) : xstrdup(nm);
        struct stat st;
        if (stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode) && depth < 4) {
                found = snippet_in(path, relp, region, file, depth + 1);
            } else if (S_ISREG(st.st_mode) && snippet_ext(nm)) {
                size_t len;
                char *text = read_file(path, &len);
                if (text) {
                    found = cut_region(text, len, region);
                    free(text);
                    if (found && file) {
                        *file = relp;
                        relp = NULL;
                    }
                }
            }
        }
        free(path);
        free(relp);
    }
    for (int i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
    return found;
}

char *qz_snippet(const char *dir, const char *region, char **file)
{
    if (file)
        *file = NULL;
    return snippet_in(dir, NULL, region, file, 0);
}

/* ---- Resolution over a course ------------------------------------------- */

struct resolver {
    struct diag *d;
    struct qz_course *c;
    const struct qz_labpath *path;
    VEC(char *) broken;         /* labs whose manifest had errors: reported once, then skipped */
};

static bool was_broken(const struct resolver *r, const char *name)
{
    for (size_t i = 0; i < r->broken.n; i++)
        if (strcmp(r->broken.items[i], name) == 0)
            return true;
    return false;
}

/* The manifest of lab `name`, loading it on first use; NULL after reporting at `at`. */
static const struct ast_labdef *lab_for(struct resolver *r, const char *name, const struct src_loc *at)
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

    char *near = suggest_lab(r->path, name);
    if (near)
        diag_error(r->d, at, "unknown lab '%s'; did you mean '%s'?", name, near);
    else
        diag_error(r->d, at, "unknown lab '%s'", name);
    free(near);
    return NULL;
}

void qz_resolve_labs(struct diag *d, struct qz_course *c, const struct qz_labpath *labpath)
{
    struct resolver r = { .d = d, .c = c, .path = labpath };
    for (size_t qi = 0; qi < c->questions.n; qi++) {
        struct ast_question *q = c->questions.items[qi];
        for (size_t i = 0; i < q->labs.n; i++) {
            struct ast_labref *ref = &q->labs.items[i];
            const struct ast_labdef *def = lab_for(&r, ref->name, &ref->name_loc);
            if (def)
                qz_check_labref(d, ref, def, q->kind);
        }
        for (size_t i = 0; i < q->snippets.n; i++) {
            struct ast_snippet *s = &q->snippets.items[i];
            const struct ast_labdef *def = lab_for(&r, s->lab, &s->loc);
            if (!def)
                continue;
            free(s->code);
            free(s->file);
            s->file = NULL;
            s->code = qz_snippet(def->dir, s->region, &s->file);
            if (!s->code)
                diag_error(d, &s->loc, "lab '%s' has no snippet region '%s' (a `// snippet: %s` ... "
                           "`// end snippet` block in its sources)", s->lab, s->region, s->region);
        }
    }
    for (size_t i = 0; i < r.broken.n; i++)
        free(r.broken.items[i]);
    VEC_FREE(r.broken);
}
