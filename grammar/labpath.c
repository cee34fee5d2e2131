/*
 * labpath.c — where labs are found, and the one "did you mean" rule
 * (labref.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "labref.h"
#include "util.h"

#ifndef QZ_LABDIR
#define QZ_LABDIR "/usr/local/share/labrun/labs"
#endif

/* ---- The search path ---------------------------------------------------- */

void qz_labpath_add(struct qz_labpath *p, const char *dir)
{
    for (size_t i = 0; i < p->dirs.n; i++)
        if (strcmp(p->dirs.items[i], dir) == 0)
            return;
    VEC_PUSH(p->dirs, xstrdup(dir));
}

void qz_labpath_clear(struct qz_labpath *p)
{
    for (size_t i = 0; i < p->dirs.n; i++)
        free(p->dirs.items[i]);
    VEC_FREE(p->dirs);
}

const char *qz_installed_labs(void)
{
    return QZ_LABDIR;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void qz_labpath_defaults(struct qz_labpath *p, const char *quiz)
{
    if (quiz) {
        const char *slash = strrchr(quiz, '/');
        char *beside = slash ? xasprintf("%.*slabs", (int)(slash - quiz + 1), quiz) : xstrdup("labs");
        qz_labpath_add(p, beside);
        free(beside);
    }
    qz_labpath_add(p, "labs");
    qz_labpath_add(p, QZ_LABDIR);
    /* bin/../share/labrun/labs beside the running program. */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return;
    *slash = '\0';
    char *dir = xasprintf("%s/../share/labrun/labs", exe);
    if (is_dir(dir))
        qz_labpath_add(p, dir);
    free(dir);
}

static bool is_manifest_dir(const char *dir)
{
    char *m = path_join(dir, "lab.qz");
    struct stat st;
    bool ok = stat(m, &st) == 0 && S_ISREG(st.st_mode);
    free(m);
    return ok;
}

char *qz_find_lab(const struct qz_labpath *p, const char *name)
{
    /* A name is a folder name, never a path: "../x" must not escape the search path. */
    if (!p || !name || !*name || strchr(name, '/') || name[0] == '.')
        return NULL;
    for (size_t i = 0; i < p->dirs.n; i++) {
        char *dir = path_join(p->dirs.items[i], name);
        if (is_manifest_dir(dir))
            return dir;
        free(dir);
    }
    return NULL;
}

char *qz_near_lab(const struct qz_labpath *p, const char *name)
{
    struct qz_near near;
    qz_near_init(&near, name);
    char *found = NULL;
    for (size_t i = 0; p && i < p->dirs.n; i++) {
        DIR *dp = opendir(p->dirs.items[i]);
        if (!dp)
            continue;
        struct dirent *e;
        while ((e = readdir(dp)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            /* Only a folder holding a manifest is a lab; judge the name first, it is cheaper. */
            struct qz_near trial = near;
            if (!qz_near_offer(&trial, e->d_name))
                continue;
            char *dir = path_join(p->dirs.items[i], e->d_name);
            if (is_manifest_dir(dir)) {
                free(found);
                found = xstrdup(e->d_name);
                near = trial;
                near.best = found;
            }
            free(dir);
        }
        closedir(dp);
    }
    return found;
}
