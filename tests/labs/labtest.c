/*
 * labtest.c — see labtest.h.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "labtest.h"
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
    cr_assert_not_null(t->def, "%s/lab.qz loads", dir);
    cr_assert_eq(diag_errors(t->diag), 0, "%s/lab.qz has no errors", dir);
    t->params = lab_params_new(t->def);
    for (size_t i = 0; args && args[i]; i++) {
        const char *eq = strchr(args[i], '=');
        cr_assert_not_null(eq, "argument '%s' is name=value", args[i]);
        char *name = xstrndup(args[i], (size_t)(eq - args[i]));
        int rc = lab_params_set(t->params, name, eq + 1, stderr);
        free(name);
        cr_assert_eq(rc, 0, "%s accepts %s", impl->name, args[i]);
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
    double v = 0;
    cr_assert(lab_report_metric(t->report, name, &v), "the run reported metric %s", name);
    return v;
}
