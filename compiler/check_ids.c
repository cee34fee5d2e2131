/*
 * check_ids.c — ids every output can carry, and unique ones (check_ids.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_ids.h"

void ids_init(struct id_table *t, size_t n)
{
    t->cap = 16;
    while (t->cap < 2 * n) t->cap *= 2;
    t->slot = xcalloc(t->cap, sizeof *t->slot);
}

void ids_free(struct id_table *t)
{
    free(t->slot);
}

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* FNV-1a over the folded bytes. */
static uint32_t fold_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ fold((unsigned char)*s)) * 16777619u;
    return h;
}

static bool fold_equal(const char *a, const char *b)
{
    for (; *a && fold((unsigned char)*a) == fold((unsigned char)*b); a++, b++) {}
    return fold((unsigned char)*a) == fold((unsigned char)*b);
}

/* Windows' device names: no file may be called so, whatever its extension. */
static bool device_name(const char *id)
{
    static const char *const names[] = { "con", "prn", "aux", "nul" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (fold_equal(id, names[i])) return true;
    if (strlen(id) != 4 || id[3] < '0' || id[3] > '9') return false;
    char head[4] = { id[0], id[1], id[2], 0 };
    return fold_equal(head, "com") || fold_equal(head, "lpt");
}

/*
 * An id is a name every output can carry: an XML ID in course.xml and the
 * packages' manifests (so it starts with a letter or '_'), and in a QTI
 * package the name of a file (items/ID.xml), so it is short and no
 * Windows device name.  Checked for the quiz's name and every question's.
 */
void check_id_form(struct diag *d, const char *what, const char *id, const struct src_loc *at)
{
    size_t n = strlen(id);
    if (n > CHECK_MAX_ID)
        diag_error(d, at, "%s id '%.20s...' is %zu characters long; at most %d are allowed "
                   "(packages name files after ids)", what, id, n, CHECK_MAX_ID);
    else if (id[0] >= '0' && id[0] <= '9')
        diag_error(d, at, "%s id '%s' starts with a digit; an id starts with a letter or '_' "
                   "(it is an XML ID in every output)", what, id);
    else if (strcmp(what, "question") == 0 && device_name(id))     /* only questions name files */
        diag_error(d, at, "%s id '%s' is a device name on Windows, where no file can be called so "
                   "(a QTI package names a file after each question)", what, id);
}

/*
 * Ids are unique across the quiz and every file it includes, also when case
 * is ignored (a package's files are named after them, and Windows and macOS
 * see Q1.xml and q1.xml as one file): question i's is recorded, or
 * reported with the earlier one.  A slot holds only the question: at most
 * half the slots are taken, so a look-up compares an id or two.
 */
void check_id(struct diag *d, const struct qz_course *c, size_t i, struct id_table *t)
{
    const struct ast_question *q = c->questions.items[i];
    const char *id = q->id;
    if (!id)
        return;
    struct src_loc here = ast_question_id_loc(q);
    check_id_form(d, "question", id, &here);
    size_t at = fold_hash(id) & (t->cap - 1);
    for (; t->slot[at]; at = (at + 1) & (t->cap - 1))
        if (fold_equal(c->questions.items[t->slot[at] - 1]->id, id)) break;
    if (!t->slot[at]) {
        t->slot[at] = (uint32_t)i + 1;
        return;
    }
    const struct ast_question *p = c->questions.items[t->slot[at] - 1];
    struct src_loc first = ast_question_id_loc(p);
    if (strcmp(p->id, id) == 0)
        diag_error(d, &here, "duplicate question id '%s'", q->id);
    else
        diag_error(d, &here, "question id '%s' differs from '%s' only in case; "
                   "ids must differ in more (packages name files after them)", q->id, p->id);
    diag_note(d, &first, "'%s' is first defined here", p->id);
}
