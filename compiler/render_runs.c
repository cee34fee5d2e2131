/*
 * render_runs.c — a recorded run as the player's lab box shows it
 * (labbox.js, recorded()): the same pieces, in the same order, words
 * (lab_text.c) and number format (ui.js, figure), less the timeline.  Claims are judged by qz_claim_holds,
 * labrun --verify's own judge, so a box never disagrees with the table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_text.h"
#include "render_runs.h"
#include "runs.h"
#include "claim.h"

static void put(struct membuf *b, const char *s)
{
    membuf_append(b, s, strlen(s));
}

/*
 * A figure as the player's figure() writes it (ui.js): an integer whole,
 * 12346 from 1e4 up, else four significant digits without trailing zeros
 * (0.2727, 1.2e-7), with lang's decimal mark (0,2727); "-" for none.
 */
static void figure_c(char *buf, size_t n, bool known, double x);

static void figure_text(char *buf, size_t n, bool known, double x, const char *lang)
{
    figure_c(buf, n, known, x);
    num_in_lang(buf, lang);
}

static void figure_c(char *buf, size_t n, bool known, double x)
{
    if (!known || !isfinite(x)) {
        snprintf(buf, n, "-");
        return;
    }
    if ((x == trunc(x) && fabs(x) < 1e15) || (fabs(x) >= 1e4 && fabs(x) < 1e15)) {
        snprintf(buf, n, "%.0f", x);
        return;
    }
    /* JavaScript's toPrecision(4): an exponent below 1e-6 or from 1e4 (after rounding), decimals otherwise. */
    char e[40];
    snprintf(e, sizeof e, "%.3e", x);
    char *ep = strchr(e, 'e');
    int exp10 = ep ? atoi(ep + 1) : 0;
    if (exp10 < -6 || exp10 >= 4) {
        *ep = '\0';
        char *end = ep;
        while (end > e && end[-1] == '0')
            *--end = '\0';
        if (end > e && end[-1] == '.')
            *--end = '\0';
        snprintf(buf, n, "%se%s%d", e, exp10 < 0 ? "-" : "+", abs(exp10));
        return;
    }
    snprintf(buf, n, "%.*f", 3 - exp10, x);
    if (strchr(buf, '.')) {
        char *end = buf + strlen(buf);
        while (end[-1] == '0')
            *--end = '\0';
        if (end[-1] == '.')
            end[-1] = '\0';
    }
}

static const struct qz_run_metric *metric_of(const struct qz_run *run, const char *name)
{
    for (size_t i = 0; i < run->metrics.n; i++)
        if (strcmp(run->metrics.items[i].name, name) == 0)
            return &run->metrics.items[i];
    return NULL;
}

static const char *basis_word(const char *basis, const char *lang)
{
    static const struct { const char *basis; enum labtext_word w; } words[] = {
        { "measured", LABTEXT_MEASURED }, { "replayed", LABTEXT_REPLAYED },
        { "modelled", LABTEXT_MODELLED }, { "exact", LABTEXT_EXACT },
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(basis, words[i].basis) == 0)
            return labtext_word(words[i].w, lang);
    return basis;
}

/* "8 × NVIDIA H200" on GPUs, "2 cores of AMD EPYC" on CPUs (labbox.js, machineWords). */
static char *machine_text(const struct qz_run *run, const char *lang)
{
    if (run->machine.gpu && run->machine.gpus)
        return xasprintf("%ld \u00d7 %s", run->machine.gpus, run->machine.gpu);
    if (run->machine.gpu)
        return xstrdup(run->machine.gpu);
    char *n = run->machine.cores ? xasprintf("%ld", run->machine.cores) : xstrdup("?");
    char *s = xasprintf(labtext_word(LABTEXT_CPU_CORES, lang), n, run->machine.cpu ? run->machine.cpu : "CPU");
    free(n);
    return s;
}

void render_metric(struct render *r, struct membuf *b, const struct ast_labref *ref,
                   const struct ast_expect *x, const char *lang)
{
    char *head = labtext_head(ref, x, lang);
    if (head) {
        render_escaped(r, b, head);
        put(b, " (");
    }
    /* No title with the whole description, as the player's code has: QTI's <code> takes none. */
    put(b, "<code>");
    render_escaped(r, b, x->metric);
    put(b, "</code>");
    if (head)
        put(b, ")");
    free(head);
}

/* One claim: PASS/FAIL, the metric and its description, the figure, how it was obtained, the claim. */
static void claim_item(struct render *r, struct membuf *b, const struct ast_question *q,
                       const struct ast_labref *ref, const struct ast_expect *x, size_t failed,
                       const char *lang)
{
    const struct qz_run_metric *m = metric_of(ref->run, x->metric);
    double v = m && m->known ? m->value : NAN;
    char expected[160];
    bool pass = m && failed == 0 && qz_claim_holds(x, q, v, expected, sizeof expected);
    put(b, "<li><strong>");
    render_escaped(r, b, labtext_word(pass ? LABTEXT_PASS : LABTEXT_FAIL, lang));
    put(b, "</strong> ");
    render_metric(r, b, ref, x, lang);
    char fig[64];
    figure_text(fig, sizeof fig, m && m->known, v, lang);
    put(b, " = ");
    render_escaped(r, b, fig);
    if (m) {
        put(b, " (");
        render_escaped(r, b, basis_word(m->basis, lang));
        put(b, ")");
    }
    char *wanted = labtext_wanted(ref, x, lang);
    put(b, " \u2014 ");
    render_escaped(r, b, wanted);
    free(wanted);
    if (!m) {
        put(b, " ");
        render_escaped(r, b, labtext_word(LABTEXT_NOT_REPORTED, lang));
    }
    put(b, "</li>");
}

void render_run(struct render *r, struct membuf *b, const struct ast_question *q,
                const struct ast_labref *ref, const char *lang)
{
    const struct qz_run *run = ref->run;
    if (!run)
        return;
    char *machine = machine_text(run, lang);
    char date[11];
    snprintf(date, sizeof date, "%s", run->date ? run->date : "");
    char *on = xasprintf(labtext_word(LABTEXT_MEASURED_ON, lang), machine, date);
    put(b, "<p><em>");
    render_escaped(r, b, on);
    put(b, "</em></p>");
    free(on);
    free(machine);

    size_t failed = 0;
    for (size_t i = 0; i < run->checks.n; i++)
        failed += !run->checks.items[i].pass;
    if (ref->expects.n) {
        put(b, "<ul>");
        for (size_t k = 0; k < ref->expects.n; k++)
            claim_item(r, b, q, ref, &ref->expects.items[k], failed, lang);
        put(b, "</ul>");
    }
    if (run->checks.n) {
        char *ok = xasprintf("%zu", run->checks.n - failed), *n = xasprintf("%zu", run->checks.n);
        char *s = xasprintf(labtext_word(LABTEXT_OWN_CHECKS, lang), ok, n);
        put(b, "<p>");
        render_escaped(r, b, s);
        put(b, "</p>");
        free(s);
        free(ok);
        free(n);
    }
    /* The notes in the learner's language when the run has them in it (doc/runs.md). */
    struct qz_run_text words = qz_run_text(run, lang);
    if (words.nnotes) {
        put(b, "<p><em>");
        render_escaped(r, b, labtext_word(LABTEXT_NOTES, lang));
        put(b, "</em></p><ul>");
        for (size_t i = 0; i < words.nnotes; i++) {
            put(b, "<li>");
            render_escaped(r, b, words.notes[i]);
            put(b, "</li>");
        }
        put(b, "</ul>");
    }
    char *who = xasprintf("labrun %s, --backend %s", run->labrun ? run->labrun : "?", run->backend ? run->backend : "?");
    put(b, "<p><code>");
    render_escaped(r, b, who);
    put(b, "</code></p>");
    free(who);
}
