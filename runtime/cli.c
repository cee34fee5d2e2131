/*
 * cli.c — labrun's command line: find the lab, read its manifest, take its
 * parameters, run it, print and write the report.
 *
 *     labrun LAB [--PARAM VALUE]... [--backend B] [--device D] [--json FILE|-] [--trace FILE] [--svg FILE]
 *     labrun LAB --help
 *     labrun --list
 *
 * --lang en|id picks the language of the manifest's words (title, summary,
 * parameter help, metric descriptions) in the table, --help and --list.
 *
 * Exit status: 0 every check passed, 1 a check failed or the run failed, 2 usage.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "fault.h"
#include "inert.h"
#include "lablimits.h"
#include "qz.h"
#include "run.h"
#include "timer.h"


static void usage(FILE *out)
{
    fprintf(out,
            "usage: labrun LAB [--PARAM VALUE]... [options]\n"
            "       labrun LAB --help          the lab's parameters and metrics\n"
            "       labrun --list              every lab with its title\n"
            "       labrun --verify QUIZ.qz    run every lab claim of a quiz\n"
            "\n"
            "LAB is a folder holding lab.qz (labs/bubble) or a lab's name, looked up in\n"
            "the -L folders, then ./labs, then %s.\n"
            "\n"
            "options:\n"
            "  --backend NAME           where ranks run (default cpu; see backends below)\n"
            "  --device cpu|cuda        the ranks' device under --backend mpi (default cpu)\n"
            "  --json FILE|-            the report as JSON ('-': standard output)\n"
            "  --trace FILE             Chrome trace-event JSON (open in Perfetto)\n"
            "  --svg FILE               the timeline as a picture\n"
            "  -L DIR                   look for labs in DIR first\n"
            "  --timeout SECONDS        stop every rank and fail when the lab runs longer\n"
            "  -q, --quiet              no table on standard output\n"
            "  --lang en|id             language of the lab's descriptions (default en)\n"
            "  --tf32                   fp32 GEMMs may use TF32 tensor cores (cuda; off by default)\n"
            "  --version\n"
            "\n"
            "backends:\n",
            qz_installed_labs());
    for (const struct backend *const *b = backend_table; *b; b++)
        fprintf(out, "  %-10s %s%s\n", (*b)->name, (*b)->summary, (*b)->absent ? " (not built in)" : "");
}

static bool is_lab_dir(const char *dir)
{
    char *path = xasprintf("%s/lab.qz", dir);
    struct stat st;
    bool ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    free(path);
    return ok;
}

/* The lab's folder: LAB itself when it holds lab.qz, else LAB looked up along the path. */
static char *resolve_lab(const char *arg, const struct qz_labpath *lp)
{
    if (is_lab_dir(arg))
        return xstrdup(arg);
    if (strchr(arg, '/'))
        return NULL;
    return qz_find_lab(lp, arg);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* labrun --list: every lab folder along the path, first of each name wins. */
/*
 * Under a launcher (mpirun -np 16 labrun labs/allreduce --backend mpi), a
 * lab's `ranks` parameter that was not given is the number of processes
 * started, so the command needs no --ranks that repeats -np.  0, or -1 after
 * reporting a count outside the parameter's range.
 */
static int follow_launcher(struct lab_params *params, const struct backend *b)
{
    if (b->absent || !b->launched_ranks)
        return 0;
    const struct lab_pvalue *v = lab_params_get(params, "ranks");
    int n = b->launched_ranks();
    if (!v || v->given || n <= 0)
        return 0;
    char text[32];
    snprintf(text, sizeof text, "%d", n);
    return lab_params_set(params, "ranks", text, stderr);
}

static int list_labs(const struct qz_labpath *lp, const char *lang)
{
    VEC(char *) seen = { 0 };
    struct diag *d = diag_new(NULL);
    for (size_t i = 0; i < lp->dirs.n; i++) {
        DIR *dir = opendir(lp->dirs.items[i]);
        if (!dir)
            continue;
        VEC(char *) names = { 0 };
        for (struct dirent *e; (e = readdir(dir));)
            if (e->d_name[0] != '.')
                VEC_PUSH(names, xstrdup(e->d_name));
        closedir(dir);
        qsort(names.items, names.n, sizeof *names.items, cmp_str);
        for (size_t k = 0; k < names.n; k++) {
            char *path = xasprintf("%s/%s", lp->dirs.items[i], names.items[k]);
            bool dup = false;
            for (size_t s = 0; s < seen.n; s++)
                dup |= strcmp(seen.items[s], names.items[k]) == 0;
            struct ast_labdef *def = !dup && is_lab_dir(path) ? qz_load_lab(d, path, NULL) : NULL;
            if (def) {
                const struct ast_tr *title = qz_lab_text(def->title, lang);
                char *t = term_inert(title ? title->raw : NULL);    /* shown, not obeyed */
                printf("%-14s %s%s\n", def->name, t, lab_find(def->name) ? "" : "  (no code built in)");
                free(t);
                VEC_PUSH(seen, xstrdup(names.items[k]));
                ast_labdef_free(def);
            }
            free(path);
            free(names.items[k]);
        }
        VEC_FREE(names);
    }
    diag_free(d);
    int n = (int)seen.n;
    for (size_t s = 0; s < seen.n; s++)
        free(seen.items[s]);
    VEC_FREE(seen);
    if (n == 0) {
        fprintf(stderr, "labrun: error: no labs found (looked in");
        for (size_t i = 0; i < lp->dirs.n; i++)
            fprintf(stderr, " %s", lp->dirs.items[i]);
        fprintf(stderr, ")\n");
        return 1;
    }
    return 0;
}

/* 0 when --lang names one of labrun_langs, else -1 after saying which it allows. */
static int check_lang(const char *lang)
{
    for (const char *const *l = labrun_langs; *l; l++)
        if (strcmp(*l, lang) == 0)
            return 0;
    fprintf(stderr, "labrun: error: --lang: '%s' is not a language the labs are written in; allowed:", lang);
    for (const char *const *l = labrun_langs; *l; l++)
        fprintf(stderr, "%s %s", l == labrun_langs ? "" : ",", *l);
    fputc('\n', stderr);
    return -1;
}

struct options {
    const char *lab;
    const char *lang;           /* --lang: the manifest's words in this language */
    const char *backend, *device, *json, *trace, *svg;
    double timeout;             /* --timeout: seconds, 0 for none */
    bool help, list, quiet;
    bool tf32;                  /* --tf32: fp32 GEMMs may use TF32 tensor cores */
    VEC(char *) rest;           /* arguments left for the lab's parameters; borrowed */
};

/* The value of an option given as `--opt VALUE` or `--opt=VALUE`; NULL when it is not that option. */
static const char *opt_value(const char *name, int argc, char **argv, int *i, bool *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

static int parse_options(int argc, char **argv, struct options *o, struct qz_labpath *lp)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        if ((v = opt_value("--backend", argc, argv, &i, &missing)))
            o->backend = v;
        else if ((v = opt_value("--device", argc, argv, &i, &missing)))
            o->device = v;
        else if ((v = opt_value("--json", argc, argv, &i, &missing)))
            o->json = v;
        else if ((v = opt_value("--trace", argc, argv, &i, &missing)))
            o->trace = v;
        else if ((v = opt_value("--svg", argc, argv, &i, &missing)))
            o->svg = v;
        else if ((v = opt_value("--lang", argc, argv, &i, &missing))) {
            if (check_lang(v) < 0)
                return -1;
            o->lang = v;
        }
        else if ((v = opt_value("-L", argc, argv, &i, &missing)))
            qz_labpath_add(lp, v);
        else if ((v = opt_value("--timeout", argc, argv, &i, &missing))) {
            char *end;
            o->timeout = strtod(v, &end);
            if (end == v || *end || !(o->timeout > 0) || o->timeout > 1e7) {
                fprintf(stderr, "labrun: error: --timeout: '%s' is not a number of seconds > 0\n", v);
                return -1;
            }
        }
        /* Fault injection for the tests; not in the usage text. */
        else if ((v = opt_value("--inject-fault", argc, argv, &i, &missing))) {
            if (fault_inject_parse(v) < 0)
                return -1;
        }
        else if (missing) {
            fprintf(stderr, "labrun: error: %s needs a value\n", a);
            return -1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            o->help = true;
        else if (strcmp(a, "--list") == 0)
            o->list = true;
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0)
            o->quiet = true;
        else if (strcmp(a, "--tf32") == 0)
            o->tf32 = true;
        else if (!o->lab && a[0] != '-')
            o->lab = a;
        else
            VEC_PUSH(o->rest, argv[i]);
    }
    return 0;
}

/* Write the requested files; 0, or -1 when one could not be written. */
static int write_outputs(const struct options *o, const struct lab_report *rep)
{
    int rc = 0;
    if (o->json && lab_report_write_json(rep, o->json) < 0)
        rc = -1;
    if (o->trace && lab_report_write_trace(rep, o->trace) < 0)
        rc = -1;
    if (o->svg && lab_report_write_svg(rep, o->svg) < 0)
        rc = -1;
    return rc;
}

int labrun_main(int argc, char **argv)
{
    diag_progname = "labrun";
    fault_install();
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("labrun %s\n", qz_version);
        return 0;
    }
    struct options o = { .backend = "cpu", .lang = "en" };
    struct qz_labpath lp = { 0 };
    int status = 2;
    struct diag *d = NULL;
    struct ast_labdef *def = NULL;
    struct lab_params *params = NULL;
    struct lab_report *rep = NULL;
    char *dir = NULL;

    if (parse_options(argc, argv, &o, &lp) < 0)
        goto done;
    labrun_lang(o.lang);
    qz_labpath_defaults(&lp, NULL);
    if (o.list) {
        status = list_labs(&lp, o.lang);
        goto done;
    }
    if (!o.lab) {
        usage(o.help ? stdout : stderr);
        status = o.help ? 0 : 2;
        goto done;
    }
    if (!(dir = resolve_lab(o.lab, &lp))) {
        char *near = strchr(o.lab, '/') ? NULL : qz_near_lab(&lp, o.lab);
        fprintf(stderr, "labrun: error: no lab '%s' (a folder with lab.qz, or a name under", o.lab);
        for (size_t i = 0; i < lp.dirs.n; i++)
            fprintf(stderr, " %s", lp.dirs.items[i]);
        if (near)
            fprintf(stderr, "); did you mean '%s'?\n", near);
        else
            fprintf(stderr, "); labrun --list shows them\n");
        free(near);
        goto done;
    }
    d = diag_new(stderr);
    if (!(def = qz_load_lab(d, dir, NULL)) || diag_errors(d)) {
        status = 1;
        goto done;
    }
    if (o.help) {
        lab_params_help(def, o.lang, stdout);
        status = 0;
        goto done;
    }
    const struct lab_impl *impl = lab_find(def->name);
    if (!impl) {
        fprintf(stderr, "labrun: error: lab %s (%s) has no code built into this labrun\n", def->name, dir);
        status = 1;
        goto done;
    }
    if (lab_limits_check(impl, def, d) < 0) {
        status = 1;
        goto done;
    }
    const struct backend *b = backend_find(o.backend);
    if (!b) {
        fprintf(stderr, "labrun: error: --backend: '%s' is not a backend; allowed: %s\n", o.backend,
                backend_names());
        goto done;
    }
    if (o.device && !b->absent) {
        char why[256] = "";
        if (!b->set_device) {
            fprintf(stderr, "labrun: error: --device: backend %s has no choice of device\n", b->name);
            goto done;
        }
        if (b->set_device(o.device, why, sizeof why) < 0) {
            fprintf(stderr, "labrun: error: --device %s: %s\n", o.device, why);
            goto done;
        }
    }
    dev_allow_tf32(o.tf32);
    params = lab_params_new(def);
    int nrest = (int)o.rest.n;
    VEC_PUSH(o.rest, NULL);
    if (lab_params_parse_args(params, &nrest, o.rest.items, stderr) < 0)
        goto done;
    if (nrest > 0) {
        const char *a = o.rest.items[0];
        if (strncmp(a, "--", 2) == 0)
            lab_params_set(params, a + 2, "", stderr);     /* reports the unknown parameter */
        else
            fprintf(stderr, "labrun: error: unexpected argument '%s'\n", a);
        goto done;
    }
    if (follow_launcher(params, b) < 0)
        goto done;
    rep = lab_report_new(def, params, b->name, lab_nranks(impl, params), timer_cores());
    lab_report_set_progress(rep, !o.quiet && isatty(STDERR_FILENO));
    char *what = xasprintf("lab %s", def->name);
    int rc = fault_watchdog_start(o.timeout, what);
    if (rc == 0) {
        rc = lab_run(impl, params, b, rep);
        fault_watchdog_stop();
    }
    free(what);
    if (rc == -2)
        goto done;
    bool root = !b->is_root || b->is_root();
    if (root && o.svg && !lab_report_has_timeline(rep)) {
        /* An empty picture would read as a run that did nothing: say so, and write no file. */
        fprintf(stderr, "labrun: error: --svg: lab %s records no timeline to draw; run it without --svg\n", def->name);
        status = 2;
        goto done;
    }
    if (root) {
        bool json_out = o.json && strcmp(o.json, "-") == 0;
        if (!o.quiet)
            lab_report_print(rep, o.lang, json_out ? stderr : stdout);
        if (write_outputs(&o, rep) < 0)
            rc = -1;
    }
    /* Under MPI only the root's report holds the checks; the other ranks answer for their run. */
    status = rc < 0 || (root && lab_report_failed(rep)) ? 1 : 0;
done:
    lab_report_free(rep);
    lab_params_free(params);
    ast_labdef_free(def);
    diag_free(d);
    free(dir);
    VEC_FREE(o.rest);
    qz_labpath_clear(&lp);
    return status;
}
