/*
 * The GPU placement rules and the report's placement line (runtime/place.c),
 * on any machine: the GPU names are what a driver would report.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "place.h"

static const char *const h200[8] = { "NVIDIA H200", "NVIDIA H200", "NVIDIA H200", "NVIDIA H200",
                                     "NVIDIA H200", "NVIDIA H200", "NVIDIA H200", "NVIDIA H200" };

Test(place, eight_ranks_on_one_gpu_say_they_share_it_and_move_data_by_copies)
{
    char line[600];
    place_cuda_text(line, sizeof line, 8, 1, h200, true);
    cr_assert(strstr(line, "8 ranks on 1 of 1 GPU: ranks 0-7 -> GPU 0 (NVIDIA H200)"), "%s", line);
    cr_assert(strstr(line, "8 ranks SHARE GPU 0"), "%s", line);
    cr_assert(strstr(line, "device-to-device copies"), "%s", line);
    cr_assert(strstr(line, "not NCCL (NCCL needs a GPU per rank and there are more ranks than GPUs)"),
              "%s", line);
}

Test(place, a_gpu_per_rank_lists_every_rank_with_its_gpu_and_says_nccl)
{
    const char *names[3] = { "NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA A100-SXM4-40GB" };
    char line[600];
    place_cuda_text(line, sizeof line, 3, 3, names, true);
    cr_assert(strstr(line, "3 ranks on 3 of 3 GPUs: rank 0 -> GPU 0 (NVIDIA H100 80GB HBM3), "
                           "rank 1 -> GPU 1 (NVIDIA H200), rank 2 -> GPU 2 (NVIDIA A100-SXM4-40GB)"),
              "%s", line);
    cr_assert(strstr(line, "no two ranks share a GPU; data moves by NCCL"), "%s", line);
    cr_assert_null(strstr(line, "copies"), "%s", line);
}

Test(place, without_nccl_in_the_build_ranks_share_gpu_0_even_with_gpus_to_spare)
{
    char line[600];
    place_cuda_text(line, sizeof line, 2, 8, h200, false);
    cr_assert(strstr(line, "2 ranks on 1 of 8 GPUs: ranks 0-1 -> GPU 0"), "%s", line);
    cr_assert(strstr(line, "built without NCCL"), "%s", line);
    cr_assert(!place_cuda_nccl(2, 8, false));
    cr_assert(place_cuda_nccl(8, 8, true));
    cr_assert(!place_cuda_nccl(9, 8, true));
    cr_assert_eq(place_cuda_gpu(5, true), 5);
    cr_assert_eq(place_cuda_gpu(5, false), 0);
}

Test(place, a_short_buffer_is_cut_and_still_terminated_and_missing_names_read_as_unknown)
{
    char line[24];
    memset(line, 'x', sizeof line);
    place_cuda_text(line, sizeof line, 4, 4, NULL, true);
    cr_assert_eq(strlen(line), sizeof line - 1);
    cr_assert_eq(strncmp(line, "4 ranks on 4 of 4 GPUs: ", sizeof line - 1), 0, "%s", line);
    char full[300];
    place_cuda_text(full, sizeof full, 1, 1, NULL, true);
    cr_assert(strstr(full, "rank 0 -> GPU 0 (?)"), "%s", full);
}

Test(place, a_process_takes_its_local_rank_modulo_the_visible_gpus)
{
    /* srun with one visible GPU per process: every process takes its GPU 0. */
    for (int local = 0; local < 8; local++)
        cr_assert_eq(place_gpu_of(local, 1), 0);
    /* Every GPU of the node visible: local rank i takes GPU i. */
    for (int local = 0; local < 8; local++)
        cr_assert_eq(place_gpu_of(local, 8), local);
    /* 8 processes, 4 GPUs: two processes on each. */
    cr_assert_eq(place_gpu_of(5, 4), 1);
    cr_assert_eq(place_gpu_of(0, 0), -1);
}

Test(place, two_ranks_on_one_physical_gpu_are_found_by_its_uuid)
{
    const char *own[4] = { "GPU-aa", "GPU-bb", "GPU-cc", "GPU-dd" };
    const char *twice[4] = { "GPU-aa", "GPU-bb", "GPU-cc", "GPU-bb" };
    int a = -1, b = -1;
    cr_assert(!place_shared(own, 4, &a, &b));
    cr_assert(place_shared(twice, 4, &a, &b));
    cr_assert_eq(a, 1);
    cr_assert_eq(b, 3);
}
