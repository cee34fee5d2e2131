/*
 * fiber_emscripten.c — fiber.h in WebAssembly: emscripten's fibers, which
 * unwind and rewind the call stack with Asyncify (the module is linked with
 * -sASYNCIFY), since WebAssembly has no instruction that switches stacks.
 *
 * A fiber has its own C stack (stack_bytes) and its own Asyncify stack, where
 * the frames of the code that called fiber_switch are kept while it is away.
 * A fiber whose function returns goes back to the fiber that first switched
 * into it, as fiber.h says.
 */
#include <emscripten/fiber.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "fiber.h"

/* Bytes of saved frames a switched-out fiber may hold (the labs' stacks stay shallow). */
#define ASYNCIFY_STACK_BYTES (64 * 1024)

struct fiber {
    emscripten_fiber_t ctx;
    fiber_main fn;
    void *arg;
    struct fiber *parent;       /* the fiber that first switched into it: where control goes when fn returns */
    void *c_stack;              /* owned; NULL for the thread's own fiber */
    void *async_stack;          /* owned */
};

static struct fiber *current;

/* NULL when out of memory. */
static struct fiber *new_fiber(void)
{
    struct fiber *f = calloc(1, sizeof *f);
    if (f && !(f->async_stack = malloc(ASYNCIFY_STACK_BYTES))) {
        free(f);
        f = NULL;
    }
    return f;
}

struct fiber *fiber_self(void)
{
    if (!current) {
        if (!(current = new_fiber())) {
            fprintf(stderr, "labrun: error: out of memory for a fiber\n");
            abort();
        }
        emscripten_fiber_init_from_current_context(&current->ctx, current->async_stack,
                                                   ASYNCIFY_STACK_BYTES);
    }
    return current;
}

static void trampoline(void *p)
{
    struct fiber *f = p;
    f->fn(f->arg);
    fiber_switch(f, f->parent);
    /* Nothing switches back to a fiber whose function has returned. */
    fprintf(stderr, "labrun: error: a finished fiber was resumed\n");
    abort();
}

struct fiber *fiber_new(fiber_main fn, void *arg, size_t stack_bytes)
{
    struct fiber *f = new_fiber();
    if (!f)
        return NULL;
    f->fn = fn;
    f->arg = arg;
    /* The C stack grows down; 16-byte alignment as the ABI wants. */
    stack_bytes = (stack_bytes + 15) / 16 * 16;
    if (!(f->c_stack = aligned_alloc(16, stack_bytes))) {
        free(f->async_stack);
        free(f);
        return NULL;
    }
    emscripten_fiber_init(&f->ctx, trampoline, f, f->c_stack, stack_bytes, f->async_stack,
                          ASYNCIFY_STACK_BYTES);
    return f;
}

void fiber_switch(struct fiber *from, struct fiber *to)
{
    if (!to->parent && to->fn)
        to->parent = from;
    current = to;
    emscripten_fiber_swap(&from->ctx, &to->ctx);
    current = from;
}

void fiber_free(struct fiber *f)
{
    if (!f)
        return;
    if (f == current) {
        /* The thread's own context may go (fiber_self makes a new one); a running fiber's stack may not. */
        if (f->c_stack) {
            fprintf(stderr, "labrun: error: a running fiber was freed\n");
            abort();
        }
        current = NULL;
    }
    free(f->c_stack);
    free(f->async_stack);
    free(f);
}
