/*
 * labtest.c — see labtest.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "labtest.h"
#include "qz.h"
#include "run.h"
#include "timer.h"

struct labtest *labtest_run(const char *dir, const struct lab_impl *impl, const char *const *args)
{
    return labtest_run_on(dir, impl, args, &backend_cpu);
}

struct labtest *labtest_run_on(const char *dir, const struct lab_impl *impl, const char *const *args,
                               const struct backend *b)
{
    struct labtest *t = xcalloc(1, sizeof *t);
    t->diag = diag_new(stderr);
    t->def = qz_load_lab(t->diag, dir, NULL);
    if (!t->def || diag_errors(t->diag)) {
        labtest_free(t);
        return NULL;
    }
    t->params = lab_params_new(t->def);
    for (size_t i = 0; args && args[i]; i++) {
        char *name = xstrdup(args[i]), *eq = strchr(name, '=');
        int rc = eq ? (*eq = '\0', lab_params_set(t->params, name, eq + 1, stderr)) : -1;
        free(name);
        if (rc < 0) {
            labtest_free(t);
            return NULL;
        }
    }
    t->report = lab_report_new(t->def, t->params, b->name, lab_nranks(impl, t->params), timer_cores());
    t->rc = lab_run(impl, t->params, b, t->report);
    return t;
}

void labtest_free(struct labtest *t)
{
    if (!t)
        return;
    lab_report_free(t->report);
    lab_params_free(t->params);
    ast_labdef_free(t->def);
    diag_free(t->diag);
    free(t);
}

double labtest_metric(const struct labtest *t, const char *name)
{
    double v;
    return lab_report_metric(t->report, name, &v) ? v : NAN;
}
