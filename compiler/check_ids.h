/*
 * check_ids.h — the checks' rules for ids (check.c's helpers): the form an
 * id every output can carry has, and ids unique across the quiz and its
 * includes, also when case is ignored.
 */
#ifndef QZ_CHECK_IDS_H
#define QZ_CHECK_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "qz.h"

/*
 * The ids seen so far, in one hash table (open addressing) keyed by the id
 * with ASCII letters folded to lower case: a bank of 100 000 questions is
 * one look-up each, not a sort, and ids that differ only in case meet.
 * Questions are looked up in order, so the one a look-up finds is the
 * earliest.
 */
struct id_table {
    uint32_t *slot;         /* a question's index + 1; 0: empty */
    size_t cap;             /* a power of two, at least twice the questions */
};

void ids_init(struct id_table *t, size_t n);
void ids_free(struct id_table *t);

/* what ("quiz", "question") id's form: an error at at when an output could not carry it. */
void check_id_form(struct diag *d, const char *what, const char *id, const struct src_loc *at);

/* Question i's id: its form, then recorded in t, or reported with the earlier one it repeats. */
void check_id(struct diag *d, const struct qz_course *c, size_t i, struct id_table *t);

#endif
