/*
 * labtest.h — run a lab in the test's own process, as labrun does: its real
 * manifest, parameters given as "name=value", the cpu backend.
 */
#ifndef TEST_LABTEST_H
#define TEST_LABTEST_H

#include "lab.h"
#include "report.h"

struct labtest {
    struct diag *diag;
    struct ast_labdef *def;
    struct lab_params *params;
    struct lab_report *report;
    int rc;                     /* lab_run's result */
};

/*
 * Load dir/lab.qz, set each "name=value" of args (NULL-terminated), run impl.
 * Returns NULL when the manifest or a parameter is rejected.
 */
struct labtest *labtest_run(const char *dir, const struct lab_impl *impl, const char *const *args);
/* The same on backend b (borrowed). */
struct backend;
struct labtest *labtest_run_on(const char *dir, const struct lab_impl *impl, const char *const *args,
                               const struct backend *b);
void labtest_free(struct labtest *t);

/* Metric name of the run (NaN when it was not reported). */
double labtest_metric(const struct labtest *t, const char *name);

#endif
