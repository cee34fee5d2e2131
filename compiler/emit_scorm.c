/*
 * emit_scorm.c — the SCORM package as a set of files: the player (compiled
 * into quizc), the quiz data it reads, course.xml, and imsmanifest.xml that
 * lists them all.  Zipping or writing them out is someone else's job
 * (zip.c, output.c).
 */
#include <stdio.h>
#include <string.h>

#include "media.h"
#include "scorm.h"
#include "texmml.h"

/* The player's script that renders formulas; packed, with Temml, only when the quiz has math. */
#define MATH_SCRIPT "math.js"

/*
 * index.html, with Temml and math.js loaded before player.js when the quiz
 * has math: a quiz without math carries neither.
 */
static int add_index(struct emit_files *fs, const struct scorm_res *res, bool math, struct diag *d)
{
    if (!math) {
        emit_files_add_static(fs, res->name, res->data, res->len);
        return 0;
    }
    static const char anchor[] = "<script src=\"player.js\"></script>";
    const char *html = (const char *)res->data;
    const char *at = strstr(html, anchor);
    if (!at) {
        diag_error(d, NULL, "the player's index.html loads no player.js: cannot add the math renderer");
        return -1;
    }
    struct membuf b = { 0 };
    membuf_append(&b, html, (size_t)(at - html));
    static const char scripts[] = "<script src=\"temml.min.js\"></script>\n<script src=\"" MATH_SCRIPT "\"></script>\n";
    membuf_append(&b, scripts, strlen(scripts));
    membuf_append(&b, at, res->len - (size_t)(at - html));
    emit_files_take(fs, res->name, &b);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int emit_scorm_files(const struct qz_course *c, const struct emit_opts *o,
                     struct emit_files *out, struct diag *d)
{
    static const struct emit_opts defaults = { .scorm = SCORM_12 };
    if (!o)
        o = &defaults;
    if (!c || !c->quiz) {
        diag_error(d, NULL, "no quiz to package");
        return -1;
    }
    /* More choices than one-character ids: the checks' rule (check.h), for a course that skipped them. */
    for (size_t i = 0; i < c->questions.n; i++)
        if (!check_choice_count(d, c->questions.items[i]))
            return -1;
    struct emit_files fs = { 0 };
    struct membuf buf = { 0 };
    if (emit_course_xml(c, &buf, d) < 0)
        goto fail;
    emit_files_take(&fs, "course.xml", &buf);

    if (scorm_quiz_data(c, o, &buf, d) < 0)
        goto fail;
    emit_files_take(&fs, SCORM_DATA_FILE, &buf);

    bool math = media_has_math(c);
    for (size_t i = 0; i < scorm_player_count; i++) {
        const struct scorm_res *r = &scorm_player[i];
        if (!strcmp(r->name, "index.html")) {
            if (add_index(&fs, r, math, d) < 0)
                goto fail;
        } else if (strcmp(r->name, MATH_SCRIPT) || math) {
            emit_files_add_static(&fs, r->name, r->data, r->len);
        }
    }
    for (size_t i = 0; o->live_labs && i < scorm_live_labs_count; i++)
        emit_files_add_static(&fs, scorm_live_labs[i].name, scorm_live_labs[i].data, scorm_live_labs[i].len);
    if (math) {
        const struct scorm_res *t = texmml_temml();
        emit_files_add_static(&fs, t->name, t->data, t->len);
    }
    /* The figures the texts show, under the names the quiz data gives them. */
    for (size_t i = 0; i < c->media.images.n; i++) {
        const struct qz_image *im = &c->media.images.items[i];
        if (im->bytes)
            emit_files_add(&fs, im->name, im->bytes, im->len);
    }

    /* The manifest lists every other file, in name order (stable output). */
    const char **names = xcalloc(fs.files.n, sizeof *names);
    for (size_t i = 0; i < fs.files.n; i++)
        names[i] = fs.files.items[i].name;
    qsort(names, fs.files.n, sizeof *names, by_name);
    int rc = scorm_manifest(c, o->scorm, names, fs.files.n, &buf, d);
    free(names);
    if (rc < 0)
        goto fail;
    emit_files_take(&fs, "imsmanifest.xml", &buf);

    emit_files_move(out, &fs);
    return 0;
fail:
    membuf_free(&buf);
    emit_files_free(&fs);
    return -1;
}
