/*
 * outfile.c — writing one output file safely, and the temporaries a signal
 * must remove (see outfile.h).
 *
 * The files are not forced to the disk (no fsync): what the tools write is
 * made again from its sources by running them again, as a compiler's output
 * is, and waiting for the disk cost a big compile a tenth of its time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "outfile.h"
#include "outfile_impl.h"
#include "util.h"

/* ---- Temporaries removed on a signal ------------------------------------ */

#define OUT_SLOTS 8
static struct {
    char path[PATH_MAX];
    pid_t owner;                /* a forked child does not remove its parent's */
    volatile sig_atomic_t kind; /* 0 free, 1 file, 2 folder tree */
} slots[OUT_SLOTS];

int out_temp_add(const char *path, bool tree)
{
    size_t len = strlen(path);
    if (len >= PATH_MAX)
        return -1;
    for (int i = 0; i < OUT_SLOTS; i++) {
        int expect = 0;
        /* Claimed with a value no cleanup acts on, then filled, then armed. */
        if (!__atomic_compare_exchange_n(&slots[i].kind, &expect, 3, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            continue;
        memcpy(slots[i].path, path, len + 1);
        slots[i].owner = getpid();
        __atomic_store_n(&slots[i].kind, tree ? 2 : 1, __ATOMIC_SEQ_CST);
        return i;
    }
    return -1;
}

void out_temp_drop(int slot)
{
    if (slot >= 0 && slot < OUT_SLOTS)
        __atomic_store_n(&slots[slot].kind, 0, __ATOMIC_SEQ_CST);
}

/*
 * Remove name (in folder dirfd) and, when it is a folder on device dev, all
 * it holds; never follows a link or enters another file system.  Only
 * async-signal-safe calls: openat, getdents64, unlinkat, fstat, close.
 */
static bool rm_tree_at(int dirfd, const char *name, dev_t dev, int depth)
{
    if (unlinkat(dirfd, name, 0) == 0)
        return true;
    if ((errno != EISDIR && errno != EPERM) || depth > 32)
        return false;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_dev != dev) {
        close(fd);
        return false;
    }
    char buf[2048];
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0)
            break;
        bool removed = false;
        for (long off = 0; off < n;) {
            struct dirent64 *e = (struct dirent64 *)(void *)(buf + off);
            off += e->d_reclen;
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            if (rm_tree_at(fd, e->d_name, dev, depth + 1))
                removed = true;
        }
        /* Entries removed while reading: start again so none is skipped. */
        if (!removed)
            break;
        lseek(fd, 0, SEEK_SET);
    }
    close(fd);
    return unlinkat(dirfd, name, AT_REMOVEDIR) == 0;
}

void out_rm_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    rm_tree_at(AT_FDCWD, path, st.st_dev, 0);
}

void out_cleanup(void)
{
    pid_t me = getpid();
    for (int i = 0; i < OUT_SLOTS; i++) {
        int k = __atomic_load_n(&slots[i].kind, __ATOMIC_SEQ_CST);
        if ((k != 1 && k != 2) || slots[i].owner != me)
            continue;
        if (k == 1)
            unlink(slots[i].path);
        else
            out_rm_tree(slots[i].path);
        __atomic_store_n(&slots[i].kind, 0, __ATOMIC_SEQ_CST);
    }
}

static void on_stop(int sig)
{
    out_cleanup();
    /* The default action, so the exit status says which signal ended the run. */
    signal(sig, SIG_DFL);
    raise(sig);
}

void out_ignore_xfsz(void)
{
    signal(SIGXFSZ, SIG_IGN);
}

void out_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop;
    static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++) {
        struct sigaction old;
        /* SIGHUP ignored when we started (nohup) stays ignored. */
        if (stops[i] == SIGHUP && sigaction(stops[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(stops[i], &sa, NULL);
    }
    out_ignore_xfsz();
}

/* ---- Helpers shared with outdir.c --------------------------------------- */

char *out_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

/* DIR/.BASE.XXXXXX for mkstemp/mkdtemp: hidden, and on the target's file system. */
char *out_temp_template(const char *path)
{
    char *dir = out_dir_of(path);
    const char *slash = strrchr(path, '/');
    char *t = xasprintf("%s/.%s.XXXXXX", dir, slash ? slash + 1 : path);
    free(dir);
    return t;
}

int out_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* ---- One file ----------------------------------------------------------- */

/* "/dev/stdout", "/dev/fd/3", "/proc/self/fd/3": a descriptor already open; -1 otherwise. */
static int named_fd(const char *path)
{
    if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0)
        return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0)
        return STDERR_FILENO;
    const char *num = NULL;
    if (strncmp(path, "/dev/fd/", 8) == 0)
        num = path + 8;
    else if (strncmp(path, "/proc/self/fd/", 14) == 0)
        num = path + 14;
    if (!num || !*num || strspn(num, "0123456789") != strlen(num) || strlen(num) > 6)
        return -1;
    int fd = atoi(num);
    return fcntl(fd, F_GETFD) == -1 ? -1 : fd;
}

static int refuse(struct diag *d, const char *path, const char *why)
{
    diag_error(d, NULL, "cannot write '%s': %s", path, why);
    return -1;
}

/* A stream target: open it without creating, truncating or replacing anything. */
static int begin_stream(struct diag *d, const char *path, const struct stat *st, struct out_file *f)
{
    /* O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of waiting forever. */
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        if (err == ENXIO && S_ISFIFO(st->st_mode))
            return refuse(d, path, "it is a FIFO that no process reads");
        diag_error(d, NULL, "cannot write '%s': %s", path, strerror(err));
        return -1;
    }
    struct stat now;
    if (fstat(fd, &now) != 0 || !(S_ISFIFO(now.st_mode) || S_ISCHR(now.st_mode))) {
        close(fd);
        return refuse(d, path, "it changed while it was opened");
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    f->fd = fd;
    f->own_fd = true;
    return 0;
}

int out_begin(struct diag *d, const char *path, struct out_file *f)
{
    *f = (struct out_file){ .fd = -1, .slot = -1, .path = xstrdup(path) };
    int fd = named_fd(path);
    if (fd >= 0) {
        /* What the tool printed before goes out first. */
        fflush(stdout);
        f->fd = fd;
        return 0;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        out_abort(f);
        return refuse(d, path, "it is a folder");
    }
    if (exists && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        if (begin_stream(d, path, &st, f) != 0) {
            out_abort(f);
            return -1;
        }
        return 0;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        out_abort(f);
        return refuse(d, path, S_ISSOCK(st.st_mode) ? "it is a socket, not a file"
                                                    : "it is not a regular file, a FIFO or a character device");
    }
    if (exists && out_is_input(&st)) {
        out_abort(f);
        return refuse(d, path, "it is an input of this run; not overwriting it");
    }
    if (exists && access(path, W_OK) != 0) {
        int err = errno;
        out_abort(f);
        diag_error(d, NULL, "cannot write '%s': %s", path, strerror(err));
        return -1;
    }
    /* A link to a file: the file it names is replaced, the link stays. */
    struct stat lst;
    char *real = exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
    f->dest = real ? real : xstrdup(path);

    char *tmp = out_temp_template(f->dest);
    fd = mkstemp(tmp);
    if (fd < 0) {
        int err = errno;
        char *dir = out_dir_of(f->dest);
        diag_error(d, NULL, "cannot write '%s': cannot create a file in '%s': %s", path, dir, strerror(err));
        free(dir);
        free(tmp);
        out_abort(f);
        return -1;
    }
    f->slot = out_temp_add(tmp, false);
    f->tmp = tmp;
    f->fd = fd;
    f->own_fd = true;
    /* mkstemp makes the file private; give it the mode a new file (or the old one) has. */
    if (fchmod(fd, (mode_t)new_file_mode(f->dest, 0666)) != 0) {
        int err = errno;
        diag_error(d, NULL, "cannot write '%s': cannot set its mode: %s", path, strerror(err));
        out_abort(f);
        return -1;
    }
    return 0;
}

int out_write(struct out_file *f, const void *data, size_t len)
{
    if (f->err)
        return -1;
    if (out_write_all(f->fd, data, len) != 0) {
        f->err = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

static void file_free(struct out_file *f)
{
    free(f->path);
    free(f->dest);
    free(f->tmp);
    *f = (struct out_file){ .fd = -1, .slot = -1 };
}

void out_abort(struct out_file *f)
{
    if (f->own_fd && f->fd >= 0)
        close(f->fd);
    if (f->tmp)
        unlink(f->tmp);
    out_temp_drop(f->slot);
    file_free(f);
}

int out_commit(struct diag *d, struct out_file *f)
{
    const char *step = NULL;
    int err = f->err;
    if (err)
        step = "write failed";
    if (f->own_fd) {
        if (close(f->fd) != 0 && !step) {
            step = "close failed";
            err = errno;
        }
        f->fd = -1;
    } else if (!step && f->fd == STDOUT_FILENO && fflush(stdout) != 0) {
        step = "write failed";
        err = errno;
    }
    if (!step && f->tmp && rename(f->tmp, f->dest) != 0) {
        step = "cannot rename it into place";
        err = errno;
    }
    if (step) {
        diag_error(d, NULL, "cannot write '%s': %s: %s", f->path, step, strerror(err));
        out_abort(f);
        return -1;
    }
    out_temp_drop(f->slot);
    file_free(f);
    return 0;
}

int out_whole(struct diag *d, const char *path, const void *data, size_t len)
{
    struct out_file f;
    if (out_begin(d, path, &f) != 0)
        return -1;
    out_write(&f, data, len);
    return out_commit(d, &f);
}
