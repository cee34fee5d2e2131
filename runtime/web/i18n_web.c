/*
 * i18n_web.c — _() in the WebAssembly build (i18n.h), which has no GNU
 * gettext: the same catalogue labrun uses, build/locale/LANG/LC_MESSAGES/
 * labrun.mo as msgfmt compiled it from po/LANG.po, embedded in the module
 * as /locale/LANG/labrun.mo (mk/web.mk), read here.
 *
 * A .mo file: a header of 32-bit words in the writer's byte order (magic
 * 0x950412de, revision, the number of messages N, the offsets of the table
 * of original strings and of the table of translations), then per table N
 * pairs (length, offset) of NUL-terminated strings.  A plural message's
 * original is "one\0many", its translation the forms one after another.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util.h"

static const char *current = "en";
static char *mo;            /* the chosen catalogue's bytes, or NULL: English */
static size_t mo_len;
static uint32_t n_msgs, orig_at, trans_at;
static bool swapped;        /* written in the other byte order */
static int nplurals = 2;

static uint32_t word(size_t at)
{
    uint32_t w;
    memcpy(&w, mo + at, 4);
    return swapped ? __builtin_bswap32(w) : w;
}

/* The string of table entry i (orig_at or trans_at), or NULL when it lies outside the file. */
static const char *entry(uint32_t table, uint32_t i, uint32_t *len)
{
    size_t at = (size_t)table + 8 * (size_t)i;
    if (at + 8 > mo_len)
        return NULL;
    uint32_t l = word(at), off = word(at + 4);
    if ((size_t)off + l >= mo_len || mo[(size_t)off + l] != '\0')
        return NULL;
    *len = l;
    return mo + off;
}

const char *labrun_current_lang(void)
{
    return current;
}

void labrun_lang(const char *lang)
{
    free(mo);
    mo = NULL;
    current = "en";
    if (!lang || strcmp(lang, "en") == 0 || strchr(lang, '/'))
        return;
    char *path = xasprintf("/locale/%s/labrun.mo", lang);
    FILE *f = fopen(path, "rb");
    free(path);
    if (!f)
        return;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap)
            buf = xrealloc(buf, cap = cap ? 2 * cap : 65536);
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    mo = buf;
    mo_len = len;
    uint32_t magic = 0;
    if (len >= 20)
        memcpy(&magic, mo, 4);
    swapped = magic == 0xde120495u;
    if (len < 20 || (magic != 0x950412deu && !swapped)) {
        free(mo);
        mo = NULL;
        return;
    }
    n_msgs = word(8);
    orig_at = word(12);
    trans_at = word(16);
    current = lang;
    /* The header (msgid "") says how many plural forms the language has. */
    uint32_t l;
    const char *h = n_msgs > 0 ? entry(trans_at, 0, &l) : NULL;
    const char *np = h ? strstr(h, "nplurals=") : NULL;
    nplurals = np ? atoi(np + 9) : 2;
}

/* The translation of msgid (the first form of a plural one), or NULL. */
static const char *find(const char *msgid, uint32_t *len)
{
    if (!mo || !msgid[0])
        return NULL;
    for (uint32_t i = 0; i < n_msgs; i++) {
        uint32_t ol;
        const char *o = entry(orig_at, i, &ol);
        if (o && strcmp(o, msgid) == 0)
            return entry(trans_at, i, len);
    }
    return NULL;
}

const char *labrun_gettext(const char *msgid)
{
    uint32_t len;
    const char *t = find(msgid, &len);
    return t && t[0] ? t : msgid;
}

const char *labrun_ngettext(const char *one, const char *many, unsigned long n)
{
    uint32_t len;
    const char *t = find(one, &len);
    if (!t || !t[0])
        return n == 1 ? one : many;
    /* One form (Indonesian): the first; two: English's rule. */
    if (nplurals > 1 && n != 1) {
        size_t first = strlen(t);
        if (first < len)
            return t + first + 1;
    }
    return t;
}
