/*
 * image_check.h — what an image file must be for a quiz to show it: a name
 * that travels in every package, bytes of the type the name says, and an
 * SVG that runs nothing and fetches nothing.
 */
#ifndef QZ_IMAGE_CHECK_H
#define QZ_IMAGE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* Why path cannot name a figure (absolute, "..", a character outside [A-Za-z0-9._/-]), or NULL. */
const char *image_path_problem(const char *path);

/* The media type a name's extension says (.png .jpg .jpeg .svg, any case), or NULL. */
const char *image_mime_for_name(const char *path);

/*
 * Whether bytes are a file of type mime: the PNG or JPEG signature; an SVG
 * that libxml2 reads as an <svg> document with no script, event handler,
 * external reference or entity.  When not, the reason in why ("is not a PNG
 * file", "holds a <script> element (line 4)").
 */
bool image_check_bytes(const char *mime, const unsigned char *bytes, size_t len, char *why, size_t whylen);

/* The SHA-256 of bytes as 64 lowercase hex digits and a NUL. */
void image_sha256(const unsigned char *bytes, size_t len, char hex[65]);

#endif
