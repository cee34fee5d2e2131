/*
 * loc.h — source files and locations in them.
 *
 * A location is a byte span of a source.  Lines and columns are not kept in
 * the tree: a bank has millions of locations and most are never shown.  They
 * are found when a message or a test asks (loc_line, loc_col, ...), from a
 * table of the source's line starts made the first time one is needed.
 */
#ifndef QZ_LOC_H
#define QZ_LOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
    size_t len;             /* below 4 GiB: offsets are 32 bits (read_file, util.h) */
    size_t nul_free;        /* text[0..nul_free) held no NUL when the scanner read it (0 until then) */
    /*
     * What the scanner found of the characters XML 1.0 cannot carry in its
     * string literals (lex_xml_unsafe): SRC_XML_UNSCANNED until it reads the
     * source, then SRC_XML_CLEAN unless one holds such a character.
     */
    enum { SRC_XML_UNSCANNED, SRC_XML_CLEAN, SRC_XML_UNSAFE } xml;
    uint32_t *lines;        /* where each line starts, made by the first src_pos; freed with the source */
    size_t nlines;
};

/*
 * A span of a source: its bytes [off, end).  A zero location (src NULL) is
 * none.  A span ends with its last character; an empty one (end == off)
 * stands at off.
 */
struct src_loc {
    const struct source *src;
    uint32_t off;           /* the byte offset of the first character */
    uint32_t end;           /* just past the last byte */
};

/*
 * Lines and columns count from 1; columns count characters (UTF-8 code
 * points; a tab, and each byte that is not valid UTF-8, is one), not bytes.
 * A line ends at "\n", "\r\n" or a lone "\r"; a byte order mark at the start
 * of the file takes no column.
 */
struct src_pos {
    int line, col;
};

/* The line and column of the character at byte off of s (off <= s->len). */
struct src_pos src_pos(const struct source *s, size_t off);
/* The byte offset of line and column (from 1) of s, clamped to the line and the file. */
size_t src_offset(const struct source *s, int line, int col);
/* Free the table of line starts (diag_free does, with the source). */
void src_lines_free(struct source *s);

static inline bool loc_known(const struct src_loc *l) { return l && l->src; }

/*
 * The byte offset of the span's last character: line breaks at its end are
 * not counted, as the scanner's spans never end on one.  off when empty.
 */
size_t loc_last(const struct src_loc *l);

/* Where the span starts and where its last character stands; {0, 0} for no location. */
struct src_pos loc_start(const struct src_loc *l);
struct src_pos loc_end(const struct src_loc *l);
static inline int loc_line(const struct src_loc *l) { return loc_start(l).line; }
static inline int loc_col(const struct src_loc *l) { return loc_start(l).col; }

/* The span from the start of a to the end of b. */
static inline struct src_loc loc_span(const struct src_loc *a, const struct src_loc *b)
{
    struct src_loc l = *a;
    l.end = b->end;
    return l;
}

/* The span of the n bytes at byte off of s. */
static inline struct src_loc loc_bytes(const struct source *s, size_t off, size_t n)
{
    return (struct src_loc){ .src = s, .off = (uint32_t)off, .end = (uint32_t)(off + n) };
}

/*
 * Bytes in the UTF-8 character at s (n >= 1 bytes left), or 0 when it is
 * not valid UTF-8 (the scanner and the columns count such a byte as one
 * character).
 */
size_t utf8_char_len(const char *s, size_t n);

#endif
