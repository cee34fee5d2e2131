/*
 * The example lab: its all-reduce equals the serial sum, and moves what a
 * ring all-reduce moves.
 */
#include <criterion/criterion.h>

#include "hello_params.h"
#include "labtest.h"

Test(hello, the_all_reduce_equals_the_serial_sum_and_sends_what_a_ring_sends)
{
    static const char *const args[] = { "ranks=4", "count=1000", NULL };
    struct labtest *t = labtest_run("tests/data/labs/hello", &lab_hello, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0, "every check passes");
    cr_assert_leq(labtest_metric(t, "max_abs_error"), 1e-12);
    /* A ring all-reduce of S bytes over R ranks sends 2(R-1)/R x S from every rank. */
    cr_assert_eq(labtest_metric(t, "bytes_sent"), 2.0 * 3 / 4 * 8000);
    labtest_free(t);
}

Test(hello, one_rank_sends_nothing)
{
    static const char *const args[] = { "ranks=1", "count=7", NULL };
    struct labtest *t = labtest_run("tests/data/labs/hello", &lab_hello, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(labtest_metric(t, "max_abs_error"), 0.0);
    cr_assert_eq(labtest_metric(t, "bytes_sent"), 0.0);
    labtest_free(t);
}
