/*
 * fiber.h — contexts that one thread switches between by hand (coroutines).
 *
 * The coop backend runs every rank as a fiber on the calling thread and
 * switches only when a rank must wait.  This interface is all the runtime
 * knows of fibers: runtime/fiber_ucontext.c implements it natively
 * (makecontext/swapcontext, an mmap'd stack with a guard page), and a build
 * for a single-threaded browser links another implementation in its place.
 *
 * A fiber's fn runs on the first switch into it.  When fn returns, the fiber
 * is finished and switches back to the fiber that first switched into it; it
 * must not be switched to again, only freed.
 */
#ifndef RT_FIBER_H
#define RT_FIBER_H

#include <stddef.h>

struct fiber;
typedef void (*fiber_main)(void *arg);
struct fiber *fiber_self(void);      /* the calling thread's own context (created on first call), to switch back to */
struct fiber *fiber_new(fiber_main fn, void *arg, size_t stack_bytes);  /* NULL when out of memory */
void fiber_switch(struct fiber *from, struct fiber *to);  /* save from, run to */
void fiber_free(struct fiber *f);

#endif
