/*
 * inert.c — control characters of a manifest's text shown, not obeyed.
 */
#include <stdio.h>
#include <string.h>

#include "inert.h"
#include "util.h"

char *term_inert(const char *s)
{
    if (!s)
        return xstrdup("");
    /* Each byte grows at most to "\xNN" (4), each two-byte C1 control to "\u00NN" (6). */
    char *out = xmalloc(4 * strlen(s) + 1), *o = out;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f) {
            o += sprintf(o, "\\x%02x", *p);
        } else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            o += sprintf(o, "\\u%04x", p[1]);
            p++;
        } else {
            *o++ = (char)*p;
        }
    }
    *o = '\0';
    return out;
}
