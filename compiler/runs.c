/*
 * runs.c — quizc --runs RUNS.json: the runs file of `labrun --verify
 * --record` read with jansson, every field checked, and each run attached to
 * the lab references it was recorded for.
 *
 * The file is hostile until checked: its size is bounded before it is read,
 * counts and string lengths are bounded as it is walked, and text that XML
 * 1.0 cannot carry is refused here rather than half-written later.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "outfile.h"
#include "labref.h"
#include "runs.h"

#define MAX_RUNS 4096
#define MAX_ITEMS 1024              /* params, metrics, checks, notes of one run */
#define MAX_TEXT 16384              /* one string other than the timeline */
#define MAX_LANGS 16                /* languages of one run's words */

struct reader {
    struct diag *d;
    const char *path;
    bool failed;
};

/* "PATH: error: where: msg" (the file has no useful line for a value of the wrong type). */
static void fail(struct reader *r, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct reader *r, const char *where, const char *fmt, ...)
{
    if (r->failed)
        return;     /* the first problem is the one to fix */
    r->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (where && *where)
        diag_report_in(r->d, DIAG_ERROR, r->path, "%s: %s", where, msg);
    else
        diag_report_in(r->d, DIAG_ERROR, r->path, "%s", msg);
}

/* Whether s[0..n) is text XML 1.0 carries. */
static bool xml_text(const char *s, size_t n)
{
    size_t at;
    unsigned cp;
    return !xml_forbidden(s, n, &at, &cp);
}

/* The string at key of o: a new copy, or NULL (reported unless optional and absent). */
static char *str_at(struct reader *r, const char *where, json_t *o, const char *key, bool optional, size_t max)
{
    json_t *v = json_object_get(o, key);
    if (!v || (optional && json_is_null(v))) {
        if (!optional)
            fail(r, where, "\"%s\" is missing", key);
        return NULL;
    }
    if (!json_is_string(v)) {
        fail(r, where, "\"%s\" must be a string", key);
        return NULL;
    }
    size_t n = json_string_length(v);
    if (n > max) {
        fail(r, where, "\"%s\" is %zu bytes long; at most %zu are read", key, n, max);
        return NULL;
    }
    if (!xml_text(json_string_value(v), n)) {
        fail(r, where, "\"%s\" holds a control character", key);
        return NULL;
    }
    return xstrdup(json_string_value(v));
}

static long int_at(struct reader *r, const char *where, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1000000) {
        fail(r, where, "\"%s\" must be a whole number from 0 to 1000000", key);
        return 0;
    }
    return (long)json_integer_value(v);
}

/* The array at key, bounded; NULL (reported) when it is not one. */
static json_t *array_at(struct reader *r, const char *where, json_t *o, const char *key, size_t max)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return NULL;
    if (!json_is_array(v)) {
        fail(r, where, "\"%s\" must be a list", key);
        return NULL;
    }
    if (json_array_size(v) > max) {
        fail(r, where, "\"%s\" has %zu entries; at most %zu are read", key, json_array_size(v), max);
        return NULL;
    }
    return v;
}

static void read_params(struct reader *r, const char *where, json_t *o, struct qz_run *run)
{
    json_t *ps = json_object_get(o, "params");
    if (!json_is_object(ps)) {
        fail(r, where, "\"params\" must be an object");
        return;
    }
    if (json_object_size(ps) > MAX_ITEMS) {
        fail(r, where, "\"params\" has %zu entries; at most %d are read", json_object_size(ps), MAX_ITEMS);
        return;
    }
    const char *key;
    json_t *v;
    char num[FMT_NUMBER_MAX];
    json_object_foreach(ps, key, v) {
        char *val = NULL;
        enum qz_run_type type = RUN_STRING;
        if (json_is_number(v))
            val = xstrdup(fmt_number(num, json_number_value(v))), type = RUN_NUMBER;
        else if (json_is_boolean(v))
            val = xstrdup(json_is_true(v) ? "true" : "false"), type = RUN_BOOL;
        else if (json_is_string(v) && json_string_length(v) <= MAX_TEXT && xml_text(json_string_value(v), json_string_length(v)))
            val = xstrdup(json_string_value(v));
        if (!val || strlen(key) > MAX_TEXT || !xml_text(key, strlen(key))) {
            free(val);
            fail(r, where, "parameter \"%.64s\" must be a number, true, false or a string of text", key);
            return;
        }
        struct qz_run_param p = { .name = xstrdup(key), .value = val, .type = type,
                                  .number = type == RUN_NUMBER ? json_number_value(v) : 0 };
        VEC_PUSH(run->params, p);
    }
}

static void read_metrics(struct reader *r, const char *where, json_t *o, struct qz_run *run)
{
    static const char *const bases[] = { "measured", "replayed", "modelled", "exact" };
    json_t *ms = array_at(r, where, o, "metrics", MAX_ITEMS);
    size_t i;
    json_t *m;
    char at[160];
    json_array_foreach(ms, i, m) {
        snprintf(at, sizeof at, "%s.metrics[%zu]", where, i);
        json_t *v = json_object_get(m, "value");
        if (!json_is_object(m) || !(json_is_number(v) || json_is_null(v))) {
            fail(r, at, "a metric is {\"name\", \"value\": a number or null, \"basis\"}");
            return;
        }
        struct qz_run_metric x = { .value = json_is_number(v) ? json_number_value(v) : NAN };
        x.known = isfinite(x.value);
        x.name = str_at(r, at, m, "name", false, 256);
        x.basis = str_at(r, at, m, "basis", false, 16);
        bool basis_ok = false;
        for (size_t k = 0; x.basis && k < sizeof bases / sizeof *bases; k++)
            basis_ok |= strcmp(x.basis, bases[k]) == 0;
        if (x.basis && !basis_ok)
            fail(r, at, "\"basis\" is measured, replayed, modelled or exact, not \"%.32s\"", x.basis);
        VEC_PUSH(run->metrics, x);
        if (r->failed)
            return;
        /* One figure per name: a second would be shown by one output and judged by another. */
        for (size_t k = 0; k + 1 < run->metrics.n; k++)
            if (strcmp(run->metrics.items[k].name, x.name) == 0) {
                fail(r, at, "metric \"%.64s\" is listed twice (first at metrics[%zu])", x.name, k);
                return;
            }
    }
}

/*
 * The "checks" and "notes" of o, pushed to checks and notes (a
 * VEC(struct qz_run_check) and a VEC(char *)).  A check's "pass" is read
 * when with_pass; words in another language take the run's.
 */
static void read_words(struct reader *r, const char *where, json_t *o, void *checks_vec, void *notes_vec,
                       bool with_pass)
{
    VEC(struct qz_run_check) *checks = checks_vec;
    VEC(char *) *notes = notes_vec;
    json_t *cs = array_at(r, where, o, "checks", MAX_ITEMS);
    size_t i;
    json_t *c;
    char at[160];
    json_array_foreach(cs, i, c) {
        snprintf(at, sizeof at, "%s.checks[%zu]", where, i);
        if (!json_is_object(c) || (with_pass && !json_is_boolean(json_object_get(c, "pass")))) {
            fail(r, at, with_pass ? "a check is {\"name\", \"pass\": true or false, \"detail\"}"
                                  : "a check's words are {\"name\", \"detail\"}");
            return;
        }
        struct qz_run_check x = { .pass = json_is_true(json_object_get(c, "pass")) };
        x.name = str_at(r, at, c, "name", false, MAX_TEXT);
        x.detail = str_at(r, at, c, "detail", true, MAX_TEXT);
        VEC_PUSH(*checks, x);
        if (r->failed)
            return;
    }
    json_t *ns = array_at(r, where, o, "notes", MAX_ITEMS);
    json_t *n;
    json_array_foreach(ns, i, n) {
        snprintf(at, sizeof at, "%s.notes[%zu]", where, i);
        json_t *wrap = json_pack("{s:O}", "note", n);
        char *s = str_at(r, at, wrap, "note", false, MAX_TEXT);
        json_decref(wrap);
        if (!s)
            return;
        VEC_PUSH(*notes, s);
    }
}

/* The timeline at o's "svg", or NULL. */
static char *svg_at(struct reader *r, const char *where, json_t *o)
{
    char *svg = str_at(r, where, o, "svg", true, RUNS_MAX_SVG);
    if (svg && strncmp(svg, "<?xml", 5) != 0 && strncmp(svg, "<svg", 4) != 0)
        fail(r, where, "\"svg\" must be an SVG document");
    return svg;
}

/* A language tag (xs:language): 1-8 letters, then '-' and 1-8 letters or digits, again and again. */
static bool lang_tag(const char *s)
{
    size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
    if (n < 1 || n > 8)
        return false;
    for (s += n; *s; s += n) {
        if (*s++ != '-')
            return false;
        n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
        if (n < 1 || n > 8)
            return false;
    }
    return true;
}

/* The language of run's words ("lang") and the same words in others ("words"). */
static void read_langs(struct reader *r, const char *where, json_t *o, struct qz_run *run)
{
    run->lang = str_at(r, where, o, "lang", true, 64);
    if (run->lang && !lang_tag(run->lang)) {
        fail(r, where, "\"lang\" must be a language tag, such as \"en\" or \"id\"");
        return;
    }
    json_t *all = json_object_get(o, "words");
    if (!all || r->failed)
        return;
    if (!json_is_object(all) || !run->lang) {
        fail(r, where, "\"words\" must be an object of languages, beside \"lang\", the language of the run's own");
        return;
    }
    const char *lang;
    json_t *w;
    char at[160];
    json_object_foreach(all, lang, w) {
        /* The key is named in messages only once it is a tag: a file's bytes reach no terminal unchecked. */
        snprintf(at, sizeof at, "%s.words%s%s", where, lang_tag(lang) ? "." : "", lang_tag(lang) ? lang : "");
        if (!lang_tag(lang) || strcmp(lang, run->lang) == 0 || !json_is_object(w) || run->words.n >= MAX_LANGS) {
            fail(r, at, "each of \"words\" is another language's tag with {\"checks\", \"notes\", \"svg\"}, "
                 "at most %d", MAX_LANGS);
            return;
        }
        VEC_PUSH(run->words, ((struct qz_run_words){ .lang = xstrdup(lang) }));
        struct qz_run_words *x = &run->words.items[run->words.n - 1];
        read_words(r, at, w, &x->checks, &x->notes, false);
        x->svg = svg_at(r, at, w);
        if (r->failed)
            return;
        if (x->checks.n != run->checks.n) {
            fail(r, at, "has %zu checks; the run has %zu", x->checks.n, run->checks.n);
            return;
        }
        for (size_t k = 0; k < x->checks.n; k++)
            x->checks.items[k].pass = run->checks.items[k].pass;
    }
}

static void read_run(struct reader *r, size_t i, json_t *o, struct qz_run *run)
{
    char at[64];
    snprintf(at, sizeof at, "runs[%zu]", i);
    if (!json_is_object(o)) {
        fail(r, at, "a run must be an object");
        return;
    }
    run->lab = str_at(r, at, o, "lab", false, 256);
    run->backend = str_at(r, at, o, "backend", false, 64);
    run->date = str_at(r, at, o, "date", false, 64);
    run->labrun = str_at(r, at, o, "labrun", false, 64);
    run->hash = str_at(r, at, o, "hash", true, 128);
    run->placement = str_at(r, at, o, "placement", true, MAX_TEXT);
    run->svg = svg_at(r, at, o);
    json_t *m = json_object_get(o, "machine");
    if (!json_is_object(m)) {
        fail(r, at, "\"machine\" must be an object");
        return;
    }
    char mat[80];
    snprintf(mat, sizeof mat, "%s.machine", at);
    run->machine.cpu = str_at(r, mat, m, "cpu", true, 256);
    run->machine.gpu = str_at(r, mat, m, "gpu", true, 256);
    run->machine.driver = str_at(r, mat, m, "driver", true, 256);
    run->machine.nccl = str_at(r, mat, m, "nccl", true, 256);
    run->machine.cores = int_at(r, mat, m, "cores");
    run->machine.gpus = int_at(r, mat, m, "gpus");
    read_params(r, at, o, run);
    read_metrics(r, at, o, run);
    read_words(r, at, o, &run->checks, &run->notes, true);
    read_langs(r, at, o, run);
}

static void read_root(struct reader *r, json_t *root, struct qz_runs *rs)
{
    json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) || strcmp(json_string_value(fmt), QZ_RUNS_FORMAT) != 0) {
        fail(r, NULL, "not a runs file: it has no \"format\": \"%s\" (labrun --verify QUIZ --record FILE writes one)",
             QZ_RUNS_FORMAT);
        return;
    }
    json_t *ver = json_object_get(root, "version");
    if (!json_is_integer(ver) || json_integer_value(ver) != QZ_RUNS_VERSION) {
        if (json_is_integer(ver))
            fail(r, NULL, "runs file version %lld; this quizc reads version %d", (long long)json_integer_value(ver),
                 QZ_RUNS_VERSION);
        else
            fail(r, NULL, "\"version\" is missing or not a number");
        return;
    }
    rs->quiz = str_at(r, "", root, "quiz", true, 4096);
    rs->quiz_id = str_at(r, "", root, "quiz_id", true, 256);
    rs->quiz_hash = str_at(r, "", root, "quiz_hash", true, 128);
    if (r->failed)
        return;
    json_t *runs = array_at(r, "", root, "runs", MAX_RUNS);
    if (!runs && !r->failed)
        fail(r, NULL, "\"runs\" is missing");
    size_t i;
    json_t *o;
    json_array_foreach(runs, i, o) {
        struct qz_run run = { 0 };
        VEC_PUSH(rs->runs, run);
        read_run(r, i, o, &rs->runs.items[rs->runs.n - 1]);
        if (r->failed)
            return;
    }
}

struct qz_runs *runs_load(struct diag *d, const char *path)
{
    struct reader r = { .d = d, .path = path };
    struct stat st;
    if (stat(path, &st) != 0) {
        fail(&r, NULL, "cannot read the runs file: %s", strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        fail(&r, NULL, "cannot read the runs file: not a regular file");
        return NULL;
    }
    if ((unsigned long long)st.st_size > RUNS_MAX_BYTES) {
        fail(&r, NULL, "the runs file is %lld bytes; quizc reads at most %u MiB of recorded runs",
             (long long)st.st_size, RUNS_MAX_BYTES >> 20);
        return NULL;
    }
    size_t len = 0;
    char *text = out_read_input(path, &len);
    if (!text) {
        fail(&r, NULL, "cannot read the runs file: %s", strerror(errno));
        return NULL;
    }
    if (len > RUNS_MAX_BYTES) {     /* it grew since stat */
        free(text);
        fail(&r, NULL, "the runs file is larger than %u MiB", RUNS_MAX_BYTES >> 20);
        return NULL;
    }
    json_error_t e;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
    if (!root) {
        const struct source *src = diag_add_source(d, path, text, len);
        if (!src)
            return NULL;
        size_t off = e.line > 0 ? src_offset(src, e.line, e.column > 0 ? e.column : 1)
                   : e.position > 0 && (size_t)e.position <= len ? (size_t)e.position - 1 : 0;
        struct src_loc at = loc_bytes(src, off, off < len);
        diag_error(d, &at, "not a runs file: %s", e.text);
        return NULL;
    }
    free(text);
    struct qz_runs *rs = xcalloc(1, sizeof *rs);
    rs->path = xstrdup(path);
    read_root(&r, root, rs);
    json_decref(root);
    if (r.failed) {
        runs_free(rs);
        return NULL;
    }
    return rs;
}

static void words_free(struct qz_run_words *w)
{
    for (size_t k = 0; k < w->checks.n; k++)
        free(w->checks.items[k].name), free(w->checks.items[k].detail);
    for (size_t k = 0; k < w->notes.n; k++)
        free(w->notes.items[k]);
    VEC_FREE(w->checks);
    VEC_FREE(w->notes);
    free(w->lang), free(w->svg);
}

void runs_free(struct qz_runs *rs)
{
    if (!rs)
        return;
    for (size_t i = 0; i < rs->runs.n; i++) {
        struct qz_run *r = &rs->runs.items[i];
        free(r->lab), free(r->backend), free(r->date), free(r->labrun), free(r->hash);
        free(r->placement), free(r->svg);
        free(r->machine.cpu), free(r->machine.gpu), free(r->machine.driver), free(r->machine.nccl);
        for (size_t k = 0; k < r->params.n; k++)
            free(r->params.items[k].name), free(r->params.items[k].value);
        for (size_t k = 0; k < r->metrics.n; k++)
            free(r->metrics.items[k].name), free(r->metrics.items[k].basis);
        for (size_t k = 0; k < r->checks.n; k++)
            free(r->checks.items[k].name), free(r->checks.items[k].detail);
        for (size_t k = 0; k < r->notes.n; k++)
            free(r->notes.items[k]);
        for (size_t k = 0; k < r->words.n; k++)
            words_free(&r->words.items[k]);
        free(r->lang);
        VEC_FREE(r->words);
        VEC_FREE(r->params);
        VEC_FREE(r->metrics);
        VEC_FREE(r->checks);
        VEC_FREE(r->notes);
    }
    VEC_FREE(rs->runs);
    free(rs->quiz), free(rs->quiz_id), free(rs->quiz_hash);
    free(rs->path);
    free(rs);
}

/* ---- Attaching runs to references ---------------------------------------- */

void runs_each_param(const struct ast_labref *ref,
                     void (*fn)(void *ctx, const struct ast_param *p, const char *value), void *ctx)
{
    if (!ref->def)
        return;
    for (size_t i = 0; i < ref->def->params.n; i++) {
        const struct ast_param *p = &ref->def->params.items[i];
        char *v = NULL, *why = NULL;
        for (size_t k = 0; k < ref->args.n && !v; k++)
            if (strcmp(ref->args.items[k].name, p->name) == 0)
                v = qz_arg_value(ref, &ref->args.items[k]);
        if (!v)
            v = qz_param_canon(p, &p->def, &why);
        free(why);
        if (v)
            fn(ctx, p, v);
        free(v);
    }
}

struct match {
    const struct qz_run *run;
    bool same;
    const struct qz_run_param *mistyped;    /* the first of the run's values of another type than the lab's */
    const struct ast_param *as;             /* the lab's parameter it was given for */
};

/* The JSON type a value of p has in labrun's report (runtime/report_json.c writes it so). */
static enum qz_run_type param_run_type(const struct ast_param *p)
{
    switch (p->type) {
    case PARAM_INT:
    case PARAM_REAL: return RUN_NUMBER;
    case PARAM_BOOL: return RUN_BOOL;
    default:         return RUN_STRING;
    }
}

/* Whether the run had value (quizc's canonical text of p's value) for p: the same type and the same value. */
static void match_param(void *ctx, const struct ast_param *p, const char *value)
{
    struct match *m = ctx;
    const struct qz_run_param *got = NULL;
    for (size_t i = 0; i < m->run->params.n && !got; i++)
        if (strcmp(m->run->params.items[i].name, p->name) == 0)
            got = &m->run->params.items[i];
    if (!got) {
        m->same = false;
        return;
    }
    if (got->type != param_run_type(p)) {
        m->same = false;
        if (!m->mistyped)
            m->mistyped = got, m->as = p;
        return;
    }
    if (got->type == RUN_NUMBER) {
        /* value is quizc's own shortest text of a number: all of it is the number. */
        char *end;
        double want = strtod(value, &end);
        m->same &= *end == '\0' && got->number == want;
    } else
        m->same &= strcmp(got->value, value) == 0;
}

static const char *const run_type_names[] = { [RUN_NUMBER] = "a number", [RUN_BOOL] = "true or false",
                                              [RUN_STRING] = "a string" };

static const struct qz_run *find_run(struct diag *d, const struct qz_runs *rs, const struct ast_labref *ref)
{
    const char *lab = ref->def->name ? ref->def->name : ref->name;
    struct match odd = { 0 };
    for (size_t i = 0; i < rs->runs.n; i++) {
        struct match m = { .run = &rs->runs.items[i], .same = true };
        if (strcmp(m.run->lab, lab) != 0)
            continue;
        runs_each_param(ref, match_param, &m);
        if (m.same)
            return m.run;
        if (m.mistyped && !odd.mistyped)
            odd = m;
    }
    /* Not silently: a value of the wrong type is a runs file written by something other than labrun. */
    if (odd.mistyped)
        diag_warning(d, &ref->loc, "a run of lab '%s' in %s is not used: its parameter '%s' is %s (\"%.64s\"), "
                     "where the lab takes %s", ref->name, rs->path, odd.as->name,
                     run_type_names[odd.mistyped->type], odd.mistyped->value, run_type_names[param_run_type(odd.as)]);
    else
        runs_judge_missing(d, rs, ref);
    return NULL;
}

void runs_attach(struct diag *d, const struct qz_runs *rs, struct qz_course *c)
{
    /* Each lab's fingerprint, made once. */
    VEC(const struct ast_labdef *) defs = { 0 };
    VEC(char *) hashes = { 0 };
    runs_judge_quiz(d, rs, c);
    for (size_t i = 0; i < c->questions.n; i++) {
        struct ast_question *q = c->questions.items[i];
        for (size_t k = 0; k < q->extra->labs.n; k++) {
            struct ast_labref *ref = &q->extra->labs.items[k];
            if (!ref->def || !(ref->run = find_run(d, rs, ref)))
                continue;
            size_t h = 0;
            while (h < defs.n && defs.items[h] != ref->def)
                h++;
            if (h == defs.n) {
                VEC_PUSH(defs, ref->def);
                VEC_PUSH(hashes, qz_lab_hash(ref->def->dir));
            }
            const char *now = hashes.items[h], *then = ref->run->hash;
            if (!now || !then || strcmp(now, then) != 0)
                diag_warning(d, &ref->loc, "the run of lab '%s' in %s was recorded with another version of the "
                             "lab (%s; the lab is now %s); record it again with labrun --verify --record",
                             ref->name, rs->path, then ? then : "no fingerprint", now ? now : "unreadable");
            runs_judge_ref(d, q, ref);
        }
    }
    runs_judge_langs(d, rs, c);
    runs_judge_unused(d, rs, c);
    for (size_t h = 0; h < hashes.n; h++)
        free(hashes.items[h]);
    VEC_FREE(hashes);
    VEC_FREE(defs);
}
