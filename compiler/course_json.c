/*
 * course_json.c — the quiz as the player reads it: one JSON document built
 * with jansson and wrapped as `window.QUIZ_DATA = JSON.parse('{...}');`.
 *
 * JSON.parse, not an object literal: in a literal, a key "__proto__" (a
 * language tag the author chose) sets the object's prototype instead of
 * making an entry, and that translation would vanish from the data.
 *
 * Every TEXT becomes an object with one entry per quiz language, holding the
 * Markdown subset as structure (blocks of spans), never as markup: the player
 * builds elements from it with textContent, so author text cannot become HTML.
 *
 *   doc   = [ block ... ]
 *   block = { "p": [ span ... ] }  |  { "code": "...", "info": "c" }
 *   span  = [ "text" | "code" | "em" | "strong", "..." ]  |  [ "br" ]
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grading.h"
#include "interval.h"
#include "kinds.h"
#include "media.h"
#include "runs.h"
#include "scorm.h"

/*
 * A parsed text as the player reads it: [{"p": [[KIND, TEXT], ...]}, {"code": ...}].
 * An image is ["img", ITS FILE IN THE PACKAGE, ALT], a formula ["math", TEX]
 * or ["dmath", TEX] (the player's math.js renders it); an image the media
 * pass did not read is its alt text.
 */
static json_t *md_json(const struct qz_course *c, const struct md_doc *doc)
{
    static const char *const span_kind[] = {
        [MD_PLAIN] = "text", [MD_CODE] = "code", [MD_EM] = "em",
        [MD_STRONG] = "strong", [MD_BREAK] = "br", [MD_IMAGE] = "img",
        [MD_MATH] = "math", [MD_DMATH] = "dmath",
    };
    json_t *blocks = json_array();
    for (size_t i = 0; i < doc->blocks.n; i++) {
        const struct md_block *b = &doc->blocks.items[i];
        if (b->kind == MD_CODEBLOCK) {
            json_t *o = json_object();
            json_object_set_new(o, "code", json_string(b->code ? b->code : ""));
            if (b->info && *b->info)
                json_object_set_new(o, "info", json_string(b->info));
            json_array_append_new(blocks, o);
            continue;
        }
        json_t *spans = json_array();
        for (size_t k = 0; k < b->spans.n; k++) {
            const struct md_span *s = &b->spans.items[k];
            json_t *sp = json_array();
            const struct qz_image *im = s->kind == MD_IMAGE ? media_image(c, s->text) : NULL;
            if (s->kind == MD_IMAGE && !(im && im->bytes)) {
                json_array_append_new(sp, json_string("text"));
                json_array_append_new(sp, json_string(s->alt));
            } else if (s->kind == MD_IMAGE) {
                json_array_append_new(sp, json_string("img"));
                json_array_append_new(sp, json_string(im->name));
                json_array_append_new(sp, json_string(s->alt));
            } else {
                json_array_append_new(sp, json_string(span_kind[s->kind]));
                if (s->kind != MD_BREAK)
                    json_array_append_new(sp, json_string(s->text ? s->text : ""));
            }
            json_array_append_new(spans, sp);
        }
        json_t *o = json_object();
        json_object_set_new(o, "p", spans);
        json_array_append_new(blocks, o);
    }
    return blocks;
}

/* The quiz's languages as the player keys texts: the declared tags, or "und". */
struct langs {
    const char **tags;
    size_t n;
    const struct qz_course *course;     /* its figures (media.h), which the texts name */
};

/* A TEXT in lang: the quiz's own (ast_text_get) or a lab manifest's (qz_lab_text). */
typedef const struct ast_tr *text_getter(const struct ast_text *t, const char *lang);

static json_t *text_json_by(const struct ast_text *t, const struct langs *ls, text_getter *get)
{
    if (!t)
        return json_null();
    json_t *o = json_object();
    for (size_t i = 0; i < ls->n; i++) {
        /* A neutral quiz has one pseudo-language whose lookup takes the neutral string. */
        const struct ast_tr *tr = get(t, strcmp(ls->tags[i], "und") ? ls->tags[i] : NULL);
        if (tr) {
            struct md_doc doc = { 0 };
            md_parse(tr->raw, &doc);
            json_object_set_new(o, ls->tags[i], md_json(ls->course, &doc));
            md_doc_clear(&doc);
        }
    }
    return o;
}

static json_t *text_json(const struct ast_text *t, const struct langs *ls)
{
    return text_json_by(t, ls, ast_text_get);
}

/* A lab manifest's words, in each of the quiz's languages (English where the manifest lacks one). */
static json_t *lab_text_json(const struct ast_text *t, const struct langs *ls)
{
    return text_json_by(t, ls, qz_lab_text);
}

/* Numbers as JSON: integral values as integers, so 4 stays "4", not "4.0". */
static json_t *num_json(double x)
{
    if (isfinite(x) && x == floor(x) && fabs(x) < 9e15)
        return json_integer((json_int_t)x);
    return json_real(x);
}

static json_t *value_json(const struct ast_value *v)
{
    switch (v->kind) {
    case VAL_NUMBER: return num_json(qz_value_number(v));   /* as --verify reads it: 5% is 0.05 */
    case VAL_BOOL:   return json_boolean(v->boolean);
    case VAL_IDENT:
    case VAL_STRING: return json_string(v->str ? v->str : "");
    }
    return json_null();
}

/* An argument as labrun takes it: a number for a number, else its text. */
static json_t *arg_json(const struct ast_labref *r, const struct ast_arg *a)
{
    char *v = qz_arg_value(r, a);
    json_t *j;
    if (a->value.kind == VAL_BOOL)
        j = json_boolean(a->value.boolean);
    else if (a->value.kind == VAL_NUMBER)
        j = num_json(strtod(v, NULL));
    else
        j = json_string(v);
    free(v);
    return j;
}

/* One parameter's value as the run must have had it: typed as labrun's --json types it. */
static void param_entry(void *ctx, const struct ast_param *p, const char *value)
{
    json_t *v;
    if (p->type == PARAM_INT || p->type == PARAM_REAL)
        v = num_json(strtod(value, NULL));
    else if (p->type == PARAM_BOOL)
        v = json_boolean(strcmp(value, "true") == 0);
    else
        v = json_string(value);
    json_array_append_new(ctx, json_pack("[so]", p->name, v));
}

/*
 * The answer key a `within X of answer` claim is judged against, as
 * labrun --verify takes it (claim.c): the range, or the value.
 */
static json_t *answer_key(const struct ast_question *q)
{
    const struct ast_numeric *k = q->numeric;
    if (q->kind != Q_NUMERIC || !q->has_answer)
        return json_null();
    if (k->kind == NUM_RANGE)
        return json_pack("{s:o, s:o}", "lo", num_json(qz_value_number(&k->lo)), "hi",
                         num_json(qz_value_number(&k->hi)));
    return json_pack("{s:o}", "value", num_json(qz_value_number(&k->value)));
}

/*
 * A run's figure: NaN and infinities are not JSON, so null, which the player
 * shows as no figure.  The data keeps 15 significant digits; a figure that
 * those round past the largest double (1.7976931348623157e308 printed as
 * 1.79769313486232e+308, which reads back as infinity) is rounded down instead.
 */
static json_t *figure(bool known, double x)
{
    if (!known || !isfinite(x))
        return json_null();
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", x);
    double r = strtod(buf, NULL);
    return num_json(isfinite(r) ? r : copysign(1.79769313486231e308, x));
}

static json_t *opt_string(const char *s)
{
    return s && *s ? json_string(s) : json_null();
}

static json_t *notes_json(struct qz_run_text t)
{
    json_t *ns = json_array();
    for (size_t i = 0; i < t.nnotes; i++)
        json_array_append_new(ns, json_string(t.notes[i]));
    return ns;
}

/* A recorded run (quizc --runs) as the player shows it. */
static json_t *run_json(const struct qz_run *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "backend", json_string(r->backend));
    json_object_set_new(o, "date", json_string(r->date));
    json_object_set_new(o, "labrun", json_string(r->labrun));
    json_object_set_new(o, "machine", json_pack("{s:o, s:I, s:o, s:I, s:o, s:o}",
                                                "cpu", opt_string(r->machine.cpu), "cores", (json_int_t)r->machine.cores,
                                                "gpu", opt_string(r->machine.gpu), "gpus", (json_int_t)r->machine.gpus,
                                                "driver", opt_string(r->machine.driver),
                                                "nccl", opt_string(r->machine.nccl)));
    json_object_set_new(o, "placement", opt_string(r->placement));
    json_t *ps = json_array();
    for (size_t i = 0; i < r->params.n; i++)
        json_array_append_new(ps, json_pack("[ss]", r->params.items[i].name, r->params.items[i].value));
    json_object_set_new(o, "params", ps);
    json_t *ms = json_array();
    for (size_t i = 0; i < r->metrics.n; i++) {
        const struct qz_run_metric *m = &r->metrics.items[i];
        json_array_append_new(ms, json_pack("[sos]", m->name, figure(m->known, m->value), m->basis));
    }
    json_object_set_new(o, "metrics", ms);
    json_t *cs = json_array();
    for (size_t i = 0; i < r->checks.n; i++) {
        const struct qz_run_check *c = &r->checks.items[i];
        json_array_append_new(cs, json_pack("{s:s, s:b, s:o}", "name", c->name, "pass", c->pass,
                                            "detail", opt_string(c->detail)));
    }
    json_object_set_new(o, "checks", cs);
    json_object_set_new(o, "notes", notes_json(qz_run_text(r, NULL)));
    json_object_set_new(o, "svg", opt_string(r->svg));
    json_object_set_new(o, "lang", opt_string(r->lang));
    /* The same words in the quiz's other languages: {LANG: {"checks": [{"name", "detail"}], "notes", "svg"}}. */
    json_t *words = json_object();
    for (size_t i = 0; i < r->words.n; i++) {
        struct qz_run_text t = qz_run_text(r, r->words.items[i].lang);
        json_t *checks = json_array();
        for (size_t k = 0; k < t.nchecks; k++)
            json_array_append_new(checks, json_pack("{s:s, s:o}", "name", t.checks[k].name,
                                                    "detail", opt_string(t.checks[k].detail)));
        json_object_set_new(words, t.lang, json_pack("{s:o, s:o, s:o}", "checks", checks, "notes", notes_json(t),
                                                     "svg", opt_string(t.svg)));
    }
    json_object_set_new(o, "words", words);
    return o;
}

static json_t *lab_json(const struct ast_question *q, const struct ast_labref *r, const struct langs *ls)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(r->name));
    if (r->def && r->def->title)
        json_object_set_new(o, "title", lab_text_json(r->def->title, ls));

    char *cmd = qz_lab_command(r);
    json_object_set_new(o, "command", json_string(cmd));
    free(cmd);
    /* The quiz's languages labrun --lang speaks for this lab: the command shown in one of them asks for it. */
    json_t *speaks = json_array();
    for (size_t i = 0; i < ls->n; i++)
        if (qz_lab_speaks(r->def, ls->tags[i]))
            json_array_append_new(speaks, json_string(ls->tags[i]));
    json_object_set_new(o, "speaks", speaks);
    json_t *args = json_array();
    for (size_t i = 0; i < r->args.n; i++)
        json_array_append_new(args, json_pack("[so]", r->args.items[i].name, arg_json(r, &r->args.items[i])));
    json_object_set_new(o, "args", args);
    /* Every parameter's value, defaults included: what a learner's run must match. */
    json_t *params = json_array();
    runs_each_param(r, param_entry, params);
    json_object_set_new(o, "params", params);
    if (r->run)
        json_object_set_new(o, "run", run_json(r->run));

    json_t *expects = json_array();
    for (size_t i = 0; i < r->expects.n; i++) {
        const struct ast_expect *e = &r->expects.items[i];
        json_t *x = json_object();
        json_object_set_new(x, "metric", json_string(e->metric));
        const struct ast_metric *m = r->def ? qz_lab_metric(r->def, e->metric) : NULL;
        if (m && m->help)
            json_object_set_new(x, "help", lab_text_json(m->help, ls));
        if (m && m->unit)
            json_object_set_new(x, "unit", json_string(m->unit));
        json_object_set_new(x, "op", json_string(ast_cmp_name(e->op)));
        if (e->op == CMP_WITHIN) {
            /* The tolerance as written, for the text; the interval it works out to, for the rule. */
            json_object_set_new(x, "tolerance", num_json(e->tolerance.num));
            if (e->tolerance.percent)
                json_object_set_new(x, "percent", json_true());
            struct qz_interval in = qz_within_interval(e, q->kind == Q_NUMERIC ? q->numeric : NULL);
            if (!e->of_answer || (q->kind == Q_NUMERIC && q->has_answer)) {
                json_object_set_new(x, "lo", num_json(in.lo));
                json_object_set_new(x, "hi", num_json(in.hi));
            }
        }
        if (e->of_answer) {
            json_object_set_new(x, "of_answer", json_true());
            json_object_set_new(x, "answer", answer_key(q));
        } else
            json_object_set_new(x, "value", value_json(&e->value));
        json_array_append_new(expects, x);
    }
    json_object_set_new(o, "expects", expects);
    return o;
}

static json_t *question_json(const struct ast_quiz *quiz, const struct ast_question *q, const struct langs *ls)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(q->id));
    json_object_set_new(o, "kind", json_string(ast_qkind_name(q->kind)));
    /* What the LMS records it as (cmi.interactions.n.type): kinds.c's, not a table of the player's. */
    json_object_set_new(o, "interaction", json_string(kind_of(q->kind)->scorm));
    json_object_set_new(o, "points", num_json(q->extra->points));
    json_object_set_new(o, "prompt", text_json(q->prompt, ls));
    json_object_set_new(o, "explain", text_json(q->explain, ls));

    switch (q->kind) {
    case Q_SINGLE:
    case Q_MULTIPLE: {
        json_t *choices = json_array();
        for (size_t i = 0; i < q->choices.n && i < SCORM_MAX_CHOICES; i++) {
            const struct ast_choice *ch = &q->choices.items[i];
            json_t *c = json_object();
            char id[2] = { emit_choice_id(i), '\0' };
            json_object_set_new(c, "id", json_string(id));
            json_object_set_new(c, "correct", json_boolean(ch->correct));
            /* The share of the points picking it gives: the player sums them as Moodle does. */
            json_object_set_new(c, "weight", num_json(grade_choice_weight(q, i)));
            json_object_set_new(c, "text", text_json(ch->text, ls));
            json_object_set_new(c, "because", text_json(ch->because, ls));
            json_array_append_new(choices, c);
        }
        json_object_set_new(o, "choices", choices);
        if (grade_all_or_nothing(quiz, q))   /* every right choice and no wrong one, or nothing */
            json_object_set_new(o, "scoring", json_string("all-or-nothing"));
        break;
    }
    case Q_TRUEFALSE:
        json_object_set_new(o, "answer", json_boolean(q->tf_answer));
        break;
    case Q_NUMERIC: {
        const struct ast_numeric *n = q->numeric;
        struct qz_interval in = qz_answer_interval(n), key = qz_answer_key(n);
        double lo = in.lo, hi = in.hi;
        double k = n->kind == NUM_RANGE ? (key.lo + key.hi) / 2 : key.lo;
        json_object_set_new(o, "min", num_json(lo));
        json_object_set_new(o, "max", num_json(hi));
        json_object_set_new(o, "answer", num_json(k));
        json_object_set_new(o, "unit", text_json(q->numeric->unit, ls));
        break;
    }
    case Q_TEXT: {
        json_t *acc = json_array();
        for (size_t i = 0; i < q->accept.n; i++)
            json_array_append_new(acc, json_string(q->accept.items[i].raw ? q->accept.items[i].raw : ""));
        json_object_set_new(o, "accept", acc);
        break;
    }
    }

    json_t *labs = json_array();
    for (size_t i = 0; i < q->extra->labs.n; i++)
        json_array_append_new(labs, lab_json(q, &q->extra->labs.items[i], ls));
    json_object_set_new(o, "labs", labs);

    json_t *snips = json_array();
    for (size_t i = 0; i < q->extra->snippets.n; i++) {
        const struct ast_snippet *s = &q->extra->snippets.items[i];
        json_t *x = json_object();
        json_object_set_new(x, "lab", json_string(s->lab));
        json_object_set_new(x, "region", json_string(s->region));
        if (s->file)
            json_object_set_new(x, "file", json_string(s->file));
        json_object_set_new(x, "code", json_string(s->code ? s->code : ""));
        json_array_append_new(snips, x);
    }
    json_object_set_new(o, "snippets", snips);
    return o;
}

static json_t *course_json(const struct qz_course *c, const struct emit_opts *o)
{
    const struct ast_quiz *q = c->quiz;
    static const char *und[] = { "und" };
    struct langs ls = { und, 1, c };
    if (q->langs.n) {
        ls.tags = xcalloc(q->langs.n, sizeof *ls.tags);
        for (size_t i = 0; i < q->langs.n; i++)
            ls.tags[i] = q->langs.items[i].tag;
        ls.n = q->langs.n;
    }

    json_t *root = json_object();
    json_object_set_new(root, "format", json_integer(1));
    json_object_set_new(root, "id", json_string(q->id ? q->id : "quiz"));
    json_object_set_new(root, "scorm", json_string(o && o->scorm == SCORM_2004 ? "2004" : "1.2"));
    json_t *langs = json_array();
    for (size_t i = 0; i < ls.n; i++)
        json_array_append_new(langs, json_string(ls.tags[i]));
    json_object_set_new(root, "languages", langs);
    json_object_set_new(root, "title", text_json(q->title, &ls));
    json_object_set_new(root, "intro", text_json(q->intro, &ls));
    json_object_set_new(root, "feedback", json_string(ast_feedback_name(q->feedback)));
    json_object_set_new(root, "shuffle", json_string(ast_shuffle_name(q->shuffle)));
    json_object_set_new(root, "passing", num_json(q->passing));
    json_t *qs = json_array();
    for (size_t i = 0; i < c->questions.n; i++)
        json_array_append_new(qs, question_json(q, c->questions.items[i], &ls));
    json_object_set_new(root, "questions", qs);
    /* The page's Run buttons load the labs' module (labrun-web.js) only when the package has it. */
    if (o && o->live_labs && scorm_live_labs_count > 0)
        json_object_set_new(root, "liveLabs", json_true());

    if (ls.tags != und)
        free(ls.tags);
    return root;
}

char *scorm_quiz_json(const struct qz_course *c, const struct emit_opts *o)
{
    json_t *root = course_json(c, o);
    char *s = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(root);
    return s;
}

int scorm_quiz_data(const struct qz_course *c, const struct emit_opts *o,
                    struct membuf *out, struct diag *d)
{
    char *s = scorm_quiz_json(c, o);
    if (!s) {
        diag_error(d, NULL, "cannot render the player's quiz data as JSON");
        return -1;
    }
    static const char head[] = "/* The quiz, as the player reads it (written by quizc). */\n"
                               "window.QUIZ_DATA = JSON.parse('";
    membuf_append(out, head, sizeof head - 1);
    /* The JSON as a single-quoted script string: backslash and quote escaped;
     * U+2028 and U+2029 too, which older engines take for line ends. */
    const char *run = s, *p = s;
    for (; *p; p++) {
        const unsigned char *u = (const unsigned char *)p;
        bool sep = u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9);
        if (*p != '\\' && *p != '\'' && !sep)
            continue;
        membuf_append(out, run, (size_t)(p - run));
        if (sep) {
            membuf_append(out, u[2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
            p += 2;
            run = p + 1;
        } else {
            membuf_append(out, "\\", 1);
            run = p;
        }
    }
    membuf_append(out, run, (size_t)(p - run));
    membuf_append(out, "');\n", 4);
    free(s);
    return 0;
}
