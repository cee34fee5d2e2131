/*
 * report.c — the report a lab run fills: metrics, checks, tables, notes and
 * timed events (every rank may add to it, so one lock guards it), and the
 * readable table printed at the end.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "inert.h"
#include "labref.h"
#include "outfile.h"
#include "report_impl.h"
#include "util.h"

/* tag: lab-basis */
const char *lab_basis_name(enum lab_basis b)
{
    switch (b) {
    /* Marked for the catalogue: the readable report shows them translated, JSON as they are. */
    case LAB_MEASURED: return N_("measured");
    case LAB_REPLAYED: return N_("replayed");
    case LAB_MODELLED: return N_("modelled");
    case LAB_EXACT: return N_("exact");
    }
    return "?";
}

struct lab_report *lab_report_new(const struct ast_labdef *def, const struct lab_params *p,
                                  const char *backend, int nranks, int cores)
{
    struct lab_report *r = xcalloc(1, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    r->def = def;
    r->params = p;
    r->backend = backend;
    r->nranks = nranks;
    r->cores = cores;
    r->t0 = timer_wall();
    r->svg_stream = 0;
    r->svg_waits_stream = -1;
    r->lang = labrun_current_lang();
    return r;
}

void lab_report_free(struct lab_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->metrics.n; i++)
        free(r->metrics.items[i].name);
    VEC_FREE(r->metrics);
    for (size_t i = 0; i < r->checks.n; i++) {
        free(r->checks.items[i].name);
        free(r->checks.items[i].detail);
    }
    VEC_FREE(r->checks);
    for (size_t i = 0; i < r->notes.n; i++)
        free(r->notes.items[i]);
    VEC_FREE(r->notes);
    free(r->placement);
    for (size_t i = 0; i < r->tables.n; i++) {
        struct lab_table *t = r->tables.items[i];
        free(t->title);
        for (size_t c = 0; c < t->cols.n; c++)
            free(t->cols.items[c]);
        VEC_FREE(t->cols);
        for (size_t k = 0; k < t->cells.n; k++)
            free(t->cells.items[k]);
        VEC_FREE(t->cells);
        free(t);
    }
    VEC_FREE(r->tables);
    for (size_t i = 0; i < r->events.n; i++)
        free((char *)r->events.items[i].name);
    VEC_FREE(r->events);
    for (size_t i = 0; i < r->streams.n; i++)
        free(r->streams.items[i].name);
    VEC_FREE(r->streams);
    free(r->svg_title);
    free(r->svg_rows);
    free(r->svg_waits_caption);
    for (size_t i = 0; i < r->words.n; i++)
        lab_report_free(r->words.items[i]);
    VEC_FREE(r->words);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

void lab_report_set_progress(struct lab_report *r, bool on)
{
    r->progress = on;
}

double lab_now_us(const struct lab_ctx *c)
{
    return (timer_wall() - c->report->t0) * 1e6;
}

/* ---- what labs call ---- */

void lab_metric(struct lab_ctx *c, const char *name, double v, enum lab_basis b)
{
    struct lab_report *r = c->report;
    pthread_mutex_lock(&r->lock);
    size_t i = 0;
    while (i < r->metrics.n && strcmp(r->metrics.items[i].name, name) != 0)
        i++;
    if (i == r->metrics.n)
        VEC_PUSH(r->metrics, ((struct report_metric){ .name = xstrdup(name) }));
    r->metrics.items[i].value = v;
    r->metrics.items[i].basis = b;
    pthread_mutex_unlock(&r->lock);
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = xmalloc((size_t)(n > 0 ? n : 0) + 1);
    vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    return s;
}

static void add_check(struct lab_report *r, const char *name, bool pass, char *detail)
{
    pthread_mutex_lock(&r->lock);
    VEC_PUSH(r->checks, ((struct report_check){ .name = xstrdup(name), .pass = pass,
                                                .detail = detail }));
    pthread_mutex_unlock(&r->lock);
}

void lab_check(struct lab_ctx *c, const char *name, bool pass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = vformat(fmt, ap);
    va_end(ap);
    add_check(c->report, name, pass, detail);
}

void lab_note(struct lab_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&c->report->lock);
    VEC_PUSH(c->report->notes, s);
    pthread_mutex_unlock(&c->report->lock);
}

/* Split "a|b|c" into cells appended to v. */
static size_t split_cells(const char *s, void *vec)
{
    VEC(char *) *v = vec;
    size_t n = 0;
    for (;;) {
        const char *bar = strchr(s, '|');
        size_t len = bar ? (size_t)(bar - s) : strlen(s);
        VEC_PUSH(*v, xstrndup(s, len));
        n++;
        if (!bar)
            return n;
        s = bar + 1;
    }
}

struct lab_table *lab_table_new(struct lab_ctx *c, const char *title, const char *columns)
{
    struct lab_table *t = xcalloc(1, sizeof *t);
    t->title = xstrdup(title ? title : "");
    split_cells(columns, &t->cols);
    t->report = c->report;
    pthread_mutex_lock(&c->report->lock);
    VEC_PUSH(c->report->tables, t);
    pthread_mutex_unlock(&c->report->lock);
    return t;
}

void lab_table_row(struct lab_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *row = vformat(fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&t->report->lock);
    size_t before = t->cells.n, n = split_cells(row, &t->cells);
    /* Short rows are padded and long ones cut, so every row has one cell per column. */
    for (; n < t->cols.n; n++)
        VEC_PUSH(t->cells, xstrdup(""));
    while (t->cells.n > before + t->cols.n)
        free(t->cells.items[--t->cells.n]);
    t->rows++;
    pthread_mutex_unlock(&t->report->lock);
    free(row);
}

void lab_trace(struct lab_ctx *c, const struct lab_event *e)
{
    struct lab_event copy = *e;
    copy.name = xstrdup(e->name ? e->name : "?");
    pthread_mutex_lock(&c->report->lock);
    VEC_PUSH(c->report->events, copy);
    pthread_mutex_unlock(&c->report->lock);
}

void lab_trace_stream(struct lab_ctx *c, int rank, int stream, const char *name)
{
    pthread_mutex_lock(&c->report->lock);
    VEC_PUSH(c->report->streams, ((struct report_stream){ .rank = rank, .stream = stream,
                                                          .name = xstrdup(name) }));
    pthread_mutex_unlock(&c->report->lock);
}

void lab_svg_view(struct lab_ctx *c, int stream, const char *title)
{
    pthread_mutex_lock(&c->report->lock);
    c->report->svg_stream = stream;
    free(c->report->svg_title);
    c->report->svg_title = title ? xstrdup(title) : NULL;
    pthread_mutex_unlock(&c->report->lock);
}

void lab_svg_core_waits(struct lab_ctx *c, int stream, const char *caption)
{
    pthread_mutex_lock(&c->report->lock);
    c->report->svg_waits_stream = stream;
    free(c->report->svg_waits_caption);
    c->report->svg_waits_caption = caption ? xstrdup(caption) : NULL;
    pthread_mutex_unlock(&c->report->lock);
}

void lab_svg_rows(struct lab_ctx *c, const char *word)
{
    pthread_mutex_lock(&c->report->lock);
    free(c->report->svg_rows);
    c->report->svg_rows = xstrdup(word);
    pthread_mutex_unlock(&c->report->lock);
}

void lab_progress(struct lab_ctx *c, double done, const char *what)
{
    struct lab_report *r = c->report;
    if (!r->progress)
        return;
    double now = timer_wall();
    /* Only runs that last: nothing in the first second, then at most ten lines a second. */
    if (now - r->t0 < 1.0 || now - r->last_progress < 0.1)
        return;
    r->last_progress = now;
    r->progress_shown = true;
    fprintf(stderr, "\r%s: %3.0f%% %s\033[K", r->def->name, 100 * (done < 0 ? 0 : done > 1 ? 1 : done),
            what ? what : "");
    fflush(stderr);
}

/* ---- what labrun and --verify read ---- */

bool lab_report_metric(const struct lab_report *r, const char *name, double *v)
{
    for (size_t i = 0; i < r->metrics.n; i++)
        if (strcmp(r->metrics.items[i].name, name) == 0) {
            *v = r->metrics.items[i].value;
            return true;
        }
    return false;
}

int lab_report_checks(const struct lab_report *r)
{
    return (int)r->checks.n;
}

int lab_report_failed(const struct lab_report *r)
{
    int n = 0;
    for (size_t i = 0; i < r->checks.n; i++)
        n += !r->checks.items[i].pass;
    return n;
}

void lab_report_finish(struct lab_report *r)
{
    if (r->progress_shown) {
        fprintf(stderr, "\r\033[K");
        r->progress_shown = false;
    }
    char missing[512] = "";
    size_t len = 0;
    for (size_t i = 0; i < r->def->metrics.n; i++) {
        double v;
        const char *name = r->def->metrics.items[i].name;
        if (!lab_report_metric(r, name, &v) && len < sizeof missing - 1)
            len += (size_t)snprintf(missing + len, sizeof missing - len, "%s%s", len ? ", " : "", name);
    }
    if (len)
        add_check(r, _("metrics reported"), false, xasprintf(_("the run did not report %s"), missing));
}

/* ---- the readable report ---- */

/*
 * A lab's text (a table's cell, a check's detail, a note) as the report
 * shows it in lang: each decimal point between two digits (0.2727, 29.4%,
 * 0.016 ms) takes lang's decimal mark; words stay.  A new string.
 */
static char *text_in(const char *s, const char *lang)
{
    char *t = xstrdup(s);
    char mark = num_decimal_mark(lang);
    for (char *p = t + (*t != '\0'); mark != '.' && *p; p++)
        if (*p == '.' && p[-1] >= '0' && p[-1] <= '9' && p[1] >= '0' && p[1] <= '9')
            *p = mark;
    return t;
}

static void print_table(const struct lab_table *t, const char *lang, FILE *out)
{
    size_t nc = t->cols.n;
    int *w = xcalloc(nc, sizeof *w);
    for (size_t c = 0; c < nc; c++)
        w[c] = utf8_width(t->cols.items[c], strlen(t->cols.items[c]));
    for (size_t k = 0; k < t->cells.n; k++) {
        int cw = utf8_width(t->cells.items[k], strlen(t->cells.items[k]));
        if (cw > w[k % nc])
            w[k % nc] = cw;
    }
    if (*t->title)
        fprintf(out, "\n%s\n", t->title);
    /* First column left-aligned (names), the rest right-aligned (numbers). */
    for (int line = -1; line < (int)t->rows; line++) {
        fputs("  ", out);
        for (size_t c = 0; c < nc; c++) {
            char *s = text_in(line < 0 ? t->cols.items[c] : t->cells.items[(size_t)line * nc + c], lang);
            int pad = w[c] - utf8_width(s, strlen(s));
            if (c == 0)
                fprintf(out, "%s%*s", s, pad, "");
            else
                fprintf(out, "  %*s%s", pad, "", s);
            free(s);
        }
        fputc('\n', out);
        if (line < 0) {
            fputs("  ", out);
            for (size_t c = 0; c < nc; c++) {
                for (int i = 0; i < w[c] + (c ? 2 : 0); i++)
                    fputc(c && i < 2 ? ' ' : '-', out);
            }
            fputc('\n', out);
        }
    }
    free(w);
}

/* v as the report prints it in lang: 12, 0.3333 (0,3333 in Indonesian), 1.200e-07. */
void report_fmt_value(char *buf, size_t n, double v, const char *lang)
{
    if (v == trunc(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else if (fabs(v) >= 1e-3 && fabs(v) < 1e6)
        snprintf(buf, n, "%.4f", v);
    else
        snprintf(buf, n, "%.3e", v);
    num_in_lang(buf, lang);
}

void lab_report_print(const struct lab_report *r, const char *lang, FILE *out)
{
    const struct ast_tr *title = qz_lab_text(r->def->title, lang);
    /* The manifest's words and the values given: control characters shown, not obeyed. */
    char *t = term_inert(title ? title->raw : NULL);
    fprintf(out, "lab %s%s%s\n", r->def->name, title ? ": " : "", t);
    free(t);
    char *ranks = xasprintf(ngettext("%d rank", "%d ranks", (unsigned long)r->nranks), r->nranks);
    char *cores = xasprintf(ngettext("%d core", "%d cores", (unsigned long)r->cores), r->cores);
    if (r->replayed)
        fprintf(out, _("backend %s: %s taking turns on one thread of %s: every time is replayed "
                "(each rank's own costs measured on that thread, its clock moved on at each message to when "
                "the message could arrive), as if each rank had a core of its own\n"), r->backend, ranks, cores);
    else
        fprintf(out, _("backend %s: %s on %s%s\n"), r->backend, ranks, cores,
                r->nranks > r->cores ? _(" (more ranks than cores: wall times contend for cores)") : "");
    free(ranks);
    free(cores);
    if (r->placement)
        fprintf(out, _("placement: %s\n"), r->placement);
    if (r->params && r->params->n) {
        fputs(_("params:"), out);
        for (size_t i = 0; i < r->params->n; i++) {
            char *raw = lab_pvalue_text(&r->params->v[i]), *v = term_inert(raw);
            fprintf(out, " %s=%s", r->params->v[i].decl->name, v);
            free(raw);
            free(v);
        }
        fputc('\n', out);
    }
    for (size_t i = 0; i < r->tables.n; i++)
        print_table(r->tables.items[i], lang, out);
    if (r->metrics.n) {
        fprintf(out, "\n%s\n", _("metrics"));
        /* The basis column as wide as its longest word in lang (9 in English: "measured", "replayed"). */
        int basis_w = 9;
        for (int b = LAB_MEASURED; b <= LAB_EXACT; b++) {
            const char *w = _(lab_basis_name((enum lab_basis)b));
            int n = utf8_width(w, strlen(w));
            basis_w = n > basis_w ? n : basis_w;
        }
        for (size_t i = 0; i < r->metrics.n; i++) {
            const struct report_metric *m = &r->metrics.items[i];
            const struct ast_metric *decl = NULL;
            for (size_t k = 0; k < r->def->metrics.n; k++)
                if (strcmp(r->def->metrics.items[k].name, m->name) == 0)
                    decl = &r->def->metrics.items[k];
            const struct ast_tr *help = decl ? qz_lab_text(decl->help, lang) : NULL;
            char val[40];
            report_fmt_value(val, sizeof val, m->value, lang);
            char *h = term_inert(help ? help->raw : NULL);
            const char *basis = _(lab_basis_name(m->basis));
            fprintf(out, "  %-24s %14s  %s%*s %s\n", m->name, val, basis,
                     basis_w - utf8_width(basis, strlen(basis)), "", h);
            free(h);
        }
    }
    if (r->checks.n) {
        fprintf(out, "\n%s\n", _("checks"));
        for (size_t i = 0; i < r->checks.n; i++) {
            const struct report_check *k = &r->checks.items[i];
            char *detail = text_in(k->detail, lang);
            fprintf(out, "  %s  %-34s %s\n", k->pass ? _("PASS") : _("FAIL"), k->name, detail);
            free(detail);
        }
    }
    if (r->notes.n) {
        fprintf(out, "\n%s\n", _("notes"));
        for (size_t i = 0; i < r->notes.n; i++) {
            char *note = text_in(r->notes.items[i], lang);
            fprintf(out, "  %s\n", note);
            free(note);
        }
    }
}

/* ---- writing files ---- */

int report_write_file(const char *path, const char *data, size_t len)
{
    /* The rules quizc follows too (grammar/outfile.c); their messages say labrun. */
    struct diag *d = diag_new(stderr);
    int rc = out_whole(d, path, data, len);
    diag_free(d);
    return rc;
}
