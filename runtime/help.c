/*
 * help.c — a lab's --help, from its manifest.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ast.h"
#include "labref.h"
#include "backend.h"
#include "inert.h"
#include "params.h"

/* The raw text of t in lang, or "" (a help or description the manifest leaves out). */
static const char *raw_in(const struct ast_text *t, const char *lang)
{
    const struct ast_tr *tr = qz_lab_text(t, lang);
    return tr && tr->raw ? tr->raw : "";
}

void lab_params_help(const struct ast_labdef *def, const char *lang, FILE *out)
{
    const struct ast_tr *title = qz_lab_text(def->title, lang);
    const struct ast_tr *summary = qz_lab_text(def->summary, lang);
    /* The manifest's words may come from a folder on disk: their control characters are shown, not obeyed. */
    char *t = term_inert(title ? title->raw : NULL);
    fprintf(out, "labrun %s%s%s\n", def->name, title ? " - " : "", t);
    free(t);
    if (summary) {
        char *sm = term_inert(summary->raw);
        fprintf(out, "\n%s\n", sm);
        free(sm);
    }
    fprintf(out, "\nusage: labrun %s [--PARAM VALUE]... [--backend %s] [--json FILE|-] "
            "[--trace FILE] [--svg FILE]\n", def->name, backend_names());
    fprintf(out, "\nparameters:\n");
    for (size_t i = 0; i < def->params.n; i++) {
        const struct ast_param *d = &def->params.items[i];
        struct lab_pvalue v = { .decl = d, .num = d->def.num, .boolean = d->def.boolean,
                                .str = d->def.str };
        char *dflt_raw = lab_pvalue_text(&v), *allowed_raw = lab_param_allowed(d);
        char *dflt = term_inert(dflt_raw), *allowed = term_inert(allowed_raw), *help = term_inert(raw_in(d->help, lang));
        free(dflt_raw);
        free(allowed_raw);
        char head[128];
        if (d->alias)
            snprintf(head, sizeof head, "-%s, --%s %s", d->alias, d->name, allowed);
        else
            snprintf(head, sizeof head, "--%s %s", d->name, allowed);
        fprintf(out, "  %-34s %s (default %s)\n", head, help, dflt);
        free(help);
        free(dflt);
        free(allowed);
    }
    if (def->metrics.n) {
        fprintf(out, "\nmetrics:\n");
        for (size_t i = 0; i < def->metrics.n; i++) {
            const struct ast_metric *m = &def->metrics.items[i];
            char *help = term_inert(raw_in(m->help, lang)), *unit = term_inert(m->unit);
            fprintf(out, "  %-34s %s%s%s%s\n", m->name, help, m->unit ? " [" : "", unit, m->unit ? "]" : "");
            free(help);
            free(unit);
        }
    }
    /* The regions a quiz can show with `snippet LAB:REGION`, each with its first comment line. */
    struct qz_regions *regions = def->dir ? qz_snippet_regions(def->dir) : NULL;
    if (regions && regions->n) {
        fprintf(out, "\nsnippet regions (snippet %s:REGION in a quiz):\n", def->name);
        for (size_t i = 0; i < regions->n; i++) {
            char *name = term_inert(regions->items[i].name), *about = term_inert(regions->items[i].about);
            fprintf(out, "  %-34s %s\n", name, about);
            free(name);
            free(about);
        }
    }
    qz_regions_free(regions);
}

