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

/* ---- sequence parallelism (Korthikanti et al. 2022) ---- */

Test(accounting, sequence_parallelism_splits_every_activation_by_t_as_korthikanti_table_2_says)
{
    /* s=2048, b=1, h=8192, a=64: sbh = 16777216, 5as/h = 80. */
    for (long t = 1; t <= 16; t *= 2) {
        struct mem_model m = big();
        m.tp = t;
        m.seq_parallel = true;
        cr_assert_eq(mem_layer_activations(&m) * (uint64_t)t, 16777216ULL * (34 + 80), "t = %ld: sbh(34 + 5as/h)/t", t);
        m.recompute = MEM_RECOMPUTE_SELECTIVE;
        cr_assert_eq(mem_layer_activations(&m) * (uint64_t)t, 16777216ULL * 34, "t = %ld: sbh 34/t", t);
        m.recompute = MEM_RECOMPUTE_FULL;
        cr_assert_eq(mem_layer_activations(&m) * (uint64_t)t, 16777216ULL * 2, "t = %ld: the layer's input, split", t);
    }
    /* Without it, t = 8: sbh(10 + 24/t + 5as/(ht)) = sbh * 23, against sbh * 14.25 with it. */
    struct mem_model m = big();
    cr_assert_eq(mem_layer_activations(&m), 16777216ULL * 23);
    m.seq_parallel = true;
    cr_assert_eq(mem_layer_activations(&m), 16777216ULL * 114 / 8);
}

Test(accounting, sequence_parallelism_needs_tp_to_divide_the_sequence)
{
    struct mem_model m = small();
    m.seq_parallel = true;
    cr_assert_null(mem_model_invalid(&m));
    m.seq = 63;
    cr_assert_not_null(mem_model_invalid(&m));
}

/* ---- ZeRO (Rajbhandari et al. 2020) ---- */

Test(accounting, zero_stages_shard_optimizer_then_gradients_then_weights_over_the_dp_ranks)
{
    struct mem_model m = big();
    struct mem_rank r0, r;
    mem_stage(&m, 0, &r0);
    uint64_t psi = r0.params;       /* 2063937536, which 8 divides */
    m.dp = 8;
    for (int z = 0; z <= 3; z++) {
        m.zero = z;
        mem_stage(&m, 0, &r);
        cr_assert_eq(r.params, psi, "the parameters a rank works with do not change");
        cr_assert_eq(r.weights, z >= 3 ? psi * 2 / 8 : psi * 2, "stage %d weights", z);
        cr_assert_eq(r.grads, z >= 2 ? psi * 4 / 8 : psi * 4, "stage %d gradients", z);
        cr_assert_eq(r.optimizer, z >= 1 ? psi * 12 / 8 : psi * 12, "stage %d optimizer", z);
        cr_assert_eq(r.activations, r0.activations, "ZeRO leaves the activations alone");
        cr_assert_float_eq(mem_zero_bytes_per_param(z, 8, 2, 4, 12) * (double)psi,
                           (double)(r.weights + r.grads + r.optimizer), 1e-3);
    }
    /* N that does not divide: the largest shard, ceil(psi / N). */
    m.dp = 7;
    m.zero = 1;
    mem_stage(&m, 0, &r);
    cr_assert_eq(r.optimizer, (psi + 6) / 7 * 12);
}

Test(accounting, the_papers_16_bytes_per_parameter_give_its_figure_1_for_7_5_billion_parameters_on_64_ranks)
{
    /* Figure 1: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB. */
    double psi = 7.5e9, want[] = { 120.0, 31.40625, 16.640625, 1.875 };
    for (int z = 0; z <= 3; z++)
        cr_assert_float_eq(mem_zero_bytes_per_param(z, 64, 2, 2, 12) * psi / 1e9, want[z], 1e-9, "stage %d", z);
}

Test(lab, sequence_parallelism_and_every_zero_stage_allocate_live_exactly_what_the_accounting_predicts)
{
    static const char *const zs[] = { "zero=0", "zero=1", "zero=2", "zero=3" };
    for (int z = 0; z < 4; z++) {
        const char *args[] = {
            "layers=4", "hidden=64", "heads=4", "seq=64", "vocab=201", "tp=2", "pp=2", "microbatches=3",
            "sequence-parallel=true", "dp=3", zs[z], NULL
        };
        struct labtest *t = labtest_run("labs/memory", &lab_memory, args);
        cr_assert_eq(t->rc, 0);
        cr_assert_eq(lab_report_failed(t->report), 0, "zero %d: every check passes", z);
        cr_assert_eq(labtest_metric(t, "live_error_pct"), 0.0, "zero %d", z);
        cr_assert_eq(labtest_metric(t, "dp_ranks"), 12.0);
        /* sbh(34 + 5as/h)/t with s=64, b=1, h=64, a=4, t=2: 4096 * (34 + 20) / 2. */
        cr_assert_eq(labtest_metric(t, "layer_activation_bytes"), 4096.0 * 54 / 2);
        /* Stage 0's 60928 parameters, sharded over 3 as the stage says. */
        double psi = 60928, shard = ceil(psi / 3);
        double states = (z >= 3 ? shard : psi) * 2 + (z >= 2 ? shard : psi) * 4 + (z >= 1 ? shard : psi) * 12;
        cr_assert_float_eq(labtest_metric(t, "model_states_gib") * GIB, states, 1e-3, "zero %d", z);
        double paper = (z >= 3 ? psi / 3 : psi) * 2 + (z >= 2 ? psi / 3 : psi) * 2 + (z >= 1 ? psi / 3 : psi) * 12;
        cr_assert_float_eq(labtest_metric(t, "paper_model_states_gb") * 1e9, paper, 1e-3, "zero %d", z);
        labtest_free(t);
    }
}

Test(lab, values_that_do_not_make_a_model_are_a_usage_error)
{
    static const char *const bad[] = { "layers=4", "hidden=64", "heads=4", "seq=63", "tp=2", "pp=1",
                                       "sequence-parallel=true", NULL };
    struct labtest *t = labtest_run("labs/memory", &lab_memory, bad);
    cr_assert_eq(t->rc, -2);
    labtest_free(t);
}
