/*
 * report_json.c — the report as JSON (--json) and its events as a Chrome
 * trace (--trace), both built with jansson.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "util.h"

static json_t *param_json(const struct lab_pvalue *v)
{
    switch (v->decl->type) {
    case PARAM_INT:
        return json_integer((json_int_t)v->num);
    case PARAM_REAL:
        return json_real(v->num);
    case PARAM_BOOL:
        return json_boolean(v->boolean);
    default:
        return json_string(v->str ? v->str : "");
    }
}

/* NaN and infinities are not JSON: they become null. */
static json_t *number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

int report_write_json(json_t *root, size_t indent, const char *path, FILE *err, const char *what)
{
    char *s = json_dumps(root, JSON_INDENT(indent) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!s) {
        fprintf(err, "labrun: error: %scannot encode %s as JSON\n", what, path);
        return -1;
    }
    size_t len = strlen(s);
    s = xrealloc(s, len + 2);
    s[len++] = '\n';
    s[len] = '\0';
    int rc = report_write_file(path, s, len);
    free(s);
    return rc;
}

int lab_report_write_json(const struct lab_report *r, const char *path)
{
    json_t *root = json_object();
    json_object_set_new(root, "lab", json_string(r->def->name));
    json_object_set_new(root, "backend", json_string(r->backend));
    if (r->placement)
        json_object_set_new(root, "placement", json_string(r->placement));
    json_object_set_new(root, "ranks", json_integer(r->nranks));
    json_object_set_new(root, "cores", json_integer(r->cores));
    /* How the times were taken: on the wall clock of parallel ranks, or replayed in virtual time. */
    json_object_set_new(root, "time", json_string(lab_basis_name(r->replayed ? LAB_REPLAYED : LAB_MEASURED)));

    json_t *params = json_object();
    for (size_t i = 0; r->params && i < r->params->n; i++)
        json_object_set_new(params, r->params->v[i].decl->name, param_json(&r->params->v[i]));
    json_object_set_new(root, "params", params);

    json_t *metrics = json_object(), *basis = json_object();
    for (size_t i = 0; i < r->metrics.n; i++) {
        const struct report_metric *m = &r->metrics.items[i];
        json_object_set_new(metrics, m->name, number(m->value));
        json_object_set_new(basis, m->name, json_string(lab_basis_name(m->basis)));
    }
    json_object_set_new(root, "metrics", metrics);
    json_object_set_new(root, "basis", basis);

    json_t *checks = json_array();
    for (size_t i = 0; i < r->checks.n; i++) {
        const struct report_check *k = &r->checks.items[i];
        json_array_append_new(checks, json_pack("{s:s, s:b, s:s}", "name", k->name, "pass", k->pass,
                                                "detail", k->detail));
    }
    json_object_set_new(root, "checks", checks);

    json_t *tables = json_array();
    for (size_t i = 0; i < r->tables.n; i++) {
        const struct lab_table *t = r->tables.items[i];
        json_t *cols = json_array(), *rows = json_array();
        for (size_t c = 0; c < t->cols.n; c++)
            json_array_append_new(cols, json_string(t->cols.items[c]));
        for (size_t k = 0; k < t->rows; k++) {
            json_t *row = json_array();
            for (size_t c = 0; c < t->cols.n; c++)
                json_array_append_new(row, json_string(t->cells.items[k * t->cols.n + c]));
            json_array_append_new(rows, row);
        }
        json_array_append_new(tables, json_pack("{s:s, s:o, s:o}", "title", t->title,
                                                "columns", cols, "rows", rows));
    }
    json_object_set_new(root, "tables", tables);

    json_t *notes = json_array();
    for (size_t i = 0; i < r->notes.n; i++)
        json_array_append_new(notes, json_string(r->notes.items[i]));
    json_object_set_new(root, "notes", notes);
    return report_write_json(root, 2, path, stderr, "");
}

/*
 * Chrome trace-event format: complete events ("ph": "X") with pid = rank and
 * tid = stream, timestamps in microseconds; metadata events name each rank
 * and stream so Perfetto shows "rank 2 / compute (wall clock)".
 */
int lab_report_write_trace(const struct lab_report *r, const char *path)
{
    json_t *events = json_array();
    for (int rank = 0; rank < r->nranks; rank++) {
        char name[32];
        snprintf(name, sizeof name, "rank %d", rank);
        json_array_append_new(events, json_pack("{s:s, s:s, s:i, s:i, s:{s:s}}", "name", "process_name",
                                                "ph", "M", "pid", rank, "tid", 0, "args", "name", name));
    }
    for (size_t i = 0; i < r->streams.n; i++) {
        const struct report_stream *s = &r->streams.items[i];
        json_array_append_new(events, json_pack("{s:s, s:s, s:i, s:i, s:{s:s}}", "name", "thread_name",
                                                "ph", "M", "pid", s->rank, "tid", s->stream,
                                                "args", "name", s->name));
    }
    for (size_t i = 0; i < r->events.n; i++) {
        const struct lab_event *e = &r->events.items[i];
        json_t *ev = json_pack("{s:s, s:s, s:s, s:o, s:o, s:i, s:i}", "name", e->name, "cat", r->def->name,
                               "ph", "X", "ts", number(e->ts_us), "dur", number(e->dur_us),
                               "pid", e->rank, "tid", e->stream);
        if (e->mb >= 0)
            json_object_set_new(ev, "args", json_pack("{s:i}", "microbatch", e->mb));
        json_array_append_new(events, ev);
    }
    json_t *root = json_pack("{s:o, s:s}", "traceEvents", events, "displayTimeUnit", "ms");
    return report_write_json(root, 2, path, stderr, "");
}
