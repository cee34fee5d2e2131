/*
 * scorm_text.c — a quiz's texts as plain strings, for the places that cannot
 * hold markup (the manifest's titles, LMS fields, the other formats' names),
 * and the language they default to.  A leaf: the manifest and the package
 * both read it.
 */
#include <stdio.h>
#include <string.h>

#include "scorm.h"

const char *scorm_default_lang(const struct ast_quiz *q)
{
    return q && q->langs.n ? q->langs.items[0].tag : NULL;
}

/* Append s, with characters XML 1.0 forbids (C0 controls but tab) dropped and newlines as spaces. */
static void append_clean(struct membuf *b, const char *s)
{
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '\n' || ch == '\r' || ch == '\t')
            membuf_append(b, " ", 1);
        else if (ch >= 0x20 && ch != 0x7f)
            membuf_append(b, s, 1);
    }
}

char *scorm_plain_text(const struct ast_text *t, const char *lang)
{
    struct membuf b = { 0 };
    const struct ast_tr *tr = ast_text_get(t, lang);
    struct md_doc doc = { 0 };
    if (tr) {
        md_parse(tr->raw, &doc);
        for (size_t i = 0; i < doc.blocks.n; i++) {
            const struct md_block *blk = &doc.blocks.items[i];
            if (i > 0)
                membuf_append(&b, " ", 1);
            if (blk->kind == MD_CODEBLOCK) {
                append_clean(&b, blk->code);
                continue;
            }
            for (size_t k = 0; k < blk->spans.n; k++) {
                const struct md_span *s = &blk->spans.items[k];
                append_clean(&b, s->kind == MD_BREAK ? " " : s->kind == MD_IMAGE ? s->alt : s->text);
            }
        }
        md_doc_clear(&doc);
    }
    membuf_append(&b, "", 1);
    return (char *)b.data;
}
