/*
 * capture.c — a diag hook that keeps every message for the tests to assert on.
 */
#include "capture.h"

#include <stdio.h>
#include <string.h>

static void hook(void *ctx, enum diag_level level, const struct src_loc *loc, const char *msg)
{
    struct capture *c = ctx;
    if (c->n < (int)(sizeof c->recs / sizeof c->recs[0])) {
        struct rec *r = &c->recs[c->n];
        memset(r, 0, sizeof *r);
        r->level = level;
        if (loc && loc->src) {
            r->line = loc->line;
            r->col = loc->col;
            r->end_line = loc->end_line;
            r->end_col = loc->end_col;
            snprintf(r->path, sizeof r->path, "%s", loc->src->path);
        }
        snprintf(r->msg, sizeof r->msg, "%s", msg);
    }
    c->n++;
}

void cap_init(struct capture *c)
{
    memset(c, 0, sizeof *c);
    c->d = diag_new(NULL);
    c->d->hook = hook;
    c->d->hook_ctx = c;
}

void cap_fini(struct capture *c)
{
    diag_free(c->d);
    c->d = NULL;
}

const struct source *cap_source(struct capture *c, const char *text, size_t len)
{
    char *copy = xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    return diag_add_source(c->d, "t.qz", copy, len);
}

struct ast_file *cap_parse(struct capture *c, const char *text)
{
    return qz_parse(c->d, cap_source(c, text, strlen(text)));
}

const struct rec *cap_error(const struct capture *c, int i)
{
    int lim = c->n < 64 ? c->n : 64;
    for (int k = 0; k < lim; k++)
        if (c->recs[k].level == DIAG_ERROR && i-- == 0) return &c->recs[k];
    return NULL;
}

int cap_errors(const struct capture *c)
{
    return diag_errors(c->d);
}

const struct rec *cap_find(const struct capture *c, const char *s)
{
    int lim = c->n < 64 ? c->n : 64;
    for (int k = 0; k < lim; k++)
        if (strstr(c->recs[k].msg, s)) return &c->recs[k];
    return NULL;
}
