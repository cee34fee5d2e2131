/*
 * mpi_cuda.c — `--backend mpi --device cuda` (comm_mpi.h): each process takes
 * the GPU of its place among the ranks of its node and joins the NCCL
 * communicators of every rank (one per route, nccl_route.h), whose ids rank
 * 0 makes and MPI broadcasts.
 */
#include <stdbool.h>
#include <stdio.h>

#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include "callcheck.h"
#include "comm_cuda.h"
#include "comm_mpi.h"
#include "dev_cuda.h"

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
    MPI_CHECK(MPI_Comm_free(&node));

    char mine[192] = "";
    int ngpu = cuda_gpu_count(mine, sizeof mine);
    if (ngpu > 0 && nlocal > ngpu)
        snprintf(mine, sizeof mine, "%d ranks on one node but %d GPU%s there; NCCL needs a GPU "
                 "per rank (start at most %d ranks per node)", nlocal, ngpu, ngpu == 1 ? "" : "s",
                 ngpu);
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

    cuda_spin_wait(local);
    *dev = dev_cuda_new(rank, local);
    /* One id per communicator (nccl_route.h): ids must differ, or the communicators would be one. */
    ncclUniqueId id[NCCL_ROUTES];
    if (rank == 0)
        for (int j = 0; j < NCCL_ROUTES; j++)
            NCCL_CHECK(ncclGetUniqueId(&id[j]));
    MPI_CHECK(MPI_Bcast(id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
    world = nccl_world_new(1, &local);
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
