/*
 * lab_text.c — a lab reference's claims in words (its command line is
 * libqz's qz_lab_command).  The words are the player's (compiler/player/player.js, table UI):
 * tagged LABTEXT-WORDS in both places, so a grep finds the two copies.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "lab_text.h"
#include "labref.h"

static char *num_text(double x)
{
    char buf[FMT_NUMBER_MAX];
    return xstrdup(fmt_number(buf, x));
}

/* LABTEXT-WORDS: the same words as the player's UI table. */
static const struct {
    const char *lang;
    const char *word[LABTEXT_UNIT + 1];
    const char *op[CMP_WITHIN + 1];     /* CMP_WITHIN: "within %s of" */
    const char *of_answer;
} tables[] = {
    { "en",
      { "Try it in the lab", "Run:", "What you should see:", "The code that runs", "True", "False", "Unit" },
      { "below", "at most", "above", "at least", "equal to", "within %s of" },
      "this question's answer" },
    { "id",
      { "Coba di lab", "Jalankan:", "Yang seharusnya Anda lihat:", "Kode yang dijalankan", "Benar", "Salah", "Satuan" },
      { "di bawah", "paling banyak", "di atas", "paling sedikit", "sama dengan", "dalam selisih %s dari" },
      "jawaban soal ini" },
};

/* The table of lang or of its primary subtag ("en-GB" -> en); en otherwise. */
static size_t table_of(const char *lang)
{
    for (size_t i = 0; lang && i < sizeof tables / sizeof *tables; i++) {
        size_t n = strlen(tables[i].lang);
        if (strncmp(lang, tables[i].lang, n) == 0 && (lang[n] == '\0' || lang[n] == '-'))
            return i;
    }
    return 0;
}

const char *labtext_word(enum labtext_word w, const char *lang)
{
    return tables[table_of(lang)].word[w];
}

char *labtext_claim(const struct ast_labref *ref, const struct ast_expect *x, const char *lang)
{
    size_t t = table_of(lang);
    const struct ast_metric *m = ref->def ? qz_lab_metric(ref->def, x->metric) : NULL;
    const struct ast_tr *help = m ? qz_lab_text(m->help, lang) : NULL;
    char *op;
    if (x->op == CMP_WITHIN) {
        char *tol = num_text(qz_value_number(&x->tolerance));
        op = xasprintf(tables[t].op[CMP_WITHIN], tol);
        free(tol);
    } else {
        op = xstrdup(tables[t].op[x->op]);
    }
    char *target;
    if (x->of_answer) {
        target = xstrdup(tables[t].of_answer);
    } else {
        char *v = num_text(qz_value_number(&x->value));
        target = m && m->unit ? xasprintf("%s %s", v, m->unit) : xstrdup(v);
        free(v);
    }
    char *s = help && help->raw && *help->raw ? xasprintf(" (%s): %s %s", help->raw, op, target)
                                              : xasprintf(": %s %s", op, target);
    free(op);
    free(target);
    return s;
}
