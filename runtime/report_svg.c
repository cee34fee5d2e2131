/*
 * report_svg.c — a timeline picture (--svg) of one event stream: one row per
 * rank, a block per event coloured by its name (forward and backward in two
 * colours, idle gaps hatched, waits for a CPU core cross-hatched apart),
 * micro-batch numbers on the blocks, a time axis in milliseconds, a legend;
 * under the rows, when the lab names a stream of waits (lab_svg_core_waits)
 * and a rank did wait for a core, that stream's rows on the same axis; its
 * words in the run's language (i18n.h).  Written with libxml2's
 * xmlTextWriter.
 */
#include <libxml/xmlwriter.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "report_impl.h"

#define LEFT 96         /* room for the row labels */
#define PLOT_W 960      /* the time axis */
#define ROW_H 34
#define ROW_GAP 8
#define TOP 56          /* title and subtitle */

/* Colours of the event names the labs use, and the legend's words for them (translated where drawn); anything else is grey. */
static const struct { const char *name, *fill, *label; } palette[] = {
    { "forward", "#4c78a8", N_("forward") },
    { "backward", "#f58518", N_("backward") },
    /* A pipeline stage's model chunks (interleaved schedule): odd chunks dark, even ones light, as papers draw them. */
    { "forward (chunk 1)", "#4c78a8", N_("forward, odd chunk") },
    { "forward (chunk 2)", "#9ecae9", N_("forward, even chunk") },
    { "backward (chunk 1)", "#f58518", N_("backward, odd chunk") },
    { "backward (chunk 2)", "#ffbf79", N_("backward, even chunk") },
    /* The backward split in two (zero-bubble schedules). */
    { "input grad", "#f58518", N_("B: input gradient") },
    { "weight grad", "#e45756", N_("W: weight gradient") },
    { "gemm", "#4c78a8", N_("GEMM") },
    { "send", "#54a24b", N_("send") },
    { "recv", "#72b7b2", N_("recv") },
    { "allreduce", "#b279a2", N_("all-reduce") },
    { "allgather", "#9d755d", N_("all-gather") },
    { "idle", "url(#idle)", N_("idle") },
    /* Ready to run but without a core (more ranks than cores): not a wait for a message, so not idle's hatch. */
    { LAB_CORE_WAIT, "url(#corewait)", N_("waiting for a CPU core") },
};

/* Whether an event is a wait (drawn the row's full height, without an outline), not work. */
static bool is_wait(const char *name)
{
    return strcmp(name, "idle") == 0 || strcmp(name, LAB_CORE_WAIT) == 0;
}

/* "forward (chunk 5)" -> "forward (chunk 1)": chunks take the colour of chunk 1 or 2 by parity. */
static const char *chunk_class(const char *name, char *buf, size_t n)
{
    const char *k = strstr(name, " (chunk ");
    int chunk;
    if (!k || sscanf(k, " (chunk %d)", &chunk) != 1 || chunk < 1)
        return name;
    snprintf(buf, n, "%.*s (chunk %d)", (int)(k - name), name, chunk % 2 ? 1 : 2);
    return buf;
}

static const char *fill_of(const char *name)
{
    char buf[64];
    name = chunk_class(name, buf, sizeof buf);
    for (size_t i = 0; i < sizeof palette / sizeof palette[0]; i++)
        if (strcmp(palette[i].name, name) == 0)
            return palette[i].fill;
    return "#bab0ac";
}

static void attr(xmlTextWriterPtr w, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void attr(xmlTextWriterPtr w, const char *name, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST buf);
}

static void text(xmlTextWriterPtr w, double x, double y, const char *anchor, int size,
                 const char *fill, const char *s)
{
    xmlTextWriterStartElement(w, BAD_CAST "text");
    attr(w, "x", "%.1f", x);
    attr(w, "y", "%.1f", y);
    attr(w, "font-size", "%d", size);
    attr(w, "text-anchor", "%s", anchor);
    attr(w, "fill", "%s", fill);
    xmlTextWriterWriteString(w, BAD_CAST s);
    xmlTextWriterEndElement(w);
}

static void rect(xmlTextWriterPtr w, double x, double y, double wd, double h, const char *fill,
                 const char *stroke)
{
    xmlTextWriterStartElement(w, BAD_CAST "rect");
    attr(w, "x", "%.2f", x);
    attr(w, "y", "%.2f", y);
    attr(w, "width", "%.2f", wd > 0.5 ? wd : 0.5);
    attr(w, "height", "%.2f", h);
    attr(w, "fill", "%s", fill);
    if (stroke) {
        attr(w, "stroke", "%s", stroke);
        attr(w, "stroke-width", "0.6");
    }
    xmlTextWriterEndElement(w);
}

/* A tick step of 1, 2 or 5 times a power of ten giving about 8 ticks over span. */
static double tick_step(double span)
{
    double raw = span / 8, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

bool lab_report_has_timeline(const struct lab_report *r)
{
    for (size_t i = 0; i < r->events.n; i++)
        if (r->events.items[i].stream == r->svg_stream)
            return true;
    return false;
}

/* Whether stream holds a wait for a CPU core. */
static bool has_core_wait(const struct lab_report *r, int stream)
{
    for (size_t i = 0; i < r->events.n; i++)
        if (r->events.items[i].stream == stream && strcmp(r->events.items[i].name, LAB_CORE_WAIT) == 0)
            return true;
    return false;
}

/* One row per rank from top: the row labels, the rows, and stream's events on them. */
static void draw_panel(xmlTextWriterPtr w, const struct lab_report *r, int stream, int rows, double top,
                       double t0, double scale)
{
    for (int k = 0; k < rows; k++) {
        double y = top + k * (ROW_H + ROW_GAP);
        char label[32];
        snprintf(label, sizeof label, "%s %d", r->svg_rows ? r->svg_rows : _("rank"), k);
        text(w, LEFT - 8, y + ROW_H / 2.0 + 4, "end", 12, "#222222", label);
        rect(w, LEFT, y, PLOT_W, ROW_H, "#fbfbfb", "#dddddd");
    }
    for (size_t i = 0; i < r->events.n; i++) {
        const struct lab_event *e = &r->events.items[i];
        if (e->stream != stream || e->rank < 0 || e->rank >= rows)
            continue;
        double x = LEFT + (e->ts_us - t0) * scale, wd = e->dur_us * scale;
        double y = top + e->rank * (ROW_H + ROW_GAP);
        bool idle = is_wait(e->name);
        rect(w, x, y + (idle ? 0 : 2), wd, ROW_H - (idle ? 0 : 4), fill_of(e->name),
             idle ? NULL : "#ffffff");
        if (e->mb >= 0 && wd >= 11) {
            char mb[16];
            snprintf(mb, sizeof mb, "%d", e->mb);
            text(w, x + wd / 2, y + ROW_H / 2.0 + 4, "middle", wd >= 18 ? 11 : 8, "#ffffff", mb);
        }
    }
}

char *lab_report_svg(const struct lab_report *r, size_t *len)
{
    /* The second panel: the lab's stream of waits for a core, when it holds one. */
    int second = r->svg_waits_stream >= 0 && r->svg_waits_stream != r->svg_stream &&
                 has_core_wait(r, r->svg_waits_stream) ? r->svg_waits_stream : -1;
    double t0 = INFINITY, t1 = -INFINITY;
    for (size_t i = 0; i < r->events.n; i++) {
        const struct lab_event *e = &r->events.items[i];
        if (e->stream != r->svg_stream && e->stream != second)
            continue;
        t0 = fmin(t0, e->ts_us);
        t1 = fmax(t1, e->ts_us + e->dur_us);
    }
    if (!(t1 > t0)) {
        t0 = 0;
        t1 = 1;
    }
    double span_ms = (t1 - t0) / 1000, scale = PLOT_W / (t1 - t0);
    int rows = r->nranks > 0 ? r->nranks : 1;
    int panel = rows * (ROW_H + ROW_GAP), caption = 24;
    int panels = panel + (second >= 0 ? caption + panel : 0);     /* both panels' height, from TOP */
    int height = TOP + panels + 70, width = LEFT + PLOT_W + 24;

    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = xmlNewTextWriterMemory(buf, 0);
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
    xmlTextWriterStartElement(w, BAD_CAST "svg");
    attr(w, "xmlns", "http://www.w3.org/2000/svg");
    attr(w, "width", "%d", width);
    attr(w, "height", "%d", height);
    attr(w, "viewBox", "0 0 %d %d", width, height);
    attr(w, "font-family", "DejaVu Sans, Helvetica, Arial, sans-serif");

    /* The hatch that marks idle time. */
    xmlTextWriterStartElement(w, BAD_CAST "defs");
    xmlTextWriterStartElement(w, BAD_CAST "pattern");
    attr(w, "id", "idle");
    attr(w, "patternUnits", "userSpaceOnUse");
    attr(w, "width", "6");
    attr(w, "height", "6");
    attr(w, "patternTransform", "rotate(45)");
    rect(w, 0, 0, 6, 6, "#f2f2f2", NULL);
    xmlTextWriterStartElement(w, BAD_CAST "line");
    attr(w, "x1", "0");
    attr(w, "y1", "0");
    attr(w, "x2", "0");
    attr(w, "y2", "6");
    attr(w, "stroke", "#c8c8c8");
    attr(w, "stroke-width", "2");
    xmlTextWriterEndElement(w);
    xmlTextWriterEndElement(w);
    /* The cross-hatch that marks time a rank waited for a core: warm, so it reads apart from idle's grey. */
    xmlTextWriterStartElement(w, BAD_CAST "pattern");
    attr(w, "id", "corewait");
    attr(w, "patternUnits", "userSpaceOnUse");
    attr(w, "width", "6");
    attr(w, "height", "6");
    rect(w, 0, 0, 6, 6, "#fde0c5", NULL);
    for (int k = 0; k < 2; k++) {
        xmlTextWriterStartElement(w, BAD_CAST "line");
        attr(w, "x1", "%d", k ? 6 : 0);
        attr(w, "y1", "0");
        attr(w, "x2", "%d", k ? 0 : 6);
        attr(w, "y2", "6");
        attr(w, "stroke", "#d6604d");
        attr(w, "stroke-width", "1");
        xmlTextWriterEndElement(w);
    }
    xmlTextWriterEndElement(w);
    xmlTextWriterEndElement(w);

    rect(w, 0, 0, width, height, "#ffffff", NULL);
    char title[512];
    snprintf(title, sizeof title, "%s", r->svg_title ? r->svg_title : r->def->name);
    text(w, LEFT, 22, "start", 16, "#222222", title);
    char sub[256];
    char *ranks = xasprintf(ngettext("%d rank", "%d ranks", (unsigned long)r->nranks), r->nranks);
    char *cores = xasprintf(ngettext("%d core", "%d cores", (unsigned long)r->cores), r->cores);
    snprintf(sub, sizeof sub, _("backend %s, %s on %s; time in ms"), r->backend, ranks, cores);
    free(ranks);
    free(cores);
    text(w, LEFT, 40, "start", 11, "#555555", sub);

    draw_panel(w, r, r->svg_stream, rows, TOP, t0, scale);
    if (second >= 0) {
        double top = TOP + panel + caption;
        text(w, LEFT, top - 8, "start", 11, "#555555",
             r->svg_waits_caption ? r->svg_waits_caption : _("waiting for a CPU core"));
        draw_panel(w, r, second, rows, top, t0, scale);
    }
    /* The time axis. */
    double axis_y = TOP + panels + 2, step = tick_step(span_ms);
    for (double t = 0; t <= span_ms * 1.0001; t += step) {
        double x = LEFT + t / span_ms * PLOT_W;
        rect(w, x, axis_y, 0.8, 5, "#555555", NULL);
        char lab[32];
        snprintf(lab, sizeof lab, "%g", t);
        num_in_lang(lab, labrun_current_lang());
        text(w, x, axis_y + 17, "middle", 10, "#555555", lab);
    }
    /* The legend: the names that occur, in palette order. */
    double lx = LEFT;
    for (size_t p = 0; p < sizeof palette / sizeof palette[0]; p++) {
        bool seen = false;
        for (size_t i = 0; i < r->events.n && !seen; i++) {
            char cls[64];
            int st = r->events.items[i].stream;
            seen = (st == r->svg_stream || st == second) &&
                   strcmp(chunk_class(r->events.items[i].name, cls, sizeof cls), palette[p].name) == 0;
        }
        if (!seen)
            continue;
        rect(w, lx, axis_y + 30, 14, 12, palette[p].fill, "#999999");
        const char *label = _(palette[p].label);
        text(w, lx + 19, axis_y + 40, "start", 11, "#222222", label);
        lx += 30 + 7.0 * (double)utf8_width(label, strlen(label));
    }
    xmlTextWriterEndElement(w);
    xmlTextWriterEndDocument(w);
    xmlFreeTextWriter(w);
    *len = (size_t)xmlBufferLength(buf);
    char *svg = xmalloc(*len + 1);
    memcpy(svg, xmlBufferContent(buf), *len);
    svg[*len] = '\0';
    xmlBufferFree(buf);
    return svg;
}

int lab_report_write_svg(const struct lab_report *r, const char *path)
{
    size_t len;
    char *svg = lab_report_svg(r, &len);
    int rc = report_write_file(path, svg, len);
    free(svg);
    return rc;
}
