/*
 * report_impl.h — the inside of struct lab_report, shared by the files that
 * fill and write it (report.c, report_json.c, report_svg.c).  Labs and
 * labrun use report.h and lab.h only.
 */
#ifndef RT_REPORT_IMPL_H
#define RT_REPORT_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "lab.h"
#include "params.h"
#include "report.h"

struct report_metric {
    char *name;             /* owned */
    double value;
    enum lab_basis basis;
};

struct report_check {
    char *name;             /* owned */
    bool pass;
    char *detail;           /* owned */
};

struct report_stream {
    int rank, stream;
    char *name;             /* owned */
};

struct lab_table {
    char *title;                    /* owned */
    VEC(char *) cols;               /* column names; owned */
    VEC(char *) cells;              /* rows * cols.n cells, row by row; owned */
    size_t rows;
    struct lab_report *report;      /* the report holding it (for its lock) */
};

struct lab_report {
    pthread_mutex_t lock;           /* every lab_* call from any rank takes it */
    const struct ast_labdef *def;   /* borrowed */
    const struct lab_params *params;/* borrowed */
    const char *backend;            /* borrowed */
    int nranks, cores;
    bool replayed;                  /* the backend replays time (coop): timed figures are replayed */
    double t0;                      /* timer_wall() when the report was made: time zero */
    VEC(struct report_metric) metrics;
    VEC(struct report_check) checks;
    VEC(char *) notes;
    char *placement;                /* where the backend put the ranks, printed under the backend line; owned, or NULL */
    VEC(struct lab_table *) tables; /* owned */
    VEC(struct lab_event) events;   /* names owned */
    VEC(struct report_stream) streams;
    int svg_stream;
    char *svg_title;                /* owned, or NULL */
    char *svg_rows;                 /* row label word; owned, or NULL for "rank" */
    int svg_waits_stream;           /* lab_svg_core_waits's stream, or -1 */
    char *svg_waits_caption;        /* owned, or NULL */
    const char *lang;               /* the language of its words ("en", "id"): labrun_current_lang() when it was made */
    const char *const *langs;       /* lab_report_set_languages: NULL-terminated, borrowed; or NULL */
    VEC(struct lab_report *) words; /* the same report in each of langs but lang, from lab_report_words; owned */
    bool progress;                  /* progress lines allowed */
    bool progress_shown;            /* one is on the terminal now */
    double last_progress;
};

/* path gets data by the shared output rules (outfile.h: "-" is stdout). */
int report_write_file(const char *path, const char *data, size_t len);

/*
 * path gets root as JSON (indented by indent, keys in order) and a line
 * end, as report_write_file writes; root is released.  When it cannot be
 * encoded, "labrun: error: WHATcannot encode PATH as JSON" goes to err.
 */
struct json_t;
int report_write_json(struct json_t *root, size_t indent, const char *path, FILE *err, const char *what);

/* A metric value as the table and the SVG show it. */
void report_fmt_value(char *buf, size_t n, double v, const char *lang);

#endif
