/* grading.c — a choice's weight (grading.h). */
#include "grading.h"
#include "qz.h"

bool grade_all_or_nothing(const struct ast_quiz *quiz, const struct ast_question *q)
{
    if (q->kind != Q_MULTIPLE)
        return false;
    enum ast_scoring s = q->extra->scoring;
    if (s == SCORING_UNSET && quiz)
        s = quiz->scoring;
    return s == SCORING_ALL_OR_NOTHING;
}

double grade_choice_weight(const struct ast_question *q, size_t i)
{
    bool ok = q->choices.items[i].correct;
    if (q->kind == Q_SINGLE)
        return ok ? 1 : 0;
    size_t right = 0, wrong = 0;
    for (size_t k = 0; k < q->choices.n; k++)
        q->choices.items[k].correct ? right++ : wrong++;
    return ok ? 1.0 / (double)right : -1.0 / (double)wrong;
}

void grade_warn_all_or_nothing(struct diag *d, const struct qz_course *c, const char *format)
{
    /* The quiz's statement first (it comes before its questions), then each question's own. */
    size_t by_quiz = 0;
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        by_quiz += q->extra->scoring == SCORING_UNSET && grade_all_or_nothing(c->quiz, q);
    }
    if (by_quiz)
        diag_warning(d, &c->quiz->scoring_loc,
                     "%s cannot score multiple questions all or nothing (Moodle's multiple-choice questions score "
                     "each choice): %zu question%s carr%s partial credit", format, by_quiz, by_quiz == 1 ? "" : "s",
                     by_quiz == 1 ? "ies" : "y");
    for (size_t i = 0; i < c->questions.n; i++) {
        const struct ast_question *q = c->questions.items[i];
        if (q->extra->scoring != SCORING_UNSET && grade_all_or_nothing(c->quiz, q))
            diag_warning(d, &q->extra->scoring_loc,
                         "%s cannot score question '%s' all or nothing (Moodle's multiple-choice questions score "
                         "each choice): it carries partial credit", format, q->id);
    }
}
