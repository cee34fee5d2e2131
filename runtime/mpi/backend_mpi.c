/*
 * backend_mpi.c — `--backend mpi`: ranks are the processes mpirun or srun
 * started; this process runs its own rank.  `--device cpu` (the default)
 * keeps the rank's memory on the host and talks through MPI; `--device cuda`
 * puts it on one GPU per local rank and talks through NCCL (mpi_cuda.c).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "backend.h"
#include "callcheck.h"
#include "comm_mpi.h"

static bool on_cuda;            /* --device cuda */
static char placement[800];     /* how the last launch placed the ranks */

static int mpi_set_device(const char *name, char *why, size_t n)
{
    if (strcmp(name, "cpu") == 0) {
        on_cuda = false;
        return 0;
    }
    if (strcmp(name, "cuda") == 0) {
        if (mpi_cuda_available(why, n) < 0)
            return -1;
        on_cuda = true;
        return 0;
    }
    snprintf(why, n, "unknown device '%s' (cpu|cuda)", name);
    return -1;
}

static const char *mpi_placement(void)
{
    return placement;
}

/* Whether every rank says yes (so all of them go on, or none). */
static bool all_agree(bool mine)
{
    int ok = mine ? 1 : 0, all = 0;
    MPI_CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    return all == 1;
}

static int mpi_launch(int nranks, backend_body body, void *arg)
{
    mpi_up();
    int rank = mpi_world_rank(), size = mpi_world_size();
    if (size != nranks) {
        if (rank == 0)
            fprintf(stderr, "labrun: error: backend mpi: the lab needs %d ranks but %d process%s "
                    "started (mpirun -np %d labrun ...)\n",
                    nranks, size, size == 1 ? " was" : "es were", nranks);
        return -1;
    }
    struct comm *comm = NULL;
    struct dev *dev = NULL;
    char why[256] = "";
    if (on_cuda) {
        if (mpi_cuda_rank(&comm, &dev, why, sizeof why) < 0) {
            if (rank == 0)
                fprintf(stderr, "labrun: error: backend mpi --device cuda: %s\n", why);
            return -1;
        }
    } else {
        /* One BLAS thread, as the cpu backend: the rank's CPU time is its GEMMs' whole cost. */
        dev_cpu_set_blas_threads(1);
        comm = comm_mpi_world();
        dev = dev_cpu_new(rank);
    }
    char host[MPI_MAX_PROCESSOR_NAME];
    int len = 0, nodes = 0;
    MPI_CHECK(MPI_Get_processor_name(host, &len));
    /* Count nodes: ranks that are first on their node. */
    MPI_Comm node;
    int local = 0;
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    MPI_CHECK(MPI_Comm_rank(node, &local));
    MPI_CHECK(MPI_Comm_free(&node));
    int first = local == 0;
    MPI_CHECK(MPI_Allreduce(&first, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    snprintf(placement, sizeof placement,
             "%d MPI processes on %d node%s; %s (bytes shown are what a ring moves: %s picks "
             "its own algorithm)%s%s", size, nodes, nodes == 1 ? "" : "s",
             on_cuda ? "one GPU per rank, collectives and send/recv through NCCL"
                     : "host memory, collectives and send/recv through MPI",
             on_cuda ? "NCCL" : "the MPI library", on_cuda ? "; rank 0: " : "",
             on_cuda ? mpi_cuda_placement() : "");

    int rc = body(rank, size, comm, dev, arg);
    /*
     * A rank that failed may leave the others waiting for a message that never
     * comes (and would itself wait in all_agree forever): it ends the whole
     * job, as the threads backend wakes every waiting rank.
     */
    if (rc != 0) {
        fflush(stdout);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* Every rank got here: rank 0's exit status tells for the run. */
    bool ok = all_agree(rc == 0);
    comm_free(comm);
    dev_free_device(dev);
    if (on_cuda)
        mpi_cuda_done();
    return ok ? 0 : -1;
}

static int mpi_launched_ranks(void)
{
    mpi_up();
    return mpi_world_size();
}

static bool mpi_is_root(void)
{
    return mpi_world_rank() == 0;
}

const struct backend backend_mpi = {
    .name = "mpi",
    .summary = "ranks are MPI processes started by mpirun or srun (--device cpu|cuda)",
    .absent = NULL,
    .available = NULL,
    .launch = mpi_launch,
    .is_root = mpi_is_root,
    .placement = mpi_placement,
    .set_device = mpi_set_device,
    .launched_ranks = mpi_launched_ranks,
};
