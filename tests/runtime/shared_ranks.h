/*
 * shared_ranks.h — ranks as threads over the shared communicator
 * (comm_shared.h) on cpu devices, for the tests of comm_shared.c and
 * ring_dev.c: what backend_cpu.launch is for the threads communicator.
 */
#ifndef TESTS_RUNTIME_SHARED_RANKS_H
#define TESTS_RUNTIME_SHARED_RANKS_H

#include "backend.h"
#include "comm_shared.h"

/*
 * Runs body on n threads, rank r with comm_shared_rank(w, r, cpu device r)
 * of a world over hooks; a failing rank aborts the world.  Frees everything
 * (the world last) before it returns 0, or -1 when a rank failed.
 */
int shared_ranks_run(int n, const struct comm_shared_hooks *hooks, backend_body body, void *arg);

#endif
