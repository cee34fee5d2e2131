/*
 * media.h — the figures and formulas of a course's texts: every image
 * (![alt](path)) read, checked and hashed, every formula (\( \) and \[ \])
 * turned into MathML, into c->media (qz.h), with errors at the place in the
 * source.  The emitters then look them up by what the text says.
 */
#ifndef QZ_MEDIA_H
#define QZ_MEDIA_H

#include <stdbool.h>

#include "qz.h"

/* The largest image a quiz may show: a package carries it whole, and a Moodle XML file in base64. */
#define MEDIA_MAX_IMAGE ((size_t)2 << 20)
#define MEDIA_MAX_IMAGE_TEXT "2 MiB"

/*
 * Read and check every image and formula of c's texts into c->media: the
 * file's type against its name's (PNG, JPEG or SVG; an SVG with no script
 * and no reference outside itself), its size, an alt text in each of the
 * quiz's languages, TeX that converts (texmml.c).  Every problem is an error
 * at its place.  True when there was none.
 */
bool media_check(struct diag *d, struct qz_course *c);

/* The image or formula a text names; NULL when the media pass has not seen it. */
const struct qz_image *media_image(const struct qz_course *c, const char *path);
const struct qz_formula *media_formula(const struct qz_course *c, const char *tex, bool display);

/* Whether the course has a formula (a package then carries the math renderer). */
static inline bool media_has_math(const struct qz_course *c)
{
    return c->media.formulas.n > 0;
}

/*
 * Where needle stands inside the string literal at lit, as it was typed:
 * the span of its first n bytes; the literal itself when it is not there
 * verbatim (an escape inside it).
 */
struct src_loc media_locate(const struct src_loc *lit, const char *needle, size_t at, size_t n);

#endif
