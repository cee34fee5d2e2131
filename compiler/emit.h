/*
 * emit.h — output formats of quizc.  Every emitter renders a checked course
 * into memory; writing it to disk (atomically) is output.c's job, so the same
 * emitters serve the CLI, the tests and the fuzzer.
 */
#ifndef QZ_EMIT_H
#define QZ_EMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "qz.h"

/* A growable byte buffer.  Owned by whoever declared it; free with membuf_free. */
struct membuf {
    unsigned char *data;
    size_t len, cap;
};
void membuf_append(struct membuf *b, const void *p, size_t n);
/* Room for n more bytes (and the NUL after them) at b->data + b->len; len is the caller's to advance. */
unsigned char *membuf_room(struct membuf *b, size_t n);
void membuf_free(struct membuf *b);

/*
 * A set of files (for packages): names relative to the package root.  A
 * file's bytes are its own copy, a rendered buffer it took, or bytes
 * compiled into quizc, which are used where they are: the player, Temml
 * and the labs' module are about a megabyte, once copied for every package.
 */
struct emit_file {
    char *name;                 /* "imsmanifest.xml", "player/app.js", ... */
    const unsigned char *data;  /* len bytes, and a NUL past them when owned */
    size_t len;
    unsigned char *owned;       /* data when the file owns it, else NULL */
};
struct emit_files {
    VEC(struct emit_file) files;
};
/* A copy of p[0..n). */
void emit_files_add(struct emit_files *fs, const char *name, const void *p, size_t n);
/* p[0..n) itself, which outlives fs (static storage): not copied. */
void emit_files_add_static(struct emit_files *fs, const char *name, const void *p, size_t n);
/* b's bytes, taken: b is left empty. */
void emit_files_take(struct emit_files *fs, const char *name, struct membuf *b);
void emit_files_free(struct emit_files *fs);
/* Move every file of from to the end of to (from is left empty). */
void emit_files_move(struct emit_files *to, struct emit_files *from);

/*
 * The identifier of the i-th choice of a question (from 0, in source order):
 * 'a'..'z', then '0'..'9'; '\0' past the 36th.  One character fits SCORM 1.2's
 * choice identifiers (0-9, a-z), so the course document, the SCORM
 * interactions and the player all use these same ids.
 */
char emit_choice_id(size_t i);

enum scorm_version { SCORM_12, SCORM_2004 };

struct emit_opts {
    enum scorm_version scorm;   /* default SCORM_12 */
    /*
     * GIFT, Moodle XML: the one language to write, or NULL for every language
     * of the quiz in Moodle's multi-language spans.  QTI: the package's
     * language, NULL for the quiz's first.  Borrowed.
     */
    const char *lang;
    /*
     * SCORM: carry the labs compiled to WebAssembly, so the page runs them
     * (a Run button in each lab box), when this quizc has them built in.
     */
    bool live_labs;
};

/*
 * The course document (compiler/course.xsd): deterministic bytes for the same
 * input.  Returns 0, or -1 after reporting to d (a character XML 1.0 forbids).
 */
int emit_course_xml(const struct qz_course *c, struct membuf *out, struct diag *d);

/*
 * The same document handed to write(ctx, p, n) piece by piece as it is made,
 * so that a large course need not be held in memory whole; write returns n,
 * or -1 to stop (then -1 is returned, with an error reported unless one was
 * already).  On -1 whatever was written is to be thrown away.
 */
typedef int (*emit_write_fn)(void *ctx, const char *p, int n);
/* The emit_write_fn that appends to the struct membuf at ctx. */
int membuf_write(void *ctx, const char *p, int n);
int emit_course_xml_stream(const struct qz_course *c, emit_write_fn write, void *ctx,
                           struct diag *d);

/*
 * The SCORM package as files: imsmanifest.xml, course.xml and the player.
 * Returns 0, or -1 after reporting to d.
 */
int emit_scorm_files(const struct qz_course *c, const struct emit_opts *o,
                     struct emit_files *out, struct diag *d);

/* Zip the files, sorted by name, with fixed timestamps (byte-identical output). */
int emit_zip(const struct emit_files *fs, struct membuf *out, struct diag *d);

/*
 * Question banks for Moodle: GIFT text (emit_gift.c) and Moodle XML
 * (emit_moodle.c).  What a format cannot hold is reported as a warning
 * naming the question.  Each returns 0, or -1 after reporting to d.
 */
int emit_gift(const struct qz_course *c, const struct emit_opts *o, struct membuf *out,
              struct diag *d);
int emit_moodle_xml(const struct qz_course *c, const struct emit_opts *o, struct membuf *out,
                    struct diag *d);

/*
 * A QTI 2.1 content package as files: imsmanifest.xml, assessmentTest.xml
 * and items/ID.xml per question (emit_qti.c, qti_package.c).  Returns 0, or
 * -1 after reporting to d.
 */
int emit_qti_files(const struct qz_course *c, const struct emit_opts *o, struct emit_files *out,
                   struct diag *d);

#endif
