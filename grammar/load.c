/*
 * load.c — load a quiz with every file it includes (qz_load): paths
 * relative to the including file, cycles reported with their chain,
 * included questions spliced in where the include stands.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "qz.h"

const char qz_version[] = QZ_VERSION;

/* ---- Includes ------------------------------------------------------------ */

/* The files being included, outermost first, for cycle detection and its message. */
struct link {
    char *canon;                    /* the file's real path; owned */
    const char *shown;              /* its path as loaded (borrowed from its source) */
    const struct src_loc *at;       /* the include that brought it in (NULL for the root) */
};

/* Files nested deeper than this are refused: a chain of thousands costs memory for nothing. */
#define LOAD_MAX_DEPTH 100

struct loader {
    struct diag *d;
    struct qz_course *c;
    VEC(struct link) chain;
    /*
     * Every file included so far.  A second include of one file is refused:
     * its questions would repeat (duplicate ids), and a few files that each
     * include the next twice would otherwise load it 2^depth times.
     */
    VEC(struct link) loaded;
    /* An open-addressed index of loaded by canon: 1 + the item's index, 0 for empty. */
    size_t *seen, nseen_slots;
};

/* The index in L->loaded of the file with this real path, or -1: one probe run, not a scan. */
static long find_loaded(const struct loader *L, const char *canon)
{
    if (!L->nseen_slots) return -1;
    size_t mask = L->nseen_slots - 1;
    for (size_t k = hash_bytes(canon, strlen(canon)) & mask; L->seen[k]; k = (k + 1) & mask)
        if (!strcmp(L->loaded.items[L->seen[k] - 1].canon, canon)) return (long)(L->seen[k] - 1);
    return -1;
}

static void add_loaded(struct loader *L, struct link l)
{
    VEC_PUSH(L->loaded, l);
    if (2 * L->loaded.n > L->nseen_slots) {
        /* Half full at most; rebuilt from loaded, whose order is the include order. */
        free(L->seen);
        L->nseen_slots = L->nseen_slots ? 2 * L->nseen_slots : 64;
        L->seen = xcalloc(L->nseen_slots, sizeof *L->seen);
        for (size_t i = 0; i < L->loaded.n; i++) {
            const char *c = L->loaded.items[i].canon;
            size_t k = hash_bytes(c, strlen(c)) & (L->nseen_slots - 1);
            while (L->seen[k]) k = (k + 1) & (L->nseen_slots - 1);
            L->seen[k] = i + 1;
        }
        return;
    }
    size_t k = hash_bytes(l.canon, strlen(l.canon)) & (L->nseen_slots - 1);
    while (L->seen[k]) k = (k + 1) & (L->nseen_slots - 1);
    L->seen[k] = L->loaded.n;
}

/* path as seen from the folder of `from` (an absolute path stays as it is). */
static char *relative_to(const char *from, const char *path)
{
    if (path[0] == '/') return xstrdup(path);
    const char *slash = strrchr(from, '/');
    if (!slash) return xstrdup(path);
    return xasprintf("%.*s%s", (int)(slash - from + 1), from, path);
}

static char *canonical(const char *path)
{
    char buf[PATH_MAX];
    return realpath(path, buf) ? xstrdup(buf) : xstrdup(path);
}

static void follow(struct loader *L, struct ast_file *f);

/* Report a cycle: the chain from the file that is included again, back to it. */
static void report_cycle(struct loader *L, size_t from, const char *shown, const struct src_loc *at)
{
    size_t len = 1;
    for (size_t i = from; i < L->chain.n; i++) len += strlen(L->chain.items[i].shown) + 5;
    len += strlen(shown);
    char *msg = xcalloc(1, len);
    for (size_t i = from; i < L->chain.n; i++) {
        strcat(msg, L->chain.items[i].shown);
        strcat(msg, " \xE2\x86\x92 ");
    }
    strcat(msg, shown);
    diag_error(L->d, at, "include cycle: %s", msg);
    for (size_t i = L->chain.n; i-- > from + 1;)
        if (L->chain.items[i].at)
            diag_note(L->d, L->chain.items[i].at, "'%s' is included here", L->chain.items[i].shown);
    free(msg);
}

static void include(struct loader *L, struct ast_file *from, struct ast_include *inc)
{
    char *path = relative_to(from->src->path, inc->path);
    char *canon = canonical(path);
    for (size_t i = 0; i < L->chain.n; i++)
        if (!strcmp(L->chain.items[i].canon, canon)) {
            report_cycle(L, i, path, &inc->loc);
            free(canon);
            free(path);
            return;
        }
    long first = find_loaded(L, canon);
    if (first >= 0) {
        const struct link *was = &L->loaded.items[first];
        diag_error(L->d, &inc->loc, "'%s' is already included; its questions cannot be included twice", path);
        diag_note(L->d, was->at, "'%s' is first included here", was->shown);
        free(canon);
        free(path);
        return;
    }
    if (L->chain.n > LOAD_MAX_DEPTH) {
        diag_error(L->d, &inc->loc, "includes are nested more than %d deep", LOAD_MAX_DEPTH);
        free(canon);
        free(path);
        return;
    }
    const struct source *src = diag_read_source(L->d, path, &inc->loc);
    free(path);
    if (!src) {
        free(canon);
        return;
    }
    struct ast_file *f = qz_parse(L->d, src);
    inc->file = f;
    if (f->quiz) {
        diag_error(L->d, &f->quiz->loc, "an included file holds only questions, not a quiz");
        diag_note(L->d, &inc->loc, "'%s' is included here", src->path);
    }
    if (f->lab) {
        diag_error(L->d, &f->lab->loc, "an included file holds only questions, not a lab manifest");
        diag_note(L->d, &inc->loc, "'%s' is included here", src->path);
    }
    struct link l = { .canon = canon, .shown = src->path, .at = &inc->loc };
    VEC_PUSH(L->chain, l);
    struct link seen = { .canon = xstrdup(canon), .shown = src->path, .at = &inc->loc };
    add_loaded(L, seen);
    follow(L, f);
    L->chain.n--;
    free(canon);
}

/* Every question of f in order, with the questions of its includes where they stand. */
static void follow(struct loader *L, struct ast_file *f)
{
    size_t q = 0;
    for (size_t i = 0; i < f->includes.n; i++) {
        struct ast_include *inc = f->includes.items[i];
        for (; q < inc->before; q++) VEC_PUSH(L->c->questions, f->questions.items[q]);
        include(L, f, inc);
    }
    for (; q < f->questions.n; q++) VEC_PUSH(L->c->questions, f->questions.items[q]);
}

struct qz_course *qz_load(struct diag *d, const char *path)
{
    const struct source *src = diag_read_source(d, path, NULL);
    if (!src) return NULL;
    struct qz_course *c = xcalloc(1, sizeof *c);
    c->root = qz_parse(d, src);
    c->quiz = c->root->quiz;
    struct loader L = { .d = d, .c = c };
    struct link root = { .canon = canonical(path), .shown = src->path, .at = NULL };
    VEC_PUSH(L.chain, root);
    /* A quiz that includes nothing has its own list for the course's: a bank's is not copied. */
    if (c->root->includes.n == 0) {
        c->questions.items = c->root->questions.items;
        c->questions.n = c->questions.cap = c->root->questions.n;
    } else
        follow(&L, c->root);
    free(root.canon);
    VEC_FREE(L.chain);
    for (size_t i = 0; i < L.loaded.n; i++) free(L.loaded.items[i].canon);
    VEC_FREE(L.loaded);
    free(L.seen);
    return c;
}

void qz_course_free(struct qz_course *c)
{
    if (!c) return;
    if (c->questions.items != c->root->questions.items)
        VEC_FREE(c->questions);
    ast_file_free(c->root);
    for (size_t i = 0; i < c->labs.n; i++) ast_labdef_free(c->labs.items[i]);
    VEC_FREE(c->labs);
    for (size_t i = 0; i < c->media.images.n; i++) {
        struct qz_image *im = &c->media.images.items[i];
        free(im->path);
        free(im->name);
        free(im->bytes);
    }
    VEC_FREE(c->media.images);
    for (size_t i = 0; i < c->media.formulas.n; i++) {
        free(c->media.formulas.items[i].tex);
        free(c->media.formulas.items[i].mathml);
    }
    VEC_FREE(c->media.formulas);
    free(c);
}
