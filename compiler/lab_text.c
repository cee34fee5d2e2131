/*
 * lab_text.c — the labrun command line of a lab reference, and its claims in
 * words.  The words are the player's (compiler/player/player.js, table UI):
 * tagged LABTEXT-WORDS in both places, so a grep finds the two copies.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "lab_text.h"

/* x in the fewest digits that read back as x: 0.2727, not 0.27270000000000001. */
static char *num_text(double x)
{
    char buf[40];
    if (x == trunc(x) && fabs(x) < 1e15) {
        snprintf(buf, sizeof buf, "%.0f", x);
    } else {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, x);
            if (strtod(buf, NULL) == x)
                break;
        }
    }
    return xstrdup(buf);
}

char *labtext_value(const struct ast_value *v)
{
    switch (v->kind) {
    case VAL_NUMBER: return num_text(v->num);
    case VAL_BOOL:   return xstrdup(v->boolean ? "true" : "false");
    case VAL_IDENT:
    case VAL_STRING: return xstrdup(v->str ? v->str : "");
    }
    return xstrdup("");
}

/* Quote a word for a POSIX shell when it needs it. */
static void shell_word(struct membuf *b, const char *s)
{
    bool plain = *s != '\0';
    for (const char *p = s; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/+=@%", *p) != NULL;
    if (plain) {
        membuf_append(b, s, strlen(s));
        return;
    }
    membuf_append(b, "'", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            membuf_append(b, "'\\''", 4);
        else
            membuf_append(b, p, 1);
    }
    membuf_append(b, "'", 1);
}

char *labtext_command(const struct ast_labref *ref)
{
    struct membuf cmd = { 0 };
    membuf_append(&cmd, "labrun labs/", 12);
    membuf_append(&cmd, ref->name, strlen(ref->name));
    for (size_t i = 0; i < ref->args.n; i++) {
        const struct ast_arg *a = &ref->args.items[i];
        char *v = labtext_value(&a->value);
        membuf_append(&cmd, " --", 3);
        membuf_append(&cmd, a->name, strlen(a->name));
        membuf_append(&cmd, " ", 1);
        shell_word(&cmd, v);
        free(v);
    }
    return (char *)cmd.data;
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
    char *what = m && m->help ? xasprintf("%s (%s)", x->metric, m->help) : xstrdup(x->metric);
    char *op;
    if (x->op == CMP_WITHIN) {
        char *tol = num_text(x->tolerance.num);
        op = xasprintf(tables[t].op[CMP_WITHIN], tol);
        free(tol);
    } else {
        op = xstrdup(tables[t].op[x->op]);
    }
    char *target;
    if (x->of_answer) {
        target = xstrdup(tables[t].of_answer);
    } else {
        char *v = num_text(x->value.num);
        target = m && m->unit ? xasprintf("%s %s", v, m->unit) : xstrdup(v);
        free(v);
    }
    char *s = xasprintf("%s: %s %s", what, op, target);
    free(what);
    free(op);
    free(target);
    return s;
}
