/*
 * build.c — the grammar actions of quiz.y: each builds one piece of the tree
 * and reports what the grammar alone cannot see (a statement given twice, a
 * statement the question's kind has no use for, a header value that is not
 * one of its words, a lab parameter whose default is outside its range).
 *
 * Every builder takes ownership of the strings, values and texts passed in.
 * Semantic checks that need the whole course (one correct choice, declared
 * languages, duplicate ids) belong to the compiler's checks, not here.
 */
#include <math.h>
#include <string.h>

#include "parse.h"

#define HERE(loc) ((loc) ? *(loc) : (struct src_loc){ 0 })

const char *b_suggest(const char *word, const char *const *cands)
{
    const char *best = NULL;
    int bestd = 3;
    int wlen = (int)strlen(word);
    for (size_t i = 0; cands[i]; i++) {
        int dist = edit_distance(word, cands[i]);
        if (dist < bestd && dist < wlen) { bestd = dist; best = cands[i]; }
    }
    return best;
}

char *b_loc_text(struct qz_parser *p, const struct src_loc *loc)
{
    /* Keywords are ASCII on one line: their length is their width. */
    return xstrndup(p->src->text + loc->off, (size_t)(loc->end_col - loc->col + 1));
}

/* ---- File structure ------------------------------------------------------ */

/* The first quiz, lab or top-level question decides what the file is; report what does not fit. */
void b_top_item(struct qz_parser *p, const char *what, const struct src_loc *at)
{
    if (!strcmp(what, "quiz")) {
        if (p->has_quiz) {
            diag_error(p->d, at, "a file holds one quiz; this is a second");
            diag_note(p->d, &p->first_quiz, "the first quiz is here");
        } else if (p->has_lab) {
            diag_error(p->d, at, "a quiz cannot share a file with a lab manifest");
            diag_note(p->d, &p->first_lab, "the lab manifest is here");
        } else if (p->has_question) {
            diag_error(p->d, at, "a quiz file holds its questions inside the quiz block");
            diag_note(p->d, &p->first_question, "this question stands outside it");
        }
        if (!p->has_quiz) p->first_quiz = *at;
        p->has_quiz = true;
    } else if (!strcmp(what, "lab")) {
        if (p->has_lab) {
            diag_error(p->d, at, "a file holds one lab manifest; this is a second");
            diag_note(p->d, &p->first_lab, "the first lab manifest is here");
        } else if (p->has_quiz || p->has_question) {
            diag_error(p->d, at, "a lab manifest stands alone in its file");
            diag_note(p->d, p->has_quiz ? &p->first_quiz : &p->first_question, "this file also holds a %s",
                      p->has_quiz ? "quiz" : "question");
        }
        if (!p->has_lab) p->first_lab = *at;
        p->has_lab = true;
    } else {
        if (p->has_quiz) {
            /* Once: after a stray '}' every later question is outside, for one mistake. */
            if (!p->outside_reported) {
                diag_error(p->d, at, "this %s stands outside the quiz block", what);
                if (p->quiz_end.line)
                    diag_note(p->d, &p->quiz_end, "the quiz block ends here");
                else
                    diag_note(p->d, &p->first_quiz, "the quiz is here");
            }
            p->outside_reported = true;
        } else if (p->has_lab) {
            diag_error(p->d, at, "a lab manifest holds no %ss", what);
            diag_note(p->d, &p->first_lab, "the lab manifest is here");
        }
        if (!p->has_question) p->first_question = *at;
        p->has_question = true;
    }
}

/* quizhead: QUIZ name '{' */
void b_top_quiz_open(struct qz_parser *p, const struct src_loc *kw, char *name, const struct src_loc *name_loc)
{
    b_top_item(p, "quiz", kw);
    struct ast_quiz *q = ast_quiz_new();
    q->id = name;
    q->loc = *kw;
    q->id_loc = *name_loc;
    if (!p->file->quiz) p->file->quiz = q;
    p->quiz = q;
    memset(p->hdr_has, 0, sizeof p->hdr_has);
    p->skip_langs = false;
}

/* quiz: quizhead qitems '}' */
void b_top_quiz_close(struct qz_parser *p, const struct src_loc *end)
{
    if (p->quiz == p->file->quiz) p->quiz_end = *end;
    if (p->quiz && p->quiz != p->file->quiz) ast_quiz_free(p->quiz);  /* a second quiz, already reported */
    p->quiz = NULL;
}

/* qhead: qkind name '{' — the question joins the file's items now, so they stay in source order. */
void b_question_open(struct qz_parser *p, int kind, const struct src_loc *kw, char *name,
                     const struct src_loc *name_loc)
{
    if (!p->quiz) b_top_item(p, "question", kw);
    struct ast_question *q = ast_question_new((enum ast_qkind)kind);
    q->id = name;
    q->loc = *kw;
    q->id_loc = *name_loc;
    struct ast_item it = { .question = q };
    VEC_PUSH(p->file->items, it);
    p->q = q;
    memset(p->q_has, 0, sizeof p->q_has);
}

/* question: qhead qstmts '}' */
void b_question_close(struct qz_parser *p)
{
    p->q = NULL;
}

/* include: INCLUDE STRING */
void b_include(struct qz_parser *p, const struct src_loc *kw, char *path, const struct src_loc *loc)
{
    if (!p->quiz) b_top_item(p, "include", kw);
    struct ast_include *inc = xcalloc(1, sizeof *inc);
    inc->path = path;
    inc->loc = loc_span(kw, loc);
    struct ast_item it = { .include = inc };
    VEC_PUSH(p->file->items, it);
}

/* ---- Quiz headers --------------------------------------------------------- */

/* Tagged HDR_: in the order of enum q_hdr. */
static const char *const hdr_name[HDR_N] = {
    "title", "languages", "intro", "feedback", "shuffle", "passing",
};

/* A header statement given for the first time?  Otherwise report it with its first place. */
static bool hdr_once(struct qz_parser *p, enum q_hdr h, const struct src_loc *kw)
{
    if (p->hdr_has[h]) {
        diag_error(p->d, kw, "'%s' is given twice in quiz '%s'", hdr_name[h], p->quiz->id);
        diag_note(p->d, &p->hdr_loc[h], "the first '%s' is here", hdr_name[h]);
        return false;
    }
    p->hdr_has[h] = true;
    p->hdr_loc[h] = *kw;
    return true;
}

/* header: TITLE text | INTRO text */
void b_hdr_text(struct qz_parser *p, enum q_hdr h, const struct src_loc *kw, struct ast_text *t)
{
    if (!hdr_once(p, h, kw)) { ast_text_free(t); return; }
    if (h == HDR_TITLE) p->quiz->title = t;
    else p->quiz->intro = t;
}

/* langhead: LANGUAGES */
void b_hdr_languages(struct qz_parser *p, const struct src_loc *kw)
{
    p->skip_langs = !hdr_once(p, HDR_LANGUAGES, kw);
    if (!p->skip_langs) p->quiz->langs_loc = *kw;
}

/* langs: name | langs ',' name */
void b_hdr_lang(struct qz_parser *p, char *tag, const struct src_loc *loc)
{
    if (p->skip_langs) { free(tag); return; }
    struct ast_lang l = { .tag = tag, .loc = *loc };
    VEC_PUSH(p->quiz->langs, l);
}

/* The index of word in words (NULL-terminated), or -1 after reporting it with a suggestion. */
static int header_word(struct qz_parser *p, const char *what, const char *word, const struct src_loc *loc,
                       const char *const *words, const char *choices)
{
    for (int i = 0; words[i]; i++)
        if (!strcmp(word, words[i])) return i;
    const char *hint = b_suggest(word, words);
    if (hint)
        diag_error(p->d, loc, "unknown %s '%s'; did you mean '%s'?", what, word, hint);
    else
        diag_error(p->d, loc, "unknown %s '%s' (one of %s)", what, word, choices);
    return -1;
}

/* header: FEEDBACK name */
void b_hdr_feedback(struct qz_parser *p, const struct src_loc *kw, char *word, const struct src_loc *loc)
{
    static const char *const words[] = { "immediate", "on-submit", "never", NULL };
    if (hdr_once(p, HDR_FEEDBACK, kw)) {
        int i = header_word(p, "feedback", word, loc, words, "immediate, on-submit, never");
        if (i >= 0) p->quiz->feedback = (enum ast_feedback)i;
    }
    free(word);
}

/* header: SHUFFLE name */
void b_hdr_shuffle(struct qz_parser *p, const struct src_loc *kw, char *word, const struct src_loc *loc)
{
    static const char *const words[] = { "none", "choices", "questions", "all", NULL };
    if (hdr_once(p, HDR_SHUFFLE, kw)) {
        int i = header_word(p, "shuffle", word, loc, words, "none, choices, questions, all");
        if (i >= 0) p->quiz->shuffle = (enum ast_shuffle)i;
    }
    free(word);
}

/* header: PASSING NUMBER — a percentage, written with or without '%'. */
void b_hdr_passing(struct qz_parser *p, const struct src_loc *kw, struct ast_value *v)
{
    if (hdr_once(p, HDR_PASSING, kw)) {
        p->quiz->passing = v->num;
        p->quiz->passing_loc = v->loc;
        p->quiz->has_passing = true;
    }
    b_value_free(v);
}

/* ---- Text ---------------------------------------------------------------- */

static struct ast_tr make_tr(char *lang, char *raw, const struct src_loc *loc)
{
    struct ast_tr tr = { .lang = lang, .raw = raw, .loc = *loc };
    md_parse(raw, &tr.doc);
    return tr;
}

/* text: STRING */
struct ast_text *b_text_string(struct qz_parser *p, char *s, const struct src_loc *loc)
{
    (void)p;
    struct ast_text *t = ast_text_new();
    t->neutral = true;
    t->loc = *loc;
    VEC_PUSH(t->trs, make_tr(NULL, s, loc));
    return t;
}

/* trs: trs IDENT ':' STRING */
struct ast_text *b_text_block_add(struct qz_parser *p, struct ast_text *t, char *tag,
                                  const struct src_loc *tag_loc, char *s, const struct src_loc *loc)
{
    (void)p;
    struct src_loc span = loc_span(tag_loc, loc);
    VEC_PUSH(t->trs, make_tr(tag, s, &span));
    return t;
}

/* text: '{' trs '}' */
struct ast_text *b_text_block_end(struct qz_parser *p, struct ast_text *t, const struct src_loc *loc)
{
    t->loc = *loc;
    if (!t->trs.n)
        diag_error(p->d, loc, "an empty language block (write `{ en: \"...\" }` or a single string)");
    return t;
}

/* ---- Question statements ------------------------------------------------- */

/* Tagged ONCE_: in the order of enum q_once. */
static const char *const once_name[ONCE_N] = { "prompt", "explain", "points", "answer", "unit" };

static bool q_once(struct qz_parser *p, enum q_once w, const struct src_loc *kw)
{
    if (p->q_has[w]) {
        diag_error(p->d, kw, "'%s' is given twice in %s question '%s'", once_name[w],
                   ast_qkind_name(p->q->kind), p->q->id);
        diag_note(p->d, &p->q_once[w], "the first '%s' is here", once_name[w]);
        return false;
    }
    p->q_has[w] = true;
    p->q_once[w] = *kw;
    return true;
}

/* Does the question's kind take this statement?  Otherwise say which kinds do. */
static bool q_takes(struct qz_parser *p, const char *stmt, const struct src_loc *kw)
{
    enum ast_qkind k = p->q->kind;
    const char *owners = NULL;
    if (!strcmp(stmt, "wrong") || !strcmp(stmt, "correct")) {
        if (k == Q_SINGLE || k == Q_MULTIPLE) return true;
        owners = "choices belong to single and multiple questions";
    } else if (!strcmp(stmt, "answer")) {
        if (k == Q_TRUEFALSE || k == Q_NUMERIC) return true;
        owners = "an answer belongs to truefalse and numeric questions";
    } else if (!strcmp(stmt, "unit")) {
        if (k == Q_NUMERIC) return true;
        owners = "a unit belongs to numeric questions";
    } else if (!strcmp(stmt, "accept")) {
        if (k == Q_TEXT) return true;
        owners = "accepted answers belong to text questions";
    } else {
        return true;
    }
    diag_error(p->d, kw, "'%s' cannot appear in %s question '%s' (%s)", stmt, ast_qkind_name(k), p->q->id,
               owners);
    return false;
}

/* qstmt: PROMPT text */
void b_q_prompt(struct qz_parser *p, const struct src_loc *kw, struct ast_text *t)
{
    if (q_once(p, ONCE_PROMPT, kw)) p->q->prompt = t;
    else ast_text_free(t);
}

/* qstmt: EXPLAIN text */
void b_q_explain(struct qz_parser *p, const struct src_loc *kw, struct ast_text *t)
{
    if (q_once(p, ONCE_EXPLAIN, kw)) p->q->explain = t;
    else ast_text_free(t);
}

/* qstmt: UNIT text */
void b_q_unit(struct qz_parser *p, const struct src_loc *kw, struct ast_text *t)
{
    if (q_takes(p, "unit", kw) && q_once(p, ONCE_UNIT, kw)) p->q->unit = t;
    else ast_text_free(t);
}

/* qstmt: WRONG text [BECAUSE text] | CORRECT text [BECAUSE text] */
void b_q_choice(struct qz_parser *p, bool correct, const struct src_loc *kw, struct ast_text *t,
                struct ast_text *because)
{
    if (!q_takes(p, correct ? "correct" : "wrong", kw)) {
        ast_text_free(t);
        ast_text_free(because);
        return;
    }
    struct ast_choice c = { .correct = correct, .text = t, .because = because, .loc = *kw };
    VEC_PUSH(p->q->choices, c);
}

/* qstmt: POINTS NUMBER */
void b_q_points(struct qz_parser *p, const struct src_loc *kw, struct ast_value *v)
{
    if (q_once(p, ONCE_POINTS, kw)) {
        p->q->points = v->num;
        p->q->points_loc = v->loc;
    }
    b_value_free(v);
}

/* qstmt: ANSWER name — true or false */
void b_q_answer_word(struct qz_parser *p, const struct src_loc *kw, char *word, const struct src_loc *loc)
{
    if (q_takes(p, "answer", kw) && q_once(p, ONCE_ANSWER, kw)) {
        if (p->q->kind == Q_NUMERIC)
            diag_error(p->d, loc, "a numeric answer is a number (42, 0.27 within 0.01, 0.26..0.29), not '%s'",
                       word);
        else if (strcmp(word, "true") && strcmp(word, "false"))
            diag_error(p->d, loc, "a truefalse answer is true or false, not '%s'", word);
        else {
            p->q->tf_answer = !strcmp(word, "true");
            p->q->has_answer = true;
            p->q->answer_loc = *kw;
        }
    }
    free(word);
}

static bool numeric_answer(struct qz_parser *p, const struct src_loc *kw, const struct src_loc *at)
{
    if (!q_takes(p, "answer", kw) || !q_once(p, ONCE_ANSWER, kw)) return false;
    if (p->q->kind != Q_NUMERIC) {
        diag_error(p->d, at, "a truefalse answer is true or false, not a number");
        return false;
    }
    p->q->has_answer = true;
    p->q->answer_loc = *kw;
    return true;
}

/* qstmt: ANSWER NUMBER [WITHIN NUMBER] */
void b_q_answer_num(struct qz_parser *p, const struct src_loc *kw, struct ast_value *v, struct ast_value *tol)
{
    if (numeric_answer(p, kw, &v->loc)) {
        struct ast_numeric *n = &p->q->numeric;
        n->kind = tol ? NUM_TOLERANCE : NUM_EXACT;
        n->value = *v;
        if (tol) n->tolerance = *tol;
        free(v);
        free(tol);
        return;
    }
    b_value_free(v);
    b_value_free(tol);
}

/* qstmt: ANSWER NUMBER DOTDOT NUMBER */
void b_q_answer_range(struct qz_parser *p, const struct src_loc *kw, struct ast_value *lo, struct ast_value *hi)
{
    if (numeric_answer(p, kw, &lo->loc)) {
        p->q->numeric.kind = NUM_RANGE;
        p->q->numeric.lo = *lo;
        p->q->numeric.hi = *hi;
        free(lo);
        free(hi);
        return;
    }
    b_value_free(lo);
    b_value_free(hi);
}

/* accepthead: ACCEPT */
void b_q_accept_start(struct qz_parser *p, const struct src_loc *kw)
{
    p->accept_ok = q_takes(p, "accept", kw);
}

/* accepts: STRING | accepts ',' STRING */
void b_q_accept(struct qz_parser *p, char *s, const struct src_loc *loc)
{
    if (!p->accept_ok) { free(s); return; }
    VEC_PUSH(p->q->accept, make_tr(NULL, s, loc));
}

/* labhead: LAB name */
void b_q_lab(struct qz_parser *p, const struct src_loc *kw, char *name, const struct src_loc *name_loc)
{
    struct ast_labref r = { .name = name, .name_loc = *name_loc, .loc = *kw };
    VEC_PUSH(p->q->labs, r);
}

/* qstmt: labhead labargs */
void b_q_lab_end(struct qz_parser *p, const struct src_loc *loc)
{
    p->q->labs.items[p->q->labs.n - 1].loc = *loc;
}

/* arg: name '=' value */
void b_q_lab_arg(struct qz_parser *p, char *name, const struct src_loc *loc, struct ast_value *v)
{
    struct ast_labref *r = &p->q->labs.items[p->q->labs.n - 1];
    for (size_t i = 0; i < r->args.n; i++)
        if (!strcmp(r->args.items[i].name, name)) {
            diag_error(p->d, loc, "parameter '%s' is given twice to lab '%s'", name, r->name);
            diag_note(p->d, &r->args.items[i].loc, "the first '%s' is here", name);
            free(name);
            b_value_free(v);
            return;
        }
    struct ast_arg a = { .name = name, .value = *v, .loc = *loc };
    free(v);
    VEC_PUSH(r->args, a);
}

/* The lab an expect belongs to: the question's latest. */
static struct ast_labref *expect_lab(struct qz_parser *p, const struct src_loc *stmt)
{
    if (p->q->labs.n) return &p->q->labs.items[p->q->labs.n - 1];
    diag_error(p->d, stmt, "'expect' must follow a 'lab' in the same question");
    return NULL;
}

/* qstmt: EXPECT name cmp value */
void b_q_expect(struct qz_parser *p, const struct src_loc *stmt, char *metric, const struct src_loc *mloc,
                int op, struct ast_value *v)
{
    struct ast_labref *r = expect_lab(p, stmt);
    if (!r) { free(metric); b_value_free(v); return; }
    struct ast_expect e = { .metric = metric, .metric_loc = *mloc, .op = (enum ast_cmp)op,
                            .value = *v, .loc = *stmt };
    free(v);
    VEC_PUSH(r->expects, e);
}

/* qstmt: EXPECT name WITHIN value OF value — `of answer` compares with the question's answer key. */
void b_q_expect_within(struct qz_parser *p, const struct src_loc *stmt, char *metric,
                       const struct src_loc *mloc, struct ast_value *tol, struct ast_value *v)
{
    struct ast_labref *r = expect_lab(p, stmt);
    if (!r) { free(metric); b_value_free(tol); b_value_free(v); return; }
    struct ast_expect e = { .metric = metric, .metric_loc = *mloc, .op = CMP_WITHIN,
                            .tolerance = *tol, .loc = *stmt };
    if (v->kind == VAL_IDENT && !strcmp(v->str, "answer")) {
        e.of_answer = true;
        e.value.loc = v->loc;
        b_value_free(v);
    } else {
        e.value = *v;
        free(v);
    }
    free(tol);
    VEC_PUSH(r->expects, e);
}

/* qstmt: SNIPPET name ':' name */
void b_q_snippet(struct qz_parser *p, const struct src_loc *stmt, char *lab, char *region)
{
    struct ast_snippet s = { .lab = lab, .region = region, .loc = *stmt };
    VEC_PUSH(p->q->snippets, s);
}

/* ---- Values -------------------------------------------------------------- */

/* value: name — true and false are booleans, any other word an identifier. */
struct ast_value *b_value_name(struct qz_parser *p, char *s, const struct src_loc *loc)
{
    (void)p;
    struct ast_value *v = xcalloc(1, sizeof *v);
    v->str = s;
    v->loc = *loc;
    if (!strcmp(s, "true") || !strcmp(s, "false")) {
        v->kind = VAL_BOOL;
        v->boolean = s[0] == 't';
    } else {
        v->kind = VAL_IDENT;
    }
    return v;
}

/* value: STRING */
struct ast_value *b_value_string(struct qz_parser *p, char *s, const struct src_loc *loc)
{
    (void)p;
    struct ast_value *v = xcalloc(1, sizeof *v);
    v->kind = VAL_STRING;
    v->str = s;
    v->loc = *loc;
    return v;
}

void b_value_free(struct ast_value *v)
{
    if (!v) return;
    ast_value_clear(v);
    free(v);
}
