/*
 * mathcache.h — formulas' MathML kept between runs of quizc, one file per
 * formula, so that a quiz compiled again starts no Node.js for the formulas
 * it had before (texmml.c).
 *
 * Where: $QUIZC_CACHE when set ("off": nowhere), else $XDG_CACHE_HOME/quizc,
 * else ~/.cache/quizc; the files are in its folder mathml/.  An entry is
 * named by the SHA-256 of the converter (the scripts quizc runs), the
 * display mode and the TeX, so a formula that changed, or another build of
 * quizc, never meets an old answer.  Only MathML that converted is kept.
 */
#ifndef QZ_MATHCACHE_H
#define QZ_MATHCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include <nettle/sha2.h>

/* The environment variable naming the cache's folder, or "off". */
#define MATHCACHE_ENV "QUIZC_CACHE"

struct mathcache {
    char *dir;                      /* .../mathml, or NULL: no cache */
    struct sha256_ctx converter;    /* the hash of the converter's parts, to go on from */
};

/*
 * Open the cache for a converter made of n parts (their bytes, in order).
 * Never fails: a cache that is off or has no place is one that finds nothing.
 */
void mathcache_open(struct mathcache *mc, const unsigned char *const *parts, const size_t *lens, size_t n);

/* The kept MathML of tex in that mode (malloc'd), or NULL.  Its caller checks it is MathML. */
char *mathcache_get(const struct mathcache *mc, const char *tex, bool display);

/* Keep mathml for tex in that mode.  Quietly nothing when the folder cannot be made or written. */
void mathcache_put(const struct mathcache *mc, const char *tex, bool display, const char *mathml);

void mathcache_close(struct mathcache *mc);

#endif
