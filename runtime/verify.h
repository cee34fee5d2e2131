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
};

/* Run every claim of the quiz at path.  0 when all pass, 1 when one fails or the quiz has errors, 2 on usage errors. */
int verify_quiz(const struct verify_opts *o, const char *path);

/* The command line: labrun --verify QUIZ.qz [-L DIR]... [-j N] [--backend NAME] [--record RUNS.json]. */
int verify_main(int argc, char **argv);

#endif
