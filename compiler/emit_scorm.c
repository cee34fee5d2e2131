/*
 * emit_scorm.c — the SCORM package as a set of files: the player (compiled
 * into quizc), the quiz data it reads, course.xml, and imsmanifest.xml that
 * lists them all.  Zipping or writing them out is someone else's job
 * (zip.c, output.c).
 */
#include <stdio.h>
#include <string.h>

#include "scorm.h"

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
    emit_files_add(&fs, "course.xml", buf.data, buf.len);
    membuf_free(&buf);

    if (scorm_quiz_data(c, o, &buf, d) < 0)
        goto fail;
    emit_files_add(&fs, SCORM_DATA_FILE, buf.data, buf.len);
    membuf_free(&buf);

    for (size_t i = 0; i < scorm_player_count; i++)
        emit_files_add(&fs, scorm_player[i].name, scorm_player[i].data, scorm_player[i].len);
    for (size_t i = 0; o->live_labs && i < scorm_live_labs_count; i++)
        emit_files_add(&fs, scorm_live_labs[i].name, scorm_live_labs[i].data, scorm_live_labs[i].len);

    /* The manifest lists every other file, in name order (stable output). */
    const char **names = xcalloc(fs.files.n, sizeof *names);
    for (size_t i = 0; i < fs.files.n; i++)
        names[i] = fs.files.items[i].name;
    qsort(names, fs.files.n, sizeof *names, by_name);
    int rc = scorm_manifest(c, o->scorm, names, fs.files.n, &buf, d);
    free(names);
    if (rc < 0)
        goto fail;
    emit_files_add(&fs, "imsmanifest.xml", buf.data, buf.len);
    membuf_free(&buf);

    emit_files_move(out, &fs);
    return 0;
fail:
    membuf_free(&buf);
    emit_files_free(&fs);
    return -1;
}
