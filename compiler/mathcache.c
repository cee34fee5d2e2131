/*
 * mathcache.c — formulas' MathML kept between runs (mathcache.h).
 *
 * Temml under Node.js costs a quarter of a second per compile, mostly
 * Node's start, while the formulas of a quiz being written rarely change
 * between two compiles.  The cache is only ever a shortcut: a folder that
 * cannot be made, an entry that cannot be read or written, costs the time
 * of the conversion and nothing else, so none of it is an error.  An entry
 * is written under a name of its own and renamed into place, so two quizc
 * running at once never read half of one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mathcache.h"
#include "util.h"

/* An entry larger than this is not one quizc wrote. */
#define ENTRY_MAX ((size_t)1 << 20)

static char *join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = xmalloc(la + lb + 2);
    memcpy(s, a, la);
    s[la] = '/';
    memcpy(s + la + 1, b, lb + 1);
    return s;
}

/* The cache's folder by the environment (mathcache.h), or NULL. */
static char *cache_dir(void)
{
    const char *own = getenv(MATHCACHE_ENV), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *base;
    if (own && *own) {
        if (!strcmp(own, "off"))
            return NULL;
        base = xstrdup(own);
    } else if (xdg && xdg[0] == '/') {      /* the XDG spec: a relative one is to be ignored */
        base = join(xdg, "quizc");
    } else if (home && home[0] == '/') {
        base = join(home, ".cache/quizc");
    } else {
        return NULL;
    }
    char *dir = join(base, "mathml");
    free(base);
    return dir;
}

void mathcache_open(struct mathcache *mc, const unsigned char *const *parts, const size_t *lens, size_t n)
{
    mc->dir = cache_dir();
    sha256_init(&mc->converter);
    static const char tag[] = "quizc mathml cache 1";
    sha256_update(&mc->converter, sizeof tag, (const uint8_t *)tag);
    for (size_t i = 0; i < n; i++) {
        /* Each part's length first, so no two lists of parts hash alike. */
        char len[24];
        int k = snprintf(len, sizeof len, "%zu:", lens[i]);
        sha256_update(&mc->converter, (size_t)k, (const uint8_t *)len);
        sha256_update(&mc->converter, lens[i], parts[i]);
    }
}

void mathcache_close(struct mathcache *mc)
{
    free(mc->dir);
    mc->dir = NULL;
}

/* The entry's path for tex in that mode (malloc'd). */
static char *entry(const struct mathcache *mc, const char *tex, bool display)
{
    struct sha256_ctx ctx = mc->converter;
    sha256_update(&ctx, 1, (const uint8_t *)(display ? "D" : "I"));
    sha256_update(&ctx, strlen(tex), (const uint8_t *)tex);
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof digest, digest);
    char hex[2 * SHA256_DIGEST_SIZE + 1];
    for (size_t i = 0; i < sizeof digest; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    return join(mc->dir, hex);
}

char *mathcache_get(const struct mathcache *mc, const char *tex, bool display)
{
    if (!mc->dir)
        return NULL;
    char *path = entry(mc, tex, display);
    /* Not a link, and never a wait: a FIFO put in an entry's place opens at once, and is no file. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    free(path);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *s = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size <= ENTRY_MAX) {
        size_t len = (size_t)st.st_size, got = 0;
        s = xmalloc(len + 1);
        while (got < len) {
            ssize_t r = read(fd, s + got, len - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got == len && !memchr(s, '\0', len)) {
            s[len] = '\0';
        } else {
            free(s);
            s = NULL;
        }
    }
    close(fd);
    return s;
}

/* Make every folder of path that is missing (private to the user, as a cache should be). */
static void make_dirs(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            (void)mkdir(p, 0700);
            *s = c;
            if (!c)
                break;
        }
    }
    free(p);
}

static bool write_all(int fd, const char *s, size_t len)
{
    while (len) {
        ssize_t w = write(fd, s, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        s += w;
        len -= (size_t)w;
    }
    return true;
}

void mathcache_put(const struct mathcache *mc, const char *tex, bool display, const char *mathml)
{
    size_t len = strlen(mathml);
    if (!mc->dir || !len || len > ENTRY_MAX)
        return;
    make_dirs(mc->dir);
    char *path = entry(mc, tex, display);
    size_t tl = strlen(path) + 32;
    char *tmp = xmalloc(tl);
    snprintf(tmp, tl, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        bool ok = write_all(fd, mathml, len);
        ok &= close(fd) == 0;
        if (!ok || rename(tmp, path) != 0)
            unlink(tmp);
    }
    free(tmp);
    free(path);
}
