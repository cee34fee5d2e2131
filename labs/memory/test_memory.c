/*
 * Tests of the memory lab: the accounting (mem_model.c) against figures
 * worked out by hand, and a run of the lab whose live allocation matches
 * them.  GiB = 2^30 bytes.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "labtest.h"
#include "mem_model.h"

#include "memory_params.h"

#define GIB 1073741824.0
#define MIB 1048576.0

/* The lab's defaults: a 65-billion-parameter GPT-style model on tp = 8, pp = 4. */
static struct mem_model big(void)
{
    return (struct mem_model){ .layers = 80, .hidden = 8192, .heads = 64, .seq = 2048, .micro_batch = 1,
                               .vocab = 32000, .dtype = MEM_BF16, .tp = 8, .pp = 4, .microbatches = 8 };
}

/* A small model: 4 layers, hidden 64, 4 heads, 64 tokens, vocabulary 201, tp = pp = 2, 3 micro-batches. */
static struct mem_model small(void)
{
    return (struct mem_model){ .layers = 4, .hidden = 64, .heads = 4, .seq = 64, .micro_batch = 1,
                               .vocab = 201, .dtype = MEM_BF16, .tp = 2, .pp = 2, .microbatches = 3 };
}

Test(accounting, mixed_precision_adam_costs_18_bytes_per_parameter_and_fp32_16)
{
    struct mem_bpp m = mem_bytes_per_param(MEM_BF16), f = mem_bytes_per_param(MEM_FP32);
    cr_assert_eq(m.weights, 2);
    cr_assert_eq(m.grads, 4);
    cr_assert_eq(m.optimizer, 12);
    cr_assert_eq(mem_bytes_per_param(MEM_FP16).optimizer, 12);
    cr_assert_eq(f.weights + f.grads + f.optimizer, 16);
}

Test(accounting, the_parameter_count_matches_a_hand_count)
{
    /* L=2, h=64, V=1000, s=128: 2(12*4096 + 13*64) + 64000 + 8192 + 128. */
    struct mem_model m = { .layers = 2, .hidden = 64, .heads = 4, .seq = 128, .micro_batch = 1,
                           .vocab = 1000, .tp = 1, .pp = 1, .microbatches = 1 };
    cr_assert_eq(mem_params_total(&m), 172288);
    /* The defaults: about 64.7 billion. */
    struct mem_model b = big();
    cr_assert_eq(mem_params_total(&b), 64711966720ULL);
}

Test(accounting, a_tensor_parallel_rank_holds_its_share_of_a_layer_plus_the_replicated_parts)
{
    struct mem_model m = small();
    /* (12*64^2 + 7*64)/2 + 6*64 */
    cr_assert_eq(mem_layer_params(&m), 25184);
    m.tp = 1;
    cr_assert_eq(mem_layer_params(&m), 12 * 64 * 64 + 13 * 64);
}

Test(accounting, activations_per_layer_follow_korthikanti_for_16_bit_types)
{
    /* s=2048, b=1, h=8192, a=64: sbh(10 + 24/t + 5as/(ht)) bytes. */
    struct mem_model m = big();
    cr_assert_eq(mem_layer_activations(&m), 16777216ULL * 23);     /* t=8: 10 + 3 + 10 */
    m.tp = 1;
    cr_assert_eq(mem_layer_activations(&m), 16777216ULL * 114);    /* 34 + 5*64*2048/8192 = 34 + 80 */
}

Test(accounting, selective_recomputation_drops_the_attention_scores_and_full_keeps_the_input)
{
    struct mem_model m = big();
    m.recompute = MEM_RECOMPUTE_SELECTIVE;
    cr_assert_eq(mem_layer_activations(&m), 16777216ULL * 13);     /* 10 + 24/8 */
    m.recompute = MEM_RECOMPUTE_FULL;
    cr_assert_eq(mem_layer_activations(&m), 16777216ULL * 2);      /* the bf16 layer input */
    enum mem_recompute r;
    cr_assert_eq(mem_recompute_parse("selective", &r), 0);
    cr_assert_eq(r, MEM_RECOMPUTE_SELECTIVE);
    cr_assert_eq(mem_recompute_parse("some", &r), -1);
}

Test(accounting, fp32_activations_take_four_bytes_and_masks_one)
{
    /* s=4, b=1, h=8, a=2, t=2: sbh(4*4+2) + 12*4*sbh/t + (2*4+1)*a*s^2*b/t = 576 + 768 + 144. */
    struct mem_model m = { .layers = 1, .hidden = 8, .heads = 2, .seq = 4, .micro_batch = 1, .vocab = 2,
                           .dtype = MEM_FP32, .tp = 2, .pp = 1, .microbatches = 1 };
    cr_assert_eq(mem_layer_activations(&m), 1488);
}

Test(accounting, layers_and_in_flight_micro_batches_are_spread_over_stages)
{
    struct mem_model m = small();
    m.layers = 10;
    m.pp = 4;
    m.microbatches = 8;
    long want_layers[] = { 3, 3, 2, 2 }, want_flight[] = { 4, 3, 2, 1 };
    for (long k = 0; k < 4; k++) {
        cr_assert_eq(mem_stage_layers(&m, k), want_layers[k], "stage %ld", k);
        cr_assert_eq(mem_in_flight(&m, k), want_flight[k], "stage %ld", k);
    }
    m.microbatches = 2;     /* fewer micro-batches than stages: none holds more than m */
    cr_assert_eq(mem_in_flight(&m, 0), 2);
    cr_assert_eq(mem_in_flight(&m, 3), 1);
}

Test(accounting, the_default_model_overflows_one_device_and_fits_when_split)
{
    struct mem_model m = big(), u = mem_unsplit(&m);
    struct mem_rank r, one;
    cr_assert_eq(mem_largest(&m, &r), 0, "the first stage holds the most");
    /* Stage 0: 20 layers x 100719616 + 4000 x 8192 + 2048 x 8192 parameters, 18 bytes each,
     * plus 4 micro-batches x 20 layers x 385875968 bytes of activations. */
    cr_assert_eq(r.params, 2063937536ULL);
    cr_assert_eq(r.total, 2063937536ULL * 18 + 4ULL * 20 * 385875968);
    cr_assert_lt(r.total / GIB, 80.0);
    mem_stage(&u, 0, &one);
    cr_assert_gt(one.total / GIB, 1000.0, "unsplit: %.1f GiB", one.total / GIB);
}

Test(accounting, inconsistent_shapes_are_refused_with_a_reason)
{
    struct mem_model m = small();
    cr_assert_null(mem_model_invalid(&m));
    m.tp = 3;
    cr_assert_not_null(mem_model_invalid(&m));
    m = small();
    m.pp = 5;
    cr_assert_not_null(mem_model_invalid(&m));
    m = small();
    m.heads = 3;
    cr_assert_not_null(mem_model_invalid(&m));
}

static const char *const small_args[] = {
    "layers=4", "hidden=64", "heads=4", "seq=64", "micro-batch=1", "vocab=201",
    "tp=2", "pp=2", "microbatches=3", "device-mem=0.004", NULL
};

Test(lab, the_live_allocator_peak_equals_the_hand_computed_prediction)
{
    struct labtest *t = labtest_run("labs/memory", &lab_memory, small_args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0, "every check passes");
    /* The live model of tp = pp = 2 is this very model.  Stage 0: 2 layers x 25184 + 101 x 64
     * + 64 x 64 = 60928 parameters x 18 bytes, plus 2 micro-batches in flight x 2 layers x
     * 131072 bytes of activations = 1620992 bytes. */
    cr_assert_float_eq(labtest_metric(t, "live_predicted_mib") * MIB, 1620992.0, 1e-6);
    cr_assert_float_eq(labtest_metric(t, "live_peak_mib") * MIB, 1620992.0, 1e-6);
    cr_assert_eq(labtest_metric(t, "live_error_pct"), 0.0);
    cr_assert_eq(labtest_metric(t, "ranks"), 4.0);
    cr_assert_eq(labtest_metric(t, "bytes_per_param"), 18.0);
    labtest_free(t);
}

Test(lab, a_device_that_holds_one_rank_but_not_the_whole_model_is_reported_so)
{
    struct labtest *t = labtest_run("labs/memory", &lab_memory, small_args);
    cr_assert_eq(t->rc, 0);
    /* Unsplit: 217024 parameters x 18 + 4 layers x 4096 x (34 + 20) bytes = 4791168 bytes,
     * over the 0.004 GiB (4294967 bytes) device; the largest rank's 1620992 fits. */
    cr_assert_float_eq(labtest_metric(t, "single_device_gib") * GIB, 4791168.0, 1e-3);
    cr_assert_float_eq(labtest_metric(t, "max_rank_gib") * GIB, 1620992.0, 1e-3);
    cr_assert_eq(labtest_metric(t, "fits_single"), 0.0);
    cr_assert_eq(labtest_metric(t, "fits"), 1.0);
    labtest_free(t);
}

Test(lab, the_live_step_follows_the_recomputation_setting)
{
    static const char *const args[] = {
        "layers=4", "hidden=64", "heads=4", "seq=64", "vocab=201", "tp=2", "pp=2",
        "microbatches=3", "recompute=full", NULL
    };
    struct labtest *t = labtest_run("labs/memory", &lab_memory, args);
    cr_assert_eq(t->rc, 0);
    cr_assert_eq(lab_report_failed(t->report), 0);
    /* Stage 0 keeps only each layer's 64 x 64 bf16 input: 60928 x 18 + 2 x 2 x 8192 bytes. */
    cr_assert_float_eq(labtest_metric(t, "live_peak_mib") * MIB, 60928.0 * 18 + 4 * 8192, 1e-6);
    labtest_free(t);
}

Test(lab, a_split_that_does_not_divide_the_heads_fails_the_run)
{
    static const char *const bad[] = { "layers=4", "hidden=64", "heads=4", "tp=3", "pp=1", NULL };
    struct labtest *t = labtest_run("labs/memory", &lab_memory, bad);
    cr_assert_neq(t->rc, 0);
    labtest_free(t);
}
