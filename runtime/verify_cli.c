/*
 * verify_cli.c — the command line of `labrun --verify QUIZ.qz`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "fault.h"
#include "verify.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: labrun --verify QUIZ.qz [-L DIR]... [-j N] [--backend NAME] [--record RUNS.json]\n"
               "                              [--timeout SECONDS]\n"
               "Runs every `lab ... expect ...` claim of the quiz and prints a table:\n"
               "question | lab | params | metric | expected | measured | result.\n"
               "  -L DIR          look for labs in DIR first (then labs/ beside the quiz, then ./labs)\n"
               "  -j N            lab runs at once (default: the cores available)\n"
               "  --backend NAME  where ranks run (%s)\n"
               "  --record FILE   write every lab run (figures, checks, notes, timeline, machine,\n"
               "                  date) to FILE, for quizc --runs ('-': standard output)\n"
               "  --timeout S     stop a lab run that takes longer than S seconds and fail its\n"
               "                  claims, naming its lab line (default %d)\n"
               "Exit status: 0 every claim passed, 1 a claim failed or the quiz has errors, 2 usage.\n",
            backend_names(), VERIFY_TIMEOUT_DEFAULT);
}

/* --timeout's value: seconds > 0; -1 after saying why not. */
static double parse_timeout(const char *v)
{
    char *end;
    double t = strtod(v, &end);
    if (end == v || *end || !(t > 0) || t > 1e7) {
        fprintf(stderr, "labrun: error: --timeout: '%s' is not a number of seconds > 0\n", v);
        return -1;
    }
    return t;
}

int verify_main(int argc, char **argv)
{
    struct verify_opts o = { .timeout = VERIFY_TIMEOUT_DEFAULT };
    const char *quiz = NULL;
    int rc = 2;
    /*
     * As a single run does: a stop (Ctrl-C, SIGTERM) removes the runs file's
     * temporaries and the pieces gathered in $TMPDIR, in this process and in
     * each lab's child, and a crash is reported.
     */
    fault_install();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--verify") == 0) {
            continue;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            rc = 0;
            goto done;
        } else if (strcmp(a, "-L") == 0 && val) {
            qz_labpath_add(&o.extra, val);
            i++;
        } else if (strncmp(a, "-L", 2) == 0 && a[2]) {
            qz_labpath_add(&o.extra, a + 2);
        } else if (strcmp(a, "-j") == 0 && val) {
            char *end;
            long j = strtol(val, &end, 10);
            if (*end || j < 1 || j > 256) {
                fprintf(stderr, "labrun: error: -j: '%s' is not a number of runs in 1..256\n", val);
                goto done;
            }
            o.jobs = (int)j;
            i++;
        } else if (strcmp(a, "--backend") == 0 && val) {
            o.backend = val;
            i++;
        } else if (strcmp(a, "--record") == 0 && val) {
            o.record = val;
            i++;
        } else if (strncmp(a, "--record=", 9) == 0 && a[9]) {
            o.record = a + 9;
        } else if (strcmp(a, "--timeout") == 0 && val) {
            if ((o.timeout = parse_timeout(val)) < 0)
                goto done;
            i++;
        } else if (strncmp(a, "--timeout=", 10) == 0) {
            if ((o.timeout = parse_timeout(a + 10)) < 0)
                goto done;
        } else if (strncmp(a, "--backend=", 10) == 0) {
            o.backend = a + 10;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "labrun: error: --verify: unknown option '%s'\n", a);
            usage(stderr);
            goto done;
        } else if (quiz) {
            fprintf(stderr, "labrun: error: --verify takes one quiz (got '%s' and '%s')\n", quiz, a);
            goto done;
        } else {
            quiz = a;
        }
    }
    if (!quiz) {
        fprintf(stderr, "labrun: error: --verify needs a quiz file\n");
        usage(stderr);
        goto done;
    }
    /* The runs file on standard output: the table goes to standard error, so the JSON stays whole. */
    if (o.record && strcmp(o.record, "-") == 0)
        o.out = stderr;
    rc = verify_quiz(&o, quiz);
done:
    qz_labpath_clear(&o.extra);
    return rc;
}
