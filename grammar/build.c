/*
 * build.c — the grammar actions of quiz.y: each builds one piece of the tree
 * and reports what the grammar alone cannot see (a statement given twice, a
 * statement the question's kind has no use for, a header value that is not
 * one of its words, a lab parameter whose default is outside its range).
 *
 * The strings, values and texts passed in are the tree's arena's (or the
 * source's: lex.h), so a builder keeps or drops them without freeing; only a
 * lab manifest copies what it keeps (build_lab.c).  Semantic checks that need the whole course (one correct choice, declared
 * languages, duplicate ids) belong to the compiler's checks, not here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "quiz.tab.h"

void b_init(struct build_state *b, struct diag *d, const struct source *src)
{
    *b = (struct build_state){ .d = d, .src = src, .file = ast_file_new(src) };
}

/* The question's choices, gathered on the heap, go to the arena at their final size. */
static void q_flush(struct build_state *b)
{
    if (!b->q || !b->choices.n) return;
    size_t bytes = b->choices.n * sizeof *b->choices.items;
    b->q->choices.items = memcpy(arena_alloc(b->file->arena, bytes), b->choices.items, bytes);
    b->q->choices.n = b->q->choices.cap = b->choices.n;
    b->choices.n = 0;
}

struct ast_file *b_finish(struct build_state *b)
{
    q_flush(b);
    VEC_FREE(b->choices);
    VEC_FREE(b->trs);
    /* Blocks left open by an abandoned parse. */
    if (b->lab && b->lab != b->file->lab) ast_labdef_free(b->lab);
    b->quiz = NULL;
    b->lab = NULL;
    b->range_lo = b->range_hi = NULL;
    return b->file;
}

char *b_loc_text(struct build_state *b, const struct src_loc *loc)
{
    return (char *)intern_name(b->names, b->src->text + src_off(b->src, loc->from), (size_t)(loc->to - loc->from));
}

/* Is s keyword tok's spelling (a keyword that came as a name: `answer true`, `of answer`)? */
static bool is_word(const char *s, int tok)
{
    return !strcmp(s, kw_of(tok)->word);
}

/* The block's record of once-only statements. */
static struct kw_seen *seen_in(struct build_state *b, enum kw_place block)
{
    return block == KWB_QUIZ ? &b->quiz_seen : block == KWB_LAB ? &b->lab_seen : &b->q_seen;
}

bool b_once(struct build_state *b, enum kw_place block, int tok, const struct src_loc *kw)
{
    const struct kw *k = kw_of(tok);
    if (!(k->once & KW_AT(block))) return true;
    struct kw_seen *seen = seen_in(b, block);
    int i = kw_index(k);
    if (seen->has[i]) {
        if (block == KWB_QUIZ)
            diag_error(b->d, kw, "'%s' is given twice in quiz '%s'", k->word, b->quiz->id);
        else if (block == KWB_LAB)
            diag_error(b->d, kw, "'%s' is given twice in lab '%s'", k->word, b->lab->name);
        else
            diag_error(b->d, kw, "'%s' is given twice in %s question '%s'", k->word, ast_qkind_name(b->q->kind),
                       b->q->id);
        diag_note(b->d, &seen->at[i], "the first '%s' is here", k->word);
        return false;
    }
    seen->has[i] = true;
    seen->at[i] = *kw;
    return true;
}

/* ---- File structure ------------------------------------------------------ */

/* The first quiz, lab or top-level question decides what the file is; report what does not fit. */
void b_top_item(struct build_state *b, const char *what, const struct src_loc *at)
{
    if (!strcmp(what, "quiz")) {
        if (b->has_quiz) {
            diag_error(b->d, at, "a file holds one quiz; this is a second");
            diag_note(b->d, &b->first_quiz, "the first quiz is here");
        } else if (b->has_lab) {
            diag_error(b->d, at, "a quiz cannot share a file with a lab manifest");
            diag_note(b->d, &b->first_lab, "the lab manifest is here");
        } else if (b->has_question) {
            diag_error(b->d, at, "a quiz file holds its questions inside the quiz block");
            diag_note(b->d, &b->first_question, "this question stands outside it");
        }
        if (!b->has_quiz) b->first_quiz = *at;
        b->has_quiz = true;
    } else if (!strcmp(what, "lab")) {
        if (b->has_lab) {
            diag_error(b->d, at, "a file holds one lab manifest; this is a second");
            diag_note(b->d, &b->first_lab, "the first lab manifest is here");
        } else if (b->has_quiz || b->has_question) {
            diag_error(b->d, at, "a lab manifest stands alone in its file");
            diag_note(b->d, b->has_quiz ? &b->first_quiz : &b->first_question, "this file also holds a %s",
                      b->has_quiz ? "quiz" : "question");
        }
        if (!b->has_lab) b->first_lab = *at;
        b->has_lab = true;
    } else {
        if (b->has_quiz) {
            /* Once: after a stray '}' every later question is outside, for one mistake. */
            if (!b->outside_reported) {
                diag_error(b->d, at, "this %s stands outside the quiz block", what);
                if (loc_known(&b->quiz_end))
                    diag_note(b->d, &b->quiz_end, "the quiz block ends here");
                else
                    diag_note(b->d, &b->first_quiz, "the quiz is here");
            }
            b->outside_reported = true;
        } else if (b->has_lab) {
            diag_error(b->d, at, "a lab manifest holds no %ss", what);
            diag_note(b->d, &b->first_lab, "the lab manifest is here");
        }
        if (!b->has_question) b->first_question = *at;
        b->has_question = true;
    }
}

/* quizhead: QUIZ name '{' */
void b_top_quiz_open(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc)
{
    b_top_item(b, "quiz", kw);
    struct ast_quiz *q = ast_quiz_new(b->file->arena);
    q->id = name;
    q->loc = *kw;
    q->id_loc = *name_loc;
    if (!b->file->quiz) b->file->quiz = q;
    b->quiz = q;
    memset(b->quiz_seen.has, 0, sizeof b->quiz_seen.has);
    b->skip_langs = false;
}

/* quiz: quizhead qitems '}' */
void b_top_quiz_close(struct build_state *b, const struct src_loc *end)
{
    if (b->quiz == b->file->quiz) b->quiz_end = *end;
    b->quiz = NULL;
}

/* qhead: qkind name '{' — the question joins the file's items now, so they stay in source order. */
void b_question_open(struct build_state *b, int kind, const struct src_loc *kw, char *name,
                     const struct src_loc *name_loc)
{
    if (!b->quiz) b_top_item(b, "question", kw);
    q_flush(b);
    struct ast_question *q = ast_question_new(b->file->arena, (enum ast_qkind)kind);
    q->id = name;
    q->kw_at = kw->from;
    q->id_at = name_loc->from;
    VEC_PUSH(b->file->questions, q);
    b->q = q;
    memset(b->q_seen.has, 0, sizeof b->q_seen.has);
}

/* question: qhead qstmts '}' */
void b_question_close(struct build_state *b)
{
    q_flush(b);
    b->q = NULL;
}

/* include: INCLUDE STRING */
void b_include(struct build_state *b, const struct src_loc *kw, char *path, const struct src_loc *loc)
{
    if (!b->quiz) b_top_item(b, "include", kw);
    struct ast_include *inc = arena_alloc(b->file->arena, sizeof *inc);
    inc->path = path;
    inc->loc = loc_span(kw, loc);
    inc->before = (uint32_t)b->file->questions.n;
    VEC_PUSH(b->file->includes, inc);
}

/* ---- Quiz headers --------------------------------------------------------- */

/* header: TITLE text | INTRO text */
void b_hdr_text(struct build_state *b, int tok, const struct src_loc *kw, struct ast_text *t)
{
    if (!b_once(b, KWB_QUIZ, tok, kw)) return;
    if (tok == T_TITLE) b->quiz->title = t;
    else b->quiz->intro = t;
}

/* langhead: LANGUAGES */
void b_hdr_languages(struct build_state *b, const struct src_loc *kw)
{
    b->skip_langs = !b_once(b, KWB_QUIZ, T_LANGUAGES, kw);
    if (!b->skip_langs) b->quiz->langs_loc = *kw;
}

/* langs: name | langs ',' name */
void b_hdr_lang(struct build_state *b, char *tag, const struct src_loc *loc)
{
    if (b->skip_langs) return;
    struct ast_lang l = { .tag = tag, .loc = *loc };
    AVEC_PUSH(b->file->arena, b->quiz->langs, l);
}

/* The index of word in words (NULL-terminated), or -1 after reporting it with a suggestion. */
static int header_word(struct build_state *b, const char *what, const char *word, const struct src_loc *loc,
                       const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (!strcmp(word, words[i])) return i;
    const char *hint = closest_word(word, words);
    if (hint) {
        diag_error(b->d, loc, "unknown %s '%s'; did you mean '%s'?", what, word, hint);
        return -1;
    }
    char choices[128] = "";
    for (int i = 0; words[i]; i++)
        snprintf(choices + strlen(choices), sizeof choices - strlen(choices), "%s%s", i ? ", " : "", words[i]);
    diag_error(b->d, loc, "unknown %s '%s' (one of %s)", what, word, choices);
    return -1;
}

/* header: FEEDBACK name */
void b_hdr_feedback(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc)
{
    if (b_once(b, KWB_QUIZ, T_FEEDBACK, kw)) {
        int i = header_word(b, "feedback", word, loc, ast_feedback_words);
        if (i >= 0) b->quiz->feedback = (enum ast_feedback)i;
    }
}

/* header: SHUFFLE name */
void b_hdr_shuffle(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc)
{
    if (b_once(b, KWB_QUIZ, T_SHUFFLE, kw)) {
        int i = header_word(b, "shuffle", word, loc, ast_shuffle_words);
        if (i >= 0) b->quiz->shuffle = (enum ast_shuffle)i;
    }
}

/* header: SCORING name — the rule of every multiple question that gives none. */
void b_hdr_scoring(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc)
{
    if (b_once(b, KWB_QUIZ, T_SCORING, kw)) {
        int i = header_word(b, "scoring rule", word, loc, ast_scoring_words);
        if (i >= 0) {
            b->quiz->scoring = (enum ast_scoring)(i + 1);
            b->quiz->scoring_loc = *kw;
        }
    }
}

/* header: PASSING NUMBER — a percentage, written with or without '%'. */
void b_hdr_passing(struct build_state *b, const struct src_loc *kw, struct ast_value *v)
{
    if (b_once(b, KWB_QUIZ, T_PASSING, kw)) {
        b->quiz->passing = v->num;
        b->quiz->passing_loc = v->loc;
        b->quiz->has_passing = true;
    }
}

/* ---- Text ---------------------------------------------------------------- */

static struct ast_tr make_tr(char *lang, char *raw, const struct src_loc *loc)
{
    return (struct ast_tr){ .lang = lang, .raw = raw, .loc = *loc };
}

/* text: STRING */
struct ast_text *b_text_string(struct build_state *b, char *s, const struct src_loc *loc)
{
    struct ast_text *t = ast_text_alloc(b->file->arena, true, 1, NULL);
    t->trs[0] = make_tr(NULL, s, loc);
    return t;
}

/* trs: %empty — a block's strings are gathered on the heap, then go to the arena with their text. */
void b_text_block_start(struct build_state *b)
{
    b->trs.n = 0;
}

/* trs: trs IDENT ':' STRING */
void b_text_block_add(struct build_state *b, char *tag, const struct src_loc *tag_loc, char *s,
                      const struct src_loc *loc)
{
    struct src_loc span = loc_span(tag_loc, loc);
    VEC_PUSH(b->trs, make_tr(tag, s, &span));
}

/* text: '{' trs '}' */
struct ast_text *b_text_block_end(struct build_state *b, const struct src_loc *loc)
{
    struct ast_text *t = ast_text_alloc(b->file->arena, false, b->trs.n, loc);
    if (b->trs.n) memcpy(t->trs, b->trs.items, b->trs.n * sizeof *t->trs);
    else diag_error(b->d, loc, "an empty language block (write `{ en: \"...\" }` or a single string)");
    b->trs.n = 0;
    return t;
}

/* ---- Question statements ------------------------------------------------- */

/* The question's points, labs and snippets, made its own the first time one is given. */
static struct ast_qextra *q_extra(struct build_state *b)
{
    if (b->q->extra == &ast_no_extra) {
        struct ast_qextra *x = arena_alloc(b->file->arena, sizeof *x);
        x->points = ast_no_extra.points;
        b->q->extra = x;
    }
    return (struct ast_qextra *)b->q->extra;
}

/* A statement given once in the question? */
static bool q_once(struct build_state *b, int tok, const struct src_loc *kw)
{
    return b_once(b, KWB_QUESTION(b->q->kind), tok, kw);
}

/* Does the question's kind take this statement?  Otherwise say which kinds do. */
static bool q_takes(struct build_state *b, int tok, const struct src_loc *kw)
{
    const struct kw *k = kw_of(tok);
    if (k->takes & KW_AT(KWB_QUESTION(b->q->kind))) return true;
    char kinds[64];
    kw_kinds(k, kinds, sizeof kinds);
    diag_error(b->d, kw, "'%s' cannot appear in %s question '%s' (%s to %s questions)", k->word,
               ast_qkind_name(b->q->kind), b->q->id, k->owners, kinds);
    return false;
}

/* qstmt: PROMPT text */
void b_q_prompt(struct build_state *b, const struct src_loc *kw, struct ast_text *t)
{
    if (q_once(b, T_PROMPT, kw)) b->q->prompt = t;
}

/* qstmt: EXPLAIN text */
void b_q_explain(struct build_state *b, const struct src_loc *kw, struct ast_text *t)
{
    if (q_once(b, T_EXPLAIN, kw)) b->q->explain = t;
}

/* qstmt: UNIT text */
void b_q_unit(struct build_state *b, const struct src_loc *kw, struct ast_text *t)
{
    if (q_takes(b, T_UNIT, kw) && q_once(b, T_UNIT, kw)) ((struct ast_numeric *)b->q->numeric)->unit = t;    /* Q_NUMERIC: the arena's */
}

/* qstmt: WRONG text [BECAUSE text] | CORRECT text [BECAUSE text] */
void b_q_choice(struct build_state *b, bool correct, const struct src_loc *kw, struct ast_text *t,
                struct ast_text *because)
{
    if (!q_takes(b, correct ? T_CORRECT : T_WRONG, kw)) return;
    struct ast_choice c = { .text = t, .because = because, .kw_at = kw->from, .correct = correct };
    VEC_PUSH(b->choices, c);
}

/* A value node the statement has copied what it needs from: its bytes go to the next node. */
static void drop_value(struct build_state *b, struct ast_value *v)
{
    arena_recycle(b->file->arena, v, sizeof *v);
}

/* qstmt: POINTS NUMBER */
void b_q_points(struct build_state *b, const struct src_loc *kw, struct ast_value *v)
{
    if (q_once(b, T_POINTS, kw)) {
        struct ast_qextra *x = q_extra(b);
        x->points = v->num;
        x->points_loc = v->loc;
    }
    drop_value(b, v);
}

/* qstmt: SCORING name — partial or all-or-nothing (multiple questions) */
void b_q_scoring(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc)
{
    if (q_takes(b, T_SCORING, kw) && q_once(b, T_SCORING, kw)) {
        int i = header_word(b, "scoring rule", word, loc, ast_scoring_words);
        if (i >= 0) {
            struct ast_qextra *x = q_extra(b);
            x->scoring = (enum ast_scoring)(i + 1);
            x->scoring_loc = *kw;
        }
    }
}

/* qstmt: ANSWER name — true or false */
void b_q_answer_word(struct build_state *b, const struct src_loc *kw, char *word, const struct src_loc *loc)
{
    if (q_takes(b, T_ANSWER, kw) && q_once(b, T_ANSWER, kw)) {
        if (b->q->kind == Q_NUMERIC)
            diag_error(b->d, loc, "a numeric answer is a number (42, 0.27 within 0.01, 0.26..0.29), not '%s'",
                       word);
        else if (!is_word(word, T_TRUE) && !is_word(word, T_FALSE))
            diag_error(b->d, loc, "a truefalse answer is true or false, not '%s'", word);
        else {
            b->q->tf_answer = is_word(word, T_TRUE);
            b->q->has_answer = true;
            b->q->answer_at = kw->from;
        }
    }
}

static bool numeric_answer(struct build_state *b, const struct src_loc *kw, const struct src_loc *at)
{
    if (!q_takes(b, T_ANSWER, kw) || !q_once(b, T_ANSWER, kw)) return false;
    if (b->q->kind != Q_NUMERIC) {
        diag_error(b->d, at, "a truefalse answer is true or false, not a number");
        return false;
    }
    b->q->has_answer = true;
    b->q->answer_at = kw->from;
    return true;
}

/* qstmt: ANSWER NUMBER [WITHIN NUMBER] */
void b_q_answer_num(struct build_state *b, const struct src_loc *kw, struct ast_value *v, struct ast_value *tol)
{
    if (numeric_answer(b, kw, &v->loc)) {
        struct ast_numeric *n = (struct ast_numeric *)b->q->numeric;    /* Q_NUMERIC: the arena's, writable */
        n->kind = tol ? NUM_TOLERANCE : NUM_EXACT;
        n->value = *v;
        if (tol) n->tolerance = *tol;
    }
    drop_value(b, v);
    drop_value(b, tol);
}

/* qstmt: ANSWER NUMBER DOTDOT NUMBER */
void b_q_answer_range(struct build_state *b, const struct src_loc *kw, struct ast_value *lo, struct ast_value *hi)
{
    if (numeric_answer(b, kw, &lo->loc)) {
        struct ast_numeric *n = (struct ast_numeric *)b->q->numeric;    /* Q_NUMERIC: the arena's, writable */
        n->kind = NUM_RANGE;
        n->lo = *lo;
        n->hi = *hi;
    }
    drop_value(b, lo);
    drop_value(b, hi);
}

/* accepthead: ACCEPT */
void b_q_accept_start(struct build_state *b, const struct src_loc *kw)
{
    b->accept_ok = q_takes(b, T_ACCEPT, kw);
}

/* accepts: STRING | accepts ',' STRING */
void b_q_accept(struct build_state *b, char *s, const struct src_loc *loc)
{
    if (!b->accept_ok) return;
    AVEC_PUSH(b->file->arena, b->q->accept, make_tr(NULL, s, loc));
}

/* labhead: LAB name */
void b_q_lab(struct build_state *b, const struct src_loc *kw, char *name, const struct src_loc *name_loc)
{
    /*
     * `lab labs/memory`, as labrun's command line writes it: the lab is its
     * folder's last name, so its arguments and claims are checked as
     * `lab memory`'s, after one error that says how to write it.
     */
    const char *slash = strrchr(name, '/');
    if (slash && slash[1]) {
        diag_error(b->d, name_loc, "a lab line names the lab, not its folder: write 'lab %s' (quizc looks for "
                   "labs in labs/ beside the quiz and in each folder given with -L)", slash + 1);
        name = (char *)slash + 1;
    } else if (slash) {
        diag_error(b->d, name_loc, "a lab line names the lab, not its folder: write 'lab NAME' with the lab's "
                   "name, the folder's last part");
    }
    struct ast_labref r = { .name = name, .name_loc = *name_loc, .loc = *kw };
    AVEC_PUSH(b->file->arena, q_extra(b)->labs, r);
}

/* qstmt: labhead labargs */
void b_q_lab_end(struct build_state *b, const struct src_loc *loc)
{
    b->q->extra->labs.items[b->q->extra->labs.n - 1].loc = *loc;
}

/* arg: name '=' value */
void b_q_lab_arg(struct build_state *b, char *name, const struct src_loc *loc, struct ast_value *v)
{
    struct ast_labref *r = &b->q->extra->labs.items[b->q->extra->labs.n - 1];
    for (size_t i = 0; i < r->args.n; i++)
        if (!strcmp(r->args.items[i].name, name)) {
            diag_error(b->d, loc, "parameter '%s' is given twice to lab '%s'", name, r->name);
            diag_note(b->d, &r->args.items[i].loc, "the first '%s' is here", name);
            drop_value(b, v);
            return;
        }
    struct ast_arg a = { .name = name, .value = *v, .loc = *loc };
    drop_value(b, v);
    AVEC_PUSH(b->file->arena, r->args, a);
}

/* The lab an expect belongs to: the question's latest. */
static struct ast_labref *expect_lab(struct build_state *b, const struct src_loc *stmt)
{
    if (b->q->extra->labs.n) return &b->q->extra->labs.items[b->q->extra->labs.n - 1];
    diag_error(b->d, stmt, "'expect' must follow a 'lab' in the same question");
    return NULL;
}

/* qstmt: EXPECT name cmp value */
void b_q_expect(struct build_state *b, const struct src_loc *stmt, char *metric, const struct src_loc *mloc,
                int op, struct ast_value *v)
{
    struct ast_labref *r = expect_lab(b, stmt);
    struct ast_expect e = { .metric = metric, .metric_loc = *mloc, .op = (enum ast_cmp)op,
                            .value = *v, .loc = *stmt };
    drop_value(b, v);
    if (!r) return;
    AVEC_PUSH(b->file->arena, r->expects, e);
}

/* qstmt: EXPECT name WITHIN value OF value — `of answer` compares with the question's answer key. */
void b_q_expect_within(struct build_state *b, const struct src_loc *stmt, char *metric,
                       const struct src_loc *mloc, struct ast_value *tol, struct ast_value *v)
{
    struct ast_labref *r = expect_lab(b, stmt);
    if (!r) return;
    struct ast_expect e = { .metric = metric, .metric_loc = *mloc, .op = CMP_WITHIN,
                            .tolerance = *tol, .loc = *stmt };
    if (v->kind == VAL_IDENT && is_word(v->str, T_ANSWER)) {
        e.of_answer = true;
        e.value.loc = v->loc;
    } else {
        e.value = *v;
    }
    drop_value(b, tol);
    drop_value(b, v);
    AVEC_PUSH(b->file->arena, r->expects, e);
}

/* qstmt: SNIPPET name ':' name */
void b_q_snippet(struct build_state *b, const struct src_loc *stmt, char *lab, char *region)
{
    struct ast_snippet s = { .lab = lab, .region = region, .loc = *stmt };
    AVEC_PUSH(b->file->arena, q_extra(b)->snippets, s);
}

/* ---- Values -------------------------------------------------------------- */

/* value: name — true and false are booleans, any other word an identifier. */
struct ast_value *b_value_name(struct build_state *b, char *s, const struct src_loc *loc)
{
    struct ast_value *v = arena_alloc(b->file->arena, sizeof *v);
    v->str = s;
    v->loc = *loc;
    if (is_word(s, T_TRUE) || is_word(s, T_FALSE)) {
        v->kind = VAL_BOOL;
        v->boolean = s[0] == 't';
    } else {
        v->kind = VAL_IDENT;
    }
    return v;
}

/* value: STRING */
struct ast_value *b_value_string(struct build_state *b, char *s, const struct src_loc *loc)
{
    struct ast_value *v = arena_alloc(b->file->arena, sizeof *v);
    v->kind = VAL_STRING;
    v->str = s;
    v->loc = *loc;
    return v;
}
