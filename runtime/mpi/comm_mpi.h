/*
 * comm_mpi.h — ranks that are MPI processes (started by mpirun or srun).
 *
 * The "mpi" communicator moves host memory with MPI's own point-to-point and
 * collectives on a duplicate of MPI_COMM_WORLD, so labrun's traffic never
 * mixes with anything else in the process.
 */
#ifndef RT_MPI_COMM_MPI_H
#define RT_MPI_COMM_MPI_H

#include <stdbool.h>
#include <stddef.h>

#include "comm.h"
#include "dev.h"

/*
 * Initialise MPI once per process (thread level FUNNELED: only the thread
 * that runs the rank calls MPI) and arrange MPI_Finalize at exit.  Errors
 * come back as codes (MPI_ERRORS_RETURN) so MPI_CHECK can print them.  From
 * then on a failed CUDA, cuBLAS or NCCL check aborts the whole job
 * (MPI_Abort) instead of exiting: exit's MPI_Finalize would wait for ranks
 * stuck in NCCL waiting for this one.
 */
void mpi_up(void);

/* This process's rank and the number of processes in MPI_COMM_WORLD. */
int mpi_world_rank(void);
int mpi_world_size(void);

/* This process's handle on a new duplicate of MPI_COMM_WORLD (host memory). */
struct comm *comm_mpi_world(void);

/*
 * The cuda device for `--backend mpi --device cuda` (mpi_cuda.c, built with
 * nvcc and NCCL): one GPU per rank of this node, its index the rank's place
 * among the node's ranks (MPI_Comm_split_type) modulo the GPUs the process
 * sees (place_gpu_of), refused when two ranks would share one physical GPU
 * (NCCL cannot), and an NCCL communicator over
 * every rank, bootstrapped by broadcasting rank 0's ncclUniqueId.  0, or -1
 * with the reason in why (on every rank: they agree through MPI).
 */
int mpi_cuda_rank(struct comm **comm, struct dev **dev, char *why, size_t n);
/* After the comm of mpi_cuda_rank is freed: destroy its NCCL communicators.  Nothing when there are none. */
void mpi_cuda_done(void);

/*
 * Whether --device cuda can work in this process: 0, or -1 with the reason
 * in why (the build has no CUDA and NCCL, or the driver's own words).
 */
int mpi_cuda_available(char *why, size_t n);

/* After mpi_cuda_rank: this process's GPU, for the report ("" before, or without CUDA). */
const char *mpi_cuda_placement(void);

#endif
