/*
 * run_text.c — a recorded run's words in the learner's language (runs.h):
 * what every writer of a run (course.xml, the player's data, the lab box of
 * Moodle, GIFT and QTI) shows of it.
 */
#include <string.h>

#include "runs.h"

struct qz_run_text qz_run_text(const struct qz_run *r, const char *lang)
{
    struct qz_run_text t = { r->lang, r->checks.items, r->checks.n, r->notes.items, r->notes.n, r->svg };
    for (size_t i = 0; lang && i < r->words.n; i++) {
        const struct qz_run_words *w = &r->words.items[i];
        if (strcmp(w->lang, lang) == 0)
            return (struct qz_run_text){ w->lang, w->checks.items, w->checks.n, w->notes.items, w->notes.n, w->svg };
    }
    return t;
}
