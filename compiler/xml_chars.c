/*
 * xml_chars.c — characters XML 1.0 cannot carry: found in a course's
 * strings by the checks (so --check and every output agree), reported at
 * the character, by the one function the course writer also calls.
 */
#include <stdlib.h>
#include <string.h>

#include "xml_chars.h"

/* Whether src[i..] is the escape \u{HEX} for cp. */
static bool escape_for(const char *src, size_t len, size_t i, unsigned cp)
{
    if (i + 4 > len || src[i] != '\\' || src[i + 1] != 'u' || src[i + 2] != '{')
        return false;
    char *end;
    unsigned long v = strtoul(src + i + 3, &end, 16);
    return end > src + i + 3 && (size_t)(end - src) < len && *end == '}' && v == cp;
}

/*
 * Where in the source the character sits: where the author typed it inside
 * the literal at lit, or the \u{...} escape that produced it; failing both,
 * the literal itself.
 */
static struct src_loc locate_char(const struct src_loc *lit, unsigned cp)
{
    struct src_loc l = *lit;
    const struct source *src = loc_src(lit);
    if (!src)
        return l;
    char enc[4];
    size_t elen;
    if (cp < 0x80) {
        enc[0] = (char)cp;
        elen = 1;
    } else {
        enc[0] = (char)0xEF;
        enc[1] = (char)0xBF;
        enc[2] = (char)(cp == 0xFFFE ? 0xBE : 0xBF);
        elen = 3;
    }
    size_t from = src_off(src, lit->from);
    size_t end = src_off(src, lit->to) < src->len ? src_off(src, lit->to) : src->len;
    if (end < from)
        return l;
    /* The literal as written (a string with quote escapes is decoded in place, loc.h). */
    char *tmp;
    const char *t = src_view(src, from, end, &tmp);
    size_t len = end - from;
    for (size_t i = 0; i < len; i++) {
        bool typed = i + elen <= len && memcmp(t + i, enc, elen) == 0;
        if (typed || escape_for(t, len, i, cp)) {   /* typed: the character; else the whole \u{...} */
            l = loc_bytes(src, from + i, typed ? elen : (size_t)(strchr(t + i, '}') - (t + i)) + 1);
            break;
        }
    }
    free(tmp);
    return l;
}

bool xmlchars_safe(struct diag *d, const char *s, const struct src_loc *at, const char *what)
{
    size_t off;
    unsigned cp;
    if (!s || !xml_forbidden(s, strlen(s), &off, &cp))
        return true;
    struct src_loc l = at ? locate_char(at, cp) : (struct src_loc){ 0 };
    diag_error(d, at ? &l : NULL, "%s holds the character U+%04X, which XML 1.0 cannot carry", what, cp);
    return false;
}

/* The scanner has looked at every literal of its source: one that found none of those characters needs no second look (loc.h). */
bool xmlchars_literal_safe(struct diag *d, const char *s, const struct src_loc *lit, const char *what)
{
    const struct source *src = loc_src(lit);
    if (src && src->xml == SRC_XML_CLEAN)
        return true;
    return xmlchars_safe(d, s, lit, what);
}

/* ---- The course, as the writer walks it (emit_xml.c) --------------------- */

static bool text_safe(struct diag *d, const struct ast_text *t, const char *what)
{
    bool ok = true;
    for (size_t i = 0; t && i < t->n; i++)
        ok &= xmlchars_literal_safe(d, t->trs[i].raw, &t->trs[i].loc, what);
    return ok;
}

/* Whether def is among the first n labs of c already seen (a course uses a few labs). */
static bool seen_lab(const struct ast_labdef *const *seen, size_t n, const struct ast_labdef *def)
{
    for (size_t i = 0; i < n; i++)
        if (seen[i] == def) return true;
    return false;
}

static bool lab_safe(struct diag *d, const struct ast_labref *ref, bool texts)
{
    bool ok = true, values = true;
    for (size_t i = 0; i < ref->args.n; i++) {
        char *v = qz_arg_value(ref, &ref->args.items[i]);
        values &= xmlchars_safe(d, v, &ref->args.items[i].value.loc, "this value");
        free(v);
    }
    ok &= values;
    const struct ast_labdef *def = ref->def;
    if (!def || !texts)
        return ok;
    ok &= text_safe(d, def->title, "the lab's title");
    ok &= text_safe(d, def->summary, "the lab's summary");
    for (size_t i = 0; i < def->params.n; i++)
        ok &= text_safe(d, def->params.items[i].help, "the parameter's help");
    for (size_t i = 0; i < def->metrics.n; i++)
        ok &= text_safe(d, def->metrics.items[i].help, "the metric's description");
    return ok;
}

bool xmlchars_check_course(struct diag *d, const struct qz_course *c)
{
    const struct ast_quiz *quiz = c->quiz;
    bool ok = true;
    if (quiz) {
        ok &= text_safe(d, quiz->title, "the title");
        ok &= text_safe(d, quiz->intro, "the intro");
    }
    VEC(const struct ast_labdef *) seen = { 0 };
    for (size_t qi = 0; qi < c->questions.n; qi++) {
        const struct ast_question *q = c->questions.items[qi];
        ok &= text_safe(d, q->prompt, "the prompt");
        for (size_t i = 0; i < q->choices.n; i++) {
            ok &= text_safe(d, q->choices.items[i].text, "this choice");
            ok &= text_safe(d, q->choices.items[i].because, "this feedback");
        }
        if (q->kind == Q_NUMERIC && q->numeric)
            ok &= text_safe(d, q->numeric->unit, "the unit");
        for (size_t i = 0; q->kind == Q_TEXT && i < q->accept.n; i++)
            ok &= xmlchars_literal_safe(d, q->accept.items[i].raw, &q->accept.items[i].loc, "this accepted answer");
        ok &= text_safe(d, q->explain, "the explanation");
        for (size_t i = 0; i < q->extra->labs.n; i++) {
            const struct ast_labref *ref = &q->extra->labs.items[i];
            bool first = ref->def && !seen_lab(seen.items, seen.n, ref->def);
            if (first)
                VEC_PUSH(seen, ref->def);
            ok &= lab_safe(d, ref, first);
        }
        for (size_t i = 0; i < q->extra->snippets.n; i++)
            ok &= xmlchars_safe(d, q->extra->snippets.items[i].code, &q->extra->snippets.items[i].loc, "this snippet");
    }
    VEC_FREE(seen);
    return ok;
}
