/*
 * params.h — a lab run's parameters: declared by the manifest's `param`
 * lines (type, default, range or choices, help), set from the command line
 * (`--stages 4`, `--stages=4`) or from a quiz's `lab NAME (stages = 4)`.
 */
#ifndef RT_PARAMS_H
#define RT_PARAMS_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"

/* One parameter's current value. */
struct lab_pvalue {
    const struct ast_param *decl;   /* its declaration in the manifest; borrowed */
    double num;                     /* PARAM_INT, PARAM_REAL */
    bool boolean;                   /* PARAM_BOOL */
    char *str;                      /* PARAM_ENUM, PARAM_STRING; owned */
    bool given;                     /* set explicitly (not the default) */
};

struct lab_params {
    const struct ast_labdef *def;   /* the manifest; borrowed, must outlive the params */
    struct lab_pvalue *v;           /* one per def->params, same order; owned */
    size_t n;
};

/* Parameters at their defaults.  Free with lab_params_free. */
struct lab_params *lab_params_new(const struct ast_labdef *def);
void lab_params_free(struct lab_params *p);

/*
 * Set name from text.  On a bad name or value prints to err (NULL: silent)
 * "labrun: error: LAB: --NAME: VALUE is not ...; allowed: RANGE" and returns -1.
 */
int lab_params_set(struct lab_params *p, const char *name, const char *text, FILE *err);


/*
 * Take every `--NAME VALUE` / `--NAME=VALUE` / boolean `--NAME` / `--no-NAME`
 * that names a parameter out of argv (argv is compacted; *argc updated).
 * Returns 0, or -1 after the first error.
 */
int lab_params_parse_args(struct lab_params *p, int *argc, char **argv, FILE *err);

/* The parameter called name, or NULL. */
const struct lab_pvalue *lab_params_get(const struct lab_params *p, const char *name);

/* "1..64", "naive|gpipe|1f1b", "true|false", "text": what a parameter allows. */
char *lab_param_allowed(const struct ast_param *decl);

/* The value as the command line would spell it ("4", "0.5", "gpipe", "true"); new string. */
char *lab_pvalue_text(const struct lab_pvalue *v);

/*
 * The lab's --help: title, summary, every parameter with default, range and
 * help, every metric, with the manifest's words in lang (as
 * lab_report_print; help.c, labrun only, as it needs libqz's text helpers).
 */
void lab_params_help(const struct ast_labdef *def, const char *lang, FILE *out);

#endif
