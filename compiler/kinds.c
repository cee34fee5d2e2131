/* kinds.c — the kinds table (kinds.h). */
#include "kinds.h"

static const struct kind_info kinds[] = {
    [Q_SINGLE] = { .choices = true, .several = false, .scorm = "choice", .moodle = "multichoice",
                   .qti_base_type = "identifier" },
    [Q_MULTIPLE] = { .choices = true, .several = true, .scorm = "choice", .moodle = "multichoice",
                     .qti_base_type = "identifier" },
    [Q_TRUEFALSE] = { .scorm = "true-false", .moodle = "truefalse", .qti_base_type = "identifier" },
    [Q_NUMERIC] = { .scorm = "numeric", .moodle = "numerical", .qti_base_type = "float" },
    [Q_TEXT] = { .scorm = "fill-in", .moodle = "shortanswer", .qti_base_type = "string" },
};

const struct kind_info *kind_of(enum ast_qkind k)
{
    return &kinds[k];
}
