/*
 * verify_record.h — `labrun --verify QUIZ.qz --record RUNS.json`: every lab
 * run of a verify written down, so that a package can carry what a machine
 * measured to learners who have no such machine (quizc --runs).
 *
 * The runs file (doc/runs.md):
 *
 *   { "format": "labrun-runs", "version": 1, "quiz": "...", "quiz_id", "quiz_hash",
 *     "runs": [ { "lab", "params": {NAME: value}, "backend",
 *                 "machine": { "cpu", "cores", "gpu", "gpus", "driver", "nccl" },
 *                 "date", "labrun", "hash", "placement",
 *                 "metrics": [ { "name", "value", "basis" } ],
 *                 "checks": [ { "name", "pass", "detail" } ],
 *                 "notes": [ "..." ], "svg": "<svg ...>" } ] }
 *
 * Each run's figures come from the process that ran it: the child writes
 * its pieces into a folder of the parent's (record_child), the parent puts
 * them together (record_write).
 */
#ifndef RT_VERIFY_RECORD_H
#define RT_VERIFY_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ast.h"
#include "backend.h"
#include "report.h"

/* A folder for the children's pieces (a new string), or NULL after printing why to err. */
char *record_dir_new(FILE *err);

/*
 * In the child that ran run i: DIR/i.json (the report), DIR/i.svg (its
 * timeline, when it drew one), DIR/i.machine (b's accelerators).
 */
void record_child(const char *dir, size_t i, const struct lab_report *rep, const struct backend *b);

/* One run as the parent knows it. */
struct record_run {
    const struct ast_labdef *def;   /* borrowed */
    bool ran;                       /* the run gave figures (its pieces are there) */
};

/* The quiz the runs were recorded from: quizc --runs tells runs of another quiz by them. */
struct record_quiz {
    const char *path;               /* as given to --verify */
    const char *id;                 /* the quiz's id (quiz ID { ... }), or NULL */
    const char *hash;               /* qz_quiz_hash of its source, or NULL */
};

/*
 * The runs file at path ("-": stdout) from the pieces in dir of the n runs
 * that ran; written through a temporary and a rename.  0, or -1 after
 * printing why to err.
 */
int record_write(const char *path, const char *dir, const struct record_quiz *quiz, const struct record_run *runs,
                 size_t n, FILE *err);

/* Remove dir and the pieces of n runs; frees dir. */
void record_dir_free(char *dir, size_t n);

#endif
