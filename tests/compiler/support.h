/*
 * support.h — what the compiler tests share: a diag that records every
 * diagnostic (level, file, line, column, message) instead of printing it, and
 * loading a quiz from a fixture file or from text written to a scratch folder.
 */
#ifndef QZ_TEST_SUPPORT_H
#define QZ_TEST_SUPPORT_H

#include "qz.h"

/* Where the fixture labs live (the tests run from the repository root). */
#define FIXTURE_LABS "tests/data/labs"

/* One recorded diagnostic. */
struct rec {
    enum diag_level level;
    char *file;             /* the source's path, or NULL for a location-less message */
    int line, col;
    char *msg;
    struct src_loc loc;     /* the location as reported (its source lives as long as the diag) */
};

struct capture {
    struct diag *d;         /* silent; every report lands in recs */
    VEC(struct rec) recs;
    struct qz_labpath labs; /* FIXTURE_LABS */
    char *scratch;          /* a folder for quizzes given as text, or NULL */
};

struct capture *capture_new(void);
/* Frees the capture, its diag (and so the sources) and removes the scratch folder. */
void capture_free(struct capture *c);

/* Load a quiz file, resolving labs along FIXTURE_LABS. */
struct qz_course *capture_load(struct capture *c, const char *path);
/* Write text to NAME in the scratch folder and load it; NAME is a bare file name. */
struct qz_course *capture_load_text(struct capture *c, const char *name, const char *text);
/* The scratch folder's path of NAME (a new string), for files a quiz includes. */
char *capture_write(struct capture *c, const char *name, const char *text);

/* The n-th (from 0) recorded diagnostic of the given level, or NULL. */
const struct rec *capture_nth(const struct capture *c, enum diag_level level, size_t n);
size_t capture_count(const struct capture *c, enum diag_level level);
/* All messages, one a line "L:C: level: msg", for assertion failure output. */
const char *capture_dump(struct capture *c);

#endif
