/*
 * gpu_skip.h — the prerequisite of every GPU test: a GPU, or a skip that
 * gives the driver's own reason (never a silent pass).
 */
#ifndef TESTS_GPU_SKIP_H
#define TESTS_GPU_SKIP_H

#include <criterion/criterion.h>
#include <stdio.h>

#include "dev_cuda.h"

/* Skip the calling test unless at least `need` GPUs are here; returns the GPU count. */
static inline int need_gpus(int need)
{
    char why[256] = "";
    int n = cuda_gpu_count(why, sizeof why);
    /* Criterion shows skip reasons only with --verbose; the suite's log shows this line. */
    if (n == 0) {
        fprintf(stderr, "skipped: no GPU: %s\n", why);
        cr_skip_test("no GPU: %s", why);
    }
    if (n < need) {
        fprintf(stderr, "skipped: needs %d GPUs, this machine has %d\n", need, n);
        cr_skip_test("needs %d GPUs, this machine has %d", need, n);
    }
    return n;
}

#endif
