/*
 * place.h — which GPU each rank takes, and the report's line saying so.
 *
 * Plain C with no CUDA in it, so the rules and their wording are tested on
 * machines without a GPU (tests/runtime/test_place.c); the cuda and mpi
 * backends call these with what the driver told them.
 */
#ifndef RT_PLACE_H
#define RT_PLACE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * `--backend cuda` (ranks are threads of one process): whether the ranks
 * talk through NCCL, which needs a GPU per rank and NCCL in the build.
 */
bool place_cuda_nccl(int nranks, int ngpu, bool have_nccl);

/* The GPU of rank under --backend cuda: its own with NCCL, else all share GPU 0. */
int place_cuda_gpu(int rank, bool use_nccl);

/*
 * The placement line of a --backend cuda run into buf (n bytes, always
 * terminated): rank -> GPU with each GPU's name (names[g] for g < ngpu; a
 * NULL array or entry reads "?"), whether ranks share a GPU, and whether
 * data moves by NCCL or by device-to-device copies, with the reason.
 */
void place_cuda_text(char *buf, size_t n, int nranks, int ngpu, const char *const *names,
                     bool have_nccl);

/*
 * `--backend mpi --device cuda`: the GPU a process takes among the nvisible
 * it sees, from its rank among the processes of its node.  Local rank modulo
 * the visible count: with one visible GPU per process (srun
 * --gpus-per-task=1, CUDA_VISIBLE_DEVICES per rank) every process takes its
 * GPU 0; with all of a node's GPUs visible, local rank i takes GPU i.
 * -1 when nvisible < 1.
 */
int place_gpu_of(int local, int nvisible);

/*
 * Whether two of the n ids (one per local rank: the UUID of the GPU it
 * took) are the same GPU: true with the first such pair in *a < *b.
 */
bool place_shared(const char *const *ids, int n, int *a, int *b);

#endif
