/*
 * labrun_web.c — the WebAssembly module's entry point: one lab run, as
 * `labrun LAB --PARAM VALUE... --json FILE --svg FILE` would do it, for the
 * quiz page's worker (compiler/player/labworker.js).
 *
 *     main LAB [--lang LANG] [--PARAM VALUE]...
 *
 * --lang (or --lang=LANG) words the report's tables, checks, notes and
 * timeline in LANG, from the catalogue embedded in the module (i18n_web.c),
 * as labrun --lang does; English by default.
 * LAB is a name; its manifest is /labs/LAB/lab.qz in the module's file
 * system (the build embeds every lab's).  Parameters are taken, checked
 * against the manifest's ranges and refused with its words by the same code
 * as labrun's (params.c, lablimits.c).  The report goes to /out/report.json
 * (labrun --json) and the timeline, when the run drew one, to
 * /out/timeline.svg; errors to stderr.  Exit status as labrun's: 0 every
 * check passed, 1 a check failed or the run failed, 2 usage.
 *
 * `main --gemm-bench MxNxK...` times the web GEMM instead (gemm_bench.c),
 * `main --gemm-check` checks it against an fp64 reference (gemm_check.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fault.h"
#include "i18n.h"
#include "lablimits.h"
#include "qz.h"
#include "run.h"
#include "timer.h"
#include "web_entry.h"

#define REPORT_JSON "/out/report.json"
#define REPORT_SVG "/out/timeline.svg"

/* What the module may allocate, as -sMAXIMUM_MEMORY (mk/web.mk) allows, less room for itself. */
#define WEB_MEMORY_BYTES (1536.0 * 1024 * 1024)

int main(int argc, char **argv)
{
    diag_progname = "labrun";
    if (argc < 2) {
        fprintf(stderr, "usage: labrun LAB [--PARAM VALUE]...\n");
        return 2;
    }
    if (strcmp(argv[1], "--gemm-bench") == 0)
        return gemm_bench_main(argc, argv);
    if (strcmp(argv[1], "--gemm-check") == 0)
        return gemm_check_main(argc, argv);
    int status = 2;
    char *dir = xasprintf("/labs/%s", argv[1]);
    struct diag *d = diag_new(stderr);
    struct ast_labdef *def = NULL;
    struct lab_params *params = NULL;
    struct lab_report *rep = NULL;
    /* The lab's parameters (lab_params_parse_args compacts the copy). */
    char **rest = xcalloc((size_t)argc, sizeof *rest);
    int nrest = argc - 2;
    memcpy(rest, argv + 2, (size_t)nrest * sizeof *rest);
    /* --lang LANG or --lang=LANG, taken out before the lab's parameters. */
    for (int i = 0; i < nrest; i++) {
        const char *lang = NULL;
        int used = 0;
        if (strncmp(rest[i], "--lang=", 7) == 0) {
            lang = rest[i] + 7;
            used = 1;
        } else if (strcmp(rest[i], "--lang") == 0 && i + 1 < nrest) {
            lang = rest[i + 1];
            used = 2;
        }
        if (used) {
            labrun_lang(lang);
            memmove(rest + i, rest + i + used, (size_t)(nrest - i - used) * sizeof *rest);
            nrest -= used;
            i--;
        }
    }
    struct stat st;
    if (strchr(argv[1], '/') || stat(dir, &st) != 0) {
        fprintf(stderr, "labrun: error: no lab '%s' in this page\n", argv[1]);
        goto done;
    }
    if (!(def = qz_load_lab(d, dir, NULL)) || diag_errors(d)) {
        status = 1;
        goto done;
    }
    const struct lab_impl *impl = lab_find(def->name);
    if (!impl) {
        fprintf(stderr, "labrun: error: lab %s has no code built into this page\n", def->name);
        status = 1;
        goto done;
    }
    if (lab_limits_check(impl, def, d) < 0) {
        status = 1;
        goto done;
    }
    params = lab_params_new(def);
    if (lab_params_parse_args(params, &nrest, rest, stderr) < 0)
        goto done;
    if (nrest > 0) {
        if (strncmp(rest[0], "--", 2) == 0)
            lab_params_set(params, rest[0] + 2, "", stderr);     /* reports the unknown parameter */
        else
            fprintf(stderr, "labrun: error: unexpected argument '%s'\n", rest[0]);
        goto done;
    }
    const struct backend *b = backend_table[0];
    lab_run_set_memory(WEB_MEMORY_BYTES);
    rep = lab_report_new(def, params, b->name, lab_nranks(impl, params), timer_cores());
    lab_report_set_progress(rep, true);
    int rc = lab_run(impl, params, b, rep);
    if (rc == -2)
        goto done;
    mkdir("/out", 0755);
    if (lab_report_write_json(rep, REPORT_JSON) < 0)
        rc = -1;
    if (lab_report_has_timeline(rep) && lab_report_write_svg(rep, REPORT_SVG) < 0)
        rc = -1;
    status = rc < 0 || lab_report_failed(rep) ? 1 : 0;
done:
    lab_report_free(rep);
    lab_params_free(params);
    ast_labdef_free(def);
    diag_free(d);
    free(rest);
    free(dir);
    return status;
}
