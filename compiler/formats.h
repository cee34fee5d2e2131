/*
 * formats.h — the outputs quizc writes, registered: each format's name, the
 * file name that chooses it, whether it takes --lang, and its writer.
 * main.c reads this table for --format, -o's name, --dir, --lang, the
 * default output's name and the writing itself; adding a format is a row
 * here and its writer (doc/extending.md).
 */
#ifndef QZ_FORMATS_H
#define QZ_FORMATS_H

#include <stdbool.h>

#include "emit.h"

struct format {
    const char *name;       /* --format NAME */
    const char *ext;        /* the default output's extension, after the quiz's name */
    const char *suffix;     /* an -o name ending so chooses it without --format, or NULL */
    const char *suffix_is;  /* how usage errors call that suffix's output, or NULL */
    bool one_lang;          /* --lang picks the language written */
    /* The writer: exactly one is set. */
    int (*stream)(const struct qz_course *c, emit_write_fn write, void *ctx, struct diag *d);
    int (*text)(const struct qz_course *c, const struct emit_opts *o, struct membuf *out, struct diag *d);
    int (*files)(const struct qz_course *c, const struct emit_opts *o, struct emit_files *out, struct diag *d);
    bool package;           /* files: a package, written as a zip or into a folder (--dir) */
};

/* The formats, in the order help and messages list them; NULL-terminated by name. */
extern const struct format formats[];

/* The format called name, or NULL. */
const struct format *format_named(const char *name);

/* The format an -o name chooses by its ending, or NULL. */
const struct format *format_for_output(const char *path);

/*
 * The names of the formats that pass keep (NULL: every one) joined for a
 * message: "a, b or c" (last " or ") or "a, b and c" (last " and ").  A
 * new string.
 */
char *format_list(bool (*keep)(const struct format *), const char *last);

/* As format_list, with word(f) (a new string) for each format instead of its name. */
char *format_join(bool (*keep)(const struct format *), char *(*word)(const struct format *),
                  const char *last);

#endif
