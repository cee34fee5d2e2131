/*
 * render_runs.h — a recorded lab run (quizc --runs) in the lab box of the
 * question banks and QTI items: what the player's box shows of it
 * (compiler/player/labbox.js, recorded()), as escaped HTML in one language.
 */
#ifndef QZ_RENDER_RUNS_H
#define QZ_RENDER_RUNS_H

#include "render.h"

/*
 * Append, in lang, what the run attached to ref measured: the machine and
 * the date; each of ref's claims with its figure, how the figure was
 * obtained, and PASS or FAIL by the rules of doc/claims.md (those of
 * labrun --verify); how many of the lab's own checks passed; the run's
 * notes.  The timeline is left out: an SVG from a file is not for an LMS's
 * HTML.  Nothing for a reference without a run.  Every text of the run is
 * written escaped.
 */
/*
 * Append the metric of claim x as the player's lab box words it
 * (labbox.js, metricWords): the head of its description in lang, then its
 * name as code in parentheses ("share of stage time spent idle
 * (<code>bubble_fraction</code>)"); the name alone for a metric with no
 * description.
 */
void render_metric(struct render *r, struct membuf *b, const struct ast_labref *ref,
                   const struct ast_expect *x, const char *lang);

void render_run(struct render *r, struct membuf *b, const struct ast_question *q,
                const struct ast_labref *ref, const char *lang);

#endif
