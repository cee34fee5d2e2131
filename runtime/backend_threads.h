/*
 * backend_threads.h — running ranks as threads of this process, for the
 * backends that do (cpu, cuda; internal to the runtime).  Starting a thread
 * per rank, waking the others when one fails, joining them and freeing each
 * rank's comm and device is the same whatever the ranks run on, so it is
 * written once (backend_cpu.c); a backend says only what differs.
 */
#ifndef RT_BACKEND_THREADS_H
#define RT_BACKEND_THREADS_H

#include "backend.h"

/* What differs between the backends that run ranks as threads. */
struct rank_threads {
    backend_body body;              /* what every rank runs */
    void *arg;                      /* body's last argument */
    /* Optional: on the rank's own thread before body (the CUDA current device is per thread). */
    void (*enter)(struct dev *dev);
    /*
     * Optional: wake every rank waiting for a message or a barrier, when a
     * rank failed or could not start (else they would wait forever); called
     * with world.
     */
    void (*abort)(void *world);
    void *world;
};

/*
 * Runs how->body on nranks threads, rank r with comms[r] and devs[r]; waits
 * for them, then frees every comms[r] and devs[r] (the arrays stay the
 * caller's).  Returns 0 when every rank started and returned 0, else -1.
 */
int rank_threads_run(const struct rank_threads *how, int nranks, struct comm **comms,
                     struct dev **devs);

#endif
