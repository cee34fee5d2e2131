/*
 * render_escape.c — text as HTML that is also well-formed XML: what every
 * part of the rendered feedback (render.c, render_runs.c) writes its text
 * through.  Kept apart so that both use it and neither calls the other back.
 */
#include <string.h>

#include "render.h"

static void put(struct membuf *b, const char *s)
{
    membuf_append(b, s, strlen(s));
}

void render_escaped(struct render *r, struct membuf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        size_t n = strcspn((const char *)p, "&<>\"\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
                           "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\xef");
        membuf_append(b, p, n);
        p += n;
        switch (*p) {
        case '\0': return;
        case '&': put(b, "&amp;"); p++; break;
        case '<': put(b, "&lt;"); p++; break;
        case '>': put(b, "&gt;"); p++; break;
        case '"': put(b, "&quot;"); p++; break;
        case 0xEF:      /* U+FFFE and U+FFFF are not XML characters; the rest of U+Fxxx is */
            if (p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) {
                r->dropped++;
                p += 3;
            } else {
                membuf_append(b, p, 1);
                p++;
            }
            break;
        default:        /* a C0 control other than tab, LF, CR */
            r->dropped++;
            p++;
            break;
        }
    }
}
