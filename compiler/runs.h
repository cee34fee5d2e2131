/*
 * runs.h — recorded lab runs (`labrun --verify QUIZ --record RUNS.json`) as
 * quizc reads them for `--runs RUNS.json`: checked, bounded, and attached to
 * the lab references they were recorded for, so that the course document
 * and the player carry what a machine measured.
 *
 * The file's format is doc/runs.md (written by runtime/verify_record.c).
 * Nothing in it is trusted: sizes are bounded before it is parsed, every
 * field is checked for its type, and its text reaches outputs only through
 * their escaping writers.
 */
#ifndef QZ_RUNS_H
#define QZ_RUNS_H

#include <stdbool.h>

#include "qz.h"

#define RUNS_MAX_BYTES (8u << 20)   /* a runs file larger than this is refused unread */
#define RUNS_MAX_SVG (2u << 20)     /* one timeline */

/* The JSON type of a run's parameter: a run matches a lab line only with the lab's own type. */
enum qz_run_type { RUN_NUMBER, RUN_BOOL, RUN_STRING };

/* A parameter as the run had it: its canonical text (numbers in shortest form). */
struct qz_run_param {
    char *name, *value;     /* owned */
    enum qz_run_type type;
    double number;          /* RUN_NUMBER: the value itself, compared by value */
};

struct qz_run_metric {
    char *name;             /* owned */
    double value;
    bool known;             /* false: the run reported no finite value (null) */
    char *basis;            /* measured | replayed | modelled | exact; owned */
};

struct qz_run_check {
    char *name, *detail;    /* owned */
    bool pass;
};

/*
 * A run's words in one more of the quiz's languages, which labrun wrote from
 * the same figures: its checks (as many as the run's, in its order; pass is
 * the run's), its notes, its timeline (or NULL).  Every string is owned.
 */
struct qz_run_words {
    char *lang;
    VEC(struct qz_run_check) checks;
    VEC(char *) notes;
    char *svg;
};

/* One recorded run.  Every string is owned; optional ones are NULL when absent. */
struct qz_run {
    char *lab, *backend, *date, *labrun, *hash, *placement, *svg;
    char *lang;                     /* the language of its checks, notes and svg; NULL when the file does not say */
    VEC(struct qz_run_words) words; /* the same words in its quiz's other languages */
    struct {
        char *cpu, *gpu, *driver, *nccl;
        long cores, gpus;
    } machine;
    VEC(struct qz_run_param) params;
    VEC(struct qz_run_metric) metrics;
    VEC(struct qz_run_check) checks;
    VEC(char *) notes;
};

/* A run's checks, notes and timeline in one language, borrowed from the run. */
struct qz_run_text {
    const char *lang;                       /* the language they are in; NULL when the file does not say */
    const struct qz_run_check *checks;      /* as many as the run's */
    size_t nchecks;
    char *const *notes;
    size_t nnotes;
    const char *svg;                        /* or NULL */
};

/* r's words in lang when it has them, else its own (in r->lang). */
struct qz_run_text qz_run_text(const struct qz_run *r, const char *lang);

struct qz_runs {
    char *path;                 /* owned */
    /* The quiz the runs were recorded from (labrun --verify QUIZ); each owned, NULL when the file says none. */
    char *quiz;                 /* its path on the recording machine */
    char *quiz_id;              /* its id: quiz ID { ... } */
    char *quiz_hash;            /* qz_quiz_hash of its source */
    VEC(struct qz_run) runs;
};

/*
 * Read and check the runs file at path.  NULL after reporting to d, as
 * "PATH: error: ..." (with line and column where the JSON itself is broken).
 */
struct qz_runs *runs_load(struct diag *d, const char *path);
void runs_free(struct qz_runs *rs);

/*
 * Point each lab reference of c (resolved: ref->def set) at the run of rs
 * recorded with its lab and every parameter's value (the lab's defaults
 * filling those the quiz leaves out).  Values are equal only as values of
 * the parameter's type: a number equals a JSON number of the same value
 * (the string " 4garbage" is not 4), a flag a JSON true or false, a choice
 * or a text the same string.  A run of the lab whose value has another
 * type is not used, with a warning at the reference when no run is.  A
 * run recorded with another version of the lab (its fingerprint differs)
 * is still attached, with a warning at the reference.  rs must outlive c's
 * use of the runs.
 *
 * Then it says what was packed (runs_judge.c): a warning when rs was
 * recorded from another quiz (at the quiz's id), a warning at each lab
 * line for each claim its run fails, a warning at each lab line no run was
 * recorded for, and a note for each run that no lab line took.
 */
void runs_attach(struct diag *d, const struct qz_runs *rs, struct qz_course *c);

/* ---- What was packed (runs_judge.c), in the order runs_attach calls them ---- */

/* A warning at c's quiz id when rs names another quiz; a note when it names another version of this one. */
void runs_judge_quiz(struct diag *d, const struct qz_runs *rs, const struct qz_course *c);

/*
 * A warning at ref for each of its claims in q that its run (ref->run, set)
 * fails, judged by qz_claim_holds; a run whose lab's own checks failed
 * fails every claim (doc/claims.md).  A lab line without claims whose
 * run failed a check gets one warning for that.
 */
void runs_judge_ref(struct diag *d, const struct ast_question *q, const struct ast_labref *ref);

/* A warning at ref, which no run of rs was recorded for, with the values it wants. */
void runs_judge_missing(struct diag *d, const struct qz_runs *rs, const struct ast_labref *ref);

/*
 * A warning at c's languages when a packed run says the language of its
 * words and lacks some of the quiz's: learners reading those see the run's
 * notes and timeline in its own.  One for the file, naming the first such
 * run's lab line.
 */
void runs_judge_langs(struct diag *d, const struct qz_runs *rs, const struct qz_course *c);

/* A note for each run of rs that no lab line of c took: where it is in the file, its lab and values. */
void runs_judge_unused(struct diag *d, const struct qz_runs *rs, const struct qz_course *c);

/*
 * The value of each of ref's lab parameters the run must have had: the
 * quiz's argument, else the manifest's default, as canonical text (what
 * labrun prints back).  Calls fn once per parameter, in the manifest's
 * order; a parameter without a usable default is left out.
 */
void runs_each_param(const struct ast_labref *ref,
                     void (*fn)(void *ctx, const struct ast_param *p, const char *value), void *ctx);

#endif
