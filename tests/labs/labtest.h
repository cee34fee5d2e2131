/*
 * labtest.h — the lab tests' harness: run a lab in the test's own process
 * as labrun does (its real manifest, parameters given as "name=value", the
 * same lab_run), on the cpu backend or another, and read its metrics back.
 * Every call asserts what it needs (Criterion), so a test reads as its claims.
 */
#ifndef TEST_LABTEST_H
#define TEST_LABTEST_H

#include "backend.h"
#include "lab.h"
#include "params.h"
#include "qz.h"
#include "report.h"

struct labtest {
    struct diag *diag;          /* read the manifest; prints to stderr; owned */
    struct ast_labdef *def;     /* DIR/lab.qz; owned */
    struct lab_params *params;  /* owned */
    struct lab_report *report;  /* owned */
    int rc;                     /* lab_run's result */
};

/*
 * Load dir/lab.qz, set each "name=value" of args (NULL-terminated), run impl
 * on the cpu backend.  Asserts that the manifest loads and that every
 * argument is accepted.  Free with labtest_free.
 */
struct labtest *labtest_run(const char *dir, const struct lab_impl *impl, const char *const *args);
/* The same on backend b (borrowed). */
struct labtest *labtest_run_on(const char *dir, const struct lab_impl *impl, const char *const *args,
                               const struct backend *b);
void labtest_free(struct labtest *t);

/* Metric name of the run; asserts that the run reported it. */
double labtest_metric(const struct labtest *t, const char *name);

#endif
