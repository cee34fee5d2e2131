/*
 * loc.h — source files and locations in them.
 */
#ifndef QZ_LOC_H
#define QZ_LOC_H

#include <stddef.h>

/*
 * A source file read into memory.  Owned by the struct diag that read it.
 *
 * The scanner keeps a "..." string literal that needs no unescaping where
 * it stands: it writes a NUL over its closing quote, and the tree points at
 * its first character.  It does so only below nul_free, the part of text it
 * has read and found free of NULs of its own; so a NUL below nul_free is a
 * closing quote (diag shows it as one), and one at or above it the file's.
 */
struct source {
    char *path;             /* as given on the command line or resolved include path */
    char *text;             /* the bytes, NUL-terminated (a NUL inside is an error) */
    size_t len;
    size_t nul_free;        /* text[0..nul_free) held no NUL when the scanner read it (0 until then) */
};

/*
 * A span in a source.  Lines and columns count from 1; columns count
 * characters (UTF-8 code points, a tab is one), not bytes.  end_* is the last
 * character of the span (inclusive), as Bison's locations are.  off is the
 * byte offset of the first character.
 */
struct src_loc {
    const struct source *src;
    int line, col;
    int end_line, end_col;
    size_t off;
};

/* The span from the start of a to the end of b. */
static inline struct src_loc loc_span(const struct src_loc *a, const struct src_loc *b)
{
    struct src_loc l = *a;
    l.end_line = b->end_line;
    l.end_col = b->end_col;
    return l;
}

#endif
