/*
 * formats.c — the registered output formats (formats.h).  Packages come
 * from the packaging module; a build that has it defines QUIZC_SCORM
 * (mk/scorm.mk), and without it their rows have no writer.
 */
#include <string.h>

#include "formats.h"

#ifdef QUIZC_SCORM
#define PACKAGE_WRITER(fn) fn
#else
#define PACKAGE_WRITER(fn) NULL
#endif

const struct format formats[] = {
    { .name = "course", .ext = ".xml", .suffix = ".xml", .suffix_is = "course document",
      .stream = emit_course_xml_stream },
    { .name = "scorm", .ext = ".zip", .suffix = ".zip", .suffix_is = "SCORM package",
      .files = PACKAGE_WRITER(emit_scorm_files), .package = true },
    { .name = "gift", .ext = ".gift", .suffix = ".gift", .one_lang = true, .text = emit_gift },
    { .name = "moodle", .ext = ".moodle.xml", .one_lang = true, .text = emit_moodle_xml },
    { .name = "qti21", .ext = ".qti.zip", .one_lang = true, .files = PACKAGE_WRITER(emit_qti_files),
      .package = true },
    { .name = NULL },
};

const struct format *format_named(const char *name)
{
    for (const struct format *f = formats; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

const struct format *format_for_output(const char *path)
{
    size_t n = strlen(path);
    for (const struct format *f = formats; f->name; f++) {
        size_t m = f->suffix ? strlen(f->suffix) : 0;
        if (m && n >= m && strcmp(path + n - m, f->suffix) == 0)
            return f;
    }
    return NULL;
}

char *format_join(bool (*keep)(const struct format *), char *(*word)(const struct format *),
                  const char *last)
{
    size_t total = 0, seen = 0;
    for (const struct format *f = formats; f->name; f++)
        total += !keep || keep(f);
    char *s = xstrdup("");
    for (const struct format *f = formats; f->name; f++) {
        if (keep && !keep(f))
            continue;
        const char *sep = seen == 0 ? "" : seen + 1 == total ? last : ", ";
        char *w = word(f);
        char *t = xasprintf("%s%s%s", s, sep, w);
        free(w);
        free(s);
        s = t;
        seen++;
    }
    return s;
}

static char *format_name(const struct format *f)
{
    return xstrdup(f->name);
}

char *format_list(bool (*keep)(const struct format *), const char *last)
{
    return format_join(keep, format_name, last);
}
