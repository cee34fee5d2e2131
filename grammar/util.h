/*
 * util.h — allocation that never returns NULL, and small string helpers.
 */
#ifndef QZ_UTIL_H
#define QZ_UTIL_H

#include <stdint.h>
#include <stdbool.h>
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
 * device or a socket, which could block or never end, gives EINVAL; a file
 * of more than READ_FILE_MAX bytes, EFBIG: a source's offsets are 32 bits).
 */
char *read_file(const char *path, size_t *len);
#define READ_FILE_MAX ((size_t)UINT32_MAX - 1)

/* Number of UTF-8 code points in s[0..n) (continuation bytes not counted). */
int utf8_width(const char *s, size_t n);

/*
 * Validate UTF-8 in s[0..n): returns the byte offset of the first invalid
 * sequence (overlong forms, surrogates and > U+10FFFF are invalid), or n.
 */
size_t utf8_check(const char *s, size_t n);

/*
 * The mode for a temporary that will replace path (mkstemp and mkdtemp make
 * theirs private): the mode of what is at path now, or what an ordinary new
 * one gets, bits (0666 for a file, 0777 for a folder) less the umask.
 */
unsigned new_file_mode(const char *path, unsigned bits);

/*
 * The one way numbers are written for people and for files: the fewest
 * significant digits that read back as exactly x (0.2727, not
 * 0.27270000000000001; 1e-09), an integer below 1e15 in full (70000000000),
 * inf and -inf.  Returns buf.
 */
#define FMT_NUMBER_MAX 40
const char *fmt_number(char buf[FMT_NUMBER_MAX], double x);

/*
 * The decimal mark of lang ("id", "id-ID", "en"; NULL is none): Indonesian
 * writes 0,2727 as its quiz text and the player's Indonesian view do
 * (compiler/player/ui.js, decimalMark), every other language the point.
 */
char num_decimal_mark(const char *lang);

/*
 * A number printf wrote in the C locale (0.2727, 1.200e-07), rewritten in
 * place for a reader of lang: its one point becomes lang's decimal mark.
 * Every number written for people in a language goes through this.  Returns buf.
 */
char *num_in_lang(char *buf, const char *lang);

/*
 * The first character of s[0..n) that XML 1.0 cannot carry (a C0 control
 * other than tab, LF and CR, a NUL included; U+FFFE, U+FFFF): true, with its
 * byte offset in *at and its code point in *cp; false when there is none.
 */
bool xml_forbidden(const char *s, size_t n, size_t *at, unsigned *cp);

/* Whether code point cp is one XML 1.0 cannot carry: a C0 control but tab, LF and CR; U+FFFE, U+FFFF. */
bool xml_forbidden_cp(unsigned cp);

/* FNV-1a of s[0..n): the hash of the name tables (interned names, question ids). */
uint32_t hash_bytes(const char *s, size_t n);

/* The size of a huge page, as transparent huge pages map it on x86-64. */
#define HUGE_PAGE ((size_t)2 << 20)
/* Ask the kernel for huge pages over the HUGE_PAGE-aligned inside of p[0..n): a hint only. */
void advise_huge(void *p, size_t n);

/* dir/name (no doubled '/'); a new string. */
char *path_join(const char *dir, const char *name);

/* Edit distance (insertions, deletions, substitutions, swaps of neighbours), for "did you mean". */
int edit_distance(const char *a, const char *b);
/* The closest of cands (NULL-terminated) to word within edit distance 2 (and shorter than word), or NULL. */
/*
 * "did you mean": the candidate nearest to word, offered one at a time.  One
 * rule for every suggestion the project makes: within an edit distance of a
 * third of the word's length (at least 1, at most 3), or the word a prefix of
 * at least 3 characters of the candidate (bubble_frac for bubble_fraction),
 * or the same words (split at '-' and '_') with one or more added or left
 * out (zero-stage for zero, optimizer_states_gib for optimizer_gib); the
 * nearest wins, the first among equals.
 */
struct qz_near {
    const char *word;           /* borrowed */
    const char *best;           /* the nearest candidate so far (borrowed), or NULL */
    int dist;
};
void qz_near_init(struct qz_near *n, const char *word);
/* Offer cand (borrowed: it must live as long as n is read).  Returns whether it is now the best. */
bool qz_near_offer(struct qz_near *n, const char *cand);
/* The qz_near of word among the NULL-terminated cands, or NULL. */
const char *closest_word(const char *word, const char *const *cands);

#endif
