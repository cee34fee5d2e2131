/*
 * outdir.c — a package folder (quizc --dir): built in a temporary folder
 * beside the target and swapped in whole.  An existing target is replaced
 * only when it is quizc's own: empty, or holding nothing but the files its
 * marker (OUT_MARKER) lists, all on one file system, and no input of the
 * run.  The old package's files are then removed by that list, so a file
 * quizc did not write is never removed, whatever happens in between.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "outfile_impl.h"
#include "util.h"

/* The marker's first line; the files follow, one per line. */
static const char marker_head[] = "quizc package: the files quizc wrote here, replaced whole by the next run\n";

/* A file name inside a package: relative, no "." or "..", no empty parts, no newline. */
static bool safe_name(const char *name)
{
    if (!*name || name[0] == '/' || strchr(name, '\n') || strcmp(name, OUT_MARKER) == 0)
        return false;
    const char *p = name;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
            return false;
        p += n + (slash ? 1 : 0);
        if (slash && !*p)
            return false;
    }
    return true;
}

static void names_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/*
 * The marker's text: not through read_file, which would count it as an input
 * of the run.  A regular file of at most 16 MiB; NULL otherwise.
 */
static char *read_marker_text(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (16 << 20)) {
        close(fd);
        return NULL;
    }
    size_t n = 0, cap = (size_t)st.st_size + 1;
    char *text = xmalloc(cap);
    for (ssize_t got; n + 1 < cap && (got = read(fd, text + n, cap - 1 - n)) != 0;) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    text[n] = '\0';
    return text;
}

/* The files the marker in folder path lists; false when it has no marker of ours. */
static bool read_marker(const char *path, char ***names, size_t *n)
{
    char *m = xasprintf("%s/%s", path, OUT_MARKER);
    char *text = read_marker_text(m);
    free(m);
    *names = NULL;
    *n = 0;
    if (!text || strncmp(text, marker_head, sizeof marker_head - 1) != 0) {
        free(text);
        return false;
    }
    size_t cap = 0;
    for (char *line = text + sizeof marker_head - 1, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl)
            break;
        *nl = '\0';
        if (!safe_name(line))
            continue;
        if (*n == cap)
            *names = xrealloc(*names, (cap = cap ? 2 * cap : 32) * sizeof **names);
        (*names)[(*n)++] = xstrdup(line);
    }
    free(text);
    return true;
}

static bool listed(char *const *names, size_t n, const char *rel, bool folder)
{
    size_t len = strlen(rel);
    for (size_t i = 0; i < n; i++) {
        if (!folder && strcmp(names[i], rel) == 0)
            return true;
        if (folder && strncmp(names[i], rel, len) == 0 && names[i][len] == '/')
            return true;
    }
    return false;
}

/*
 * Whether everything under root/rel is quizc's: a listed regular file, or a
 * folder on the way to one, on device dev.  *why names the first that is not.
 */
static bool all_ours(const char *root, const char *rel, dev_t dev, char *const *names, size_t n, char **why)
{
    char *dir = *rel ? xasprintf("%s/%s", root, rel) : xstrdup(root);
    DIR *dp = opendir(dir);
    bool ok = dp != NULL;
    if (!dp)
        *why = xasprintf("cannot read '%s': %s", dir, strerror(errno));
    struct dirent *e;
    while (ok && (e = readdir(dp)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *sub = *rel ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
        char *full = xasprintf("%s/%s", root, sub);
        struct stat st;
        if (lstat(full, &st) != 0) {
            *why = xasprintf("cannot read '%s': %s", full, strerror(errno));
            ok = false;
        } else if (st.st_dev != dev) {
            *why = xasprintf("'%s' is on another file system", full);
            ok = false;
        } else if (S_ISDIR(st.st_mode)) {
            ok = listed(names, n, sub, true) && all_ours(root, sub, dev, names, n, why);
            if (!ok && !*why)
                *why = xasprintf("quizc did not write '%s'", full);
        } else if (!(S_ISREG(st.st_mode) && (listed(names, n, sub, false) || strcmp(sub, OUT_MARKER) == 0))) {
            *why = xasprintf("quizc did not write '%s'", full);
            ok = false;
        }
        free(full);
        free(sub);
    }
    if (dp)
        closedir(dp);
    free(dir);
    return ok;
}

static int not_ours(struct diag *d, const char *path, char *why)
{
    diag_error(d, NULL, "'%s' is not a package quizc wrote; not touching it (%s)", path, why);
    free(why);
    return -1;
}

/* Whether path, an existing folder, may be replaced; reports why not. */
static int may_replace(struct diag *d, struct out_dir *o, const struct stat *st)
{
    char *parent = out_dir_of(o->path);
    struct stat pst;
    bool mount = stat(parent, &pst) == 0 && pst.st_dev != st->st_dev;
    free(parent);
    if (mount)
        return not_ours(d, o->path, xstrdup("it is a mount point, another file system"));
    char *real = realpath(o->path, NULL);
    const char *input = real ? out_input_under(real) : NULL;
    if (input) {
        diag_error(d, NULL, "'%s' holds '%s', an input of this run; not touching it", o->path, input);
        free(real);
        return -1;
    }
    free(real);
    /* Without a marker nothing is listed: only an empty folder passes. */
    read_marker(o->path, &o->old, &o->nold);
    char *why = NULL;
    if (!all_ours(o->path, "", st->st_dev, o->old, o->nold, &why))
        return not_ours(d, o->path, why);
    return 0;
}

int out_dir_begin(struct diag *d, const char *path, struct out_dir *o)
{
    *o = (struct out_dir){ .slot = -1 };
    /* "pkg/" names the folder pkg: the temporary goes beside it, not inside. */
    o->path = xstrdup(path);
    size_t n = strlen(o->path);
    while (n > 1 && o->path[n - 1] == '/')
        o->path[--n] = '\0';

    struct stat st;
    o->exists = lstat(o->path, &st) == 0;
    if (o->exists && !S_ISDIR(st.st_mode)) {
        diag_error(d, NULL, "cannot write the folder '%s': %s is in the way", o->path,
                   S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISREG(st.st_mode) ? "a file of that name" : "something that is not a folder");
        out_dir_abort(o);
        return -1;
    }
    if (o->exists && may_replace(d, o, &st) != 0) {
        out_dir_abort(o);
        return -1;
    }
    char *tmp = out_temp_template(o->path);
    if (!mkdtemp(tmp)) {
        int err = errno;
        char *dir = out_dir_of(o->path);
        diag_error(d, NULL, "cannot write the folder '%s': cannot create a folder in '%s': %s",
                   o->path, dir, strerror(err));
        free(dir);
        free(tmp);
        out_dir_abort(o);
        return -1;
    }
    o->tmp = tmp;
    o->slot = out_temp_add(tmp, true);
    if (chmod(tmp, (mode_t)new_file_mode(o->path, 0777)) != 0) {
        diag_error(d, NULL, "cannot write the folder '%s': cannot set its mode: %s", o->path, strerror(errno));
        out_dir_abort(o);
        return -1;
    }
    return 0;
}

/* Write one file under root, creating the folders on its way. */
static int write_entry(const char *root, const char *name, const void *data, size_t len, const char **step)
{
    char *path = xasprintf("%s/%s", root, name);
    for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        int r = mkdir(path, 0777);
        *s = '/';
        if (r != 0 && errno != EEXIST) {
            *step = "cannot create a folder";
            free(path);
            return -1;
        }
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    free(path);
    if (fd < 0) {
        *step = "cannot create a file";
        return -1;
    }
    int rc = out_write_all(fd, data, len);
    int err = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        err = errno;
    }
    errno = err;
    if (rc != 0)
        *step = "write failed";
    return rc;
}

int out_dir_add(struct diag *d, struct out_dir *o, const char *name, const void *data, size_t len)
{
    if (!safe_name(name)) {
        diag_error(d, NULL, "cannot write '%s' into '%s': not a relative path inside it", name, o->path);
        return -1;
    }
    const char *step = NULL;
    if (write_entry(o->tmp, name, data, len, &step) != 0) {
        diag_error(d, NULL, "cannot write the folder '%s': %s '%s': %s", o->path, step, name, strerror(errno));
        return -1;
    }
    if (o->n == o->cap)
        o->names = xrealloc(o->names, (o->cap = o->cap ? 2 * o->cap : 32) * sizeof *o->names);
    o->names[o->n++] = xstrdup(name);
    return 0;
}

/* Remove the old package (now at old) by its list: what is not on it stays. */
static void remove_old(struct diag *d, struct out_dir *o, const char *old)
{
    for (size_t i = 0; i < o->nold; i++) {
        char *p = xasprintf("%s/%s", old, o->old[i]);
        unlink(p);
        /* Its folders, deepest first; one still holding something stays. */
        for (char *s; (s = strrchr(p + strlen(old) + 1, '/')) != NULL;) {
            *s = '\0';
            rmdir(p);
        }
        free(p);
    }
    char *m = xasprintf("%s/%s", old, OUT_MARKER);
    unlink(m);
    free(m);
    if (rmdir(old) != 0)
        diag_warning(d, NULL, "the old '%s' held files quizc did not write; they are kept in '%s'", o->path, old);
}

static int swap_in(struct diag *d, struct out_dir *o)
{
    if (!o->exists)
        return rename(o->tmp, o->path) == 0 ? 0 : -1;
    /* An atomic exchange where the file system has one; the old package is then at tmp. */
    if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path, RENAME_EXCHANGE) == 0) {
        remove_old(d, o, o->tmp);
        return 0;
    }
    /* Otherwise: the old folder aside (onto an empty placeholder), the new one in. */
    char *old = out_temp_template(o->path);
    if (!mkdtemp(old)) {
        free(old);
        return -1;
    }
    int slot = out_temp_add(old, true);
    if (rename(o->path, old) != 0) {
        int err = errno;
        rmdir(old);
        out_temp_drop(slot);
        free(old);
        errno = err;
        return -1;
    }
    out_temp_drop(slot);        /* it holds the old package now, not a temporary */
    if (rename(o->tmp, o->path) != 0) {
        int err = errno;
        rename(old, o->path);
        free(old);
        errno = err;
        return -1;
    }
    remove_old(d, o, old);
    free(old);
    return 0;
}

int out_dir_commit(struct diag *d, struct out_dir *o)
{
    size_t len = sizeof marker_head - 1;
    for (size_t i = 0; i < o->n; i++)
        len += strlen(o->names[i]) + 1;
    char *m = xmalloc(len + 1), *p = m;
    p = stpcpy(p, marker_head);
    for (size_t i = 0; i < o->n; i++) {
        p = stpcpy(p, o->names[i]);
        *p++ = '\n';
    }
    const char *step = NULL;
    int rc = write_entry(o->tmp, OUT_MARKER, m, len, &step);
    free(m);
    if (rc == 0 && swap_in(d, o) != 0) {
        step = "cannot put it in place";
        rc = -1;
    }
    if (rc != 0) {
        diag_error(d, NULL, "cannot write the folder '%s': %s: %s", o->path, step, strerror(errno));
        out_dir_abort(o);
        return -1;
    }
    /* After an exchange the temporary's name holds what was left of the old package, if anything. */
    out_temp_drop(o->slot);
    o->slot = -1;
    free(o->tmp);
    o->tmp = NULL;
    out_dir_abort(o);
    return 0;
}

void out_dir_abort(struct out_dir *o)
{
    if (o->tmp)
        out_rm_tree(o->tmp);
    out_temp_drop(o->slot);
    free(o->tmp);
    free(o->path);
    names_free(o->names, o->n);
    names_free(o->old, o->nold);
    *o = (struct out_dir){ .slot = -1 };
}
