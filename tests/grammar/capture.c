/*
 * capture.c — a diag hook that keeps every message for the tests to assert on.
 */
#include "capture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

static void hook(void *ctx, enum diag_level level, const struct src_loc *loc, const char *msg)
{
    struct capture *c = ctx;
    if (c->n < (int)(sizeof c->recs / sizeof c->recs[0])) {
        struct rec *r = &c->recs[c->n];
        memset(r, 0, sizeof *r);
        r->level = level;
        const struct source *src = loc_src(loc);
        if (src) {
            struct src_pos a = loc_start(loc), b = loc_end(loc);
            r->line = a.line;
            r->col = a.col;
            r->end_line = b.line;
            r->end_col = b.col;
            snprintf(r->path, sizeof r->path, "%s", src->path);
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

struct ast_file *cap_parse_ok(struct capture *c, const char *text)
{
    struct ast_file *f = cap_parse(c, text);
    cr_assert_eq(cap_errors(c), 0, "unexpected error: %s at %d:%d", c->n ? c->recs[0].msg : "",
                 c->n ? c->recs[0].line : 0, c->n ? c->recs[0].col : 0);
    return f;
}

struct ast_question *cap_question(const struct ast_file *f, size_t i)
{
    cr_assert_lt(i, f->questions.n);
    return f->questions.items[i];
}

void cap_assert_error(const struct capture *c, int i, int line, int col, const char *msg)
{
    const struct rec *r = cap_error(c, i);
    cr_assert_not_null(r, "no error %d (of %d)", i, cap_errors(c));
    cr_assert(strstr(r->msg, msg), "error %d '%s' does not say '%s'", i, r->msg, msg);
    cr_assert_eq(r->line, line, "error '%s' at line %d, expected %d", r->msg, r->line, line);
    cr_assert_eq(r->col, col, "error '%s' at col %d, expected %d", r->msg, r->col, col);
}

void cap_assert_note(const struct capture *c, const char *msg, int line, int col)
{
    const struct rec *r = cap_find(c, msg);
    cr_assert_not_null(r, "no note '%s'", msg);
    cr_assert_eq(r->level, DIAG_NOTE);
    cr_assert_eq(r->line, line, "note '%s' at line %d, expected %d", r->msg, r->line, line);
    cr_assert_eq(r->col, col, "note '%s' at col %d, expected %d", r->msg, r->col, col);
}
