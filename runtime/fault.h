/*
 * fault.h — labrun when things go wrong: a rank that crashes, a lab that
 * never ends, a Ctrl-C, and the fault injection the tests use to cause each.
 *
 * A crash in any rank (a fatal signal in its thread or process) prints which
 * rank crashed and ends labrun with status 1; a watchdog (--timeout) ends a
 * run that outlives its bound with status 1; SIGINT and SIGTERM stop every
 * rank at once (ended by that signal: status 130 / 143).  In each case the
 * temporaries of the outputs being written are removed (out_cleanup), so no
 * partial output is ever left.
 *
 * Injection (`--inject-fault KIND@RANK`, not shown by --help):
 *     error@R   rank R fails with an error when it starts
 *     crash@R   rank R dies of SIGSEGV when it starts
 *     hang@R    rank R never finishes (for --timeout)
 *     nan@R     every GEMM result of rank R gets a NaN (in its first element)
 *     inf@R     every GEMM result of rank R gets an Inf
 */
#ifndef RT_FAULT_H
#define RT_FAULT_H

#include <stdbool.h>

/* Install the signal handlers (once, early in main). */
void fault_install(void);

/* This thread runs rank r (named in a crash message); -1: no rank. */
void fault_set_rank(int r);

/*
 * Start the watchdog: when the run is still going after `seconds`, print that
 * `what` did not finish in time and end labrun with status 1.  seconds <= 0:
 * no watchdog.  Returns 0, or -1 when the watchdog thread could not start.
 */
int fault_watchdog_start(double seconds, const char *what);
/* The run ended in time: stop the watchdog. */
void fault_watchdog_stop(void);

/*
 * What the ranks wait for, printed by the watchdog before it ends the run
 * (a backend that knows: nccl-sim says which rank waits in which operation
 * for which peer).  describe(arg) writes to stderr; NULL clears it.
 */
void fault_watchdog_describe(void (*describe)(void *arg), void *arg);

/* Parse an --inject-fault spec.  0, or -1 after printing why it is not one. */
int fault_inject_parse(const char *spec);

/*
 * Called by every rank as it starts: performs an error, crash or hang aimed
 * at this rank.  0 to go on; -1 after printing the injected error.
 */
int fault_rank_start(int rank);

/* Whether this rank's GEMM results are poisoned (nan@R or inf@R), and with what value in *v. */
bool fault_poison_due(double *v);

#endif
