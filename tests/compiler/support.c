/*
 * support.c — recording diagnostics and loading quizzes for the compiler tests.
 */
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

static char dump_buf[16384];

static void record(void *ctx, enum diag_level level, const struct src_loc *loc, const char *msg)
{
    struct capture *c = ctx;
    struct rec r = {
        .level = level,
        .file = loc_src(loc) ? xstrdup(loc_src(loc)->path) : NULL,
        .line = loc_start(loc).line,
        .col = loc_start(loc).col,
        .msg = xstrdup(msg),
        .loc = loc ? *loc : (struct src_loc){ 0 },
    };
    VEC_PUSH(c->recs, r);
}

struct capture *capture_new(void)
{
    struct capture *c = xcalloc(1, sizeof *c);
    c->d = diag_new(NULL);
    c->d->hook = record;
    c->d->hook_ctx = c;
    qz_labpath_add(&c->labs, FIXTURE_LABS);
    return c;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(p);
}

void capture_free(struct capture *c)
{
    for (size_t i = 0; i < c->recs.n; i++) {
        free(c->recs.items[i].file);
        free(c->recs.items[i].msg);
    }
    VEC_FREE(c->recs);
    diag_free(c->d);
    qz_labpath_clear(&c->labs);
    if (c->scratch) {
        nftw(c->scratch, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
        free(c->scratch);
    }
    free(c);
}

struct qz_course *capture_load(struct capture *c, const char *path)
{
    struct qz_course *course = qz_load(c->d, path);
    if (course)
        qz_resolve_labs(c->d, course, &c->labs);
    return course;
}

char *capture_write(struct capture *c, const char *name, const char *text)
{
    if (!c->scratch) {
        char tmpl[] = "/tmp/quizc-test-XXXXXX";
        if (!mkdtemp(tmpl))
            abort();
        c->scratch = xstrdup(tmpl);
    }
    char *path = xasprintf("%s/%s", c->scratch, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fputs(text, f);
    fclose(f);
    return path;
}

struct qz_course *capture_load_text(struct capture *c, const char *name, const char *text)
{
    char *path = capture_write(c, name, text);
    struct qz_course *course = capture_load(c, path);
    free(path);
    return course;
}

const struct rec *capture_nth(const struct capture *c, enum diag_level level, size_t n)
{
    for (size_t i = 0; i < c->recs.n; i++)
        if (c->recs.items[i].level == level && n-- == 0)
            return &c->recs.items[i];
    return NULL;
}

size_t capture_count(const struct capture *c, enum diag_level level)
{
    size_t n = 0;
    for (size_t i = 0; i < c->recs.n; i++)
        n += c->recs.items[i].level == level;
    return n;
}

const char *capture_dump(struct capture *c)
{
    static const char *names[] = { "error", "warning", "note" };
    size_t used = 0;
    dump_buf[0] = '\0';
    for (size_t i = 0; i < c->recs.n && used < sizeof dump_buf - 1; i++) {
        const struct rec *r = &c->recs.items[i];
        int n = snprintf(dump_buf + used, sizeof dump_buf - used, "\n  %d:%d: %s: %s",
                         r->line, r->col, names[r->level], r->msg);
        if (n < 0)
            break;
        used += (size_t)n;
        if (used >= sizeof dump_buf)
            used = sizeof dump_buf - 1;
    }
    return dump_buf;
}
