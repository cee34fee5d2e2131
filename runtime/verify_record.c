/*
 * verify_record.c — the runs file of `labrun --verify --record`: each lab
 * run's report (metrics with their basis, checks, notes), its timeline, the
 * machine, the date, labrun's version and the lab's fingerprint, as one
 * JSON document built with jansson.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "labref.h"
#include "outfile.h"
#include "report_impl.h"
#include "verify_record.h"

#ifndef QZ_VERSION
#define QZ_VERSION "0.1.0"
#endif

/* What a child leaves for run i: its report, its timeline, its machine, its words in other languages. */
enum { PIECE_REPORT, PIECE_SVG, PIECE_MACHINE, PIECE_WORDS, PIECES };
static const char *const piece_ext[PIECES] = { "json", "svg", "machine", "words" };

static char *piece(const char *dir, size_t i, int kind)
{
    return xasprintf("%s/%zu.%s", dir, i, piece_ext[kind]);
}

static int record_slot = -1;

char *record_dir_new(FILE *err)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = xasprintf("%s/labrun-record-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(err, "labrun: error: --record: cannot make a temporary folder %s: %s\n", dir, strerror(errno));
        free(dir);
        return NULL;
    }
    /* Removed with its pieces if labrun is stopped (the slot is this process's, not a child's). */
    record_slot = out_temp_add(dir, true);
    return dir;
}

void record_dir_free(char *dir, size_t n)
{
    if (!dir)
        return;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < PIECES; k++) {
            char *p = piece(dir, i, k);
            unlink(p);
            free(p);
        }
    rmdir(dir);
    out_temp_drop(record_slot);
    record_slot = -1;
    free(dir);
}

/* w's words: its checks' names and details, its notes, and r's timeline drawn with w's titles in w's language. */
static json_t *words_json(const struct lab_report *r, const struct lab_report *w)
{
    json_t *checks = json_array(), *notes = json_array();
    for (size_t i = 0; i < w->checks.n; i++)
        json_array_append_new(checks, json_pack("{s:s, s:s}", "name", w->checks.items[i].name,
                                                "detail", w->checks.items[i].detail));
    for (size_t i = 0; i < w->notes.n; i++)
        json_array_append_new(notes, json_string(w->notes.items[i]));
    json_t *o = json_pack("{s:o, s:o}", "checks", checks, "notes", notes);
    if (lab_report_has_timeline(r)) {
        /*
         * r's events and streams under w's words (r's where the lab set them
         * outside its report): a copy of r's fields, read only, never locked.
         */
        struct lab_report view = *r;
        view.svg_title = w->svg_title ? w->svg_title : r->svg_title;
        view.svg_rows = w->svg_rows ? w->svg_rows : r->svg_rows;
        view.svg_waits_caption = w->svg_waits_caption ? w->svg_waits_caption : r->svg_waits_caption;
        labrun_lang(w->lang);
        size_t len;
        char *svg = lab_report_svg(&view, &len);
        labrun_lang(r->lang);
        json_object_set_new(o, "svg", json_stringn(svg, len));
        free(svg);
    }
    return o;
}

/*
 * {"lang": LANG, "words": {LANG: {"checks": [{"name", "detail"}], "notes": [...],
 * "svg": "..."}}}: the language of rep's words, then its words in every other
 * language the lab reported in.
 */
static int write_words(const struct lab_report *r, const char *path)
{
    json_t *words = json_object();
    for (size_t i = 0; i < r->words.n; i++)
        json_object_set_new(words, r->words.items[i]->lang, words_json(r, r->words.items[i]));
    json_t *root = json_pack("{s:s, s:o}", "lang", r->lang, "words", words);
    return report_write_json(root, 0, path, stderr, "");
}

void record_child(const char *dir, size_t i, const struct lab_report *rep, const struct backend *b)
{
    char *p = piece(dir, i, PIECE_REPORT);
    lab_report_write_json(rep, p);
    free(p);
    p = piece(dir, i, PIECE_WORDS);
    write_words(rep, p);
    free(p);
    if (lab_report_has_timeline(rep)) {
        p = piece(dir, i, PIECE_SVG);
        lab_report_write_svg(rep, p);
        free(p);
    }
    struct backend_machine m = { .gpus = 0 };
    if (b->machine)
        b->machine(&m);
    json_t *o = json_pack("{s:s, s:i, s:s, s:s}", "gpu", m.gpu, "gpus", m.gpus, "driver", m.driver,
                          "nccl", m.nccl);
    p = piece(dir, i, PIECE_MACHINE);
    json_dump_file(o, p, JSON_COMPACT);
    json_decref(o);
    free(p);
}

/* "Intel(R) Xeon(R) ..." from /proc/cpuinfo's first "model name"; "" when there is none. */
static json_t *cpu_model(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512], model[256] = "";
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon++;
            colon += strspn(colon, " \t");
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(model, sizeof model, "%s", colon);
            break;
        }
    }
    if (f)
        fclose(f);
    return json_string(model);
}

/* The machine: this one's CPU, the cores the run had, the accelerators the child saw. */
static json_t *machine_json(const char *dir, size_t i, json_t *report)
{
    json_t *m = json_object();
    json_object_set_new(m, "cpu", cpu_model());
    json_object_set(m, "cores", json_object_get(report, "cores"));
    char *p = piece(dir, i, PIECE_MACHINE);
    json_t *acc = json_load_file(p, 0, NULL);
    free(p);
    const char *key;
    json_t *v;
    json_object_foreach(acc, key, v) {
        bool empty = (json_is_string(v) && !*json_string_value(v)) || (json_is_integer(v) && !json_integer_value(v));
        if (!empty)
            json_object_set(m, key, v);
    }
    json_decref(acc);
    return m;
}

/* The report's metrics object and basis object as one list, in the report's order. */
static json_t *metrics_json(json_t *report)
{
    json_t *list = json_array(), *basis = json_object_get(report, "basis");
    const char *name;
    json_t *v;
    json_object_foreach(json_object_get(report, "metrics"), name, v) {
        json_t *b = json_object_get(basis, name);
        json_array_append_new(list, json_pack("{s:s, s:O, s:s}", "name", name, "value", v, "basis",
                                              json_is_string(b) ? json_string_value(b) : "measured"));
    }
    return list;
}

static json_t *run_json(const char *dir, size_t i, const struct ast_labdef *def, const char *date)
{
    char *p = piece(dir, i, PIECE_REPORT);
    json_error_t e;
    json_t *rep = json_load_file(p, JSON_PRESERVE_ORDER, &e);
    free(p);
    if (!rep)
        return NULL;
    json_t *run = json_object();
    json_object_set(run, "lab", json_object_get(rep, "lab"));
    json_object_set(run, "params", json_object_get(rep, "params"));
    json_object_set(run, "backend", json_object_get(rep, "backend"));
    json_object_set_new(run, "machine", machine_json(dir, i, rep));
    json_object_set_new(run, "date", json_string(date));
    json_object_set_new(run, "labrun", json_string(QZ_VERSION));
    char *hash = qz_lab_hash(def->dir);
    json_object_set_new(run, "hash", hash ? json_string(hash) : json_null());
    free(hash);
    if (json_object_get(rep, "placement"))
        json_object_set(run, "placement", json_object_get(rep, "placement"));
    json_object_set_new(run, "metrics", metrics_json(rep));
    json_object_set(run, "checks", json_object_get(rep, "checks"));
    json_object_set(run, "notes", json_object_get(rep, "notes"));
    p = piece(dir, i, PIECE_SVG);
    size_t len = 0;
    char *svg = access(p, R_OK) == 0 ? read_file(p, &len) : NULL;
    free(p);
    if (svg)
        json_object_set_new(run, "svg", json_stringn(svg, len));
    free(svg);
    /* The language of the words above, and the same words in the quiz's other languages. */
    p = piece(dir, i, PIECE_WORDS);
    json_t *words = json_load_file(p, JSON_PRESERVE_ORDER, &e);
    free(p);
    if (json_is_string(json_object_get(words, "lang")))
        json_object_set(run, "lang", json_object_get(words, "lang"));
    if (json_object_size(json_object_get(words, "words")))
        json_object_set(run, "words", json_object_get(words, "words"));
    json_decref(words);
    json_decref(rep);
    return run;
}

int record_write(const char *path, const char *dir, const struct record_quiz *quiz, const struct record_run *runs,
                 size_t n, FILE *err)
{
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        if (!runs[i].ran)
            continue;
        json_t *r = run_json(dir, i, runs[i].def, date);
        if (r)
            json_array_append_new(list, r);
        else
            fprintf(err, "labrun: warning: --record: the run of lab '%s' left no report; it is not recorded\n",
                    runs[i].def->name);
    }
    json_t *root = json_pack("{s:s, s:i, s:s}", "format", QZ_RUNS_FORMAT, "version", QZ_RUNS_VERSION,
                             "quiz", quiz->path);
    /* Which quiz, whatever its path on the machine that reads the file (quizc --runs compares them). */
    if (quiz->id)
        json_object_set_new(root, "quiz_id", json_string(quiz->id));
    if (quiz->hash)
        json_object_set_new(root, "quiz_hash", json_string(quiz->hash));
    json_object_set_new(root, "runs", list);
    return report_write_json(root, 1, path, err, "--record: ");
}
