/*
 * A failed check under MPI ends the whole job (run by tests/mpi/run.sh under
 * mpirun -np 2): rank 1's check fails while rank 0 waits for it in a barrier.
 * exit() would leave rank 0 waiting, and rank 1's MPI_Finalize with it; the
 * fail hook that mpi_up installs must MPI_Abort instead, so mpirun ends with
 * a non-zero status well before run.sh's timeout.
 */
#include <mpi.h>
#include <stdio.h>

#include "callcheck.h"
#include "comm_mpi.h"

int main(void)
{
    mpi_up();
    if (mpi_world_rank() == 1)
        callcheck_fail("CUDA", "cudaMalloc(&p, bytes)", __FILE__, __LINE__, "out of memory", NULL);
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    /* Reached only when rank 1 went on: the test fails. */
    printf("rank %d: the barrier ended\n", mpi_world_rank());
    return 0;
}
