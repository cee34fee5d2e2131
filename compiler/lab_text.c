/*
 * lab_text.c — a lab reference's claims in words (its command line is
 * libqz's qz_lab_command).  The words are the player's (compiler/player/ui.js, table UI):
 * tagged LABTEXT-WORDS in both places, so a grep finds the two copies.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "lab_text.h"
#include "labref.h"

/* A number of the manifest or the quiz, in lang: 0.03, 0,03 in Indonesian. */
static char *num_text(double x, const char *lang)
{
    char buf[FMT_NUMBER_MAX];
    return xstrdup(num_in_lang((char *)fmt_number(buf, x), lang));
}

/* LABTEXT-WORDS: the same words as the player's UI table. */
static const struct {
    const char *lang;
    const char *word[LABTEXT_WORDS];
    const char *op[CMP_WITHIN + 1];     /* CMP_WITHIN: "within %s of" */
    const char *of_answer;
} tables[] = {
    { "en",
      { "Try it in the lab", "Run:", "What you should see:", "The code that runs", "True", "False", "Unit",
        "Measured on %s, %s", "%s cores of %s", "PASS", "FAIL",
        "measured", "replayed from measured costs", "modelled", "exact",
        "(the run did not report it)", "The lab's own checks: %s of %s passed.", "Notes of the run" },
      { "below", "at most", "above", "at least", "equal to", "within %s of" },
      "this question's answer" },
    { "id",
      { "Coba di lab", "Jalankan:", "Yang seharusnya Anda lihat:", "Kode yang dijalankan", "Benar", "Salah", "Satuan",
        "Diukur pada %s, %s", "%s inti %s", "LULUS", "GAGAL",
        "diukur", "diputar ulang dari biaya terukur", "dimodelkan", "eksak",
        "(run ini tidak melaporkannya)", "Pemeriksaan lab sendiri: %s dari %s lulus.", "Catatan run" },
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

const char *labtext_help(const struct ast_labref *ref, const struct ast_expect *x, const char *lang)
{
    const struct ast_metric *m = ref->def ? qz_lab_metric(ref->def, x->metric) : NULL;
    const struct ast_tr *help = m ? qz_lab_text(m->help, lang) : NULL;
    return help && help->raw && *help->raw ? help->raw : NULL;
}

char *labtext_wanted(const struct ast_labref *ref, const struct ast_expect *x, const char *lang)
{
    size_t t = table_of(lang);
    const struct ast_metric *m = ref->def ? qz_lab_metric(ref->def, x->metric) : NULL;
    char *op;
    if (x->op == CMP_WITHIN) {
        /* The tolerance as written: `within 5%` reads "within 5%", not a fraction. */
        char *n = num_text(x->tolerance.num, lang);
        char *tol = x->tolerance.percent ? xasprintf("%s%%", n) : xstrdup(n);
        op = xasprintf(tables[t].op[CMP_WITHIN], tol);
        free(n);
        free(tol);
    } else {
        op = xstrdup(tables[t].op[x->op]);
    }
    char *target;
    if (x->of_answer) {
        target = xstrdup(tables[t].of_answer);
    } else {
        char *v = num_text(qz_value_number(&x->value), lang);
        target = m && m->unit ? xasprintf("%s %s", v, m->unit) : xstrdup(v);
        free(v);
    }
    char *s = xasprintf("%s %s", op, target);
    free(op);
    free(target);
    return s;
}

char *labtext_head(const struct ast_labref *ref, const struct ast_expect *x, const char *lang)
{
    const char *help = labtext_help(ref, x, lang);
    if (!help)
        return NULL;
    /* Up to the first " (", ": " or "; ", as the player's shortHelp (labbox.js) cuts it. */
    size_t n = strlen(help);
    static const char *const cuts[] = { " (", ": ", "; " };
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        const char *at = strstr(help, cuts[i]);
        if (at && (size_t)(at - help) < n)
            n = (size_t)(at - help);
    }
    while (n && (help[n - 1] == ' ' || help[n - 1] == '\t' || help[n - 1] == '\n'))
        n--;
    while (n && (*help == ' ' || *help == '\t' || *help == '\n'))
        help++, n--;
    return n ? xstrndup(help, n) : NULL;
}
