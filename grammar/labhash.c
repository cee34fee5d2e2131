/*
 * labhash.c — one fingerprint of a lab: its manifest and its sources, so a
 * recorded run (labrun --verify --record) can be told from a run of the lab
 * as it is now (quizc --runs warns when they differ).
 *
 * FNV-1a over each file's name and bytes, files in name order.  It tells
 * a changed lab from an unchanged one; it is not meant to resist forgery.
 * A quiz's fingerprint is made the same way over the sources it was read
 * from.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "labref.h"
#include "qz.h"
#include "util.h"

/* The files that make a lab: the same kinds snippets are cut from. */
static bool source_ext(const char *name)
{
    static const char *const exts[] = { ".c", ".h", ".cu", ".cuh", ".py", ".sh", ".qz" };
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i]) == 0)
            return true;
    return false;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3u;
    }
    return h;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *qz_lab_hash(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    VEC(char *) names = { 0 };
    struct dirent *ent;
    while ((ent = readdir(d)))
        if (ent->d_name[0] != '.' && source_ext(ent->d_name))
            VEC_PUSH(names, xstrdup(ent->d_name));
    closedir(d);
    if (names.n)
        qsort(names.items, names.n, sizeof *names.items, by_name);
    uint64_t h = 0xcbf29ce484222325u;
    bool ok = names.n > 0;
    for (size_t i = 0; i < names.n; i++) {
        char *path = xasprintf("%s/%s", dir, names.items[i]);
        size_t len = 0;
        char *body = out_read_input(path, &len);
        if (body) {
            h = fnv(h, names.items[i], strlen(names.items[i]) + 1);
            h = fnv(h, &(uint64_t){ len }, sizeof(uint64_t));
            h = fnv(h, body, len);
        } else {
            ok = false;
        }
        free(body);
        free(path);
        free(names.items[i]);
    }
    VEC_FREE(names);
    return ok ? xasprintf("fnv1a64:%016llx", (unsigned long long)h) : NULL;
}

/* The file's bytes, then its includes' (an include that could not be read adds nothing). */
static uint64_t file_hash(uint64_t h, const struct ast_file *f)
{
    if (!f || !f->src)
        return h;
    h = fnv(h, &(uint64_t){ f->src->len }, sizeof(uint64_t));
    /* The bytes as written: literals decoded in place are escaped again (loc.h), a window at a time. */
    char win[4096];
    for (size_t at = 0; at < f->src->len; at += sizeof win) {
        size_t n = f->src->len - at < sizeof win ? f->src->len - at : sizeof win;
        if (f->src->nedits) {
            src_restore(f->src, at, at + n, win);
            h = fnv(h, win, n);
        } else {
            h = fnv(h, f->src->text + at, n);
        }
    }
    for (size_t i = 0; i < f->includes.n; i++)
        h = file_hash(h, f->includes.items[i]->file);
    return h;
}

char *qz_quiz_hash(const struct qz_course *c)
{
    return xasprintf("fnv1a64:%016llx", (unsigned long long)file_hash(0xcbf29ce484222325u, c ? c->root : NULL));
}
