/*
 * report.h — what a lab run reports: metrics, checks, tables, notes and timed
 * events, and the ways they are written out (table, JSON, Chrome trace, SVG).
 *
 * Labs fill a report through lab.h (lab_metric, lab_check, ...); labrun and
 * `labrun --verify` read it back through the functions here.
 */
#ifndef RT_REPORT_H
#define RT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "lab.h"
#include "params.h"

/*
 * An empty report for a run of def with params p on backend (names borrowed;
 * they must outlive the report).
 */
struct lab_report *lab_report_new(const struct ast_labdef *def, const struct lab_params *p,
                                  const char *backend, int nranks, int cores);
void lab_report_free(struct lab_report *r);

/* Allow the progress line (stderr is a terminal and the user did not ask for quiet). */
void lab_report_set_progress(struct lab_report *r, bool on);

/* The value of metric name; false when the run did not report it. */
bool lab_report_metric(const struct lab_report *r, const char *name, double *v);

/* Checks recorded, and how many failed. */
int lab_report_checks(const struct lab_report *r);
int lab_report_failed(const struct lab_report *r);

/*
 * Metrics the manifest declares that the run did not report, added as a
 * failed check "metrics reported" (labrun calls this once after a run).
 */
void lab_report_finish(struct lab_report *r);

/*
 * The readable report: header (lab, backend, ranks, cores), tables, metrics
 * with their basis, checks, notes.  The manifest's words (the title, each
 * metric's description) are in lang ("en", "id"; qz_lab_text's fallback
 * when the manifest lacks it); names and numbers are the same in every one.
 */
void lab_report_print(const struct lab_report *r, const char *lang, FILE *out);

/*
 * {"lab", "backend", "ranks", "cores", "params": {...}, "metrics": {NAME: number},
 *  "basis": {NAME: "measured"|...}, "checks": [{"name", "pass", "detail"}],
 *  "tables": [...], "notes": [...]} to path ("-": stdout).  0, or -1 after
 *  printing why.  Files are written to a temporary and renamed.
 */
int lab_report_write_json(const struct lab_report *r, const char *path);

/* Chrome trace-event JSON (pid = rank, tid = stream, µs). */
int lab_report_write_trace(const struct lab_report *r, const char *path);

/* Whether the run drew a timeline: events on the stream --svg draws. */
bool lab_report_has_timeline(const struct lab_report *r);

/* The events of the chosen stream as an SVG timeline, one row per rank. */
int lab_report_write_svg(const struct lab_report *r, const char *path);
/* The same document in memory (its length in *len), allocated. */
char *lab_report_svg(const struct lab_report *r, size_t *len);

/*
 * The languages, besides the run's own, that the run's words are wanted in
 * (labrun --verify --record of a quiz written in them): NULL-terminated,
 * borrowed.  A lab's report then runs once more in each (lab_report_words,
 * lab.h).
 */
void lab_report_set_languages(struct lab_report *r, const char *const *langs);

/*
 * fn(c', arg) for each report in another language that lab_report_words
 * made, with c' a copy of c that points at it and the messages in its
 * language: how labrun adds its own notes (the device's) to every language
 * the lab reported in.
 */
void lab_report_words_also(struct lab_ctx *c, int (*fn)(struct lab_ctx *c, void *arg), void *arg);

#endif
