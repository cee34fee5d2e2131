/*
 * runs_judge.c — what quizc --runs packed, told to the teacher: runs from
 * another quiz, claims a packed run fails, lab lines left without a run, and
 * runs no lab line took.
 *
 * A package shows learners each claim beside the figure behind it; a claim
 * its own run contradicts should be seen by the teacher at compile time,
 * not by a learner.  Claims are judged by qz_claim_holds, as labrun --verify
 * and the renderers judge them, so the three never disagree.  These are
 * warnings (notes for what costs nothing), so -Werror turns a release build
 * with any of them into a failed one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim.h"
#include "labref.h"
#include "runs.h"

/* Values quoted in a message: enough to recognise a run, bounded whatever the file holds. */
#define VALUES_MAX 240

struct values {
    char text[VALUES_MAX];
    size_t len;
};

static void values_add(struct values *v, const char *name, const char *value)
{
    if (v->len >= sizeof v->text - 1)
        return;
    int n = snprintf(v->text + v->len, sizeof v->text - v->len, "%s%.64s=%.64s", v->len ? ", " : "", name, value);
    if (n < 0 || (size_t)n >= sizeof v->text - v->len) {
        /* Cut: say so rather than end mid-value. */
        strcpy(v->text + sizeof v->text - 4, "...");
        v->len = sizeof v->text - 1;
    } else {
        v->len += (size_t)n;
    }
}

static void add_param(void *ctx, const struct ast_param *p, const char *value)
{
    values_add(ctx, p->name, value);
}

void runs_judge_quiz(struct diag *d, const struct qz_runs *rs, const struct qz_course *c)
{
    const struct ast_quiz *quiz = c->quiz;
    if (!quiz || !quiz->id || !rs->quiz_id)
        return;     /* a file that names no quiz (written by hand, or by an older labrun) is not compared */
    const struct src_loc *at = loc_known(&quiz->id_loc) ? &quiz->id_loc : &quiz->loc;
    if (strcmp(rs->quiz_id, quiz->id) != 0) {
        diag_warning(d, at, "%s was recorded from another quiz, '%.64s' (%.200s), not from '%s'", rs->path,
                     rs->quiz_id, rs->quiz ? rs->quiz : "no path", quiz->id);
        return;
    }
    /* The same quiz, edited since: each claim is judged as it is now, so this is worth knowing, no more. */
    char *now = qz_quiz_hash(c);
    if (rs->quiz_hash && strcmp(rs->quiz_hash, now) != 0)
        diag_note(d, at, "%s was recorded from another version of this quiz (%.64s; it is now %s); its runs are "
                  "judged against the claims as they are now", rs->path, rs->quiz_hash, now);
    free(now);
}

/* The checks of run that failed: how many, and the first one's name. */
static size_t failed_checks(const struct qz_run *run, const char **first)
{
    size_t n = 0;
    *first = NULL;
    for (size_t i = 0; i < run->checks.n; i++)
        if (!run->checks.items[i].pass && n++ == 0)
            *first = run->checks.items[i].name;
    return n;
}

static const struct qz_run_metric *metric_of(const struct qz_run *run, const char *name)
{
    for (size_t i = 0; i < run->metrics.n; i++)
        if (strcmp(run->metrics.items[i].name, name) == 0)
            return &run->metrics.items[i];
    return NULL;
}

void runs_judge_ref(struct diag *d, const struct ast_question *q, const struct ast_labref *ref)
{
    const struct qz_run *run = ref->run;
    const char *check;
    size_t failed = failed_checks(run, &check);
    if (failed && ref->expects.n == 0)
        diag_warning(d, &ref->loc, "the run packed for this lab line failed the lab's own check '%.64s' (%zu of %zu "
                     "failed)", check, failed, run->checks.n);
    for (size_t k = 0; k < ref->expects.n; k++) {
        const struct ast_expect *x = &ref->expects.items[k];
        const struct qz_run_metric *m = metric_of(run, x->metric);
        double v = m && m->known ? m->value : NAN;
        char expected[160], fig[64] = "";
        bool holds = qz_claim_holds(x, q, v, expected, sizeof expected);
        if (m && m->known)
            qz_fmt_claim_num(fig, sizeof fig, v);
        if (!m)
            diag_warning(d, &ref->loc, "the run packed for this lab line fails '%s %s': the run has no figure "
                         "for '%s'", x->metric, expected, x->metric);
        else if (!m->known)
            diag_warning(d, &ref->loc, "the run packed for this lab line fails '%s %s': the run gave no finite "
                         "figure for it", x->metric, expected);
        else if (failed)
            diag_warning(d, &ref->loc, "the run packed for this lab line fails '%s %s': the lab's own check "
                         "'%.64s' failed (%zu of %zu failed), which fails every claim; %s %s", x->metric, expected,
                         check, failed, run->checks.n, m->basis, fig);
        else if (!holds)
            diag_warning(d, &ref->loc, "the run packed for this lab line fails '%s %s': %s %s", x->metric,
                         expected, m->basis, fig);
    }
}

void runs_judge_missing(struct diag *d, const struct qz_runs *rs, const struct ast_labref *ref)
{
    struct values v = { .len = 0 };
    runs_each_param(ref, add_param, &v);
    diag_warning(d, &ref->loc, "no run in %s was recorded for this lab line (%s with %s)", rs->path, ref->def && ref->def->name ? ref->def->name : ref->name,
                 v.len ? v.text : "no parameters");
}

void runs_judge_unused(struct diag *d, const struct qz_runs *rs, const struct qz_course *c)
{
    if (!rs->runs.n)
        return;
    bool *used = xcalloc(rs->runs.n, sizeof *used);
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        for (size_t k = 0; k < q->extra->labs.n; k++) {
            const struct qz_run *run = q->extra->labs.items[k].run;
            if (run)
                used[run - rs->runs.items] = true;
        }
    }
    for (size_t i = 0; i < rs->runs.n; i++) {
        if (used[i])
            continue;
        const struct qz_run *run = &rs->runs.items[i];
        struct values v = { .len = 0 };
        for (size_t k = 0; k < run->params.n; k++)
            values_add(&v, run->params.items[k].name, run->params.items[k].value);
        diag_report_in(d, DIAG_NOTE, rs->path, "runs[%zu] (%.64s with %s) matches no lab line of this quiz; it is not packed", i,
                     run->lab, v.len ? v.text : "no parameters");
    }
    free(used);
}

void runs_judge_langs(struct diag *d, const struct qz_runs *rs, const struct qz_course *c)
{
    const struct ast_quiz *quiz = c->quiz;
    if (!quiz)
        return;
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        for (size_t k = 0; k < q->extra->labs.n; k++) {
            const struct ast_labref *ref = &q->extra->labs.items[k];
            const struct qz_run *run = ref->run;
            if (!run || !run->lang)
                continue;   /* a run that does not say its language (an older labrun's) is not compared */
            for (size_t l = 0; l < quiz->langs.n; l++) {
                const char *lang = quiz->langs.items[l].tag;
                if (strcmp(lang, run->lang) == 0 || qz_run_text(run, lang).lang != run->lang ||
                    !qz_lab_speaks(ref->def, lang))
                    continue;
                diag_warning(d, &quiz->langs_loc, "the runs in %s have their notes and timelines in '%s' only, "
                             "not in '%s' (the first is lab '%s' at line %d): learners reading '%s' see them in "
                             "'%s'; record the runs again with labrun --verify --record, which writes them in "
                             "each of the quiz's languages", rs->path, run->lang, lang, ref->name,
                             loc_line(&ref->loc), lang, run->lang);
                return;
            }
        }
    }
}
