/*
 * texmml.h — TeX to MathML by Temml (npm), run under Node.js at compile
 * time: quizc carries Temml's script inside itself (compiled in at build
 * time from the version package-lock.json pins), so the MathML of a quiz
 * depends on quizc's build, never on what the machine has installed but
 * Node.js itself.  doc/language.md says why this converter.
 */
#ifndef QZ_TEXMML_H
#define QZ_TEXMML_H

#include <stdbool.h>
#include <stddef.h>

#include "qz.h"

/* The environment variable naming the node program (default: node, found on PATH). */
#define TEXMML_NODE_ENV "QUIZC_NODE"

/*
 * Fill f[i].mathml for each of the n formulas, in one run of Node.js.  A
 * formula Temml refuses is an error at locs[i] (moved to the command it
 * names when Temml says where), with Temml's words: "unsupported TeX:
 * Unsupported function name: \foo".  No Node.js is one error at locs[0].
 * True when every formula converted.
 */
bool texmml_convert(struct diag *d, struct qz_formula *f, size_t n, const struct src_loc *locs);

/* Temml's script, compiled in (math_res.c): the player carries it too, in a package with math. */
struct scorm_res;
const struct scorm_res *texmml_temml(void);

#endif
