/*
 * verify.c — `labrun --verify QUIZ.qz`: every `lab NAME (k = v) expect ...`
 * claim of a quiz, run and compared.
 *
 * The quiz is read with libqz (includes followed) and its lab references are
 * checked with libqz's own checks (labref.h), one by one, so that a claim
 * naming an unknown lab, parameter or metric becomes a failed row with its
 * reason instead of stopping the run.
 * Claims that name the same lab with the same parameter values (defaults
 * filled in) share one run.  Each run happens in a child process — a crash
 * fails that run's claims only — and up to `jobs` runs go at once; a child
 * hands its metrics back through a temporary file.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "claim.h"
#include "i18n.h"
#include "lab.h"
#include "lablimits.h"
#include "params.h"
#include "qz.h"
#include "report.h"
#include "run.h"
#include "timer.h"
#include "verify.h"
#include "verify_record.h"
#include "verify_table.h"

/* One lab run shared by the claims that need the same lab and parameter values. */
struct group {
    const struct lab_impl *impl;
    const struct ast_labdef *def;   /* borrowed from the lab cache */
    struct lab_params *params;      /* owned */
    char *key;                      /* lab folder and every parameter's value; owned */
    const struct ast_labref *ref;   /* the first lab line that asks for this run; borrowed */
    pid_t pid;
    FILE *tmp;                      /* where the child writes its results */
    double t0, seconds;
    bool timed_out;                 /* stopped after --timeout seconds */
    char *error;                    /* why the run gave no figures; owned, or NULL */
    int checks, failed;             /* the lab's own checks */
    VEC(char *) names;              /* metrics reported; owned */
    VEC(double) values;
};

/* One `expect` line. */
struct claim {
    const struct ast_question *q;
    const struct ast_labref *ref;
    const struct ast_expect *e;
    int group;                      /* index into the groups, or -1 */
    char *error;                    /* why it cannot be evaluated; owned, or NULL */
};

/* A lab looked up once: its folder, manifest and built-in code, or why not. */
struct labinfo {
    char *name;                     /* owned */
    struct ast_labdef *def;         /* owned, or NULL */
    const struct lab_impl *impl;
    char *error;                    /* owned, or NULL */
    bool missing;                   /* not found along the search path: a setup error */
};

struct verify {
    const struct verify_opts *o;
    FILE *out, *err;
    struct qz_labpath path;
    VEC(struct labinfo) labs;
    VEC(struct group) groups;
    VEC(struct claim) claims;
    char *recdir;                   /* --record: where the children leave their pieces; owned, or NULL */
    /* --record: the quiz's languages labrun speaks, NULL-terminated; each run's words are kept in them */
    const char *langs[8];
};

/* ---- Looking claims up ---------------------------------------------------- */

/* The first error a diag reports, kept by its hook. */
static void keep_first(void *ctx, enum diag_level level, const struct src_loc *loc, const char *msg)
{
    char **first = ctx;
    if (level == DIAG_ERROR && !*first)
        *first = xstrdup(msg);
}

static const struct labinfo *lookup_lab(struct verify *v, const struct ast_labref *ref)
{
    for (size_t i = 0; i < v->labs.n; i++)
        if (strcmp(v->labs.items[i].name, ref->name) == 0)
            return &v->labs.items[i];
    struct labinfo li = { .name = xstrdup(ref->name) };
    char *dir = qz_find_lab(&v->path, ref->name);
    if (!dir) {
        li.missing = true;
        char *near = qz_near_lab(&v->path, ref->name);
        if (near)
            li.error = xasprintf("no lab '%s' along the search path; did you mean '%s'?", ref->name, near);
        else
            li.error = xasprintf("no lab '%s' along the search path", ref->name);
        free(near);
    } else {
        struct diag *d = diag_new(NULL);
        char *first = NULL;
        d->hook = keep_first;
        d->hook_ctx = &first;
        li.def = qz_load_lab(d, dir, &ref->name_loc);
        if (!li.def || diag_errors(d)) {
            li.error = xasprintf("lab '%s': %s", ref->name, first ? first : "its manifest does not load");
            ast_labdef_free(li.def);
            li.def = NULL;
        } else if (!(li.impl = lab_find(ref->name))) {
            li.error = xasprintf("lab '%s' has a manifest in %s but is not built into labrun", ref->name, dir);
        } else if (lab_limits_check(li.impl, li.def, d) < 0) {
            /* A manifest on disk may narrow what the lab's code admits, never widen it. */
            li.error = xasprintf("lab '%s': %s", ref->name, first ? first : "its manifest widens the lab's limits");
            li.impl = NULL;
        }
        free(first);
        diag_free(d);
    }
    free(dir);
    VEC_PUSH(v->labs, li);
    return &v->labs.items[v->labs.n - 1];
}

/*
 * What libqz says of part of a reference, as one line: the first error a
 * check reports (a new string), or NULL when there was none.
 */
static char *first_error(const struct labinfo *li, const struct ast_question *q, const struct ast_labref *ref,
                         const struct ast_expect *e)
{
    struct diag *d = diag_new(NULL);
    char *first = NULL;
    d->hook = keep_first;
    d->hook_ctx = &first;
    if (e)
        qz_check_expect(d, ref, e, li->def, q->kind);
    else
        qz_check_args(d, ref, li->def);
    diag_free(d);
    return first;
}

/* The reference's arguments, each canonical (qz_param_canon), over the lab's defaults. */
static struct lab_params *make_params(const struct labinfo *li, const struct ast_labref *ref)
{
    struct lab_params *p = lab_params_new(li->def);
    for (size_t i = 0; i < ref->args.n; i++) {
        const struct ast_arg *a = &ref->args.items[i];
        char *why = NULL, *canon = qz_param_canon(qz_lab_param(li->def, a->name), &a->value, &why);
        /* qz_check_args passed: every value fits, and labrun takes its canonical text. */
        int rc = canon ? lab_params_set(p, a->name, canon, stderr) : -1;
        free(why);
        free(canon);
        if (rc != 0) {
            lab_params_free(p);
            return NULL;
        }
    }
    return p;
}

/* The run for these values, made once. */
static int group_for(struct verify *v, const struct labinfo *li, const struct ast_labref *ref,
                     struct lab_params *p)
{
    size_t cap = strlen(li->def->dir) + 2, len = 0;
    char *key = xmalloc(cap);
    len = (size_t)sprintf(key, "%s|", li->def->dir);
    for (size_t i = 0; i < p->n; i++) {
        char *val = lab_pvalue_text(&p->v[i]);
        char *part = xasprintf("%s=%s|", p->v[i].decl->name, val);
        cap += strlen(part);
        key = xrealloc(key, cap);
        strcpy(key + len, part);
        len += strlen(part);
        free(part);
        free(val);
    }
    for (size_t g = 0; g < v->groups.n; g++)
        if (strcmp(v->groups.items[g].key, key) == 0) {
            free(key);
            lab_params_free(p);
            return (int)g;
        }
    struct group g = { .impl = li->impl, .def = li->def, .params = p, .key = key, .ref = ref, .pid = -1 };
    VEC_PUSH(v->groups, g);
    return (int)v->groups.n - 1;
}

static char *expect_error(const struct labinfo *li, const struct ast_question *q, const struct ast_labref *ref,
                          const struct ast_expect *e)
{
    char *why = first_error(li, q, ref, e);
    if (!why && e->of_answer && !q->has_answer)
        why = xasprintf("'within ... of answer' needs a numeric question with an answer (%s has none)", q->id);
    return why;
}

static void collect(struct verify *v, const struct qz_course *c)
{
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        for (size_t r = 0; r < q->extra->labs.n; r++) {
            const struct ast_labref *ref = &q->extra->labs.items[r];
            const struct labinfo *li = lookup_lab(v, ref);
            char *referr = li->error ? xstrdup(li->error) : first_error(li, q, ref, NULL);
            struct lab_params *p = referr ? NULL : make_params(li, ref);
            if (!referr && !p)
                referr = xasprintf("lab '%s': labrun does not take these values", ref->name);
            int g = -1;
            for (size_t k = 0; k < ref->expects.n; k++) {
                struct claim cl = { .q = q, .ref = ref, .e = &ref->expects.items[k], .group = -1 };
                cl.error = referr ? xstrdup(referr) : expect_error(li, q, ref, cl.e);
                if (!cl.error) {
                    if (g < 0) {
                        g = group_for(v, li, ref, p);
                        p = NULL;   /* kept by (or freed into) the group */
                    }
                    cl.group = g;
                }
                VEC_PUSH(v->claims, cl);
            }
            lab_params_free(p);
            free(referr);
        }
    }
}

/*
 * A lab the quiz names that is not there is a mistake in the setup (a
 * missing -L, a misspelled name), not a claim that failed: each such lab is
 * reported once, at its first use, in quizc's words, and nothing runs.
 */
static bool report_missing(struct verify *v, const struct qz_course *c, struct diag *d)
{
    bool any = false;
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        for (size_t r = 0; r < q->extra->labs.n; r++) {
            const struct ast_labref *ref = &q->extra->labs.items[r];
            for (size_t k = 0; k < v->labs.n; k++) {
                struct labinfo *li = &v->labs.items[k];
                if (!li->missing || strcmp(li->name, ref->name) != 0)
                    continue;
                qz_report_unknown_lab(d, &v->path, ref->name, &ref->name_loc);
                li->missing = false;    /* said once */
                any = true;
            }
        }
    }
    return any;
}

/*
 * The quiz's languages that labrun speaks, with their catalogue installed: a
 * recorded run's words are kept in each (doc/runs.md).
 */
static void record_langs(struct verify *v, const struct qz_course *c)
{
    size_t n = 0;
    for (const char *const *l = labrun_langs; *l && n + 1 < sizeof v->langs / sizeof v->langs[0]; l++)
        for (size_t i = 0; c->quiz && i < c->quiz->langs.n; i++)
            if (strcmp(c->quiz->langs.items[i].tag, *l) == 0 && labrun_has_catalogue(*l)) {
                v->langs[n++] = *l;
                break;
            }
    v->langs[n] = NULL;
}

/* ---- Running ------------------------------------------------------------- */

/* In the child: run the lab and write "rc", "checks" and "metric" lines to out. */
static void child_run(const struct verify *v, const struct group *g, const struct backend *b, FILE *out)
{
    struct lab_report *rep = lab_report_new(g->def, g->params, b->name, lab_nranks(g->impl, g->params),
                                            timer_cores());
    if (v->recdir)
        lab_report_set_languages(rep, v->langs);
    int rc = lab_run(g->impl, g->params, b, rep);     /* lab_run finishes the report */
    fprintf(out, "rc %d\nchecks %d %d\n", rc, lab_report_checks(rep), lab_report_failed(rep));
    for (size_t i = 0; i < g->def->metrics.n; i++) {
        double x;
        if (lab_report_metric(rep, g->def->metrics.items[i].name, &x))
            fprintf(out, "metric %s %a\n", g->def->metrics.items[i].name, x);
    }
    if (v->recdir)
        record_child(v->recdir, (size_t)(g - v->groups.items), rep, b);
    fflush(out);
    lab_report_free(rep);
}

static int start(struct verify *v, struct group *g, const struct backend *b)
{
    g->tmp = tmpfile();
    if (!g->tmp) {
        g->error = xasprintf("cannot make a temporary file: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);   /* nothing buffered may be written twice */
    g->t0 = timer_wall();
    g->pid = fork();
    if (g->pid < 0) {
        g->error = xasprintf("cannot start a process: %s", strerror(errno));
        return -1;
    }
    if (g->pid == 0) {
        child_run(v, g, b, g->tmp);
        _exit(0);
    }
    return 0;
}

/* In the parent, once the child is gone: read what it wrote. */
static void finish(const struct verify *v, struct group *g, int status)
{
    g->seconds = timer_wall() - g->t0;
    if (g->timed_out) {
        g->error = xasprintf("the lab run took longer than --timeout %g s and was stopped", v->o->timeout);
        return;
    }
    if (WIFSIGNALED(status)) {
        g->error = xasprintf("the lab run ended by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        return;
    }
    rewind(g->tmp);
    char line[512], name[256];
    int rc = -1;
    bool seen = false;
    while (fgets(line, sizeof line, g->tmp)) {
        double x;
        if (sscanf(line, "rc %d", &rc) == 1)
            seen = true;
        else if (sscanf(line, "checks %d %d", &g->checks, &g->failed) == 2)
            continue;
        else if (sscanf(line, "metric %255s %la", name, &x) == 2) {
            VEC_PUSH(g->names, xstrdup(name));
            VEC_PUSH(g->values, x);
        }
    }
    if (!seen)
        g->error = xasprintf("the lab run gave no result (exit status %d)", WEXITSTATUS(status));
    else if (rc != 0)
        g->error = xstrdup("the lab could not run (its messages are above)");
}

static char *args_text(const struct ast_labref *ref);

/* "quiz.qz:21:9: lab allreduce (ranks = 2)": where the quiz asks for g's run; a new string. */
static char *group_where(const struct group *g)
{
    struct src_pos p = loc_start(&g->ref->loc);
    const struct source *src = loc_src(&g->ref->loc);
    char *args = args_text(g->ref);
    char *s = xasprintf("%s:%d:%d: lab %s (%s)", src ? src->path : "?", p.line, p.col, g->ref->name, args);
    free(args);
    return s;
}

/* Stop every run past its --timeout; finish() reports it when the child is reaped. */
static void stop_overdue(struct verify *v)
{
    double now = timer_wall();
    for (size_t i = 0; i < v->groups.n; i++) {
        struct group *g = &v->groups.items[i];
        if (v->o->timeout <= 0 || g->pid <= 0 || g->timed_out || now - g->t0 <= v->o->timeout)
            continue;
        g->timed_out = true;
        kill(g->pid, SIGKILL);
        char *where = group_where(g);
        fprintf(v->err, "labrun: error: %s: ran longer than --timeout %g s; stopped\n", where, v->o->timeout);
        free(where);
    }
}

static void run_groups(struct verify *v, const struct backend *b, int jobs)
{
    size_t next = 0, running = 0;
    while (next < v->groups.n || running > 0) {
        while (running < (size_t)jobs && next < v->groups.n) {
            struct group *g = &v->groups.items[next++];
            if (start(v, g, b) == 0)
                running++;
        }
        if (running == 0)
            continue;
        int status;
        /* Polled, so a run past --timeout is stopped while the others go on. */
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid == 0) {
            stop_overdue(v);
            struct timespec nap = { 0, 20 * 1000 * 1000 };
            nanosleep(&nap, NULL);
            continue;
        }
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (size_t i = 0; i < v->groups.n; i++)
            if (v->groups.items[i].pid == pid) {
                finish(v, &v->groups.items[i], status);
                v->groups.items[i].pid = -1;
                running--;
            }
    }
}

/* ---- Judging and printing ------------------------------------------------- */

/* "stages=4, microbatches=1", as the quiz wrote them ("defaults" for none). */
static char *args_text(const struct ast_labref *ref)
{
    if (ref->args.n == 0)
        return xstrdup("defaults");
    char *s = xstrdup("");
    for (size_t i = 0; i < ref->args.n; i++) {
        const struct ast_value *x = &ref->args.items[i].value;
        const char *val = x->kind == VAL_BOOL ? (x->boolean ? "true" : "false") : x->str ? x->str : "?";
        char *t = xasprintf("%s%s%s=%s", s, i ? ", " : "", ref->args.items[i].name, val);
        free(s);
        s = t;
    }
    return s;
}

/* Print the table and the reasons for failures; returns the number that failed. */
static size_t judge(struct verify *v)
{
    size_t rows = v->claims.n, failed = 0, nnotes = 0;
    char *(*cells)[NCOL] = xcalloc(rows ? rows : 1, sizeof *cells);
    char **notes = xcalloc(rows ? rows : 1, sizeof *notes);
    for (size_t i = 0; i < rows; i++) {
        const struct claim *cl = &v->claims.items[i];
        const struct group *g = cl->group >= 0 ? &v->groups.items[cl->group] : NULL;
        char expected[160] = "", measured[64] = "-";
        bool pass = false;
        const char *why = cl->error ? cl->error : g && g->error ? g->error : NULL;
        if (!why) {
            size_t k = 0;
            while (k < g->names.n && strcmp(g->names.items[k], cl->e->metric) != 0)
                k++;
            if (k == g->names.n) {
                why = "the lab did not report this metric";
            } else {
                qz_fmt_claim_num(measured, sizeof measured, g->values.items[k]);
                pass = qz_claim_holds(cl->e, cl->q, g->values.items[k], expected, sizeof expected);
                if (g->failed > 0) {
                    pass = false;
                    notes[nnotes] = xasprintf("[%zu] %s: %d of the lab's %d own checks failed in this run "
                                              "(run the lab to see which)", nnotes + 1, cl->q->id,
                                              g->failed, g->checks);
                    snprintf(measured + strlen(measured), sizeof measured - strlen(measured), " [%zu]", ++nnotes);
                }
            }
        }
        if (!expected[0])
            qz_claim_holds(cl->e, cl->q, 0, expected, sizeof expected);
        if (why) {
            const struct src_loc *at = &cl->e->loc;
            struct src_pos p = loc_start(at);
            const struct source *src = loc_src(at);
            notes[nnotes] = xasprintf("[%zu] %s:%d:%d (%s): %s", nnotes + 1, src ? src->path : "?",
                                      p.line, p.col, cl->q->id, why);
            snprintf(measured, sizeof measured, "see [%zu]", ++nnotes);
        }
        failed += !pass;
        cells[i][COL_Q] = xstrdup(cl->q->id);
        cells[i][COL_LAB] = xstrdup(cl->ref->name);
        cells[i][COL_PARAMS] = args_text(cl->ref);
        cells[i][COL_METRIC] = xstrdup(cl->e->metric);
        cells[i][COL_EXPECTED] = xstrdup(expected);
        cells[i][COL_MEASURED] = xstrdup(measured);
        cells[i][COL_RESULT] = xstrdup(pass ? "PASS" : "FAIL");
    }
    verify_print_rows(v->out, cells, rows);
    if (nnotes)
        fputc('\n', v->out);
    for (size_t i = 0; i < nnotes; i++) {
        fprintf(v->out, "%s\n", notes[i]);
        free(notes[i]);
    }
    for (size_t r = 0; r < rows; r++)
        for (int c = 0; c < NCOL; c++)
            free(cells[r][c]);
    free(cells);
    free(notes);
    return failed;
}

static void verify_free(struct verify *v)
{
    record_dir_free(v->recdir, v->groups.n);    /* before the groups go: it counts them */
    v->recdir = NULL;
    for (size_t i = 0; i < v->claims.n; i++)
        free(v->claims.items[i].error);
    VEC_FREE(v->claims);
    for (size_t i = 0; i < v->groups.n; i++) {
        struct group *g = &v->groups.items[i];
        lab_params_free(g->params);
        free(g->key);
        free(g->error);
        if (g->tmp)
            fclose(g->tmp);
        for (size_t k = 0; k < g->names.n; k++)
            free(g->names.items[k]);
        VEC_FREE(g->names);
        VEC_FREE(g->values);
    }
    VEC_FREE(v->groups);
    for (size_t i = 0; i < v->labs.n; i++) {
        free(v->labs.items[i].name);
        free(v->labs.items[i].error);
        ast_labdef_free(v->labs.items[i].def);
    }
    VEC_FREE(v->labs);
    qz_labpath_clear(&v->path);
}

int verify_quiz(const struct verify_opts *o, const char *path)
{
    struct verify v = { .o = o, .out = o->out ? o->out : stdout, .err = o->err ? o->err : stderr };
    const struct backend *b = backend_find(o->backend ? o->backend : backend_table[0]->name);
    char why[256] = "";
    if (!b) {
        fprintf(v.err, "labrun: error: --verify: no backend '%s' (backends: %s)\n", o->backend, backend_names());
        return 2;
    }
    if (b->absent || (b->available && b->available(why, sizeof why) != 0)) {
        fprintf(v.err, "labrun: error: --verify: backend %s cannot run here: %s\n", b->name,
                b->absent ? b->absent : why);
        return 2;
    }

    for (size_t i = 0; i < o->extra.dirs.n; i++)
        qz_labpath_add(&v.path, o->extra.dirs.items[i]);
    qz_labpath_defaults(&v.path, path);

    struct diag *d = diag_new(v.err);
    struct qz_course *c = qz_load(d, path);
    if (!c || diag_errors(d)) {
        diag_summary(d);
        qz_course_free(c);
        diag_free(d);
        verify_free(&v);
        return 1;
    }
    collect(&v, c);
    if (report_missing(&v, c, d)) {
        diag_summary(d);
        qz_course_free(c);
        diag_free(d);
        verify_free(&v);
        return 2;
    }
    record_langs(&v, c);
    if (o->record && !(v.recdir = record_dir_new(v.err))) {
        qz_course_free(c);
        diag_free(d);
        verify_free(&v);
        return 1;
    }
    int jobs = o->jobs > 0 ? o->jobs : timer_cores();
    double t0 = timer_wall();
    run_groups(&v, b, jobs);
    double secs = timer_wall() - t0;

    fprintf(v.out, "Lab claims of %s (backend %s)\n\n", path, b->name);
    size_t failed = judge(&v);
    fprintf(v.out, "\n%zu claims: %zu passed, %zu failed; %zu lab runs, %d at a time, %.1f s\n",
            v.claims.n, v.claims.n - failed, failed, v.groups.n, jobs, secs);
    int recorded = 0;
    if (o->record) {
        struct record_run *runs = xcalloc(v.groups.n ? v.groups.n : 1, sizeof *runs);
        for (size_t i = 0; i < v.groups.n; i++)
            runs[i] = (struct record_run){ .def = v.groups.items[i].def, .ran = !v.groups.items[i].error };
        char *hash = qz_quiz_hash(c);
        struct record_quiz quiz = { .path = path, .id = c->quiz ? c->quiz->id : NULL, .hash = hash };
        recorded = record_write(o->record, v.recdir, &quiz, runs, v.groups.n, v.err);
        free(hash);
        free(runs);
    }
    qz_course_free(c);
    diag_free(d);
    verify_free(&v);
    return failed || recorded != 0 ? 1 : 0;
}
