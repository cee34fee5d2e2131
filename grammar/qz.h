/*
 * qz.h — libqz, the front end shared by quizc and labrun: read a quiz with its
 * includes, read lab manifests, resolve lab references and snippets.
 *
 * Everything reports through a struct diag and goes on after an error, so one
 * run reports every independent problem.
 */
#ifndef QZ_QZ_H
#define QZ_QZ_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"
#include "labref.h"

/*
 * Parse one source into a tree.  Always returns a tree (possibly partial when
 * there were errors, which are reported to d).  Includes are not followed.
 */
struct ast_file *qz_parse(struct diag *d, const struct source *src);

/*
 * An image a text shows (![alt](path)), read and checked by quizc's media
 * pass (compiler/media.h): one entry per path, however many texts show it.
 */
struct qz_image {
    char *path;                 /* as written, relative to the quiz file */
    char *name;                 /* its file in packages: "media/" and a name unique in the package */
    unsigned char *bytes;       /* the file, as read */
    size_t len;
    const char *mime;           /* "image/png", "image/jpeg" or "image/svg+xml" (static) */
    char sha256[65];            /* lowercase hex */
};

/* A formula of the course (\( \) or \[ \]) and its MathML, one entry per TeX and display. */
struct qz_formula {
    char *tex;
    bool display;
    char *mathml;               /* a <math> element in the MathML namespace */
};

/* What the media pass found; empty before it runs (the emitters then write alt texts and TeX). */
struct qz_media {
    bool done;                  /* the pass ran: an image or formula missing from it is a bug */
    VEC(struct qz_image) images;
    VEC(struct qz_formula) formulas;
};

/*
 * A quiz with its includes followed: the root file, every question in order
 * (includes spliced in where they stand), and the labs the questions name.
 */
struct qz_course {
    struct ast_file *root;              /* owned; include trees hang off its includes */
    const struct ast_quiz *quiz;        /* root->quiz (NULL when the file held no quiz) */
    VEC(struct ast_question *) questions;   /* borrowed from the trees (the root's own list when it includes nothing) */
    VEC(struct ast_labdef *) labs;      /* every lab resolved, once each; owned */
    struct qz_media media;              /* filled by quizc's media pass; owned */
};

/*
 * Read path, follow includes (paths relative to the including file; a cycle
 * is reported with its chain; a missing, unreadable or folder include is
 * reported at the include).  Lab references are resolved by a pass of their
 * own (qz_resolve_labs, labref.h).  Returns NULL only when path itself
 * cannot be read.  Check diag_errors(d) for success.
 */
struct qz_course *qz_load(struct diag *d, const char *path);
void qz_course_free(struct qz_course *c);

/* The library's version string, "0.1.0". */
extern const char qz_version[];

#endif
