/*
 * capture.h — test support: a diag that records every message, and parsing
 * from a string.
 */
#ifndef TEST_CAPTURE_H
#define TEST_CAPTURE_H

#include "qz.h"

struct rec {
    enum diag_level level;
    int line, col;          /* 0 when the message has no location */
    int end_line, end_col;
    char path[256];
    char msg[512];
};

struct capture {
    struct diag *d;         /* silent; the hook fills recs */
    struct rec recs[64];
    int n;                  /* messages seen (recs holds the first 64) */
};

void cap_init(struct capture *c);
void cap_fini(struct capture *c);
/* A source named "t.qz" holding text[0..len). */
const struct source *cap_source(struct capture *c, const char *text, size_t len);
/* Parse text (a C string) as "t.qz"; the tree is the caller's. */
struct ast_file *cap_parse(struct capture *c, const char *text);
/* Errors only, in order: the i-th error record, or NULL. */
const struct rec *cap_error(const struct capture *c, int i);
int cap_errors(const struct capture *c);
/* The first record (any level) whose message contains s, or NULL. */
const struct rec *cap_find(const struct capture *c, const char *s);

/* Criterion assertions shared by the grammar tests. */
/* Parse text as cap_parse does, asserting that it reports no error. */
struct ast_file *cap_parse_ok(struct capture *c, const char *text);
/* The i-th item of f, asserted to be a question (borrowed). */
struct ast_question *cap_question(const struct ast_file *f, size_t i);
/* Assert that the i-th error is at line:col and its message contains msg. */
void cap_assert_error(const struct capture *c, int i, int line, int col, const char *msg);
/* Assert that a note containing msg is at line:col. */
void cap_assert_note(const struct capture *c, const char *msg, int line, int col);

#endif
