/*
 * fuzz_manifest.c — libFuzzer harness over lab manifests and labrun's
 * parameter parsing.
 *
 * An input is a manifest, optionally followed by a line "%%" and then
 * command-line words, one per line:
 *
 *     lab fz { title "t" param stages = 4 in 1..64 "s" }
 *     %%
 *     --stages
 *     5
 *
 * The manifest is written to a lab folder in a sandbox and read with
 * qz_load_lab, and parsed from memory; when it is valid, the words are
 * parsed against it as labrun would (lab_params_parse_args), and every
 * value is printed back and the help rendered.  Beyond "no crash, no leak":
 * a value accepted from the command line lies in its declared range, is
 * finite, or is one of the declared choices.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "qz.h"
#include "sandbox.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 64

static const struct sandbox_file files[] = {
    { "labs/fz/", "" },
};

static FILE *quiet;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    sandbox_create("fuzz-manifest", files, sizeof files / sizeof *files);
    const char *v = getenv("FUZZ_VERBOSE");
    quiet = v && *v == '1' ? stderr : fopen("/dev/null", "w");
    if (!quiet)
        abort();
    return 0;
}

static void fail(const char *why, const char *name)
{
    fprintf(stderr, "fuzz_manifest: %s: %s\n", why, name ? name : "?");
    abort();
}

/* What parse_args accepted must be what the manifest allows. */
static void expect_allowed(const struct lab_pvalue *v)
{
    const struct ast_param *p = v->decl;
    switch (p->type) {
    case PARAM_INT:
        if (!isfinite(v->num) || v->num != trunc(v->num) || v->num < p->lo || v->num > p->hi)
            fail("an integer parameter was accepted outside its range", p->name);
        break;
    case PARAM_REAL:
        if (!isfinite(v->num) || v->num < p->lo || v->num > p->hi)
            fail("a real parameter was accepted outside its range", p->name);
        break;
    case PARAM_ENUM: {
        bool found = false;
        for (size_t i = 0; v->str && i < p->choices.n; i++)
            found |= strcmp(v->str, p->choices.items[i]) == 0;
        if (!found)
            fail("an enum parameter was accepted outside its choices", p->name);
        break;
    }
    case PARAM_BOOL:
        break;
    case PARAM_STRING:
        if (!v->str)
            fail("a string parameter has no value", p->name);
        break;
    }
}

static void run_args(const struct ast_labdef *def, const char *args, size_t alen)
{
    /* Words: one per line; the copy keeps them NUL-terminated and writable. */
    char *buf = malloc(alen + 1);
    memcpy(buf, args, alen);
    buf[alen] = '\0';
    char *argv[MAX_WORDS + 3];
    int argc = 0;
    argv[argc++] = "labrun";
    argv[argc++] = "labs/fz";
    for (char *p = alen ? buf : NULL; p && argc < MAX_WORDS + 2;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        argv[argc++] = p;
        p = nl ? nl + 1 : NULL;
    }
    argv[argc] = NULL;

    struct lab_params *p = lab_params_new(def);
    if (lab_params_parse_args(p, &argc, argv, quiet) == 0) {
        for (size_t i = 0; i < p->n; i++) {
            if (p->v[i].given)
                expect_allowed(&p->v[i]);
            free(lab_pvalue_text(&p->v[i]));
        }
    }
    for (size_t i = 0; i < def->params.n; i++)
        free(lab_param_allowed(&def->params.items[i]));
    lab_params_help(def, "en", quiet);
    lab_params_help(def, "id", quiet);
    lab_params_free(p);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *sep = NULL;
    for (size_t i = 0; i + 4 <= size; i++) {
        if (memcmp(text + i, "\n%%\n", 4) == 0) {
            sep = text + i;
            break;
        }
    }
    size_t mlen = sep ? (size_t)(sep - text) + 1 : size;

    /* Through the loader (file, folder-name check) ... */
    sandbox_write("labs/fz/lab.qz", data, mlen);
    struct diag *d = diag_new(quiet);
    ast_labdef_free(qz_load_lab(d, sandbox_path("labs/fz"), NULL));
    diag_free(d);

    /* ... and straight from memory, so that seeds named after other folders get to their parameters. */
    d = diag_new(quiet);
    char *copy = malloc(mlen + 1);
    memcpy(copy, data, mlen);
    copy[mlen] = '\0';
    struct ast_file *f = qz_parse(d, diag_add_source(d, "lab.qz", copy, mlen));
    if (f && f->lab && diag_errors(d) == 0)
        run_args(f->lab, sep ? sep + 4 : "", sep ? size - mlen - 3 : 0);
    ast_file_free(f);
    diag_summary(d);
    diag_free(d);
    return 0;
}
