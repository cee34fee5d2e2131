/*
 * The tensor-split lab: every mode and dtype against the unsplit product,
 * with odd sizes and rank counts that do not divide them; the bytes each
 * collective moves; memory per rank against the unsplit layer.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "labtest.h"
#include "tensor_split.h"

#include "tensor_split_params.h"

static struct labtest *run(const char *mode, int ranks, int tokens, int hidden, int ffn, const char *dtype)
{
    char a[6][40];
    snprintf(a[0], sizeof a[0], "mode=%s", mode);
    snprintf(a[1], sizeof a[1], "ranks=%d", ranks);
    snprintf(a[2], sizeof a[2], "tokens=%d", tokens);
    snprintf(a[3], sizeof a[3], "hidden=%d", hidden);
    snprintf(a[4], sizeof a[4], "ffn=%d", ffn);
    snprintf(a[5], sizeof a[5], "dtype=%s", dtype);
    const char *args[] = { a[0], a[1], a[2], a[3], a[4], a[5], NULL };
    struct labtest *t = labtest_run("labs/tensor-split", &lab_tensor_split, args);
    cr_assert_eq(t->rc, 0, "%s over %d ranks did not run", mode, ranks);
    return t;
}

static const char *const modes[] = { "column", "row", "mlp" };

Test(tensor_split, every_mode_equals_the_unsplit_product_for_odd_sizes_and_rank_counts_that_do_not_divide_them)
{
    static const int ranks[] = { 1, 2, 3, 4, 7 };
    for (int m = 0; m < 3; m++)
        for (size_t r = 0; r < 5; r++)
            for (int d = 0; d < 2; d++) {
                const char *dt = d ? "fp64" : "fp32";
                struct labtest *t = run(modes[m], ranks[r], 5, 13, 37, dt);
                double err = labtest_metric(t, "max_rel_error");
                cr_assert_lt(err, d ? 1e-12 : 1e-5, "%s %s over %d ranks: max rel error %.3e", modes[m], dt,
                             ranks[r], err);
                cr_assert_eq(lab_report_failed(t->report), 0);
                labtest_free(t);
            }
}

Test(tensor_split, ranks_that_hold_no_columns_still_give_the_right_product)
{
    /* 5 ranks, 3 columns: two ranks hold empty slices and multiply nothing. */
    for (int m = 0; m < 3; m++) {
        struct labtest *t = run(modes[m], 5, 4, 6, 3, "fp64");
        cr_assert_lt(labtest_metric(t, "max_rel_error"), 1e-12, "%s", modes[m]);
        labtest_free(t);
    }
}

Test(tensor_split, fp32_error_stays_under_1e_5_at_the_default_sizes)
{
    struct labtest *t = run("mlp", 4, 64, 256, 1024, "fp32");
    double err = labtest_metric(t, "max_rel_error");
    cr_assert_lt(err, 1e-5, "max rel error %.3e", err);
    cr_assert_gt(err, 0, "fp32 against fp64 cannot be exact at these sizes");
    labtest_free(t);
}

Test(tensor_split, ring_collectives_move_the_textbook_byte_counts)
{
    /* tokens x hidden = 8 x 12 floats = 384 bytes; 4 ranks divide it. */
    for (int m = 1; m < 3; m++) {
        struct labtest *t = run(modes[m], 4, 8, 12, 16, "fp32");
        double S = 8 * 12 * 4;
        cr_assert_float_eq(labtest_metric(t, "bytes_sent"), 2.0 * 3 / 4 * S, 1e-9, "%s all-reduce", modes[m]);
        cr_assert_float_eq(labtest_metric(t, "bytes_received"), 2.0 * 3 / 4 * S, 1e-9);
        cr_assert_eq(labtest_metric(t, "allreduces"), 1);
        cr_assert_eq(labtest_metric(t, "allgathers"), 0);
        labtest_free(t);
    }
    /* column: Y is 8 x 16 floats = 512 bytes, all-gathered: each rank sends 3 of the 4 blocks. */
    struct labtest *t = run("column", 4, 8, 12, 16, "fp32");
    cr_assert_float_eq(labtest_metric(t, "bytes_sent"), 3.0 / 4 * 512, 1e-9);
    cr_assert_eq(labtest_metric(t, "allreduces"), 0);
    cr_assert_eq(labtest_metric(t, "allgathers"), 1);
    labtest_free(t);
}

Test(tensor_split, each_rank_holds_its_share_of_the_weights_and_less_memory_than_the_unsplit_layer)
{
    struct labtest *t = run("mlp", 3, 16, 32, 100, "fp32");
    /* 100 columns over 3 ranks: the largest slice is 34. */
    cr_assert_float_eq(labtest_metric(t, "weight_fraction"), 34.0 / 100, 1e-12);
    cr_assert_lt(labtest_metric(t, "memory_per_rank"), labtest_metric(t, "memory_unsplit"));
    /* unsplit: X 16x32, A 32x100, Z 16x100, B 100x32, Y 16x32 floats */
    cr_assert_float_eq(labtest_metric(t, "memory_unsplit"), 4.0 * (512 + 3200 + 1600 + 3200 + 512), 1e-9);
    labtest_free(t);
}

Test(tensor_split, one_rank_is_the_unsplit_layer_with_no_traffic)
{
    struct labtest *t = run("mlp", 1, 7, 9, 11, "fp64");
    cr_assert_eq(labtest_metric(t, "bytes_sent"), 0);
    cr_assert_float_eq(labtest_metric(t, "weight_fraction"), 1.0, 1e-12);
    labtest_free(t);
}
