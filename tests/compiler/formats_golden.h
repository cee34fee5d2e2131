/*
 * formats_golden.h — what the format tests share: compile a fixture quiz
 * into a membuf with one of the emitters, and compare it with a golden file
 * (UPDATE_GOLDEN=1 rewrites the file instead).
 */
#ifndef QZ_FORMATS_GOLDEN_H
#define QZ_FORMATS_GOLDEN_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "emit.h"
#include "support.h"

static inline void golden_compare(const struct membuf *b, const char *golden)
{
    if (getenv("UPDATE_GOLDEN")) {
        FILE *f = fopen(golden, "wb");
        cr_assert_not_null(f, "cannot write %s", golden);
        fwrite(b->data, 1, b->len, f);
        fclose(f);
    }
    size_t len;
    char *want = read_file(golden, &len);
    cr_assert_not_null(want, "no golden file %s (UPDATE_GOLDEN=1 writes it)", golden);
    cr_expect(b->len == len && memcmp(b->data, want, len) == 0, "output differs from %s:\n%s", golden, b->data);
    free(want);
}

/* Load and check path; the course, with no errors reported. */
static inline struct qz_course *golden_load(struct capture *cap, const char *path)
{
    struct qz_course *c = capture_load(cap, path);
    cr_assert_not_null(c);
    cr_assert(check_course(cap->d, c, NULL), "checks failed:%s", capture_dump(cap));
    return c;
}

#endif
