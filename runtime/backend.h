/*
 * backend.h — where ranks run: the table behind `--backend cpu|nccl-sim|cuda|mpi`.
 *
 * A backend starts the ranks of a run and gives each its communicator and
 * device.  The table lives in backend.c; a backend the build could not
 * include is still listed, with the reason, so `--backend cuda` on a build
 * without nvcc says "backend cuda is not built in: ..." and exits 2.
 */
#ifndef RT_BACKEND_H
#define RT_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "comm.h"
#include "dev.h"

/* The code run on every rank: its rank, the rank count, its comm and device (borrowed). */
typedef int (*backend_body)(int rank, int nranks, struct comm *comm, struct dev *dev, void *arg);

/* The accelerators a run used, as a recorded run keeps them (labrun --verify --record). */
struct backend_machine {
    char gpu[128];              /* the model of the ranks' first GPU; "" for none */
    int gpus;                   /* GPUs this process sees */
    char driver[32];            /* the CUDA driver's version, "12.4"; "" for none */
    char nccl[32];              /* NCCL's version, "2.21.5"; "" without NCCL */
};

struct backend {
    const char *name;           /* "cpu", "cuda", "mpi" */
    const char *summary;        /* one line for --help and the report */
    const char *absent;         /* NULL when built in; else why not ("built without nvcc") */
    /*
     * Whether this machine can run it now (a GPU is there, ...).  0, or -1
     * with the reason (the driver's own words) in why.  NULL: always.
     */
    int (*available)(char *why, size_t n);
    /*
     * Run body on each of the nranks ranks this process hosts (all of them
     * for threads; its own for MPI) and wait for them.  Returns 0 when every
     * body returned 0, else -1.
     */
    int (*launch)(int nranks, backend_body body, void *arg);
    /* Whether this process prints the report (MPI: world rank 0).  NULL: yes. */
    bool (*is_root)(void);
    /*
     * One line for the report on where the last launch put the ranks ("4 ranks
     * share GPU 0 ..."), "" when there is nothing to say.  NULL: nothing.
     */
    const char *(*placement)(void);
    /*
     * `--device NAME` for a backend whose ranks can use more than one kind of
     * device (mpi: cpu|cuda).  0, or -1 with the reason in why (usage error).
     * NULL: the backend takes no --device.
     */
    int (*set_device)(const char *name, char *why, size_t n);
    /*
     * How many ranks an outside launcher started (mpi: the processes of
     * mpirun or srun), so that a lab's `ranks` parameter follows `-np` when it
     * is not given.  0 when unknown.  NULL: the backend starts its own ranks.
     */
    int (*launched_ranks)(void);
    /*
     * Fill m with the accelerators of this machine, after a launch (a CUDA
     * context does not survive fork, so --verify asks in the process that
     * ran the lab).  NULL: a backend with no accelerator to tell of.
     */
    void (*machine)(struct backend_machine *m);
    /*
     * Whether the ranks take turns on one thread and the runtime's clocks
     * give each its own virtual time (coop): what a lab times is then
     * replayed, not measured, and each rank counts as having a core.
     */
    bool replays_time;
};

/* Every backend, built in or not, NULL-terminated; the first is the default. */
extern const struct backend *const backend_table[];

/* The backend called name, or NULL when there is no such name at all. */
const struct backend *backend_find(const char *name);

/* The names of backend_table joined by '|': "cpu|nccl-sim|coop|cuda|mpi". */
const char *backend_names(void);

/* ---- The cpu backend (backend_cpu.c): a thread per rank, threads comm, cpu device ---- */
extern const struct backend backend_cpu;

/* ---- nccl-sim (comm_nsim.c): the cpu backend's ranks, held to NCCL's rules ---- */
extern const struct backend backend_nccl_sim;

/* ---- coop (backend_coop.c): every rank a coroutine on one thread, NCCL's rules, virtual time ---- */
extern const struct backend backend_coop;

/* runtime/cuda/backend_cuda.c and runtime/mpi/backend_mpi.c, or backend.c's stand-ins. */
extern const struct backend backend_cuda;
extern const struct backend backend_mpi;

#endif
