/*
 * Tests of the allreduce lab: nccl-tests' bandwidth conventions, the ring in
 * virtual time against hand-worked alpha-beta sums, the tensor-parallel
 * layer's figures, and a live sweep whose every element is exact.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "ar_model.h"
#include "labtest.h"

#include "allreduce_params.h"

Test(model, busbw_scales_algbw_by_two_n_minus_one_over_n)
{
    cr_assert_eq(ar_busbw_factor(1), 0.0);
    cr_assert_eq(ar_busbw_factor(2), 1.0);
    cr_assert_eq(ar_busbw_factor(4), 1.5);
    cr_assert_eq(ar_busbw_factor(8), 1.75);
    cr_assert_eq(ar_algbw(1e9, 0.5), 2e9);
}

Test(model, the_presets_are_found_by_name_and_nothing_else_is)
{
    const struct ar_link *nv = ar_link_find("nvlink"), *pcie = ar_link_find("pcie"), *ib = ar_link_find("ib");
    cr_assert_not_null(nv);
    cr_assert_not_null(pcie);
    cr_assert_not_null(ib);
    cr_assert_eq(nv->beta_Bps, 450e9);
    cr_assert_eq(pcie->beta_Bps, 64e9);
    cr_assert_eq(ib->beta_Bps, 50e9);
    cr_assert_null(ar_link_find("nvlink5"));
}

Test(model, an_even_ring_takes_two_n_minus_one_steps_of_alpha_plus_a_block_over_beta)
{
    const struct ar_link *nv = ar_link_find("nvlink");
    /* 4 ranks, 4096 fp32 = 16384 bytes: 6 steps of 3 us + 4096 B / 450 GB/s. */
    double want = 6 * (3e-6 + 4096 / 450e9);
    cr_assert_float_eq(ar_ring_time(4, 4096, 4, 0, nv), want, 1e-15);
    cr_assert_float_eq(ar_ring_time_formula(4, 4096, 4, 0, nv), want, 1e-15);
    /* In 1024-byte chunks every block pays the latency four times. */
    cr_assert_float_eq(ar_ring_time(4, 4096, 4, 1024, nv), 6 * (4 * 3e-6 + 4096 / 450e9), 1e-15);
    cr_assert_eq(ar_ring_time(1, 4096, 4, 0, nv), 0.0);
    cr_assert_eq(ar_ring_time(4, 0, 4, 0, nv), 0.0);
}

Test(model, an_uneven_ring_waits_for_its_largest_block_at_every_step)
{
    const struct ar_link *ib = ar_link_find("ib");
    /* 3 ranks, 10 fp32: blocks of 16, 12 and 12 bytes.  Worked step by step, the slowest rank
     * ends after four sends of the 16-byte block. */
    double t16 = 8e-6 + 16 / 50e9;
    cr_assert_float_eq(ar_ring_time(3, 10, 4, 0, ib), 4 * t16, 1e-15);
}

Test(model, a_tensor_parallel_layer_is_cheap_on_nvlink_and_dearer_than_its_gemms_elsewhere)
{
    struct ar_tp_layer L = { .hidden = 8192, .seq = 2048, .batch = 1, .tp = 8, .tflops = 400 };
    cr_assert_eq(ar_tp_allreduce_bytes(&L), 33554432.0, "2048 x 8192 x 2 bytes = 32 MiB");
    /* (24 s h^2 + 4 s^2 h) / 8 = (3298534883328 + 137438953472) / 8 */
    cr_assert_eq(ar_tp_flops(&L), 429496729600.0);
    cr_assert_float_eq(ar_tp_gemm_time(&L), 429496729600.0 / 400e12, 1e-15);
    /* Two all-reduces, each 14 steps of alpha + 4 MiB / beta. */
    const struct ar_link *nv = ar_link_find("nvlink");
    cr_assert_float_eq(ar_tp_comm_time(&L, nv), 2 * 14 * (3e-6 + 4194304 / 450e9), 1e-12);
    cr_assert_lt(ar_tp_comm_time(&L, nv) / ar_tp_gemm_time(&L), 0.5);
    cr_assert_gt(ar_tp_comm_time(&L, ar_link_find("pcie")) / ar_tp_gemm_time(&L), 1.0);
    cr_assert_gt(ar_tp_comm_time(&L, ar_link_find("ib")) / ar_tp_gemm_time(&L), 1.0);
}

Test(lab, every_element_of_the_sweep_is_the_exact_sum)
{
    /* 4, 16, 64, 256, 1024, 4096 bytes: 6 sizes, none divisible by 3 ranks in elements but 4096/4. */
    static const char *const args[] = { "ranks=3", "minbytes=4", "maxbytes=4100", "stepfactor=4",
                                         "iters=2", NULL };
    struct labtest *t = labtest_run("labs/allreduce", &lab_allreduce, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0, "every check passes");
    cr_assert_eq(labtest_metric(t, "sizes"), 6.0);
    cr_assert_eq(labtest_metric(t, "wrong"), 0.0);
    cr_assert_eq(labtest_metric(t, "max_abs_error"), 0.0);
    double alg = labtest_metric(t, "algbw_gbs"), bus = labtest_metric(t, "busbw_gbs");
    cr_assert_gt(alg, 0.0);
    cr_assert_float_eq(bus, alg * 4.0 / 3.0, 1e-12);
    cr_assert_float_eq(alg, 4096 / (labtest_metric(t, "time_us") * 1e-6) / 1e9, 1e-9);
    cr_assert_eq(labtest_metric(t, "model_error"), 0.0);
    cr_assert_eq(labtest_metric(t, "tp_allreduce_mib"), 32.0);
    labtest_free(t);
}

Test(lab, a_sweep_from_zero_bytes_in_fp64_is_checked_too)
{
    static const char *const args[] = { "ranks=2", "minbytes=0", "maxbytes=64", "stepfactor=2",
                                         "dtype=fp64", "iters=1", "warmup-iters=0", "link=ib", NULL };
    struct labtest *t = labtest_run("labs/allreduce", &lab_allreduce, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0);
    /* 0, 8, 16, 32, 64 bytes. */
    cr_assert_eq(labtest_metric(t, "sizes"), 5.0);
    cr_assert_eq(labtest_metric(t, "wrong"), 0.0);
    /* 2 ranks, 8 doubles over InfiniBand: 2 steps of 8 us + 32 B / 50 GB/s. */
    cr_assert_float_eq(labtest_metric(t, "link_time_us"), 2 * (8 + 32 / 50e9 * 1e6), 1e-9);
    labtest_free(t);
}

Test(lab, one_rank_has_no_bus_traffic)
{
    static const char *const args[] = { "ranks=1", "minbytes=64", "maxbytes=64", "iters=1", NULL };
    struct labtest *t = labtest_run("labs/allreduce", &lab_allreduce, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(labtest_metric(t, "wrong"), 0.0);
    cr_assert_eq(labtest_metric(t, "busbw_gbs"), 0.0);
    cr_assert_eq(labtest_metric(t, "link_time_us"), 0.0);
    labtest_free(t);
}
