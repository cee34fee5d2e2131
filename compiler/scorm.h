/*
 * scorm.h — the parts of the SCORM package emitter: the manifest, the
 * player's quiz data, and the player files compiled into quizc.
 *
 * emit_scorm_files (emit.h) puts these together; they are separate so the
 * tests can look at each piece on its own.
 */
#ifndef QZ_SCORM_H
#define QZ_SCORM_H

#include <stddef.h>

#include "check.h"
#include "emit.h"

/* One file of the player, compiled in from compiler/player/ at build time. */
struct scorm_res {
    const char *name;           /* path in the package: "index.html" */
    const unsigned char *data;  /* the bytes (static storage) */
    size_t len;
};
extern const struct scorm_res scorm_player[];   /* in name order */
extern const size_t scorm_player_count;
/*
 * The labs compiled to WebAssembly with the worker that runs them
 * (labrun-module.js, mk/web.mk), which a package carries when
 * emit_opts.live_labs; empty in a quizc built without emscripten.
 */
extern const struct scorm_res scorm_live_labs[];
extern const size_t scorm_live_labs_count;

/* The name of the file that carries the quiz data, loaded by index.html. */
#define SCORM_DATA_FILE "quiz-data.js"

/*
 * The language shown first: the quiz's first declared language, or NULL for
 * a quiz that declares none (its TEXTs are language-neutral strings).
 */
const char *scorm_default_lang(const struct ast_quiz *q);

/*
 * The plain text of t in lang, Markdown marks dropped and lines joined with
 * spaces (for titles, where no structure is allowed).  A new string; "" for a
 * NULL text.
 */
char *scorm_plain_text(const struct ast_text *t, const char *lang);

/* The most choices a question can have with a one-character id (emit_choice_id): the checks' limit, one rule. */
#define SCORM_MAX_CHOICES CHECK_MAX_CHOICES

/*
 * imsmanifest.xml for the given package files (names relative to the package
 * root; imsmanifest.xml itself is not listed).  Returns 0, or -1 after
 * reporting to d.
 */
int scorm_manifest(const struct qz_course *c, enum scorm_version v,
                   const char *const *files, size_t nfiles,
                   struct membuf *out, struct diag *d);

/*
 * The player's data as a JavaScript file that sets window.QUIZ_DATA, so the
 * player works from file:// too (no fetch).  Returns 0, or -1 after
 * reporting to d.
 */
int scorm_quiz_data(const struct qz_course *c, const struct emit_opts *o,
                    struct membuf *out, struct diag *d);

/* The same data as a JSON text (for the tests); caller frees.  NULL on failure. */
char *scorm_quiz_json(const struct qz_course *c, const struct emit_opts *o);

#endif
