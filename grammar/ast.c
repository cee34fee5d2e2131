/*
 * ast.c — constructors, destructors and names for the syntax tree.
 * A tree's nodes are its arena's, so a tree goes with one ast_file_free;
 * a lab manifest is a heap copy with a destructor of its own.
 */
#include "ast.h"
#include "keywords.h"
#include "quiz.tab.h"

#include <string.h>

void md_doc_clear(struct md_doc *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->kept; i++)
        VEC_FREE(d->blocks.items[i].spans);
    VEC_FREE(d->blocks);
    free(d->pool);
    *d = (struct md_doc){ 0 };
}

/* Bytes kept before a block's text: its location. */
static size_t text_head(bool neutral)
{
    return neutral ? 0 : sizeof(struct src_loc);
}

struct ast_text *ast_text_alloc(struct arena *a, bool neutral, size_t n, const struct src_loc *loc)
{
    size_t head = text_head(neutral);
    size_t size = head + sizeof(struct ast_text) + n * sizeof(struct ast_tr);
    unsigned char *p = a ? arena_alloc(a, size) : xcalloc(1, size);
    struct ast_text *t = (struct ast_text *)(void *)(p + head);
    t->n = (uint32_t)n;
    t->neutral = neutral;
    if (!neutral) *(struct src_loc *)(void *)p = *loc;
    return t;
}

struct src_loc ast_choice_loc(const struct ast_choice *c)
{
    size_t len = strlen(kw_of(c->correct ? T_CORRECT : T_WRONG)->word);
    return (struct src_loc){ .from = c->kw_at, .to = c->kw_at + (uint32_t)len };
}

const struct ast_numeric ast_no_numeric;
const struct ast_qextra ast_no_extra = { .points = 1 };

struct src_loc ast_question_loc(const struct ast_question *q)
{
    return (struct src_loc){ .from = q->kw_at, .to = q->kw_at + (uint32_t)strlen(ast_qkind_name(q->kind)) };
}

struct src_loc ast_question_id_loc(const struct ast_question *q)
{
    return (struct src_loc){ .from = q->id_at, .to = q->id_at + (uint32_t)strlen(q->id) };
}

struct src_loc ast_answer_loc(const struct ast_question *q)
{
    if (!q->has_answer)
        return (struct src_loc){ 0 };
    return (struct src_loc){ .from = q->answer_at, .to = q->answer_at + (uint32_t)strlen(kw_of(T_ANSWER)->word) };
}

struct ast_question *ast_question_new(struct arena *a, enum ast_qkind kind)
{
    struct ast_question *q = arena_alloc(a, sizeof *q);
    q->kind = kind;
    q->extra = &ast_no_extra;
    q->numeric = kind == Q_NUMERIC ? arena_alloc(a, sizeof *q->numeric) : &ast_no_numeric;
    return q;
}

struct ast_quiz *ast_quiz_new(struct arena *a)
{
    struct ast_quiz *q = arena_alloc(a, sizeof *q);
    q->feedback = FEEDBACK_IMMEDIATE;
    q->shuffle = SHUFFLE_NONE;
    q->passing = 80;
    return q;
}

static char *heap_str(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

struct ast_text *ast_text_heap_copy(const struct ast_text *t)
{
    if (!t) return NULL;
    struct ast_text *c = ast_text_alloc(NULL, t->neutral, t->n, ast_text_loc(t));
    for (size_t i = 0; i < t->n; i++) {
        c->trs[i] = t->trs[i];
        c->trs[i].lang = heap_str(t->trs[i].lang);
        c->trs[i].raw = heap_str(t->trs[i].raw);
    }
    return c;
}

static void text_heap_free(struct ast_text *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->trs[i].lang);
        free(t->trs[i].raw);
    }
    free((unsigned char *)t - text_head(t->neutral));
}

struct ast_labdef *ast_labdef_new(void)
{
    return xcalloc(1, sizeof(struct ast_labdef));
}

void ast_labdef_free(struct ast_labdef *l)
{
    if (!l) return;
    free(l->name);
    text_heap_free(l->title);
    text_heap_free(l->summary);
    for (size_t i = 0; i < l->params.n; i++) {
        struct ast_param *p = &l->params.items[i];
        free(p->name);
        free(p->def.str);
        for (size_t k = 0; k < p->choices.n; k++) free(p->choices.items[k]);
        VEC_FREE(p->choices);
        text_heap_free(p->help);
        free(p->alias);
    }
    VEC_FREE(l->params);
    for (size_t i = 0; i < l->metrics.n; i++) {
        free(l->metrics.items[i].name);
        text_heap_free(l->metrics.items[i].help);
        free(l->metrics.items[i].unit);
    }
    VEC_FREE(l->metrics);
    free(l->dir);
    free(l);
}

struct ast_file *ast_file_new(const struct source *src)
{
    struct ast_file *f = xcalloc(1, sizeof *f);
    f->arena = arena_new();
    f->src = src;
    return f;
}

/* What later passes attached to the tree: snippets' code and files, included trees. */
void ast_file_free(struct ast_file *f)
{
    if (!f) return;
    ast_labdef_free(f->lab);
    for (size_t i = 0; i < f->questions.n; i++) {
        const struct ast_qextra *x = f->questions.items[i]->extra;
        for (size_t k = 0; k < x->snippets.n; k++) {
            free(x->snippets.items[k].code);
            free(x->snippets.items[k].file);
        }
    }
    for (size_t i = 0; i < f->includes.n; i++)
        ast_file_free(f->includes.items[i]->file);
    VEC_FREE(f->questions);
    VEC_FREE(f->includes);
    arena_free(f->arena);
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

const char *const ast_scoring_words[] = { "partial", "all-or-nothing", NULL };

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
    if (!t || !t->n) return NULL;
    if (lang)
        for (size_t i = 0; i < t->n; i++)
            if (t->trs[i].lang && !strcmp(t->trs[i].lang, lang)) return &t->trs[i];
    for (size_t i = 0; i < t->n; i++)
        if (!t->trs[i].lang) return &t->trs[i];
    return &t->trs[0];
}
