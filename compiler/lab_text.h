/*
 * lab_text.h — a lab reference as words a learner reads: each `expect`
 * claim as "what you should see", and the lab box's words.  Every output that
 * shows a lab (GIFT, Moodle XML, QTI) takes them from here, and the command
 * line from libqz (qz_lab_command), so they cannot drift apart.
 */
#ifndef QZ_LAB_TEXT_H
#define QZ_LAB_TEXT_H

#include "ast.h"

/* The learner-facing words of the lab box, in lang (en when there is no table for it). */
enum labtext_word {
    LABTEXT_TRY,        /* "Try it in the lab" */
    LABTEXT_RUN,        /* "Run:" */
    LABTEXT_EXPECT,     /* "What you should see:" */
    LABTEXT_SNIPPET,    /* "The code that runs" */
    LABTEXT_TRUE,       /* "True" */
    LABTEXT_FALSE,      /* "False" */
    LABTEXT_UNIT,       /* "Unit" */
    /* A recorded run (quizc --runs), as the player's lab box shows it. */
    LABTEXT_MEASURED_ON,    /* "Measured on %s, %s": the machine, the date */
    LABTEXT_CPU_CORES,      /* "%s cores of %s": how many, the CPU model */
    LABTEXT_PASS,           /* "PASS" */
    LABTEXT_FAIL,           /* "FAIL" */
    LABTEXT_MEASURED,       /* how a figure was obtained: "measured" */
    LABTEXT_REPLAYED,       /* "replayed from measured costs" */
    LABTEXT_MODELLED,       /* "modelled" */
    LABTEXT_EXACT,          /* "exact" */
    LABTEXT_NOT_REPORTED,   /* "(the run did not report it)" */
    LABTEXT_OWN_CHECKS,     /* "The lab's own checks: %s of %s passed." */
    LABTEXT_NOTES,          /* "Notes of the run" */
    LABTEXT_WORDS           /* how many there are */
};
const char *labtext_word(enum labtext_word w, const char *lang);

/*
 * The head of the metric's description in lang, which a claim leads with:
 * up to its first " (", ": " or "; " ("share of stage time spent idle"), as
 * the player's lab box cuts it (labbox.js, shortHelp), so that the metric's
 * name in parentheses after it nests in none.  NULL when the manifest gives
 * no description; else a new string.
 */
char *labtext_head(const struct ast_labref *ref, const struct ast_expect *x, const char *lang);

/* The metric's description in lang, from the lab's manifest; NULL when it has none. */
const char *labtext_help(const struct ast_labref *ref, const struct ast_expect *x, const char *lang);

/*
 * The claim without its metric, in lang: "below 0.2", "within 0.001 of this
 * question's answer"; numbers with lang's decimal mark ("di bawah 0,2").  A
 * new string.
 */
char *labtext_wanted(const struct ast_labref *ref, const struct ast_expect *x, const char *lang);

#endif
