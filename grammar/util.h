/*
 * util.h — allocation that never returns NULL, and small string helpers.
 */
#ifndef QZ_UTIL_H
#define QZ_UTIL_H

#include <stddef.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string; caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Read a whole file into a new NUL-terminated buffer; *len gets its size.
 * Returns NULL and sets errno on failure (a folder gives EISDIR; a pipe, a
 * device or a socket, which could block or never end, gives EINVAL).
 */
char *read_file(const char *path, size_t *len);

/* Number of UTF-8 code points in s[0..n) (continuation bytes not counted). */
int utf8_width(const char *s, size_t n);

/*
 * Validate UTF-8 in s[0..n): returns the byte offset of the first invalid
 * sequence (overlong forms, surrogates and > U+10FFFF are invalid), or n.
 */
size_t utf8_check(const char *s, size_t n);

/* Levenshtein distance, for "did you mean" suggestions. */
int edit_distance(const char *a, const char *b);
/* The closest of cands (NULL-terminated) to word within edit distance 2 (and shorter than word), or NULL. */
const char *closest_word(const char *word, const char *const *cands);

#endif
