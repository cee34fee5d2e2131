/*
 * check.c — semantic checks on a loaded course.  Each check has its own
 * message, names the question it is about, and points at the token to fix;
 * related places (the first definition of a duplicate id, where languages
 * are declared) get a note.  Every check runs, so one compile reports every
 * independent problem.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "check_ids.h"
#include "xml_chars.h"

struct checker {
    struct diag *d;
    const struct ast_quiz *quiz;    /* NULL when the file held no quiz */
    int errors_before;
    bool partial;                   /* the question being checked had a syntax error */
};

/* A number as an author wrote it: 75, 0.5, 1e-09. */
static const char *num_text(char *buf, size_t n, const struct ast_value *v, double x)
{
    if (v && v->str)
        return v->str;
    char num[FMT_NUMBER_MAX];
    snprintf(buf, n, "%s", fmt_number(num, x));
    return buf;
}

static bool has_loc(const struct src_loc *l)
{
    return loc_known(l);
}

/*
 * A lab, parameter or metric name a question uses is a name in course.xml
 * (course.xsd), which starts with a letter or '_'; the language also takes
 * `1f1b`, which stays fine as a value.
 */
static void check_xml_name(struct checker *k, const char *what, const char *name, const struct src_loc *at)
{
    if (name && name[0] >= '0' && name[0] <= '9')
        diag_error(k->d, at, "%s name '%s' starts with a digit; a name the outputs carry starts with a letter or '_'",
                   what, name);
}

/*
 * A number an output carries is at most CHECK_MAX_NUMBER in size: false,
 * with an error at it (or at `or`, when it has no place), when not.
 */
static bool check_magnitude(struct checker *k, const struct ast_value *v, const struct src_loc *or, const char *what)
{
    if (fabs(v->num) <= CHECK_MAX_NUMBER)
        return true;
    if (isinf(v->num))
        return false;       /* past a double: the scanner has said so at the number */
    char buf[32];
    diag_error(k->d, has_loc(&v->loc) ? &v->loc : or, "%s %s is too large; numbers here are at most 1e15 in size",
               what, num_text(buf, sizeof buf, v, v->num));
    return false;
}

/* ---- Localized text ----------------------------------------------------- */

/* A tag of the form xml:lang takes (a BCP 47 tag's shape): [A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*. */
static bool lang_tag_form(const char *tag)
{
    size_t part = 0;
    bool first = true;
    for (const char *p = tag;; p++) {
        if (*p == '-' || *p == '\0') {
            if (part == 0 || part > 8)
                return false;
            if (*p == '\0')
                return true;
            part = 0;
            first = false;
        } else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (!first && *p >= '0' && *p <= '9')) {
            part++;
        } else {
            return false;
        }
    }
}

static bool lang_declared(const struct ast_quiz *q, const char *tag)
{
    for (size_t i = 0; q && i < q->langs.n; i++)
        if (strcmp(q->langs.items[i].tag, tag) == 0)
            return true;
    return false;
}

static void note_languages(struct checker *k)
{
    if (k->quiz && k->quiz->langs.n > 0 && has_loc(&k->quiz->langs_loc))
        diag_note(k->d, &k->quiz->langs_loc, "the quiz's languages are declared here");
}

/* Whether t has a translation tagged tag. */
static bool has_translation(const struct ast_text *t, const char *tag)
{
    for (size_t j = 0; j < t->n; j++)
        if (t->trs[j].lang && strcmp(t->trs[j].lang, tag) == 0)
            return true;
    return false;
}

/*
 * A TEXT covers every declared language and uses no other.  A neutral string
 * stands for every language; so does a block in a quiz that declares none,
 * as long as it names no language at all.
 */
static void check_text(struct checker *k, const struct ast_text *t, const char *what)
{
    if (!t || t->neutral)
        return;
    size_t distinct_declared = 0;   /* tags given once (or for the first time) and declared */
    for (size_t i = 0; i < t->n; i++) {
        const struct ast_tr *tr = &t->trs[i];
        if (!tr->lang)
            continue;
        bool again = false;
        for (size_t j = 0; j < i; j++) {
            const struct ast_tr *o = &t->trs[j];
            if (o->lang && strcmp(o->lang, tr->lang) == 0) {
                diag_error(k->d, &tr->loc, "the '%s' translation of the %s is given twice", tr->lang, what);
                diag_note(k->d, &o->loc, "first given here");
                again = true;
                break;
            }
        }
        if (lang_declared(k->quiz, tr->lang)) {
            if (!again) distinct_declared++;
        } else {
            if (k->quiz && k->quiz->langs.n > 0) {
                diag_error(k->d, &tr->loc, "language '%s' is not declared in the quiz's `languages`", tr->lang);
                note_languages(k);
            } else {
                diag_error(k->d, &tr->loc,
                           "language '%s' is used but the quiz declares no languages (add `languages %s`)",
                           tr->lang, tr->lang);
            }
        }
    }
    if (!k->quiz)
        return;
    /*
     * As many distinct declared tags as declarations: every declared tag is
     * among them, so none is missing (the usual case, found without the
     * search below).
     */
    if (distinct_declared == k->quiz->langs.n)
        return;
    for (size_t i = 0; i < k->quiz->langs.n; i++) {
        const char *tag = k->quiz->langs.items[i].tag;
        if (!has_translation(t, tag)) {
            diag_error(k->d, ast_text_loc(t), "missing '%s' translation of the %s", tag, what);
            note_languages(k);
        }
    }
}

/*
 * A lab manifest's TEXT covers the quiz's languages.  Labs are shared between
 * quizzes, so a gap is a warning, at the manifest's text, with a note at the
 * quiz's reference; a plain string stands for every language, as in a quiz.
 */
static void check_lab_text(struct checker *k, const struct ast_text *t, const struct src_loc *used,
                           const char *lab, const char *what, const char *name)
{
    if (!t || t->neutral || !k->quiz)
        return;
    for (size_t i = 0; i < k->quiz->langs.n; i++) {
        const char *tag = k->quiz->langs.items[i].tag;
        if (has_translation(t, tag))
            continue;
        if (name)
            diag_warning(k->d, ast_text_loc(t), "lab '%s' has no '%s' translation of the %s of '%s'", lab, tag, what, name);
        else
            diag_warning(k->d, ast_text_loc(t), "lab '%s' has no '%s' translation of its %s", lab, tag, what);
        diag_note(k->d, used, "the quiz uses lab '%s' here", lab);
        note_languages(k);
    }
}

/* Every word of a manifest the outputs show, checked once per lab however many questions use it. */
static void check_lab_langs(struct checker *k, const struct ast_labdef *def, const struct src_loc *used)
{
    check_lab_text(k, def->title, used, def->name, "title", NULL);
    check_lab_text(k, def->summary, used, def->name, "summary", NULL);
    for (size_t i = 0; i < def->params.n; i++)
        check_lab_text(k, def->params.items[i].help, used, def->name, "help", def->params.items[i].name);
    for (size_t i = 0; i < def->metrics.n; i++)
        check_lab_text(k, def->metrics.items[i].help, used, def->name, "description",
                       def->metrics.items[i].name);
}

/* The first `lab NAME` line of the course that names def, or NULL. */
static const struct src_loc *first_use(const struct qz_course *c, const struct ast_labdef *def)
{
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        for (size_t r = 0; r < q->extra->labs.n; r++)
            if (q->extra->labs.items[r].def == def)
                return &q->extra->labs.items[r].name_loc;
    }
    return NULL;
}

/* ---- Quiz header -------------------------------------------------------- */

static void check_header(struct checker *k, const struct ast_quiz *q, bool partial)
{
    if (q->id)
        check_id_form(k->d, "quiz", q->id, &q->id_loc);
    if (!q->title && !partial)
        diag_error(k->d, has_loc(&q->id_loc) ? &q->id_loc : &q->loc, "quiz '%s' has no title (add `title \"...\"`)",
                   q->id ? q->id : "");
    check_text(k, q->title, "title");
    check_text(k, q->intro, "intro");

    for (size_t i = 0; i < q->langs.n; i++) {
        if (!lang_tag_form(q->langs.items[i].tag))
            diag_error(k->d, &q->langs.items[i].loc,
                       "'%s' is not a language tag the outputs can carry (xml:lang, SCORM, QTI): letters, then "
                       "parts of letters or digits after '-', each part 1 to 8 long (id, en, pt-BR)",
                       q->langs.items[i].tag);
        for (size_t j = 0; j < i; j++)
            if (strcmp(q->langs.items[i].tag, q->langs.items[j].tag) == 0) {
                diag_error(k->d, &q->langs.items[i].loc, "language '%s' is declared twice",
                           q->langs.items[i].tag);
                break;
            }
    }

    if (q->has_passing && !isinf(q->passing) && !(q->passing >= 0 && q->passing <= 100)) {
        char buf[32];
        diag_error(k->d, &q->passing_loc, "passing %s%% is outside 0%%..100%%",
                   num_text(buf, sizeof buf, NULL, q->passing));
    }
}

/* ---- Questions ---------------------------------------------------------- */

bool check_choice_count(struct diag *d, const struct ast_question *q)
{
    size_t n = q->choices.n;
    if ((q->kind != Q_SINGLE && q->kind != Q_MULTIPLE) || n <= CHECK_MAX_CHOICES)
        return true;
    const struct src_loc id_loc = ast_question_id_loc(q);
    diag_error(d, &id_loc,
               "%s question '%s' has %zu choices; at most %d are allowed (SCORM 1.2 names choices 0-9, a-z)",
               ast_qkind_name(q->kind), q->id, n, CHECK_MAX_CHOICES);
    struct src_loc at = ast_choice_loc(&q->choices.items[CHECK_MAX_CHOICES]);
    diag_note(d, &at, "choice %d is here", CHECK_MAX_CHOICES + 1);
    return false;
}

static void check_choices(struct checker *k, const struct ast_question *q)
{
    const struct src_loc id_loc = ast_question_id_loc(q);
    const char *kind = ast_qkind_name(q->kind);
    size_t n = q->choices.n, ncorrect = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ast_choice *ch = &q->choices.items[i];
        ncorrect += ch->correct;
        check_text(k, ch->text, "choice");
        check_text(k, ch->because, "feedback after 'because'");
    }
    if (n < 2 && !k->partial)
        diag_error(k->d, &id_loc, "%s question '%s' needs at least two choices, has %zu", kind, q->id, n);
    check_choice_count(k->d, q);

    if (q->kind == Q_SINGLE && ncorrect != 1) {
        if (ncorrect == 0) {
            if (!k->partial)
                diag_error(k->d, &id_loc, "single question '%s' needs exactly one correct choice, has none", q->id);
        } else {
            diag_error(k->d, &id_loc, "single question '%s' needs exactly one correct choice, has %zu "
                       "(use `multiple` for several)", q->id, ncorrect);
            for (size_t i = 0; i < n; i++) {
                if (!q->choices.items[i].correct)
                    continue;
                struct src_loc at = ast_choice_loc(&q->choices.items[i]);
                diag_note(k->d, &at, "a correct choice");
            }
        }
    }
    if (q->kind == Q_MULTIPLE && ncorrect == 0 && n > 0 && !k->partial)
        diag_error(k->d, &id_loc, "multiple question '%s' needs at least one correct choice, has none", q->id);
}

static void check_numeric(struct checker *k, const struct ast_question *q)
{
    const struct src_loc id_loc = ast_question_id_loc(q);
    const struct ast_numeric *a = q->numeric;
    char b1[32], b2[32];
    if (!q->has_answer) {
        if (!k->partial)
            diag_error(k->d, &id_loc, "numeric question '%s' has no answer (add `answer 42`, "
                   "`answer 0.27 within 0.01` or `answer 0.26..0.29`)", q->id);
        return;
    }
    struct src_loc kw = ast_answer_loc(q);
    bool small = true;
    if (a->kind == NUM_RANGE) {
        small &= check_magnitude(k, &a->lo, &kw, "the range's low end");
        small &= check_magnitude(k, &a->hi, &kw, "the range's high end");
    } else {
        small &= check_magnitude(k, &a->value, &kw, "the answer");
        if (a->kind == NUM_TOLERANCE)
            small &= check_magnitude(k, &a->tolerance, &kw, "the tolerance");
    }
    if (!small)
        return;
    if (a->kind == NUM_RANGE && qz_value_number(&a->lo) > qz_value_number(&a->hi))
        diag_error(k->d, has_loc(&a->lo.loc) ? &a->lo.loc : &kw,
                   "numeric range %s..%s is empty: its low end is above its high end",
                   num_text(b1, sizeof b1, &a->lo, a->lo.num), num_text(b2, sizeof b2, &a->hi, a->hi.num));
    if (a->kind == NUM_TOLERANCE && a->tolerance.num < 0)
        diag_error(k->d, has_loc(&a->tolerance.loc) ? &a->tolerance.loc : &kw,
                   "tolerance must not be negative, got %s",
                   num_text(b1, sizeof b1, &a->tolerance, a->tolerance.num));
    /* A percentage of 0 is 0: the author meant some other tolerance. */
    if (a->kind == NUM_TOLERANCE && a->tolerance.percent && a->tolerance.num != 0 && qz_value_number(&a->value) == 0)
        diag_warning(k->d, has_loc(&a->tolerance.loc) ? &a->tolerance.loc : &kw,
                     "%s of 0 is 0, so only 0 is right; write an absolute tolerance such as `within 0.01`",
                     num_text(b1, sizeof b1, &a->tolerance, a->tolerance.num));
    check_text(k, a->unit, "unit");
}

static void check_question(struct checker *k, const struct ast_question *q)
{
    const struct src_loc id_loc = ast_question_id_loc(q);
    const char *kind = ast_qkind_name(q->kind);
    if (!q->prompt && !k->partial)
        diag_error(k->d, &id_loc, "%s question '%s' has no prompt (add `prompt \"...\"`)", kind, q->id);
    check_text(k, q->prompt, "prompt");
    check_text(k, q->explain, "explanation");

    /* An infinite value was past a double, which the scanner reported at the number. */
    if (!isinf(q->extra->points) && !(q->extra->points > 0 && q->extra->points <= CHECK_MAX_POINTS)) {
        char buf[32];
        diag_error(k->d, has_loc(&q->extra->points_loc) ? &q->extra->points_loc : &id_loc,
                   "points must be greater than 0 and at most %d, got %s", CHECK_MAX_POINTS,
                   num_text(buf, sizeof buf, NULL, q->extra->points));
    }
    for (size_t r = 0; r < q->extra->labs.n; r++) {
        const struct ast_labref *ref = &q->extra->labs.items[r];
        check_xml_name(k, "lab", ref->name, &ref->name_loc);
        for (size_t a = 0; a < ref->args.n; a++)
            check_xml_name(k, "parameter", ref->args.items[a].name, &ref->args.items[a].loc);
        for (size_t e = 0; e < ref->expects.n; e++) {
            const struct ast_expect *x = &ref->expects.items[e];
            /* A claim's numbers may be as large as a double (figures are): the scanner refuses past that. */
            check_xml_name(k, "metric", x->metric, &x->metric_loc);
        }
    }

    for (size_t i = 0; i < q->extra->snippets.n; i++)
        check_xml_name(k, "lab", q->extra->snippets.items[i].lab, &q->extra->snippets.items[i].loc);

    switch (q->kind) {
    case Q_SINGLE:
    case Q_MULTIPLE:
        check_choices(k, q);
        break;
    case Q_TRUEFALSE:
        if (!q->has_answer && !k->partial)
            diag_error(k->d, &id_loc, "truefalse question '%s' has no answer (add `answer true` or `answer false`)",
                       q->id);
        break;
    case Q_NUMERIC:
        check_numeric(k, q);
        break;
    case Q_TEXT:
        if (q->accept.n == 0 && !k->partial)
            diag_error(k->d, &id_loc, "text question '%s' accepts no answer (add `accept \"...\"`)", q->id);
        for (size_t i = 0; i < q->accept.n; i++) {
            const struct ast_tr *a = &q->accept.items[i];
            const char *s = a->raw ? a->raw : "";
            while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
                s++;
            if (!*s)
                diag_error(k->d, &a->loc, "an accepted answer must not be empty");
        }
        break;
    }
    if (q->kind != Q_SINGLE && q->kind != Q_MULTIPLE && q->choices.n > 0) {
        struct src_loc at = ast_choice_loc(&q->choices.items[0]);
        diag_error(k->d, &at, "%s question '%s' takes no choices "
                   "(choices belong to single and multiple questions)", kind, q->id);
    }
}

/* ---- Questions a syntax error has already been reported in ------------- */

/*
 * For each question, whether one of the errors lies between its keyword and
 * the next question of the same file.  Positions order the questions of a
 * file, and the files apart (loc.h); sorting the errors keeps a bank of
 * many questions with many errors from comparing every pair.
 */
struct place {
    uint32_t pos;           /* a question's keyword, or an error */
    uint32_t idx;           /* the question's index in the course */
};

static int by_pos(const void *a, const void *b)
{
    uint32_t x = ((const struct place *)a)->pos, y = ((const struct place *)b)->pos;
    return (x > y) - (x < y);
}

static bool *mark_partial(const struct qz_course *c, const struct src_loc *errors, size_t nerrors)
{
    size_t n = c->questions.n;
    bool *partial = xcalloc(n ? n : 1, sizeof *partial);
    if (nerrors == 0 || n == 0)
        return partial;
    /* The course splices included files' questions where they were included: visit them by position. */
    struct place *qs = xmalloc(n * sizeof *qs), *es = xmalloc(nerrors * sizeof *es);
    for (size_t i = 0; i < n; i++)
        qs[i] = (struct place){ c->questions.items[i]->kw_at, (uint32_t)i };
    for (size_t i = 0; i < nerrors; i++)
        es[i] = (struct place){ errors[i].from, 0 };
    qsort(qs, n, sizeof *qs, by_pos);
    qsort(es, nerrors, sizeof *es, by_pos);
    size_t e = 0;
    const struct source *next_src = src_at(qs[0].pos);
    for (size_t i = 0; i < n; i++) {
        const struct source *src = next_src;
        next_src = i + 1 < n ? src_at(qs[i + 1].pos) : NULL;
        bool last = i + 1 == n || next_src != src;
        /* First error at or after this question's start. */
        while (e < nerrors && es[e].pos < qs[i].pos)
            e++;
        if (e == nerrors)
            break;
        partial[qs[i].idx] = last ? src_at(es[e].pos) == src : es[e].pos < qs[i + 1].pos;
    }
    free(qs);
    free(es);
    return partial;
}

bool check_course(struct diag *d, struct qz_course *c, const struct qz_labpath *labpath)
{
    struct checker k = { .d = d, .quiz = c->quiz, .errors_before = diag_errors(d) };
    size_t nerrors;
    const struct src_loc *seen = diag_error_locs(d, &nerrors);
    /* The checks below report errors too, which may move the diag's list: take the reading's now. */
    struct src_loc *errors = xmalloc((nerrors ? nerrors : 1) * sizeof *errors);
    if (nerrors)
        memcpy(errors, seen, nerrors * sizeof *errors);
    bool *partial = mark_partial(c, errors, nerrors);
    bool root_errors = false;
    for (size_t i = 0; i < nerrors && c->root; i++)
        root_errors |= loc_src(&errors[i]) == c->root->src;
    free(errors);
    if (c->quiz) {
        check_header(&k, c->quiz, root_errors);
        if (c->questions.n == 0 && !root_errors)
            diag_warning(d, &c->quiz->id_loc, "quiz '%s' has no questions", c->quiz->id ? c->quiz->id : "");
    } else if (c->root && c->root->src && diag_errors(d) == 0) {
        struct src_loc top = loc_bytes(c->root->src, 0, 0);
        if (c->root->lab)
            diag_error(d, &c->root->lab->name_loc, "this file is the manifest of lab '%s', not a quiz",
                       c->root->lab->name ? c->root->lab->name : "");
        else if (c->questions.n > 0)
            diag_error(d, &top, "this file holds questions but no `quiz NAME { ... }`; "
                       "a quiz can include it");
        else
            diag_error(d, &top, "no `quiz NAME { ... }` in this file");
    }
    struct qz_resolver *labs = labpath ? qz_resolver_new(d, c, labpath) : NULL;
    struct id_table ids;
    ids_init(&ids, c->questions.n);
    for (size_t i = 0; i < c->questions.n; i++) {
        check_id(k.d, c, i, &ids);
        k.partial = partial[i];
        check_question(&k, c->questions.items[i]);
        if (labs)
            qz_resolve_question(labs, c->questions.items[i]);
    }
    for (size_t l = 0; labs && l < c->labs.n; l++) {
        const struct src_loc *used = first_use(c, c->labs.items[l]);
        if (used)   /* a lab only a snippet names shows none of its words */
            check_lab_langs(&k, c->labs.items[l], used);
    }
    /* After resolution: snippets' code and labs' words are known.  What the course writer would refuse, refused here. */
    xmlchars_check_course(d, c);
    qz_resolver_free(labs);
    ids_free(&ids);
    free(partial);
    return diag_errors(d) == k.errors_before;
}
