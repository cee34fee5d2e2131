/*
 * build_mistake.c — grammar actions for the answers teachers write the way
 * they would on paper: `answer 1,875`, `answer 0.27 ± 0.01`, `answer "yes"`
 * in a text question.  Each is one error that shows how the language says
 * it; the answer is still recorded, so the question is not also reported as
 * having none.
 */
#include "build.h"
#include "quiz.tab.h"

/* qstmt: ANSWER NUMBER ',' NUMBER */
void b_q_answer_comma(struct build_state *b, const struct src_loc *kw, struct ast_value *v,
                      const struct src_loc *comma, struct ast_value *frac)
{
    /* `1,875` written as one number is a decimal comma; `1, 2` is a list, which no answer takes. */
    struct src_loc both = loc_span(&v->loc, &frac->loc);
    if (v->loc.to == comma->from && comma->to == frac->loc.from)
        diag_error(b->d, &both,
                   "write the answer with a decimal point: `answer %s.%s` (learners may type either "
                   "`%s.%s` or `%s,%s`)", b_loc_text(b, &v->loc), b_loc_text(b, &frac->loc),
                   b_loc_text(b, &v->loc), b_loc_text(b, &frac->loc), b_loc_text(b, &v->loc),
                   b_loc_text(b, &frac->loc));
    else
        diag_error(b->d, comma, "'answer' takes one number (a range is written `answer %s .. %s`)",
                   b_loc_text(b, &v->loc), b_loc_text(b, &frac->loc));
    b_q_answer_num(b, kw, v, NULL);
}

/* qstmt: ANSWER NUMBER PLUSMINUS NUMBER */
void b_q_answer_plusminus(struct build_state *b, const struct src_loc *kw, struct ast_value *v,
                          const struct src_loc *pm, struct ast_value *tol)
{
    diag_error(b->d, pm, "a tolerance is written with `within`: `answer %s within %s`",
               b_loc_text(b, &v->loc), b_loc_text(b, &tol->loc));
    b_q_answer_num(b, kw, v, tol);
}

/* qstmt: ANSWER STRING */
void b_q_answer_string(struct build_state *b, const struct src_loc *kw, char *s, const struct src_loc *loc)
{
    if (b->q->kind == Q_TEXT) {
        diag_error(b->d, kw, "a text question's answers are written with `accept`: `accept \"%s\"`", s);
        b_q_accept_start(b, kw);
        b_q_accept(b, s, loc);
        return;
    }
    diag_error(b->d, loc, "'answer' takes a number or a word, without quotes");
}
