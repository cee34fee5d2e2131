/*
 * Tests of the activations lab: what crosses the stage boundaries of a
 * pipeline in one step, against counts worked out by hand, and the weight
 * gradients against the lab's unsplit double-precision reference.
 */
#include <criterion/criterion.h>

#include "labtest.h"

#include "activations_params.h"

Test(activations, only_activations_forward_and_their_gradients_backward_cross_the_boundaries)
{
    /* 3 stages, 2 micro-batches of 3 tokens x hidden 8 in fp32: each crossing is 3 x 8 x 4 = 96
     * bytes; 2 boundaries x 2 micro-batches each way = 8 tensors, 384 bytes each way. */
    static const char *const args[] = { "stages=3", "microbatches=2", "layers=5", "tokens=3",
                                         "hidden=8", "dtype=fp32", NULL };
    struct labtest *t = labtest_run("labs/activations", &lab_activations, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0, "every check passes");
    cr_assert_eq(labtest_metric(t, "activation_bytes"), 96.0);
    cr_assert_eq(labtest_metric(t, "tensors_crossed"), 8.0);
    cr_assert_eq(labtest_metric(t, "forward_bytes_per_step"), 384.0);
    cr_assert_eq(labtest_metric(t, "backward_bytes_per_step"), 384.0);
    cr_assert_eq(labtest_metric(t, "boundary_bytes_per_step"), 768.0);
    cr_assert_eq(labtest_metric(t, "weight_bytes_moved"), 0.0);
    /* 5 layers of 8 x 8 fp32 weights = 1280 bytes, all staying where they are. */
    cr_assert_eq(labtest_metric(t, "param_bytes"), 1280.0);
    cr_assert_float_eq(labtest_metric(t, "boundary_to_param_ratio"), 0.6, 1e-12);
    cr_assert_lt(labtest_metric(t, "max_rel_error"), 1e-5);
    labtest_free(t);
}

Test(activations, fp64_gradients_match_the_reference_to_rounding)
{
    static const char *const args[] = { "stages=2", "microbatches=3", "layers=4", "tokens=5",
                                         "hidden=6", "dtype=fp64", NULL };
    struct labtest *t = labtest_run("labs/activations", &lab_activations, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0);
    cr_assert_eq(labtest_metric(t, "activation_bytes"), 5.0 * 6 * 8);
    cr_assert_eq(labtest_metric(t, "boundary_bytes_per_step"), 2.0 * 1 * 3 * 240);
    cr_assert_lt(labtest_metric(t, "max_rel_error"), 1e-12);
    labtest_free(t);
}

Test(activations, layers_that_do_not_divide_evenly_still_give_the_unsplit_gradients)
{
    static const char *const args[] = { "stages=3", "microbatches=2", "layers=7", "tokens=4",
                                         "hidden=16", NULL };
    struct labtest *t = labtest_run("labs/activations", &lab_activations, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0);
    cr_assert_eq(labtest_metric(t, "param_bytes"), 7.0 * 16 * 16 * 4);
    labtest_free(t);
}

Test(activations, a_single_stage_sends_nothing)
{
    static const char *const args[] = { "stages=1", "microbatches=2", "layers=2", "tokens=2",
                                         "hidden=4", NULL };
    struct labtest *t = labtest_run("labs/activations", &lab_activations, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0);
    cr_assert_eq(labtest_metric(t, "tensors_crossed"), 0.0);
    cr_assert_eq(labtest_metric(t, "boundary_bytes_per_step"), 0.0);
    cr_assert_eq(labtest_metric(t, "weight_bytes_moved"), 0.0);
    labtest_free(t);
}

Test(activations, fewer_layers_than_stages_fails_the_run)
{
    static const char *const args[] = { "stages=4", "layers=3", "tokens=2", "hidden=4", NULL };
    struct labtest *t = labtest_run("labs/activations", &lab_activations, args);
    cr_assert_neq(t->rc, 0);
    labtest_free(t);
}
