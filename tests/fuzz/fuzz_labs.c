/*
 * fuzz_labs.c — libFuzzer harness over every built-in lab's parameter space:
 * a lab never crashes on a parameter it admits.
 *
 * An input's first byte picks a lab (lab_table, in order); each following
 * byte picks one parameter's value, in the manifest's order (missing bytes:
 * the default).  A value is always inside the lab's shipped range (its
 * compiled-in limits): a byte chooses the least, the greatest, the default,
 * 1, 2, one past the least, one short of the greatest, or a small value
 * counted up from the least (the next byte), so the edges of every range and
 * the small counts where divisibility bites (stages against micro-batches,
 * tp against heads) come up often.  Enum bytes pick a choice, so every
 * schedule and mode is covered.
 *
 * The values are set through lab_params_set, as labrun's command line sets
 * them, and the lab runs through lab_run on the cpu backend (threads), as
 * labrun runs it, with a memory budget of 256 MiB (lab_run_set_memory).
 * It must end in one of two ways:
 *
 *   - the run completes (0) and every check of its report passes;
 *   - a clean error (lab_run's -1 or -2 after a message): values the lab
 *     cannot combine, or a run that needs more memory than the budget.
 *
 * A run that would take long (a per-lab count of work over WORK_CAP) is not
 * started: its values still go through everything lab_run decides before a
 * rank starts (the limits, invalid, ranks, bytes), which must not crash and
 * must give a finite memory need.
 *
 * Run from the repository's root: the manifests are read from labs/ and
 * tests/data/labs/, as the build generated the limits from them.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "lablimits.h"
#include "qz.h"
#include "run.h"
#include "timer.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a harness run may use: small, so that the budget's refusals are exercised too. */
#define MEMORY_BUDGET (256.0 * 1024 * 1024)
/*
 * Units of work (see work()) above which the run is checked but not started:
 * about a second under ASan on a busy two-core machine, well inside
 * libFuzzer's -timeout=10 per input.
 */
#define WORK_CAP 2e7
/* What one step of a schedule costs beyond its arithmetic (messages, timers, locks), in the same units. */
#define OP_COST 2e3

struct lab {
    const struct lab_impl *impl;
    struct ast_labdef *def;     /* its shipped manifest */
};

static struct lab *fz_labs;
static size_t nlabs;
static struct diag *diags;
static int verbose;             /* FUZZ_VERBOSE=1: each input's lab, values and outcome on stderr */

static void fail(const char *lab, const char *why)
{
    fprintf(stderr, "fuzz_labs: %s: %s\n", lab, why);
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *v = getenv("FUZZ_VERBOSE");
    verbose = v && *v == '1';
    diags = diag_new(stderr);
    for (const struct lab_impl *const *l = lab_table; *l; l++)
        nlabs++;
    fz_labs = calloc(nlabs, sizeof *fz_labs);
    for (size_t i = 0; i < nlabs; i++) {
        const struct lab_impl *impl = lab_table[i];
        if (!impl->limits)
            fail(impl->name, "the lab has no compiled-in limits (lab_NAME.limits)");
        /* "labs/bubble/lab.qz" -> "labs/bubble" */
        char *dir = xstrdup(impl->limits->manifest);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        fz_labs[i].impl = impl;
        fz_labs[i].def = qz_load_lab(diags, dir, NULL);
        if (!fz_labs[i].def || diag_errors(diags) || lab_limits_check(impl, fz_labs[i].def, diags) < 0)
            fail(impl->name, "its shipped manifest does not load (run from the repository's root)");
        free(dir);
    }
    lab_run_set_memory(MEMORY_BUDGET);
    return 0;
}

/* Bytes of input, read one at a time; 0 once they run out. */
struct reader {
    const uint8_t *p;
    size_t n;
};

static unsigned next(struct reader *r)
{
    if (r->n == 0)
        return 0;
    r->n--;
    return *r->p++;
}

/* A value of a numeric parameter inside [lo, hi], chosen by the input. */
static double pick_number(struct reader *r, const struct ast_param *d, unsigned b)
{
    double lo = d->lo, hi = d->hi, x;
    switch (b % 8) {
    case 0: x = lo; break;
    case 1: x = hi; break;
    case 2: x = d->def.num; break;
    case 3: x = 1; break;
    case 4: x = 2; break;
    case 5: x = lo + 1; break;
    case 6: x = hi - 1; break;
    default: x = lo + next(r) % 64; break;
    }
    if (d->type == PARAM_REAL && b % 8 == 7)
        x = lo + (hi - lo) * (next(r) / 255.0);
    return x < lo ? lo : x > hi ? hi : x;
}

static long num(const struct lab_params *p, const char *name)
{
    const struct lab_pvalue *v = lab_params_get(p, name);
    return v ? (long)v->num : 1;
}

/*
 * Roughly the operations a run does (element updates, messages), to keep
 * each fuzz run short.  A lab this does not know runs whatever it is given.
 */
static double work(const char *lab, const struct lab_params *p)
{
    if (strcmp(lab, "allreduce") == 0) {
        double n = (double)num(p, "ranks"), span = log2((double)num(p, "maxbytes") + 2) + 1;
        double it = (double)(num(p, "iters") + num(p, "warmup-iters") + 1);
        /* Every size of the sweep is all-reduced it times, by every rank (under ASan and coverage,
         * 4 ranks, 2 MiB of sizes and 35 calls of each take some 20 s here). */
        double bytes = 0, f = (double)num(p, "stepfactor");
        for (double s = fmax((double)num(p, "minbytes"), 1); s <= (double)num(p, "maxbytes"); s *= f > 1 ? f : 2)
            bytes += s;
        return n * n * span * it * 200 + n * bytes * it;
    }
    if (strcmp(lab, "activations") == 0) {
        double h = (double)num(p, "hidden");
        double ops = 2.0 * (double)num(p, "layers") * (double)num(p, "microbatches");
        return 3.0 * (double)num(p, "layers") * (double)num(p, "microbatches") * (double)num(p, "tokens") * h * h *
               2 + ops * OP_COST + (double)num(p, "stages") * 1e5;
    }
    if (strcmp(lab, "bubble") == 0) {
        double h = (double)num(p, "hidden");
        const struct lab_pvalue *s = lab_params_get(p, "schedule");
        double v = s && s->str && strcmp(s->str, "interleaved") == 0 ? (double)num(p, "chunks") : 1;
        double ops = 3.0 * (2 * (double)num(p, "steps") + 1) * (double)num(p, "microbatches") * v *
                     (double)num(p, "stages");
        return 3.0 * (2 * (double)num(p, "steps") + 1) * (double)num(p, "microbatches") * v *
               (double)num(p, "batch") * h * h + ops * OP_COST + (double)num(p, "stages") * 1e5;
    }
    if (strcmp(lab, "tensor-split") == 0)
        return 6.0 * (double)num(p, "tokens") * (double)num(p, "hidden") * (double)num(p, "ffn") +
               (double)num(p, "ranks") * 1e5;
    if (strcmp(lab, "memory") == 0)
        return (double)num(p, "tp") * (double)num(p, "pp") * ((double)num(p, "microbatches") * 2e3 + 1e5);
    if (strcmp(lab, "hello") == 0)
        return (double)num(p, "ranks") * ((double)num(p, "count") + 1e5);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct reader r = { data, size };
    const struct lab *lab = &fz_labs[next(&r) % nlabs];
    const struct ast_labdef *def = lab->def;
    const struct lab_impl *impl = lab->impl;
    struct lab_params *p = lab_params_new(def);

    for (size_t i = 0; i < def->params.n; i++) {
        const struct ast_param *d = &def->params.items[i];
        if (r.n == 0)
            break;
        unsigned b = next(&r);
        char text[64];
        switch (d->type) {
        case PARAM_INT:
        case PARAM_REAL:
            snprintf(text, sizeof text, "%.17g", pick_number(&r, d, b));
            break;
        case PARAM_ENUM:
            snprintf(text, sizeof text, "%s", d->choices.items[b % d->choices.n]);
            break;
        case PARAM_BOOL:
            snprintf(text, sizeof text, "%s", b & 1 ? "true" : "false");
            break;
        case PARAM_STRING:
            continue;
        }
        /* The default is left as the default (not given), as a command line that does not name it. */
        const struct lab_pvalue *cur = lab_params_get(p, d->name);
        char *was = lab_pvalue_text(cur);
        bool same = strcmp(was, text) == 0 || (d->type != PARAM_ENUM && d->type != PARAM_BOOL &&
                                               strtod(text, NULL) == cur->num);
        free(was);
        if (same)
            continue;
        if (lab_params_set(p, d->name, text, stderr) < 0)
            fail(impl->name, "a value inside the shipped range was refused");
    }

    if (verbose) {
        fprintf(stderr, "fuzz_labs: %s", impl->name);
        for (size_t i = 0; i < p->n; i++) {
            char *t = lab_pvalue_text(&p->v[i]);
            fprintf(stderr, " --%s %s", p->v[i].decl->name, t);
            free(t);
        }
        fprintf(stderr, " (work %.3g)\n", work(impl->name, p));
    }
    if (work(impl->name, p) > WORK_CAP) {
        /* Not started, but everything lab_run decides before the ranks start must hold up. */
        const char *bad = impl->invalid ? impl->invalid(p) : NULL;
        if (!bad && lab_nranks(impl, p) < 1)
            fail(impl->name, "admitted values give no rank");
        if (!bad && impl->bytes && !(impl->bytes(p) >= 0 && isfinite(impl->bytes(p))))
            fail(impl->name, "the memory a run needs is not a finite number of bytes");
        if (verbose)
            fprintf(stderr, "fuzz_labs: not started (work over the cap); its checks held\n");
        lab_params_free(p);
        return 0;
    }

    const struct backend *b = backend_find("cpu");
    struct lab_report *rep = lab_report_new(def, p, b->name, lab_nranks(impl, p), timer_cores());
    lab_report_set_progress(rep, false);
    int rc = lab_run(impl, p, b, rep);
    if (verbose)
        fprintf(stderr, "fuzz_labs: %s\n", rc == 0 ? "ran, checks passed" : "a clean error");
    if (rc == 0) {
        /* The report must print, and a run that completed must pass its own checks. */
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        if (!out)
            abort();
        lab_report_print(rep, "en", out);
        fclose(out);
        free(text);
        if (lab_report_failed(rep)) {
            lab_report_print(rep, "en", stderr);
            fail(impl->name, "a completed run failed its own checks");
        }
    } else if (rc == -1) {
        /* A clean error must have a reason the harness knows: more memory than the budget. */
        if (!impl->bytes || impl->bytes(p) <= lab_run_memory())
            fail(impl->name, "the run failed though it fits the memory budget");
    } else if (rc != -2) {
        fail(impl->name, "lab_run returned something it does not promise");
    }
    lab_report_free(rep);
    lab_params_free(p);
    return 0;
}
