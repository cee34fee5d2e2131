/*
 * diag.h — diagnostics: the one way errors are reported.
 *
 *     file:line:col: error: message
 *         source line
 *         ^~~~~~
 *
 * Every error is counted; callers go on after reporting (recovery), and the
 * tool's exit status comes from diag_errors().
 */
#ifndef QZ_DIAG_H
#define QZ_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "loc.h"

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

/*
 * The most errors reported in one source file.  Past them the file's
 * diagnostics are dropped after one note, "too many errors in this file;
 * stopping here", and the scanner stops reading it: so a file of garbage
 * costs time in proportion to its size, not to its size times its errors
 * (each error shows its source line).  Documented in doc/language.md and
 * quizc.1.
 */
enum { DIAG_MAX_ERRORS = 50 };

/* One held message: where it sorts and where its text lies (diag.c). */
struct diag_held {
    uint32_t key;           /* its location's position; a note takes the key of the message it follows */
    size_t seq;             /* the order it was reported in: ties keep it */
    size_t start, len;      /* its bytes in the buffer */
};

struct diag {
    FILE *out;              /* where messages go (stderr by default); NULL: nowhere */
    bool color;             /* ANSI colours (set when out is a terminal) */
    bool werror;            /* -Werror: each warning is shown and counted as an error ("[-Werror]") */
    int errors, warnings;
    struct source **sources;/* every source read; owned */
    size_t nsources;
    /* Where each error with a location was reported, in order (diag_error_locs). */
    struct src_loc *error_locs;
    size_t nerror_locs, caperror_locs;
    /*
     * Held messages (diag_hold): rendered into one buffer and printed in
     * source order by diag_flush.  Nothing is kept while none is reported.
     */
    bool hold;              /* diag_hold was called */
    FILE *held;             /* the buffer's stream (open_memstream), opened by the first message */
    char *held_buf;         /* its bytes */
    size_t held_len;
    struct diag_held *held_msgs;    /* where each message lies in the buffer, and its place */
    size_t nheld, capheld;
    /* Optional hook: called for every diagnostic (tests record them). */
    void (*hook)(void *ctx, enum diag_level, const struct src_loc *, const char *msg);
    void *hook_ctx;
};

/*
 * The places of the errors reported so far, in the order reported
 * (borrowed; valid until the next report).  A later pass reads them to know
 * which questions a syntax error has already been reported in.
 */
const struct src_loc *diag_error_locs(const struct diag *d, size_t *n);

/* A diag that prints to out (NULL: silent). */
struct diag *diag_new(FILE *out);
/* Frees the diag and every source it holds. */
void diag_free(struct diag *d);

/*
 * Register a source.  Takes ownership of text (which must have len bytes and
 * a NUL after them).  The returned source lives until diag_free.  NULL,
 * reported and with text freed, when the sources would pass 4 GiB together.
 */
const struct source *diag_add_source(struct diag *d, const char *path, char *text, size_t len);

/*
 * Read path into a new source.  On failure reports "cannot read PATH: reason"
 * at `at` (or with no location when at is NULL) and returns NULL.
 */
const struct source *diag_read_source(struct diag *d, const char *path, const struct src_loc *at);

/* Report at loc (NULL: no location; the message starts with the program name instead). */
void diag_report(struct diag *d, enum diag_level level, const struct src_loc *loc,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_vreport(struct diag *d, enum diag_level level, const struct src_loc *loc,
                  const char *fmt, va_list ap);

/* Report about a whole file, with no line in it: "PATH: error: message". */
void diag_report_in(struct diag *d, enum diag_level level, const char *path,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define diag_error(d, loc, ...)   diag_report((d), DIAG_ERROR, (loc), __VA_ARGS__)
#define diag_warning(d, loc, ...) diag_report((d), DIAG_WARNING, (loc), __VA_ARGS__)
#define diag_note(d, loc, ...)    diag_report((d), DIAG_NOTE, (loc), __VA_ARGS__)

static inline int diag_errors(const struct diag *d) { return d->errors; }

/* True when src has had DIAG_MAX_ERRORS errors: its scanner stops (lex_too_many). */
static inline bool diag_source_full(const struct source *src) { return src && src->errors >= DIAG_MAX_ERRORS; }

/*
 * The note that at closes loc's source to diagnostics, once per source; every
 * later diagnostic located in it is dropped.  diag_report calls it for the
 * error past the cap; the scanner calls it when it stops reading.
 */
void diag_stop(struct diag *d, const struct src_loc *at);

/*
 * From now on messages with a location are held and printed in source
 * order (file by file, in the order the files were read; within a file by
 * position), each note after the message it belongs to, by diag_flush.
 * So an error the semantic pass finds on line 2 comes before a syntax error
 * on line 30.  A message without a location flushes what is held and is
 * printed at once (a tool-level error ends the run's messages).
 */
void diag_hold(struct diag *d);
/* Print the held messages in source order; diag_summary and diag_free call it. */
void diag_flush(struct diag *d);

/* "2 errors generated." etc. to d->out, when there were any. */
void diag_summary(struct diag *d);

/* The program name used for location-less messages ("quizc"). */
extern const char *diag_progname;

#endif
