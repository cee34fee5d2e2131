/*
 * fiber_ucontext.c — fiber.h on POSIX ucontext: makecontext/swapcontext, each
 * fiber's stack mmap'd with an inaccessible guard page below it, so a rank
 * that overruns its stack faults instead of writing over another's.
 *
 * Under AddressSanitizer every switch is announced
 * (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber), else
 * ASan would take the new stack for a stack overflow of the old one.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "fiber.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define FIBER_ASAN 1
#endif

struct fiber {
    ucontext_t uc;
    fiber_main fn;
    void *arg;
    char *map;                  /* the mapping: guard page, then the stack; NULL for a thread's own */
    size_t map_bytes;
    struct fiber *starter;      /* who first switched into it: where a returning fn goes */
    bool started;
    bool finished;
    const void *stack_bottom;   /* for ASan: the stack it runs on (a thread's own: learnt on first switch) */
    size_t stack_size;
};

static _Thread_local struct fiber *thread_fiber;

struct fiber *fiber_self(void)
{
    if (!thread_fiber)
        thread_fiber = calloc(1, sizeof *thread_fiber);
    return thread_fiber;
}

#ifdef FIBER_ASAN
static void announce(void **fake, const struct fiber *to)
{
    __sanitizer_start_switch_fiber(fake, to->stack_bottom, to->stack_size);
}

/* Back on a stack: learn the bounds of the one we came from when it is a thread's own. */
static void arrived(void *fake, struct fiber *from)
{
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(fake, &bottom, &size);
    if (from && !from->map && !from->stack_bottom) {
        from->stack_bottom = bottom;
        from->stack_size = size;
    }
}
#endif

/* Where every fiber starts: fn, then back to whoever started it, for good. */
static void trampoline(unsigned hi, unsigned lo)
{
    struct fiber *f = (struct fiber *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
#ifdef FIBER_ASAN
    arrived(NULL, f->starter);
#endif
    f->fn(f->arg);
    f->finished = true;
#ifdef FIBER_ASAN
    /* NULL: this stack is done with; ASan may drop its fake frames. */
    announce(NULL, f->starter);
#endif
    setcontext(&f->starter->uc);
    abort();    /* setcontext returns only on failure */
}

/* getcontext apart: it is never resumed here (makecontext replaces where it goes), so nothing is clobbered. */
__attribute__((noinline)) static int context_init(ucontext_t *uc)
{
    return getcontext(uc);
}

struct fiber *fiber_new(fiber_main fn, void *arg, size_t stack_bytes)
{
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    size_t stack = (stack_bytes + page - 1) / page * page;
    if (stack < 16 * page)
        stack = 16 * page;
    struct fiber *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->map_bytes = stack + page;
    void *m = mmap(NULL, f->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED) {
        free(f);
        return NULL;
    }
    f->map = m;
    /* Stacks grow down: the guard page is the lowest. */
    if (mprotect(f->map, page, PROT_NONE) != 0 || context_init(&f->uc) != 0) {
        munmap(f->map, f->map_bytes);
        free(f);
        return NULL;
    }
    f->fn = fn;
    f->arg = arg;
    f->stack_bottom = f->map + page;
    f->stack_size = stack;
    f->uc.uc_stack.ss_sp = f->map + page;
    f->uc.uc_stack.ss_size = stack;
    f->uc.uc_link = NULL;
    uintptr_t p = (uintptr_t)f;
    makecontext(&f->uc, (void (*)(void))trampoline, 2, (unsigned)(p >> 32), (unsigned)(p & 0xffffffffu));
    return f;
}

void fiber_switch(struct fiber *from, struct fiber *to)
{
    if (!to->started) {
        to->started = true;
        to->starter = from;
    }
#ifdef FIBER_ASAN
    void *fake = NULL;
    announce(&fake, to);
    swapcontext(&from->uc, &to->uc);
    arrived(fake, NULL);
#else
    swapcontext(&from->uc, &to->uc);
#endif
}

void fiber_free(struct fiber *f)
{
    if (!f)
        return;
    if (f == thread_fiber)
        thread_fiber = NULL;
    if (f->map)
        munmap(f->map, f->map_bytes);
    free(f);
}
