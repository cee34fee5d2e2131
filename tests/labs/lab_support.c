/*
 * lab_support.c — running a lab from a test (see lab_support.h).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "lab_support.h"
#include "run.h"
#include "timer.h"

void labtest_run(struct labtest *t, const struct lab_impl *impl, const char *const *args)
{
    memset(t, 0, sizeof *t);
    char *dir = xasprintf("labs/%s", impl->name);
    t->d = diag_new(stderr);
    t->def = qz_load_lab(t->d, dir, NULL);
    free(dir);
    cr_assert_not_null(t->def, "labs/%s/lab.qz loads", impl->name);
    cr_assert_eq(diag_errors(t->d), 0, "labs/%s/lab.qz has no errors", impl->name);
    t->params = lab_params_new(t->def);
    for (size_t i = 0; args && args[i]; i++) {
        const char *eq = strchr(args[i], '=');
        cr_assert_not_null(eq, "argument '%s' is name=value", args[i]);
        char *name = xstrndup(args[i], (size_t)(eq - args[i]));
        int rc = lab_params_set(t->params, name, eq + 1, stderr);
        cr_assert_eq(rc, 0, "%s accepts %s", impl->name, args[i]);
        free(name);
    }
    t->rep = lab_report_new(t->def, t->params, "cpu", lab_nranks(impl, t->params), timer_cores());
    t->rc = lab_run(impl, t->params, &backend_cpu, t->rep);
}

double labtest_metric(const struct labtest *t, const char *name)
{
    double v = 0;
    cr_assert(lab_report_metric(t->rep, name, &v), "the run reported metric %s", name);
    return v;
}

void labtest_free(struct labtest *t)
{
    lab_report_free(t->rep);
    lab_params_free(t->params);
    ast_labdef_free(t->def);
    diag_free(t->d);
    memset(t, 0, sizeof *t);
}
