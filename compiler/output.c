/*
 * output.c — results appear whole or not at all.  A file is written to a
 * temporary beside its target (same folder, so the same file system) and
 * renamed over the target; a package folder is built beside its target and
 * swapped in.  On any failure the temporary goes and the target stays as it
 * was, so a reader of the target never sees half a document.
 *
 * The files are not forced to the disk (no fsync): what quizc writes is
 * made again from its sources by running it again, as a compiler's or a
 * linker's output is, and waiting for the disk cost a big compile a tenth
 * of its time.  The kernel writes them out in its own time.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

/* The folder part of path ("." when there is none) and its last component. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A template for mkstemp/mkdtemp: DIR/.BASE.XXXXXX, hidden so that no tool picks it up. */
static char *temp_template(const char *path, const char *tag)
{
    char *dir = dir_of(path);
    char *t = xasprintf("%s/.%s.%sXXXXXX", dir, base_of(path), tag);
    free(dir);
    return t;
}

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int output_begin(struct diag *d, const char *path, struct output_tmp *t)
{
    *t = (struct output_tmp){ .fd = -1 };
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        diag_error(d, NULL, "cannot write '%s': it is a folder", path);
        return -1;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        diag_error(d, NULL, "cannot write '%s': it is not a regular file", path);
        return -1;
    }
    if (exists && access(path, W_OK) != 0) {
        diag_error(d, NULL, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }

    char *tmp = temp_template(path, "");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int err = errno;
        char *dir = dir_of(path);
        diag_error(d, NULL, "cannot write '%s': cannot create a file in '%s': %s", path, dir, strerror(err));
        free(dir);
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file private; give it the mode an ordinary new file (or the old one) has. */
    if (fchmod(fd, (mode_t)new_file_mode(path, 0666)) != 0) {
        int err = errno;
        diag_error(d, NULL, "cannot write '%s': cannot set its mode: %s", path, strerror(err));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    t->path = xstrdup(path);
    t->tmp = tmp;
    t->fd = fd;
    return 0;
}

int output_write(struct output_tmp *t, const void *data, size_t len)
{
    if (t->err)
        return -1;
    if (write_all(t->fd, data, len) != 0) {
        t->err = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

static void tmp_free(struct output_tmp *t)
{
    free(t->path);
    free(t->tmp);
    *t = (struct output_tmp){ .fd = -1 };
}

void output_abort(struct output_tmp *t)
{
    if (t->fd >= 0)
        close(t->fd);
    if (t->tmp)
        unlink(t->tmp);
    tmp_free(t);
}

int output_commit(struct diag *d, struct output_tmp *t)
{
    const char *step = NULL;
    int err = t->err;
    if (err)
        step = "write failed";
    if (close(t->fd) != 0 && !step) {
        step = "close failed";
        err = errno;
    }
    t->fd = -1;
    if (!step && rename(t->tmp, t->path) != 0) {
        step = "cannot rename it into place";
        err = errno;
    }
    if (step) {
        diag_error(d, NULL, "cannot write '%s': %s: %s", t->path, step, strerror(err));
        output_abort(t);
        return -1;
    }
    tmp_free(t);
    return 0;
}

int output_file(struct diag *d, const char *path, const void *data, size_t len)
{
    struct output_tmp t;
    if (output_begin(d, path, &t) != 0)
        return -1;
    output_write(&t, data, len);
    return output_commit(d, &t);
}

/* ---- Folders ------------------------------------------------------------ */

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(p);
}

static void rm_rf(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A file name inside a package: relative, no "..", no empty parts. */
static bool safe_name(const char *name)
{
    if (!*name || name[0] == '/')
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

/* Write one file under root, creating the folders on its way. */
static int write_entry(const char *root, const struct emit_file *f, const char **step)
{
    char *path = xasprintf("%s/%s", root, f->name);
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
    int rc = write_all(fd, f->body.data, f->body.len);
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

/* Put the finished folder tmp at path, swapping out an old one only now. */
static int swap_in(const char *tmp, const char *path, bool exists, const char **step)
{
    if (!exists) {
        if (rename(tmp, path) != 0) {
            *step = "cannot rename it into place";
            return -1;
        }
        return 0;
    }
    /* An atomic exchange where the file system has one; then the old tree is removed. */
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
        rm_rf(tmp);
        return 0;
    }
    /* Otherwise: move the old folder aside (onto an empty placeholder), move the new one in. */
    char *old = temp_template(path, "old.");
    if (!mkdtemp(old)) {
        *step = "cannot move the old folder aside";
        free(old);
        return -1;
    }
    if (rename(path, old) != 0) {
        int err = errno;
        rmdir(old);
        free(old);
        errno = err;
        *step = "cannot move the old folder aside";
        return -1;
    }
    if (rename(tmp, path) != 0) {
        int err = errno;
        rename(old, path);
        free(old);
        errno = err;
        *step = "cannot rename it into place";
        return -1;
    }
    rm_rf(old);
    free(old);
    return 0;
}

static int write_dir(struct diag *d, const char *path, const struct emit_files *fs);

int output_dir(struct diag *d, const char *path, const struct emit_files *fs)
{
    /* "pkg/" names the folder pkg: the temporary goes beside it, not inside. */
    char *p = xstrdup(path);
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
    int rc = write_dir(d, p, fs);
    free(p);
    return rc;
}

static int write_dir(struct diag *d, const char *path, const struct emit_files *fs)
{
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && !S_ISDIR(st.st_mode)) {
        diag_error(d, NULL, "cannot write the folder '%s': a file of that name is in the way", path);
        return -1;
    }
    for (size_t i = 0; i < fs->files.n; i++) {
        if (!safe_name(fs->files.items[i].name)) {
            diag_error(d, NULL, "cannot write '%s' into '%s': not a relative path inside it",
                       fs->files.items[i].name, path);
            return -1;
        }
    }

    char *tmp = temp_template(path, "");
    if (!mkdtemp(tmp)) {
        int err = errno;
        char *dir = dir_of(path);
        diag_error(d, NULL, "cannot write the folder '%s': cannot create a folder in '%s': %s",
                   path, dir, strerror(err));
        free(dir);
        free(tmp);
        return -1;
    }
    const char *step = NULL;
    const char *entry = NULL;
    if (chmod(tmp, (mode_t)new_file_mode(path, 0777)) != 0)
        step = "cannot set its mode";
    for (size_t i = 0; !step && i < fs->files.n; i++)
        if (write_entry(tmp, &fs->files.items[i], &step) != 0)
            entry = fs->files.items[i].name;
    if (!step)
        swap_in(tmp, path, exists, &step);
    if (step) {
        int err = errno;
        if (entry)
            diag_error(d, NULL, "cannot write the folder '%s': %s '%s': %s", path, step, entry, strerror(err));
        else
            diag_error(d, NULL, "cannot write the folder '%s': %s: %s", path, step, strerror(err));
        rm_rf(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
