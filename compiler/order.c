/*
 * order.c — hold diagnostics in memory and print them in source order.
 *
 * diag.c prints each report at once, its hook called just before.  The hook
 * notes where in a memory stream each report starts and where it points; on
 * release the reports are cut apart there, a note staying with the report
 * it belongs to, and written out sorted.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ast.h"
#include "order.h"

struct held {
    long start;             /* offset of its text in the stream */
    enum diag_level level;
    size_t src;             /* index of its source in the diag; SIZE_MAX: no location */
    int line, col;
    size_t seq;             /* arrival order: ties keep it */
};

struct order {
    struct diag *d;
    FILE *out;              /* d's own output, restored on release */
    void (*hook)(void *, enum diag_level, const struct src_loc *, const char *);
    void *hook_ctx;
    char *text;             /* the memory stream's buffer */
    size_t len;
    FILE *mem;
    VEC(struct held) held;
    VEC(struct src_loc) errors;
};

static size_t source_index(const struct diag *d, const struct source *src)
{
    for (size_t i = 0; src && i < d->nsources; i++)
        if (d->sources[i] == src)
            return i;
    return SIZE_MAX;
}

static void hold(void *ctx, enum diag_level level, const struct src_loc *loc, const char *msg)
{
    struct order *o = ctx;
    bool located = loc && loc->src && loc->line > 0;
    struct held h = {
        .start = ftell(o->mem),
        .level = level,
        .src = located ? source_index(o->d, loc->src) : SIZE_MAX,
        .line = located ? loc->line : 0,
        .col = located ? loc->col : 0,
        .seq = o->held.n,
    };
    VEC_PUSH(o->held, h);
    if (level == DIAG_ERROR && located)
        VEC_PUSH(o->errors, *loc);
    if (o->hook)
        o->hook(o->hook_ctx, level, loc, msg);
}

struct order *order_hold(struct diag *d)
{
    struct order *o = xcalloc(1, sizeof *o);
    o->d = d;
    o->out = d->out;
    o->hook = d->hook;
    o->hook_ctx = d->hook_ctx;
    o->mem = open_memstream(&o->text, &o->len);
    if (!o->mem) {
        /* Without memory to hold them, reports go out as they come. */
        return o;
    }
    d->out = o->out ? o->mem : NULL;
    d->hook = hold;
    d->hook_ctx = o;
    return o;
}

const struct src_loc *order_errors(const struct order *o, size_t *n)
{
    *n = o->errors.n;
    return o->errors.items;
}

/* A report and its notes: text [start, end). */
struct group {
    const struct held *lead;
    long start, end;
};

static int by_place(const void *a, const void *b)
{
    const struct held *x = ((const struct group *)a)->lead, *y = ((const struct group *)b)->lead;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

void order_release(struct order *o)
{
    struct diag *d = o->d;
    if (o->mem) {
        fclose(o->mem);     /* sets text and len */
        d->out = o->out;
        d->hook = o->hook;
        d->hook_ctx = o->hook_ctx;

        struct group *g = xmalloc((o->held.n + 1) * sizeof *g);
        size_t ng = 0;
        for (size_t i = 0; i < o->held.n; i++) {
            const struct held *h = &o->held.items[i];
            if (h->level == DIAG_NOTE && ng > 0)
                continue;   /* it stays with the report before it */
            if (ng > 0)
                g[ng - 1].end = h->start;
            g[ng++] = (struct group){ .lead = h, .start = h->start };
        }
        if (ng > 0)
            g[ng - 1].end = (long)o->len;
        qsort(g, ng, sizeof *g, by_place);
        for (size_t i = 0; i < ng && d->out; i++)
            fwrite(o->text + g[i].start, 1, (size_t)(g[i].end - g[i].start), d->out);
        if (d->out)
            fflush(d->out);
        free(g);
        free(o->text);
    }
    VEC_FREE(o->held);
    VEC_FREE(o->errors);
    free(o);
}
