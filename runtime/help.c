/*
 * help.c — a lab's --help, from its manifest.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ast.h"
#include "labref.h"
#include "backend.h"
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
    fprintf(out, "labrun %s%s%s\n", def->name, title ? " - " : "", title ? title->raw : "");
    if (summary)
        fprintf(out, "\n%s\n", summary->raw);
    fprintf(out, "\nusage: labrun %s [--PARAM VALUE]... [--backend %s] [--json FILE|-] "
            "[--trace FILE] [--svg FILE]\n", def->name, backend_names());
    fprintf(out, "\nparameters:\n");
    for (size_t i = 0; i < def->params.n; i++) {
        const struct ast_param *d = &def->params.items[i];
        struct lab_pvalue v = { .decl = d, .num = d->def.num, .boolean = d->def.boolean,
                                .str = d->def.str };
        char *dflt = lab_pvalue_text(&v), *allowed = lab_param_allowed(d);
        char head[128];
        if (d->alias)
            snprintf(head, sizeof head, "-%s, --%s %s", d->alias, d->name, allowed);
        else
            snprintf(head, sizeof head, "--%s %s", d->name, allowed);
        fprintf(out, "  %-34s %s (default %s)\n", head, raw_in(d->help, lang), dflt);
        free(dflt);
        free(allowed);
    }
    if (def->metrics.n) {
        fprintf(out, "\nmetrics:\n");
        for (size_t i = 0; i < def->metrics.n; i++) {
            const struct ast_metric *m = &def->metrics.items[i];
            fprintf(out, "  %-34s %s%s%s%s\n", m->name, raw_in(m->help, lang),
                    m->unit ? " [" : "", m->unit ? m->unit : "", m->unit ? "]" : "");
        }
    }
}

