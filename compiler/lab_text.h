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
 * One claim in words, all but the metric's name, which an output writes
 * before it as code: " (share of stage time spent idle): below 0.2" after
 * `bubble_fraction`, or ": below 0.2" for a metric with no description.
 * Every word is in lang: the manifest's description in lang (qz_lab_text's
 * fallback when the manifest lacks it), ours from the table.  A new string.
 * The description and unit come from the lab's manifest when the reference
 * was resolved.
 */
char *labtext_claim(const struct ast_labref *ref, const struct ast_expect *x, const char *lang);

/* The metric's description in lang, from the lab's manifest; NULL when it has none. */
const char *labtext_help(const struct ast_labref *ref, const struct ast_expect *x, const char *lang);

/* The claim without its metric, in lang: "below 0.2", "within 0.001 of this question's answer".  A new string. */
char *labtext_wanted(const struct ast_labref *ref, const struct ast_expect *x, const char *lang);

#endif
