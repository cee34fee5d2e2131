/*
 * verify.h — `labrun --verify QUIZ.qz`: run every `lab ... expect ...` claim a
 * quiz makes and table what the labs measured against what the quiz expects.
 *
 * Claims with the same lab and the same parameter values share one run; runs
 * go in child processes, several at a time, so a lab that crashes fails its
 * own claims and nothing else.  A claim that names an unknown lab, parameter
 * or metric fails with the reason, on its own row.
 */
#ifndef RT_VERIFY_H
#define RT_VERIFY_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "qz.h"

struct verify_opts {
    struct qz_labpath extra;    /* -L DIRs, searched before labs/ beside the quiz and ./labs */
    int jobs;                   /* lab runs at once (0: the cores this process may use) */
    const char *backend;        /* backend name (NULL: the default) */
    FILE *out;                  /* the table and summary (NULL: stdout) */
    FILE *err;                  /* diagnostics (NULL: stderr) */
    const char *record;         /* --record RUNS.json: every lab run written down (NULL: none) */
    double timeout;             /* --timeout: seconds one lab run may take before it is stopped (0: no limit) */
};

/*
 * --timeout's default, seconds per lab run: far above what any claim of the
 * shipped quizzes needs on a busy two-core machine, so only a run that hangs
 * or was asked for far too much work meets it.
 */
#define VERIFY_TIMEOUT_DEFAULT 300

/* Run every claim of the quiz at path.  0 when all pass, 1 when one fails or the quiz has errors, 2 on usage errors. */
int verify_quiz(const struct verify_opts *o, const char *path);

/* The command line: labrun --verify QUIZ.qz [-L DIR]... [-j N] [--backend NAME] [--record RUNS.json] [--timeout S]. */
int verify_main(int argc, char **argv);

#endif
