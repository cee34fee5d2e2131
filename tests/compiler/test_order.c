/*
 * test_order.c — held diagnostics come out sorted by file, line and column,
 * each note staying with the report it belongs to.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "order.h"
#include "util.h"

static FILE *out;
static struct diag *d;
static const struct source *a, *b;

static void setup(void)
{
    out = tmpfile();
    cr_assert_not_null(out);
    d = diag_new(out);
    a = diag_add_source(d, "a.qz", xstrdup("one\ntwo\nthree\n"), 14);
    b = diag_add_source(d, "b.qz", xstrdup("four\n"), 5);
}

static void teardown(void)
{
    diag_free(d);
    fclose(out);
}

TestSuite(order, .init = setup, .fini = teardown);

static struct src_loc at(const struct source *s, int line, int col, size_t off)
{
    return (struct src_loc){ .src = s, .line = line, .col = col, .end_line = line, .end_col = col, .off = off };
}

/* The "file:line:col: level" heads of what was printed, one a line. */
static char *heads(void)
{
    fflush(out);
    rewind(out);
    char line[256], *acc = xstrdup("");
    while (fgets(line, sizeof line, out)) {
        if (strstr(line, ": error: ") || strstr(line, ": note: ") || strstr(line, ": warning: ")) {
            char *end = strstr(line, ": ");
            end = strstr(end + 2, ": ");
            *end = '\0';
            char *next = xasprintf("%s%s\n", acc, line);
            free(acc);
            acc = next;
        }
    }
    return acc;
}

Test(order, reports_are_printed_by_file_line_and_column_with_their_notes)
{
    struct order *o = order_hold(d);
    struct src_loc l3 = at(a, 3, 1, 8), l1 = at(a, 1, 2, 1), l2 = at(a, 2, 1, 4), lb = at(b, 1, 1, 0);
    diag_error(d, &lb, "in the second file");
    diag_error(d, &l3, "third line");
    diag_note(d, &l1, "a note about the third line");
    diag_warning(d, &l2, "second line");
    diag_error(d, &l1, "first line");
    cr_expect_eq(ftell(out), 0, "nothing is printed while held");
    order_release(o);
    char *h = heads();
    cr_expect_str_eq(h, "a.qz:1:2: error\n"
                        "a.qz:2:1: warning\n"
                        "a.qz:3:1: error\n"
                        "a.qz:1:2: note\n"
                        "b.qz:1:1: error\n");
    free(h);
    cr_expect_eq(diag_errors(d), 3);
}

Test(order, the_errors_met_so_far_are_available_while_held)
{
    struct order *o = order_hold(d);
    struct src_loc l2 = at(a, 2, 1, 4);
    diag_warning(d, &l2, "not an error");
    diag_error(d, &l2, "an error");
    diag_error(d, NULL, "no place");
    size_t n;
    const struct src_loc *e = order_errors(o, &n);
    cr_assert_eq(n, 1, "only located errors count");
    cr_expect_eq(e[0].line, 2);
    order_release(o);
}

Test(order, release_gives_the_diag_back_its_output_and_hook)
{
    struct order *o = order_hold(d);
    order_release(o);
    cr_expect_eq(d->out, out);
    cr_expect_null(d->hook);
    struct src_loc l1 = at(a, 1, 1, 0);
    diag_error(d, &l1, "printed at once");
    cr_expect_gt(ftell(out), 0);
}
