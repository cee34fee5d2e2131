/*
 * util.c — allocation that never fails silently, file reading, UTF-8.
 */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_of_memory(void)
{
    fputs("out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, aq);
    va_end(aq);
    return p;
}

void advise_huge(void *p, size_t n)
{
    uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t b = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (b > a) madvise((void *)a, b - a, MADV_HUGEPAGE);
}

uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

char *read_file(const char *path, size_t *len)
{
    /*
     * Opened without blocking and checked before reading: a pipe would wait
     * for a writer forever, and a device such as /dev/zero never ends.
     */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    int err = 0;
    if (fstat(fd, &st) != 0)
        err = errno;
    else if (S_ISDIR(st.st_mode))
        err = EISDIR;
    else if (!S_ISREG(st.st_mode))
        err = EINVAL;
    else if ((unsigned long long)st.st_size > READ_FILE_MAX)
        err = EFBIG;
    if (err) {
        close(fd);
        errno = err;
        return NULL;
    }
    /*
     * One buffer of the file's size (and its NUL), read straight into; a file
     * that grows while it is read grows the buffer.  A big source is asked
     * for huge pages, as the tree's arena is: reading a bank then costs one
     * page fault per 2 MiB.
     */
    size_t cap = (size_t)st.st_size + 2, n = 0;
    char *buf = xmalloc(cap);
    if (cap >= 4 * HUGE_PAGE) advise_huge(buf, cap);
    for (;;) {
        if (n + 1 >= cap) buf = xrealloc(buf, cap *= 2);
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { err = errno; break; }
        n += (size_t)got;
        if (got == 0 || n > READ_FILE_MAX) break;
    }
    if (!err && n > READ_FILE_MAX) err = EFBIG;
    close(fd);
    if (err) {
        free(buf);
        errno = err;
        return NULL;
    }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

int utf8_width(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) w++;
    return w;
}

size_t utf8_check(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        unsigned c = u[i];
        if (c < 0x80) { i++; continue; }
        size_t len;
        unsigned cp, min;
        if (c >= 0xC2 && c <= 0xDF)      { len = 2; cp = c & 0x1F; min = 0x80; }
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; min = 0x800; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; min = 0x10000; }
        else return i;                          /* stray continuation, C0/C1, F5.. */
        if (i + len > n) return i;
        for (size_t k = 1; k < len; k++) {
            if ((u[i + k] & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (u[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += len;
    }
    return n;
}

const char *fmt_number(char buf[FMT_NUMBER_MAX], double x)
{
    if (isinf(x)) {
        snprintf(buf, FMT_NUMBER_MAX, "%s", x < 0 ? "-inf" : "inf");
    } else if (x == trunc(x) && fabs(x) < 1e15) {
        /* An integer, exact in 64 bits: its digits without printf (a bank writes one per question). */
        char digits[24];
        int k = 0;
        unsigned long long u = (unsigned long long)fabs(x);
        do digits[k++] = (char)('0' + u % 10); while (u /= 10);
        char *p = buf;
        if (signbit(x)) *p++ = '-';     /* -0 as printf's %.0f writes it */
        while (k) *p++ = digits[--k];
        *p = '\0';
    } else {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, FMT_NUMBER_MAX, "%.*g", prec, x);
            if (strtod(buf, NULL) == x)
                break;
        }
    }
    return buf;
}

char num_decimal_mark(const char *lang)
{
    return lang && strncmp(lang, "id", 2) == 0 && (lang[2] == '\0' || lang[2] == '-') ? ',' : '.';
}

char *num_in_lang(char *buf, const char *lang)
{
    char *dot = strchr(buf, '.');
    if (dot)
        *dot = num_decimal_mark(lang);
    return buf;
}

/* Whether any of the 8 bytes in w is below 0x20 or is 0xEF (the lead byte of U+FFFE/U+FFFF). */
static bool word_suspect(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t low = (w - 0x20 * ones) & ~w;          /* a byte < 0x20 sets its high bit */
    uint64_t ef = w ^ (0xEF * ones);                /* a byte 0xEF becomes zero */
    uint64_t is_ef = (ef - ones) & ~ef;
    return ((low | is_ef) & highs) != 0;
}

bool xml_forbidden_cp(unsigned cp)
{
    return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF;
}

bool xml_forbidden(const char *s, size_t n, size_t *at, unsigned *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    /* Skip 8 bytes at a time while none can start a forbidden character: author text is long. */
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (word_suspect(w))
            break;
    }
    for (; i < n; i++) {
        unsigned c = p[i];
        if (c < 0x20 && xml_forbidden_cp(c)) {
            *at = i;
            *cp = c;
            return true;
        }
        if (c == 0xEF && i + 2 < n && p[i + 1] == 0xBF && (p[i + 2] == 0xBE || p[i + 2] == 0xBF)) {
            *at = i;
            *cp = p[i + 2] == 0xBE ? 0xFFFE : 0xFFFF;
            return true;
        }
    }
    return false;
}

unsigned new_file_mode(const char *path, unsigned bits)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    mode_t um = umask(0);
    umask(um);
    return bits & ~um;
}

char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    if (n > 0 && dir[n - 1] == '/')
        return xasprintf("%s%s", dir, name);
    return xasprintf("%s/%s", dir, name);
}

int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 1 << 20;  /* names that long are no near miss */
    /* Three rows of the table: a swap of two neighbours ("titel") counts as one edit. */
    int rows[3][65], *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++) prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        int *t = prev2; prev2 = prev; prev = cur; cur = t;
    }
    return prev[lb];
}

/* The next word of a name (words are split at '-' and '_'): its start, length in *len; NULL past the last. */
static const char *next_word(const char *s, size_t *len)
{
    while (*s == '-' || *s == '_') s++;
    if (!*s) return NULL;
    *len = strcspn(s, "-_");
    return s;
}

/* Whether the words of part are words of whole, in order, and whole has more (zero in zero-stage). */
static bool words_within(const char *part, const char *whole)
{
    size_t pl, wl;
    const char *p = next_word(part, &pl), *w = next_word(whole, &wl);
    bool extra = false;
    while (p && w) {
        if (pl == wl && !strncmp(p, w, pl)) p = next_word(p + pl, &pl);
        else extra = true;
        w = next_word(w + wl, &wl);
    }
    return !p && (extra || w);
}

void qz_near_init(struct qz_near *n, const char *word)
{
    *n = (struct qz_near){ .word = word, .best = NULL, .dist = 1 << 20 };
}

bool qz_near_offer(struct qz_near *n, const char *cand)
{
    if (!n->word || !cand)
        return false;
    int d = edit_distance(n->word, cand);
    int limit = (int)strlen(n->word) / 3;
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;
    /* A shortened name (bubble_frac for bubble_fraction) is a near miss at any distance. */
    size_t wl = strlen(n->word), cl = strlen(cand);
    bool prefix = wl >= 3 && wl < cl && strncmp(n->word, cand, wl) == 0;
    /* A word added or left out (zero-stage for zero, optimizer_states_gib for optimizer_gib) is one too. */
    bool words = words_within(cand, n->word) || words_within(n->word, cand);
    if (d == 0 || (d > limit && !prefix && !words) || d >= n->dist)
        return false;
    n->best = cand;
    n->dist = d;
    return true;
}

const char *closest_word(const char *word, const char *const *cands)
{
    struct qz_near n;
    qz_near_init(&n, word);
    for (size_t i = 0; cands[i]; i++)
        qz_near_offer(&n, cands[i]);
    return n.best;
}
