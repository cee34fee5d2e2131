/*
 * sandbox.c — the harnesses' private temporary folder (see sandbox.h).
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[4096];
static char scratch[8192];

static void die(const char *what, const char *path)
{
    fprintf(stderr, "sandbox: %s %s: %s\n", what, path, strerror(errno));
    abort();
}

/* mkdir -p for the folders above rel (and rel itself when it ends in '/'). */
static void make_parents(const char *rel)
{
    char buf[8192];
    snprintf(buf, sizeof buf, "%s/%s", root, rel);
    for (char *p = buf + strlen(root) + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            die("cannot create", buf);
        *p = '/';
    }
}

const char *sandbox_path(const char *rel)
{
    snprintf(scratch, sizeof scratch, "%s/%s", root, rel);
    return scratch;
}

void sandbox_write(const char *rel, const void *data, size_t len)
{
    const char *path = sandbox_path(rel);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("cannot write", path);
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            die("cannot write", path);
        }
        p += n;
        len -= (size_t)n;
    }
    close(fd);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    remove(path);
    return 0;
}

void sandbox_remove(void)
{
    if (root[0])
        nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    root[0] = '\0';
}

const char *sandbox_create(const char *tag, const struct sandbox_file *files, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/qz-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
    if (!mkdtemp(root))
        die("cannot create", root);
    atexit(sandbox_remove);
    for (size_t i = 0; i < n; i++) {
        const struct sandbox_file *f = &files[i];
        make_parents(f->path);
        size_t plen = strlen(f->path);
        if (plen > 0 && f->path[plen - 1] == '/')
            continue;
        if (strncmp(f->text, "->", 2) == 0) {
            if (symlink(f->text + 2, sandbox_path(f->path)) != 0)
                die("cannot link", sandbox_path(f->path));
            continue;
        }
        sandbox_write(f->path, f->text, strlen(f->text));
    }
    return root;
}
