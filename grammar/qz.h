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

/*
 * Parse one source into a tree.  Always returns a tree (possibly partial when
 * there were errors, which are reported to d).  Includes are not followed.
 */
struct ast_file *qz_parse(struct diag *d, const struct source *src);

/* A directory list for lab look-up: -L DIRs, then labs/ beside the quiz, then ./labs. */
struct qz_labpath {
    VEC(char *) dirs;           /* owned */
};
void qz_labpath_add(struct qz_labpath *p, const char *dir);
void qz_labpath_clear(struct qz_labpath *p);

/*
 * A quiz with its includes followed: the root file, every question in order
 * (includes spliced in where they stand), and the labs the questions name.
 */
struct qz_course {
    struct ast_file *root;              /* owned; include trees hang off its items */
    const struct ast_quiz *quiz;        /* root->quiz (NULL when the file held no quiz) */
    VEC(struct ast_question *) questions;   /* borrowed from the trees */
    VEC(struct ast_labdef *) labs;      /* every lab resolved, once each; owned */
};

/*
 * Read path, follow includes (paths relative to the including file; a cycle
 * is reported with its chain; a missing, unreadable or folder include is
 * reported at the include).  When labpath is not NULL, resolve every lab
 * reference and snippet (qz_resolve_labs).  Returns NULL only when path itself
 * cannot be read.  Check diag_errors(d) for success.
 */
struct qz_course *qz_load(struct diag *d, const char *path, const struct qz_labpath *labpath);
void qz_course_free(struct qz_course *c);

/*
 * Find the folder of lab `name` along labpath (the first DIR/name/lab.qz that
 * exists).  Returns a new string, or NULL when there is none.
 */
char *qz_find_lab(const struct qz_labpath *labpath, const char *name);

/*
 * Read and parse DIR/lab.qz.  Returns the manifest (owned by the caller, with
 * dir set), or NULL after reporting why (missing file, no `lab` in it).
 */
struct ast_labdef *qz_load_lab(struct diag *d, const char *dir, const struct src_loc *at);

/*
 * Resolve every question's lab references and snippets in c: the lab exists,
 * each argument names a declared parameter with a value of its type and in
 * its range, each expect names a declared metric (`of answer` only in numeric
 * questions), and each snippet region exists in the lab's sources.  Reports
 * each problem at its location; sets ref->def and snippet->code/file.
 */
void qz_resolve_labs(struct diag *d, struct qz_course *c, const struct qz_labpath *labpath);

/* Check one lab reference against its manifest (used by the above and by labrun --verify). */
bool qz_check_labref(struct diag *d, struct ast_labref *ref, const struct ast_labdef *def,
                     enum ast_qkind qkind);

/*
 * Extract the region `// snippet: NAME` .. `// end snippet` from the source
 * files of the lab in dir (files scanned in name order; .c .h .cu .cuh .py
 * .sh .qz).  Returns the region's text with its common indentation removed,
 * and in *file its file name relative to dir; NULL when not found.
 */
char *qz_snippet(const char *dir, const char *region, char **file);

/* The parameter or metric of def with this name, or NULL. */
const struct ast_param *qz_lab_param(const struct ast_labdef *def, const char *name);
const struct ast_metric *qz_lab_metric(const struct ast_labdef *def, const char *name);

/* The library's version string, "0.1.0". */
extern const char qz_version[];

#endif
