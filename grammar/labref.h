/*
 * labref.h — labs as quizzes and labrun refer to them, in one place (libqz):
 * the search path, "did you mean", a parameter's value against its manifest,
 * the labrun command line, and the pass that resolves a course's lab
 * references and snippets.  quizc, labrun and labrun --verify all call these,
 * so every output says the same thing about the same `lab` line.
 */
#ifndef QZ_LABREF_H
#define QZ_LABREF_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"
#include "util.h"

struct qz_course;

/* ---- The search path (labpath.c) ----------------------------------------- */

/* A folder list for lab look-up, searched in order. */
struct qz_labpath {
    VEC(char *) dirs;           /* owned */
};
/* Append dir (copied), unless the list holds it already. */
void qz_labpath_add(struct qz_labpath *p, const char *dir);
void qz_labpath_clear(struct qz_labpath *p);

/*
 * The folders after the -L ones the caller added: labs/ beside the quiz
 * (quiz: its path, or NULL), then ./labs, then the installed labs (the
 * share/labrun/labs of the build's prefix, and the one beside the running
 * program, for an installation moved elsewhere).
 */
void qz_labpath_defaults(struct qz_labpath *p, const char *quiz);

/* The installed labs' folder as built: PREFIX/share/labrun/labs. */
const char *qz_installed_labs(void);

/*
 * The folder of lab `name` along p (the first DIR/name/lab.qz that exists);
 * a new string, or NULL.  A name is a folder name, never a path.
 */
char *qz_find_lab(const struct qz_labpath *p, const char *name);

/* The lab folder name along p nearest to name (qz_near's rule); a new string, or NULL. */
char *qz_near_lab(const struct qz_labpath *p, const char *name);
/*
 * A lab not found along path, used at `at`: an error with the nearest lab
 * there is, and a note naming the folders searched and -L.  quizc and
 * labrun --verify say it in these words, once per lab name.
 */
void qz_report_unknown_lab(struct diag *d, const struct qz_labpath *path, const char *name,
                           const struct src_loc *at);

/* "did you mean" is util.h's qz_near: one rule for every suggestion. */

/* ---- Values and the command line (labref.c) ------------------------------ */

/*
 * A number's value as parameters and claims read it: a percentage is
 * hundredths (50% is 0.5), anything else as written.
 */
double qz_value_number(const struct ast_value *v);

/*
 * The canonical text of v as a value of parameter p: what the command line
 * carries and labrun parses back.  An integer without fraction or exponent
 * (4.0 and 4 give 4, 1e1 gives 10), a real in its shortest exact form, a
 * percentage as hundredths (50% gives 0.5), a choice or string as written,
 * true or false.  A new string; NULL when v does not fit p, with the reason
 * in *why (a new string, to be reported at v).
 */
char *qz_param_canon(const struct ast_param *p, const struct ast_value *v, char **why);

/*
 * The value of argument a of ref as labrun takes it: canonical when it fits
 * its parameter (ref->def must be set), else as written.  A new string.
 */
char *qz_arg_value(const struct ast_labref *ref, const struct ast_arg *a);

/*
 * "labrun labs/NAME --k v ..." for ref, its values canonical (ref->def must
 * be set; a value that does not fit is written as given) and each word
 * quoted for a POSIX shell when it must be.  A new string.
 */
char *qz_lab_command(const struct ast_labref *ref);

/* How a value is named in an error's "got ...": 4.5, 'gpipe', the string "x", true.  A new string. */
char *qz_describe_value(const struct ast_value *v);

/* ---- Manifests and references (labs.c) ---------------------------------- */

/*
 * Read and parse DIR/lab.qz.  Returns the manifest (owned by the caller, with
 * dir set), or NULL after reporting why (missing file, no `lab` in it).
 */
struct ast_labdef *qz_load_lab(struct diag *d, const char *dir, const struct src_loc *at);

/* The parameter or metric of def with this name, or NULL. */
const struct ast_param *qz_lab_param(const struct ast_labdef *def, const char *name);
const struct ast_metric *qz_lab_metric(const struct ast_labdef *def, const char *name);

/*
 * A manifest's TEXT (title, summary, help, description) in lang: the entry
 * tagged lang, else one tagged its primary subtag ("en" for "en-GB"), else
 * the neutral string, else the English, else the first.  Labs are shared
 * between quizzes, so a quiz's language may be missing (quizc warns) and a
 * quiz may name none (lang NULL): English is then what every tool shows.
 * Borrowed; NULL when t is NULL or empty.
 */
const struct ast_tr *qz_lab_text(const struct ast_text *t, const char *lang);

/*
 * Whether def's manifest is written in lang (its title has that tag):
 * labrun --lang then speaks it too, as every lab's words are written in the
 * languages of its manifest.
 */
bool qz_lab_speaks(const struct ast_labdef *def, const char *lang);

/*
 * Check one reference against its manifest: each argument names a declared
 * parameter with a value that fits it, each expect a declared metric (`of
 * answer` only in numeric questions).  Reports each problem at its place;
 * sets ref->def.
 */
bool qz_check_labref(struct diag *d, struct ast_labref *ref, const struct ast_labdef *def,
                     enum ast_qkind qkind);
/* Its two halves: the arguments, and one expect line. */
bool qz_check_args(struct diag *d, const struct ast_labref *ref, const struct ast_labdef *def);
bool qz_check_expect(struct diag *d, const struct ast_labref *ref, const struct ast_expect *e,
                     const struct ast_labdef *def, enum ast_qkind qkind);

/*
 * The resolution pass: each question's lab references are checked against
 * their manifests (each manifest read once, kept in the course) and its
 * snippets cut from the labs' sources.  Run over the whole course
 * (qz_resolve_labs), or a question at a time beside other checks.
 */
struct qz_resolver;
struct qz_resolver *qz_resolver_new(struct diag *d, struct qz_course *c, const struct qz_labpath *p);
void qz_resolve_question(struct qz_resolver *r, struct ast_question *q);
void qz_resolver_free(struct qz_resolver *r);
void qz_resolve_labs(struct diag *d, struct qz_course *c, const struct qz_labpath *p);

/* ---- A lab's fingerprint (labhash.c) ----------------------------------- */

/*
 * "fnv1a64:HEX" over the lab's manifest and sources in dir (the files
 * snippets are cut from, in name order, each name and bytes): what a
 * recorded run keeps, so quizc can tell when the lab has changed since.
 * A new string; NULL when dir cannot be read or holds none.
 */
char *qz_lab_hash(const char *dir);

/*
 * "fnv1a64:HEX" over the quiz's source as c was read from it: the root
 * file's bytes, then each included file's, depth first in source order.
 * What a recorded run file keeps beside the quiz's id, so quizc can tell
 * runs recorded from another version of this quiz.  A new string.
 */
struct qz_course;
char *qz_quiz_hash(const struct qz_course *c);

/* The runs file: what `labrun --verify --record` writes and `quizc --runs` reads (doc/claims.md). */
#define QZ_RUNS_FORMAT "labrun-runs"
#define QZ_RUNS_VERSION 1

/* ---- Snippets (snippet.c) ------------------------------------------------- */

/*
 * Extract the region `// snippet: NAME` .. `// end snippet` from the source
 * files of the lab in dir (files scanned in name order; .c .h .cu .cuh .py
 * .sh .qz).  Returns the region's text with its common indentation removed,
 * and in *file its file name relative to dir; NULL when not found.  The
 * search reads only files in dir: when it meets a symbolic link that leads
 * outside, it stops and returns NULL with that link's path relative to dir
 * in *outside (caller frees; outside may be NULL).
 */
char *qz_snippet(const char *dir, const char *region, char **file, char **outside);

/* One snippet region of a lab: its name and what it shows (its first comment line, or ""). */
struct qz_region {
    char *name;
    char *about;
};
struct qz_regions {
    VEC(struct qz_region);
};

/*
 * Every region of the lab in dir, in the order qz_snippet searches (a name
 * given twice is listed once, as qz_snippet finds it).  The list stops at a
 * symbolic link that leads outside the lab.  Free with qz_regions_free.
 */
struct qz_regions *qz_snippet_regions(const char *dir);
void qz_regions_free(struct qz_regions *r);
/* The region of r nearest to name (a misspelling), or NULL; r's own string. */
const char *qz_region_near(const struct qz_regions *r, const char *name);

#endif
