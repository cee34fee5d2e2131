/*
 * mpi_cuda.c — `--backend mpi --device cuda` (comm_mpi.h): each process takes
 * a GPU by its place among the ranks of its node (place_gpu_of: local rank
 * modulo the GPUs it sees, so one visible GPU per process under srun works
 * as well as all of them) and joins the NCCL communicators of every rank
 * (one per route, nccl_route.h), whose ids rank 0 makes and MPI broadcasts.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include "callcheck.h"
#include "comm_cuda.h"
#include "comm_mpi.h"
#include "dev_cuda.h"
#include "place.h"
#include "timer.h"
#include "util.h"

/* This process's GPU, for the report (mpi_cuda_placement). */
static char where[400];

const char *mpi_cuda_placement(void)
{
    return where;
}

/*
 * This process's GPU among the ngpu it sees, from its place local among the
 * nlocal processes of its node (node: their communicator).  Every process of
 * the node says which physical GPU it took (its UUID): NCCL refuses two ranks
 * on one GPU ("Duplicate GPU detected"), so that is said here, with the ranks
 * and what to change.  The GPU, or -1 with the reason in why.
 */
static int pick_gpu(MPI_Comm node, int local, int nlocal, int ngpu, char *why, size_t n)
{
    int gpu = place_gpu_of(local, ngpu);
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, gpu));
    char mine[40];
    int at = snprintf(mine, sizeof mine, "GPU-");
    for (int i = 0; i < 16; i++)
        at += snprintf(mine + at, sizeof mine - (size_t)at, "%02x", (unsigned char)prop.uuid.bytes[i]);
    char (*all)[40] = xcalloc((size_t)nlocal, sizeof *all);
    const char **ids = xcalloc((size_t)nlocal, sizeof *ids);
    MPI_CHECK(MPI_Allgather(mine, (int)sizeof mine, MPI_CHAR, all, (int)sizeof mine, MPI_CHAR, node));
    for (int i = 0; i < nlocal; i++)
        ids[i] = all[i];
    int a = 0, b = 0;
    bool shared = place_shared(ids, nlocal, &a, &b);
    free(ids);
    free(all);
    if (shared) {
        snprintf(why, n, "local ranks %d and %d of this node share one GPU (%.80s, %s; this process "
                 "sees %d GPU%s), and NCCL needs a GPU per rank: start at most one rank per GPU "
                 "(srun --gpus-per-task=1, or every GPU visible to every rank)",
                 a, b, prop.name, mine, ngpu, ngpu == 1 ? "" : "s");
        return -1;
    }
    snprintf(where, sizeof where, "local rank %d -> GPU %d of the %d it sees (%.80s), local rank "
             "modulo visible GPUs; no two ranks of a node share a GPU", local, gpu, ngpu, prop.name);
    return gpu;
}

/* This process's NCCL world (one link: its rank), from mpi_cuda_rank to mpi_cuda_done. */
static struct nccl_world *world;

int mpi_cuda_available(char *why, size_t n)
{
    return cuda_gpu_count(why, n) > 0 ? 0 : -1;
}

int mpi_cuda_rank(struct comm **comm, struct dev **dev, char *why, size_t n)
{
    int rank = mpi_world_rank(), size = mpi_world_size();
    MPI_Comm node;
    int local = 0, nlocal = 0;
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    MPI_CHECK(MPI_Comm_rank(node, &local));
    MPI_CHECK(MPI_Comm_size(node, &nlocal));

    char mine[400] = "";
    int ngpu = cuda_gpu_count(mine, sizeof mine);
    /* Every process of the node takes part in the GPU exchange, so a rank without a GPU stays in it. */
    int anynone = 0, none = ngpu == 0;
    MPI_CHECK(MPI_Allreduce(&none, &anynone, 1, MPI_INT, MPI_MAX, node));
    int gpu = anynone ? -1 : pick_gpu(node, local, nlocal, ngpu, mine, sizeof mine);
    if (anynone && !none)
        snprintf(mine, sizeof mine, "another rank of this node sees no GPU");
    MPI_CHECK(MPI_Comm_free(&node));
    /* Every rank learns whether some rank cannot go on, and rank 0 says why (its own or the first). */
    int bad = mine[0] ? 1 : 0, anybad = 0;
    MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (anybad) {
        int who = bad ? rank : size, first = size;
        MPI_CHECK(MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Bcast(mine, (int)sizeof mine, MPI_CHAR, first, MPI_COMM_WORLD));
        snprintf(why, n, "rank %d: %s", first, mine);
        return -1;
    }

    cuda_wait_mode(gpu, nlocal, timer_cores());
    *dev = dev_cuda_new(rank, gpu);
    (*dev)->sharers = 1;     /* pick_gpu refused two ranks on one GPU */
    /* One id per communicator (nccl_route.h): ids must differ, or the communicators would be one. */
    ncclUniqueId id[NCCL_ROUTES];
    if (rank == 0)
        for (int j = 0; j < NCCL_ROUTES; j++)
            NCCL_CHECK(ncclGetUniqueId(&id[j]));
    MPI_CHECK(MPI_Bcast(id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
    world = nccl_world_new(1, &gpu);
    /* The other ranks wait in NCCL for this one: end the job rather than return. */
    if (nccl_world_init_rank(world, id, rank, size) < 0) {
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* No other rank shares this process, so no peer GPU reads its staging memory. */
    *comm = comm_nccl_rank(&world->links[0], rank, size, *dev, NULL, 0);
    return 0;
}

void mpi_cuda_done(void)
{
    nccl_world_free(world);
    world = NULL;
}
