/*
 * mpi_nocuda.c — the stand-in for mpi_cuda.c in builds without nvcc or NCCL:
 * `--device cuda` is refused before a launch.
 */
#include <stdio.h>

#include "comm_mpi.h"

int mpi_cuda_available(char *why, size_t n)
{
    snprintf(why, n, "this labrun was built without CUDA and NCCL (nvcc or nccl.h was not found "
             "at build time)");
    return -1;
}

const char *mpi_cuda_placement(void)
{
    return "";
}

int mpi_cuda_rank(struct comm **comm, struct dev **dev, char *why, size_t n)
{
    (void)comm;
    (void)dev;
    snprintf(why, n, "this labrun was built without CUDA and NCCL");
    return -1;
}

void mpi_cuda_done(void)
{
}
