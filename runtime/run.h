/*
 * run.h — run one lab in this process and collect its report: what labrun
 * does for a lab on the command line, and what `labrun --verify` does for
 * each claim of a quiz.
 */
#ifndef RT_RUN_H
#define RT_RUN_H

#include "ast.h"
#include "backend.h"
#include "lab.h"
#include "params.h"
#include "report.h"

/*
 * Launch impl's ranks on b with parameters p (of manifest def), each running
 * impl->run, and fill rep (from lab_report_new with the same def and p).
 * Returns 0 when the lab ran (its checks may still fail: see
 * lab_report_failed), -1 after printing why it could not, -2 when the
 * parameter values cannot run together (impl->invalid) or the backend is not
 * built in or cannot run on this machine (a usage error: exit 2).
 */
int lab_run(const struct lab_impl *impl, const struct lab_params *p, const struct backend *b,
            struct lab_report *rep);

/*
 * The memory a run may use, in bytes: the machine's, less when a resource
 * limit says so, or what lab_run_set_memory set (bytes > 0; 0 goes back to
 * the machine's).  lab_run refuses a run whose impl->bytes is more.
 */
double lab_run_memory(void);
void lab_run_set_memory(double bytes);

/* The rank count impl needs for p. */
int lab_nranks(const struct lab_impl *impl, const struct lab_params *p);

/* The labrun command line (main.c calls it; `--verify` goes to verify_main). */
int labrun_main(int argc, char **argv);

/* `labrun --verify QUIZ.qz ...`: defined in verify.c. */
int verify_main(int argc, char **argv);

#endif
