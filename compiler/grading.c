/* grading.c — a choice's weight (grading.h). */
#include "grading.h"

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
