/*
 * ast.c — constructors, destructors and names for the syntax tree.
 * Each *_free releases everything its node owns, so a tree goes with one
 * ast_file_free.
 */
#include "ast.h"

#include <string.h>

void md_doc_clear(struct md_doc *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->blocks.n; i++) {
        struct md_block *b = &d->blocks.items[i];
        for (size_t k = 0; k < b->spans.n; k++)
            if (!b->spans.items[k].borrowed) free(b->spans.items[k].text);
        VEC_FREE(b->spans);
        free(b->info);
        free(b->code);
    }
    VEC_FREE(d->blocks);
}

void ast_tr_clear(struct ast_tr *tr)
{
    if (!tr) return;
    free(tr->lang);
    free(tr->raw);
    tr->lang = tr->raw = NULL;
}

struct ast_text *ast_text_new(void)
{
    return xcalloc(1, sizeof(struct ast_text));
}

void ast_text_free(struct ast_text *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->trs.n; i++) ast_tr_clear(&t->trs.items[i]);
    VEC_FREE(t->trs);
    free(t);
}

void ast_value_clear(struct ast_value *v)
{
    if (!v) return;
    free(v->str);
    v->str = NULL;
}

void ast_labref_clear(struct ast_labref *r)
{
    if (!r) return;
    free(r->name);
    for (size_t i = 0; i < r->args.n; i++) {
        free(r->args.items[i].name);
        ast_value_clear(&r->args.items[i].value);
    }
    VEC_FREE(r->args);
    for (size_t i = 0; i < r->expects.n; i++) {
        struct ast_expect *e = &r->expects.items[i];
        free(e->metric);
        ast_value_clear(&e->value);
        ast_value_clear(&e->tolerance);
    }
    VEC_FREE(r->expects);
    r->name = NULL;
}

struct ast_question *ast_question_new(enum ast_qkind kind)
{
    struct ast_question *q = xcalloc(1, sizeof *q);
    q->kind = kind;
    q->points = 1;
    return q;
}

void ast_question_free(struct ast_question *q)
{
    if (!q) return;
    free(q->id);
    ast_text_free(q->prompt);
    ast_text_free(q->explain);
    for (size_t i = 0; i < q->choices.n; i++) {
        ast_text_free(q->choices.items[i].text);
        ast_text_free(q->choices.items[i].because);
    }
    VEC_FREE(q->choices);
    ast_value_clear(&q->numeric.value);
    ast_value_clear(&q->numeric.tolerance);
    ast_value_clear(&q->numeric.lo);
    ast_value_clear(&q->numeric.hi);
    ast_text_free(q->unit);
    for (size_t i = 0; i < q->accept.n; i++) ast_tr_clear(&q->accept.items[i]);
    VEC_FREE(q->accept);
    for (size_t i = 0; i < q->labs.n; i++) ast_labref_clear(&q->labs.items[i]);
    VEC_FREE(q->labs);
    for (size_t i = 0; i < q->snippets.n; i++) {
        struct ast_snippet *s = &q->snippets.items[i];
        free(s->lab);
        free(s->region);
        free(s->code);
        free(s->file);
    }
    VEC_FREE(q->snippets);
    free(q);
}

struct ast_quiz *ast_quiz_new(void)
{
    struct ast_quiz *q = xcalloc(1, sizeof *q);
    q->feedback = FEEDBACK_IMMEDIATE;
    q->shuffle = SHUFFLE_NONE;
    q->passing = 80;
    return q;
}

void ast_quiz_free(struct ast_quiz *q)
{
    if (!q) return;
    free(q->id);
    ast_text_free(q->title);
    ast_text_free(q->intro);
    for (size_t i = 0; i < q->langs.n; i++) free(q->langs.items[i].tag);
    VEC_FREE(q->langs);
    free(q);
}

struct ast_labdef *ast_labdef_new(void)
{
    return xcalloc(1, sizeof(struct ast_labdef));
}

void ast_labdef_free(struct ast_labdef *l)
{
    if (!l) return;
    free(l->name);
    ast_text_free(l->title);
    ast_text_free(l->summary);
    for (size_t i = 0; i < l->params.n; i++) {
        struct ast_param *p = &l->params.items[i];
        free(p->name);
        ast_value_clear(&p->def);
        for (size_t k = 0; k < p->choices.n; k++) free(p->choices.items[k]);
        VEC_FREE(p->choices);
        ast_text_free(p->help);
        free(p->alias);
    }
    VEC_FREE(l->params);
    for (size_t i = 0; i < l->metrics.n; i++) {
        free(l->metrics.items[i].name);
        ast_text_free(l->metrics.items[i].help);
        free(l->metrics.items[i].unit);
    }
    VEC_FREE(l->metrics);
    free(l->dir);
    free(l);
}

struct ast_file *ast_file_new(const struct source *src)
{
    struct ast_file *f = xcalloc(1, sizeof *f);
    f->src = src;
    return f;
}

void ast_file_free(struct ast_file *f)
{
    if (!f) return;
    ast_quiz_free(f->quiz);
    ast_labdef_free(f->lab);
    for (size_t i = 0; i < f->items.n; i++) {
        struct ast_item *it = &f->items.items[i];
        ast_question_free(it->question);
        if (it->include) {
            free(it->include->path);
            ast_file_free(it->include->file);
            free(it->include);
        }
    }
    VEC_FREE(f->items);
    free(f);
}

/* Names (tagged NAMES: in the order of their enums in ast.h). */
const char *ast_qkind_name(enum ast_qkind k)
{
    static const char *const n[] = { "single", "multiple", "truefalse", "numeric", "text" };
    return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}

/* The words of `feedback` and `shuffle`, as the quiz writes them (NULL-terminated, in enum order). */
const char *const ast_feedback_words[] = {
    [FEEDBACK_IMMEDIATE] = "immediate", [FEEDBACK_ON_SUBMIT] = "on-submit", [FEEDBACK_NEVER] = "never", NULL,
};
const char *const ast_shuffle_words[] = {
    [SHUFFLE_NONE] = "none", [SHUFFLE_CHOICES] = "choices", [SHUFFLE_QUESTIONS] = "questions",
    [SHUFFLE_ALL] = "all", NULL,
};

const char *ast_feedback_name(enum ast_feedback f)
{
    return (unsigned)f <= FEEDBACK_NEVER ? ast_feedback_words[f] : "?";
}

const char *ast_shuffle_name(enum ast_shuffle s)
{
    return (unsigned)s <= SHUFFLE_ALL ? ast_shuffle_words[s] : "?";
}

/* A comparison as quizzes write it ("<") and as course.xml names it ("lt"). */
static const struct { const char *op, *word; } cmps[] = {
    [CMP_LT] = { "<", "lt" }, [CMP_LE] = { "<=", "le" }, [CMP_GT] = { ">", "gt" },
    [CMP_GE] = { ">=", "ge" }, [CMP_EQ] = { "==", "eq" }, [CMP_WITHIN] = { "within", "within" },
};

const char *ast_cmp_name(enum ast_cmp c)
{
    return (unsigned)c < sizeof cmps / sizeof cmps[0] ? cmps[c].op : "?";
}

const char *ast_cmp_word(enum ast_cmp c)
{
    return (unsigned)c < sizeof cmps / sizeof cmps[0] ? cmps[c].word : "?";
}

const char *ast_ptype_name(enum ast_ptype t)
{
    static const char *const n[] = { "int", "real", "enum", "bool", "string" };
    return (unsigned)t < sizeof n / sizeof n[0] ? n[t] : "?";
}

const struct ast_tr *ast_text_get(const struct ast_text *t, const char *lang)
{
    if (!t || !t->trs.n) return NULL;
    if (lang)
        for (size_t i = 0; i < t->trs.n; i++)
            if (t->trs.items[i].lang && !strcmp(t->trs.items[i].lang, lang)) return &t->trs.items[i];
    for (size_t i = 0; i < t->trs.n; i++)
        if (!t->trs.items[i].lang) return &t->trs.items[i];
    return &t->trs.items[0];
}
