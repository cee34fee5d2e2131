/*
 * lab_support.h — what the lab tests share: run a built-in lab on the cpu
 * backend with parameters given as "name=value" strings, through the same
 * lab_run labrun uses, and read its metrics back.
 */
#ifndef LAB_TEST_SUPPORT_H
#define LAB_TEST_SUPPORT_H

#include <stdbool.h>

#include "lab.h"
#include "params.h"
#include "qz.h"
#include "report.h"

struct labtest {
    struct diag *d;             /* reads the manifest; prints to stderr */
    struct ast_labdef *def;     /* labs/NAME/lab.qz; owned */
    struct lab_params *params;  /* owned */
    struct lab_report *rep;     /* owned */
    int rc;                     /* lab_run's result */
};

/*
 * Run impl (manifest labs/NAME/lab.qz, NAME = impl->name) with args, a
 * NULL-terminated list of "name=value".  Asserts that the manifest loads and
 * every argument is accepted; t->rc is what lab_run returned.
 */
void labtest_run(struct labtest *t, const struct lab_impl *impl, const char *const *args);

/* The metric's value; the test fails when the run did not report it. */
double labtest_metric(const struct labtest *t, const char *name);

void labtest_free(struct labtest *t);

#endif
