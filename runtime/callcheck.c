/* callcheck.c — the failure path of the check macros (callcheck.h). */
#include <stdio.h>
#include <stdlib.h>

#include "callcheck.h"

void callcheck_report(const char *lib, const char *call, const char *file, int line,
                  const char *reason, const char *detail)
{
    if (detail && *detail)
        fprintf(stderr, "%s:%d: error: %s call `%s` failed: %s (%s)\n", file, line, lib, call,
                reason ? reason : "no reason given", detail);
    else
        fprintf(stderr, "%s:%d: error: %s call `%s` failed: %s\n", file, line, lib, call,
                reason ? reason : "no reason given");
    fflush(stderr);
}

/* Written only while no rank thread runs (callcheck.h), so rank threads read it unlocked. */
static callcheck_hook fail_hook;

callcheck_hook callcheck_set_fail_hook(callcheck_hook hook)
{
    callcheck_hook was = fail_hook;
    fail_hook = hook;
    return was;
}

void callcheck_fail(const char *lib, const char *call, const char *file, int line,
                const char *reason, const char *detail)
{
    callcheck_report(lib, call, file, line, reason, detail);
    if (fail_hook)
        fail_hook();
    exit(1);
}
