/*
 * fault_web.c — fault.h in the WebAssembly module: no signals to catch, no
 * watchdog thread (the page stops a run by ending its worker) and no faults
 * to inject (that is labrun's --inject-fault, for its tests).
 */
#include "fault.h"

void fault_install(void) {}
void fault_set_rank(int r) { (void)r; }
int fault_watchdog_start(double seconds, const char *what) { (void)seconds; (void)what; return 0; }
void fault_watchdog_stop(void) {}
void fault_watchdog_describe(void (*describe)(void *arg), void *arg) { (void)describe; (void)arg; }
int fault_rank_start(int rank) { (void)rank; return 0; }
bool fault_poison_due(double *v) { (void)v; return false; }

int fault_inject_parse(const char *spec)
{
    (void)spec;
    return -1;
}
