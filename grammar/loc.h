/*
 * loc.h — source files and locations in them.
 *
 * A location is a byte span of a source.  Lines and columns are not kept in
 * the tree: a bank has millions of locations and most are never shown.  They
 * are found when a message or a test asks (loc_line, loc_col, ...), from a
 * table of the source's line starts made the first time one is needed.
 *
 * Every source of the process has a place in one space of positions
 * (src_enter): its byte k is position base + k.  A location is two such
 * positions, eight bytes, and its source is found from them (loc_src), as
 * a compiler's source manager does; a bank has millions of locations, and
 * a pointer in each was a tenth of its tree.  Sources are entered, left
 * and looked up from one thread at a time: quizc and labrun read every
 * source before a rank starts.
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
     * A "..." literal whose only escapes are \" and \\ is decoded where it
     * stands too (a copy of such literals was half the tree of a bank of
     * long prompts): its value, then its NUL, then quotes up to its closing
     * quote.  edits holds each such literal's bytes, from its first byte
     * to just past its closing quote, two offsets an edit, in increasing
     * order.  The source as written is the value escaped again (every " or
     * \ in it was escaped): src_restore gives it back, byte for byte.
     */
    uint32_t (*edits)[2];
    size_t nedits, capedits;
    /*
     * What the scanner found of the characters XML 1.0 cannot carry in its
     * string literals (lex_xml_unsafe): SRC_XML_UNSCANNED until it reads the
     * source, then SRC_XML_CLEAN unless one holds such a character.
     */
    enum { SRC_XML_UNSCANNED, SRC_XML_CLEAN, SRC_XML_UNSAFE } xml;
    uint32_t *lines;        /* where each line starts, made by the first src_pos; freed with the source */
    size_t nlines;
    uint32_t base;          /* the position of its first byte (src_enter) */
    int errors;             /* errors reported in it (at most DIAG_MAX_ERRORS, diag.h) */
    bool stopped;           /* its "too many errors" note was given: the rest of it is quiet */
};

/*
 * Give s its place in the space of positions: base, after every source
 * entered before it and still there.  False when the sources together
 * would pass 4 GiB.  src_leave takes it out (diag_free does, with the
 * source); when none is left, the space starts again from 1.
 */
bool src_enter(struct source *s);
void src_leave(const struct source *s);

/*
 * A span of a source: its bytes [from, to), as positions (above).  A zero
 * location (from 0) is none.  A span ends with its last character; an
 * empty one (to == from) stands at from.
 */
struct src_loc {
    uint32_t from;          /* the position of the first byte */
    uint32_t to;            /* just past the last byte */
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
/*
 * Bytes [a, b) of s as the file holds them, into out (b - a bytes): the
 * literals decoded in place (edits, above) escaped again.  NULs over the
 * closing quotes of verbatim literals stay.
 */
void src_restore(const struct source *s, size_t a, size_t b, char *out);
/*
 * Bytes [a, b) of s as written: s->text + a where s has no edits, else a
 * NUL-terminated copy in *tmp (the caller frees *tmp, NULL when unused).
 */
const char *src_view(const struct source *s, size_t a, size_t b, char **tmp);
/* Note a literal decoded in place at bytes [from, to) of s (after every one noted before). */
void src_note_edit(struct source *s, size_t from, size_t to);

static inline bool loc_known(const struct src_loc *l) { return l && l->from; }

/* The source position pos lies in: NULL for 0, or when its source has left. */
const struct source *src_at(uint32_t pos);
/* The source a known location lies in (NULL for none, or one whose source has left). */
static inline const struct source *loc_src(const struct src_loc *l) { return loc_known(l) ? src_at(l->from) : NULL; }
/* The byte offset in s of a position of s. */
static inline size_t src_off(const struct source *s, uint32_t pos) { return pos - s->base; }

/*
 * The position of the span's last character: line breaks at its end are
 * not counted, as the scanner's spans never end on one.  from when empty.
 */
uint32_t loc_last(const struct src_loc *l);

/* Where the span starts and where its last character stands; {0, 0} for no location. */
struct src_pos loc_start(const struct src_loc *l);
struct src_pos loc_end(const struct src_loc *l);
static inline int loc_line(const struct src_loc *l) { return loc_start(l).line; }
static inline int loc_col(const struct src_loc *l) { return loc_start(l).col; }

/* The span from the start of a to the end of b. */
static inline struct src_loc loc_span(const struct src_loc *a, const struct src_loc *b)
{
    struct src_loc l = *a;
    l.to = b->to;
    return l;
}

/* The span of the n bytes at byte off of s. */
static inline struct src_loc loc_bytes(const struct source *s, size_t off, size_t n)
{
    return (struct src_loc){ .from = s->base + (uint32_t)off, .to = s->base + (uint32_t)(off + n) };
}

/*
 * Bytes in the UTF-8 character at s (n >= 1 bytes left), or 0 when it is
 * not valid UTF-8 (the scanner and the columns count such a byte as one
 * character).
 */
size_t utf8_char_len(const char *s, size_t n);

#endif
