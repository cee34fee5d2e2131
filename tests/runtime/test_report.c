/*
 * Reports: a small lab defined here runs on the threads backend; its JSON,
 * Chrome trace and SVG are read back (jansson, libxml2) and checked.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "i18n.h"
#include "qz.h"
#include "run.h"

static const char manifest[] =
    "lab probe {\n"
    "    title \"A probe\"\n"
    "    param ranks = 3 in 1..8 \"ranks\"\n"
    "    param fail = false \"make the check fail\"\n"
    "    param skip = false \"leave a metric out\"\n"
    "    metric total \"sum of the ranks' numbers\"\n"
    "    metric half \"a modelled figure\"\n"
    "}\n";

static int probe_ranks(const struct lab_params *p) { return (int)lab_param_int(p, "ranks"); }

/* Each rank contributes rank+1 through an all-reduce, draws two events, rank 0 reports. */
static int probe_run(struct lab_ctx *c)
{
    double v = c->rank + 1;
    if (comm_allreduce(c->comm, &v, 1, DTYPE_F64) < 0)
        return -1;
    double t = 100.0 * c->rank;
    lab_trace(c, &(struct lab_event){ .rank = c->rank, .stream = 0, .name = "forward", .ts_us = t,
                                      .dur_us = 50, .mb = c->rank });
    lab_trace(c, &(struct lab_event){ .rank = c->rank, .stream = 0, .name = "idle", .ts_us = t + 50,
                                      .dur_us = 25, .mb = -1 });
    lab_trace(c, &(struct lab_event){ .rank = c->rank, .stream = 1, .name = "send", .ts_us = t + 50,
                                      .dur_us = 5, .mb = -1 });
    if (c->rank == 0)     /* ready at 75 us, on a core only at 90 */
        lab_trace(c, &(struct lab_event){ .rank = 0, .stream = 0, .name = "core wait", .ts_us = t + 75,
                                          .dur_us = 15, .mb = -1 });
    lab_trace_stream(c, c->rank, 0, "compute");
    if (c->rank == 0) {
        lab_metric(c, "total", v, LAB_MEASURED);
        if (!lab_param_bool(c->params, "skip"))
            lab_metric(c, "half", v / 2, LAB_MODELLED);
        bool fail = lab_param_bool(c->params, "fail");
        lab_check(c, "sum is n(n+1)/2", !fail && v == c->nranks * (c->nranks + 1) / 2.0, "got %g", v);
        struct lab_table *tb = lab_table_new(c, "ranks", "rank|value");
        for (int r = 0; r < c->nranks; r++)
            lab_table_row(tb, "%d|%d", r, r + 1);
        lab_note(c, "a note with \"quotes\" and <angle brackets>");
        lab_svg_view(c, 0, "probe <timeline>");
    }
    return 0;
}

static const struct lab_impl probe = { .name = "probe", .ranks = probe_ranks, .run = probe_run };

static struct diag *diag;
static struct ast_file *file;
static struct lab_params *params;
static struct lab_report *rep;
static char dir[] = "/tmp/labrun-report-XXXXXX";

static void setup(void)
{
    diag = diag_new(stderr);
    const struct source *src = diag_add_source(diag, "probe/lab.qz", strdup(manifest), strlen(manifest));
    file = qz_parse(diag, src);
    cr_assert_eq(diag_errors(diag), 0);
    params = lab_params_new(file->lab);
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    lab_report_free(rep);
    lab_params_free(params);
    ast_file_free(file);
    diag_free(diag);
    char *cmd = xasprintf("rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
    free(cmd);
}

static void run_probe(void)
{
    rep = lab_report_new(file->lab, params, "cpu", lab_nranks(&probe, params), 2);
    cr_assert_eq(lab_run(&probe, params, &backend_cpu, rep), 0);
}

static char *path(const char *name) { return xasprintf("%s/%s", dir, name); }

TestSuite(report, .init = setup, .fini = teardown);

Test(report, json_holds_lab_backend_params_every_metric_and_the_checks)
{
    run_probe();
    char *p = path("r.json");
    cr_assert_eq(lab_report_write_json(rep, p), 0);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    cr_assert_not_null(j, "not JSON: %s at line %d", e.text, e.line);
    cr_assert_str_eq(json_string_value(json_object_get(j, "lab")), "probe");
    cr_assert_str_eq(json_string_value(json_object_get(j, "backend")), "cpu");
    cr_assert_eq(json_integer_value(json_object_get(json_object_get(j, "params"), "ranks")), 3);
    cr_assert(json_is_false(json_object_get(json_object_get(j, "params"), "fail")));
    json_t *m = json_object_get(j, "metrics");
    cr_assert_float_eq(json_number_value(json_object_get(m, "total")), 6.0, 1e-12);
    cr_assert_float_eq(json_number_value(json_object_get(m, "half")), 3.0, 1e-12);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "basis"), "half")), "modelled");
    json_t *checks = json_object_get(j, "checks");
    cr_assert_eq(json_array_size(checks), 1);
    json_t *c0 = json_array_get(checks, 0);
    cr_assert_str_eq(json_string_value(json_object_get(c0, "name")), "sum is n(n+1)/2");
    cr_assert(json_is_true(json_object_get(c0, "pass")));
    cr_assert_str_eq(json_string_value(json_object_get(c0, "detail")), "got 6");
    json_t *rows = json_object_get(json_array_get(json_object_get(j, "tables"), 0), "rows");
    cr_assert_eq(json_array_size(rows), 3);
    cr_assert_str_eq(json_string_value(json_array_get(json_array_get(rows, 2), 1)), "3");
    cr_assert_str_eq(json_string_value(json_array_get(json_object_get(j, "notes"), 0)),
                     "a note with \"quotes\" and <angle brackets>");
    json_decref(j);
    free(p);
}

Test(report, a_failed_check_and_a_missing_metric_are_failures)
{
    cr_assert_eq(lab_params_set(params, "fail", "true", NULL), 0);
    cr_assert_eq(lab_params_set(params, "skip", "true", NULL), 0);
    run_probe();
    cr_assert_eq(lab_report_failed(rep), 2);
    double v;
    cr_assert(!lab_report_metric(rep, "half", &v));
}

Test(report, trace_events_carry_rank_as_pid_stream_as_tid_and_microsecond_times)
{
    run_probe();
    char *p = path("t.json");
    cr_assert_eq(lab_report_write_trace(rep, p), 0);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    cr_assert_not_null(j, "not JSON: %s", e.text);
    json_t *ev = json_object_get(j, "traceEvents");
    int complete = 0, named = 0;
    for (size_t i = 0; i < json_array_size(ev); i++) {
        json_t *x = json_array_get(ev, i);
        const char *ph = json_string_value(json_object_get(x, "ph"));
        if (strcmp(ph, "M") == 0) {
            named++;
            continue;
        }
        cr_assert_str_eq(ph, "X");
        complete++;
        json_int_t pid = json_integer_value(json_object_get(x, "pid"));
        const char *name = json_string_value(json_object_get(x, "name"));
        if (strcmp(name, "forward") == 0) {
            cr_assert_float_eq(json_number_value(json_object_get(x, "ts")), 100.0 * (double)pid, 1e-9);
            cr_assert_float_eq(json_number_value(json_object_get(x, "dur")), 50.0, 1e-9);
            cr_assert_eq(json_integer_value(json_object_get(json_object_get(x, "args"), "microbatch")), pid);
        }
        if (strcmp(name, "send") == 0)
            cr_assert_eq(json_integer_value(json_object_get(x, "tid")), 1);
    }
    cr_assert_eq(complete, 9 + 1, "three events per rank and rank 0's wait for a core");
    cr_assert_eq(named, 3 + 3, "a process name per rank and a thread name per named stream");
    json_decref(j);
    free(p);
}

Test(report, svg_draws_a_row_per_rank_and_a_block_per_event_of_its_stream)
{
    run_probe();
    char *p = path("s.svg");
    cr_assert_eq(lab_report_write_svg(rep, p), 0);
    xmlDocPtr doc = xmlReadFile(p, NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc, "the SVG is not well-formed XML");
    xmlXPathContextPtr x = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
    xmlXPathObjectPtr fwd = xmlXPathEvalExpression(BAD_CAST "//s:rect[@fill='#4c78a8']", x);
    cr_assert_eq(fwd->nodesetval->nodeNr, 3 + 1, "three forward blocks and the legend's swatch");
    xmlXPathObjectPtr labels = xmlXPathEvalExpression(BAD_CAST "//s:text[starts-with(., 'rank ')]", x);
    cr_assert_eq(labels->nodesetval->nodeNr, 3);
    xmlXPathObjectPtr title = xmlXPathEvalExpression(BAD_CAST "//s:text[. = 'probe <timeline>']", x);
    cr_assert_eq(title->nodesetval->nodeNr, 1, "the title, escaped and read back");
    xmlXPathFreeObject(fwd);
    xmlXPathFreeObject(labels);
    xmlXPathFreeObject(title);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
    free(p);
}

Test(report, json_to_a_folder_that_does_not_exist_fails_and_leaves_nothing)
{
    run_probe();
    char *p = path("missing/r.json");
    cr_assert_eq(lab_report_write_json(rep, p), -1);
    cr_assert_neq(access(p, F_OK), 0);
    free(p);
}

Test(report, an_absent_backend_is_refused_with_its_reason)
{
    static const struct backend absent = { .name = "nope", .absent = "built without it" };
    rep = lab_report_new(file->lab, params, "nope", 1, 2);
    cr_assert_eq(lab_run(&probe, params, &absent, rep), -2);
}

/* A backend that runs its ranks as the cpu backend does and says where they went. */
static const char *probe_placement(void) { return "3 ranks share the probe's one device"; }

Test(report, the_placement_is_printed_under_the_backend_line_and_the_device_note_last)
{
    struct backend placed = backend_cpu;
    placed.placement = probe_placement;
    rep = lab_report_new(file->lab, params, "cpu", lab_nranks(&probe, params), 2);
    cr_assert_eq(lab_run(&probe, params, &placed, rep), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    lab_report_print(rep, "en", out);
    fclose(out);
    /* Line 1 the lab, line 2 the backend, line 3 the placement: before any figure. */
    const char *l3 = strchr(strchr(text, '\n') + 1, '\n') + 1;
    const char *want = "placement: 3 ranks share the probe's one device\n";
    cr_assert_eq(strncmp(l3, want, strlen(want)), 0, "%s", text);
    /* The cpu device names its GEMM library and claims no cuBLAS. */
    const char *gemm = strstr(text, "  GEMM: OpenBLAS with ");
    cr_assert_not_null(gemm, "%s", text);
    cr_assert_null(strstr(text, "cuBLAS"), "%s", text);
    cr_assert_null(strstr(gemm + 1, "\n  "), "the device's note is the last: %s", text);
    free(text);
    char *p = path("placed.json");
    cr_assert_eq(lab_report_write_json(rep, p), 0);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    cr_assert_not_null(j, "not JSON: %s", e.text);
    cr_assert_str_eq(json_string_value(json_object_get(j, "placement")),
                     "3 ranks share the probe's one device");
    json_decref(j);
    free(p);
}

/* What each rank's context said, from timed_run. */
static enum lab_basis seen_timed[8];
static int seen_cores[8];

/* probe_run's sum, timed: the figure's basis is the context's. */
static int timed_run(struct lab_ctx *c)
{
    seen_timed[c->rank] = c->timed;
    seen_cores[c->rank] = c->cores;
    double v = c->rank + 1, t0 = timer_wall();
    if (comm_allreduce(c->comm, &v, 1, DTYPE_F64) < 0)
        return -1;
    if (c->rank == 0) {
        lab_metric(c, "total", timer_wall() - t0, c->timed);
        lab_metric(c, "half", v / 2, LAB_MODELLED);
        lab_check(c, "sum is n(n+1)/2", v == c->nranks * (c->nranks + 1) / 2.0, "got %g", v);
    }
    return 0;
}

static const struct lab_impl timed_probe = { .name = "probe", .ranks = probe_ranks, .run = timed_run };

Test(report, under_coop_timed_figures_are_replayed_and_the_report_says_so)
{
    for (int pass = 0; pass < 2; pass++) {
        const struct backend *b = pass ? &backend_coop : &backend_cpu;
        rep = lab_report_new(file->lab, params, b->name, lab_nranks(&timed_probe, params), 2);
        cr_assert_eq(lab_run(&timed_probe, params, b, rep), 0);
        for (int r = 0; r < 3; r++) {
            cr_assert_eq(seen_timed[r], pass ? LAB_REPLAYED : LAB_MEASURED, "%s rank %d", b->name, r);
            /* In virtual time each rank has a core of its own. */
            cr_assert_eq(seen_cores[r], pass ? 3 : 2, "%s rank %d", b->name, r);
        }
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        lab_report_print(rep, "en", out);
        fclose(out);
        const char *line = pass ? "backend coop: 3 ranks taking turns on one thread of 2 cores: every time is replayed"
                                : "backend cpu: 3 ranks on 2 cores (more ranks than cores";
        cr_assert_not_null(strstr(text, line), "%s", text);
        free(text);
        char *p = path("timed.json");
        cr_assert_eq(lab_report_write_json(rep, p), 0);
        json_error_t e;
        json_t *j = json_load_file(p, 0, &e);
        cr_assert_not_null(j, "not JSON: %s", e.text);
        cr_assert_str_eq(json_string_value(json_object_get(j, "time")), pass ? "replayed" : "measured");
        cr_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "basis"), "total")),
                         pass ? "replayed" : "measured");
        json_decref(j);
        free(p);
        lab_report_free(rep);
        rep = NULL;
    }
}

/* The legend's words of the probe's timeline, in lang, joined by '|'. */
static char *legend_of(const char *lang)
{
    labrun_lang(lang);
    if (strcmp(lang, "en") != 0) {
        /* The catalogue `make` compiles: BUILD/locale, two folders above this test (BUILD/tests/runtime). */
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        cr_assert(n > 0);
        exe[n] = '\0';
        *strrchr(exe, '/') = '\0';
        char *locale = xasprintf("%s/../../locale", exe);
        bindtextdomain("labrun", locale);
        free(locale);
    }
    run_probe();
    char *p = path("w.svg");
    cr_assert_eq(lab_report_write_svg(rep, p), 0);
    xmlDocPtr doc = xmlReadFile(p, NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc);
    xmlXPathContextPtr x = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
    /* A wait for a core is its own fill, defined once, and not idle's. */
    xmlXPathObjectPtr waits = xmlXPathEvalExpression(BAD_CAST "//s:rect[@fill='url(#corewait)']", x);
    cr_assert_eq(waits->nodesetval->nodeNr, 1 + 1, "rank 0's wait for a core and the legend's swatch");
    xmlXPathObjectPtr pat = xmlXPathEvalExpression(BAD_CAST "//s:defs/s:pattern[@id='corewait']", x);
    cr_assert_eq(pat->nodesetval->nodeNr, 1);
    xmlXPathObjectPtr idle = xmlXPathEvalExpression(BAD_CAST "//s:rect[@fill='url(#idle)']", x);
    cr_assert_eq(idle->nodesetval->nodeNr, 3 + 1, "three idle gaps and the legend's swatch, apart from the wait");
    /* The legend: the texts right of the swatches, after the axis. */
    xmlXPathObjectPtr texts = xmlXPathEvalExpression(BAD_CAST "//s:text[@font-size='11' and @fill='#222222']", x);
    char *joined = xstrdup("");
    for (int i = 0; i < texts->nodesetval->nodeNr; i++) {
        xmlChar *t = xmlNodeGetContent(texts->nodesetval->nodeTab[i]);
        char *next = xasprintf("%s|%s", joined, (const char *)t);
        free(joined);
        joined = next;
        xmlFree(t);
    }
    xmlXPathFreeObject(waits);
    xmlXPathFreeObject(pat);
    xmlXPathFreeObject(idle);
    xmlXPathFreeObject(texts);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
    free(p);
    return joined;
}

Test(report, a_wait_for_a_cpu_core_has_its_own_fill_and_legend_entry)
{
    char *legend = legend_of("en");
    cr_expect_str_eq(legend, "|forward|idle|waiting for a CPU core");
    free(legend);
}

Test(report, the_timelines_legend_is_in_the_runs_language)
{
    char *legend = legend_of("id");
    cr_expect_str_eq(legend, "|maju|menganggur|menunggu inti CPU");
    free(legend);
}

/*
 * A recorded two-stage run: stream 2 a replay (work and idle only), stream 0
 * the wall clock, where stage 1 waited 20 us for a core when with_wait.  The
 * picture's rects filled with the core-wait hatch and its texts, from
 * lab_report_write_svg.
 */
static void recorded_svg(bool with_wait, int *waits, int *rows, bool *caption)
{
    rep = lab_report_new(file->lab, params, "cpu", 2, 1);
    struct lab_ctx c = { .rank = 0, .nranks = 2, .report = rep, .backend = "cpu", .cores = 1,
                         .timed = LAB_MEASURED };
    for (int s = 0; s < 2; s++) {
        double t = 50.0 * s;
        lab_trace(&c, &(struct lab_event){ .rank = s, .stream = 2, .name = "idle", .ts_us = 0, .dur_us = t, .mb = -1 });
        lab_trace(&c, &(struct lab_event){ .rank = s, .stream = 2, .name = "forward", .ts_us = t, .dur_us = 50, .mb = 0 });
        double w = with_wait && s == 1 ? 20 : 0;
        lab_trace(&c, &(struct lab_event){ .rank = s, .stream = 0, .name = "idle", .ts_us = 0, .dur_us = t, .mb = -1 });
        if (w > 0)
            lab_trace(&c, &(struct lab_event){ .rank = s, .stream = 0, .name = "core wait", .ts_us = t,
                                               .dur_us = w, .mb = -1 });
        lab_trace(&c, &(struct lab_event){ .rank = s, .stream = 0, .name = "forward", .ts_us = t + w,
                                           .dur_us = 50, .mb = 0 });
    }
    lab_svg_rows(&c, "stage");
    lab_svg_view(&c, 2, "replay");
    lab_svg_core_waits(&c, 0, "wall clock, waits for a core hatched");
    char *p = path(with_wait ? "waits.svg" : "nowaits.svg");
    cr_assert_eq(lab_report_write_svg(rep, p), 0);
    xmlDocPtr doc = xmlReadFile(p, NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc);
    xmlXPathContextPtr x = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
    xmlXPathObjectPtr wt = xmlXPathEvalExpression(BAD_CAST "//s:rect[@fill='url(#corewait)']", x);
    xmlXPathObjectPtr rw = xmlXPathEvalExpression(BAD_CAST "//s:text[starts-with(., 'stage ')]", x);
    xmlXPathObjectPtr cap = xmlXPathEvalExpression(BAD_CAST "//s:text[. = 'wall clock, waits for a core hatched']", x);
    *waits = wt->nodesetval ? wt->nodesetval->nodeNr : 0;
    *rows = rw->nodesetval ? rw->nodesetval->nodeNr : 0;
    *caption = cap->nodesetval && cap->nodesetval->nodeNr == 1;
    xmlXPathFreeObject(wt);
    xmlXPathFreeObject(rw);
    xmlXPathFreeObject(cap);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
    free(p);
    lab_report_free(rep);
    rep = NULL;
}

Test(report, a_core_wait_outside_the_pictured_stream_gets_its_own_rows_and_legend_entry)
{
    int waits, rows;
    bool caption;
    recorded_svg(true, &waits, &rows, &caption);
    cr_expect_eq(waits, 1 + 1, "stage 1's wait and the legend's swatch, got %d", waits);
    cr_expect_eq(rows, 2 + 2, "the replay's two rows and the wall clock's two, got %d", rows);
    cr_expect(caption, "the wall clock's rows have their caption");
}

Test(report, no_core_wait_no_second_rows_and_no_legend_entry)
{
    int waits, rows;
    bool caption;
    recorded_svg(false, &waits, &rows, &caption);
    cr_expect_eq(waits, 0, "no core-wait fill when no rank waited for a core, got %d", waits);
    cr_expect_eq(rows, 2, "the replay's rows alone, got %d", rows);
    cr_expect(!caption);
}
