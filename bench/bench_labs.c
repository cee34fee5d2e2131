/*
 * bench_labs.c — labrun's cpu backend against its peers and the machine's
 * limits, through the same interfaces the labs use (backend.h, comm.h,
 * dev.h):
 *
 *   memcpy     a plain memcpy's bandwidth, one thread and one per rank at
 *              once: what moving bytes costs on this machine at best;
 *   allreduce  the threads backend's comm_allreduce (float sum, in place)
 *              over 4 KiB-64 MiB, with nccl-tests' algbw and busbw, to set
 *              beside Open MPI's (bench_mpi_allreduce.c); rank r's thread is
 *              pinned to core r, as mpirun --bind-to core pins rank r; at
 *              64 MiB, one thread's memcpy of as many bytes before each trial;
 *   split      a column-parallel GEMM (each rank multiplies by its block of
 *              the weight's columns, then the outputs are all-gathered) against
 *              one OpenBLAS GEMM of the same size with as many threads as ranks,
 *              in interleaved pairs;
 *   pipeline   a GPipe step (forward to the last stage, backward to the first)
 *              whose work is empty: what the schedule's hand-offs cost alone.
 *
 *   bench_labs [-o FILE] [--ranks N] [--stages P] [--microbatches M] [--size N]
 *              [--only memcpy,allreduce,split,pipeline]
 *
 * --only runs the parts named (default all): run.sh times the all-reduce
 * alone, interleaved with Open MPI's, and the rest once.
 * Every figure is measured; every result is checked against a reference and
 * its error written beside it.  JSON goes to FILE (default stdout), a table
 * of the same figures to stderr.
 */
#include <jansson.h>
#include <sched.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "comm.h"
#include "dev.h"
#include "timer.h"

#define MIB ((size_t)1 << 20)

/* Timed trials of each measurement; the fastest counts (see each use). */
#define TRIALS 5

/* Interleaved pairs of the split GEMM and its OpenBLAS reference (odd: a median). */
#define SPLIT_PAIRS 7

static void die(const char *what)
{
    fprintf(stderr, "bench_labs: %s\n", what);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

/* ---- memcpy ----------------------------------------------------------- */

struct copy_arg {
    size_t bytes;
    int reps;
    pthread_barrier_t *start;
    double best_s;                  /* fastest single copy */
};

static void *copy_thread(void *p)
{
    struct copy_arg *a = p;
    char *src = xmalloc(a->bytes), *dst = xmalloc(a->bytes);
    memset(src, 1, a->bytes);
    memset(dst, 0, a->bytes);       /* first touch outside the timing */
    a->best_s = INFINITY;
    for (int r = 0; r < a->reps; r++) {
        pthread_barrier_wait(a->start);
        double t0 = timer_wall();
        memcpy(dst, src, a->bytes);
        double t = timer_wall() - t0;
        if (t < a->best_s)
            a->best_s = t;
    }
    if (dst[a->bytes - 1] != 1)
        die("memcpy copied wrong bytes");
    free(src);
    free(dst);
    return NULL;
}

/* Bytes copied per second by nthreads copying at once (the slowest one's time). */
static double memcpy_gbs(int nthreads, size_t bytes, int reps)
{
    pthread_t th[64];
    struct copy_arg a[64];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)nthreads);
    for (int i = 0; i < nthreads; i++) {
        a[i] = (struct copy_arg){ .bytes = bytes, .reps = reps, .start = &start };
        pthread_create(&th[i], NULL, copy_thread, &a[i]);
    }
    double slowest = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(th[i], NULL);
        slowest = fmax(slowest, a[i].best_s);
    }
    pthread_barrier_destroy(&start);
    return (double)bytes * nthreads / slowest / 1e9;
}

/* ---- all-reduce ----------------------------------------------------------- */

#define NSIZES 8
static const size_t ar_sizes[NSIZES] = { 4 << 10, 16 << 10, 64 << 10, 256 << 10,
                                         1 * MIB, 4 * MIB, 16 * MIB, 64 * MIB };

struct ar_rank {
    double time_s[NSIZES][TRIALS];  /* mean time of one call in each trial, this rank */
    double copy_s[TRIALS];          /* rank 0: one memcpy of the largest size before each of its trials */
    double err[NSIZES];             /* max |result - expected| of the checked call, this rank */
    int iters[NSIZES];
};

/* Calls per trial: some 64 MiB moved, 3 calls at least, 1000 at most (as bench_mpi_allreduce.c). */
static int ar_iters(size_t bytes)
{
    size_t it = (64 * MIB) / bytes;
    return it < 3 ? 3 : it > 1000 ? 1000 : (int)it;
}

/* This thread on core rank % cores, as mpirun --bind-to core places rank `rank`. */
static void pin_to_core(int rank)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(rank % timer_cores(), &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
        fprintf(stderr, "bench_labs: cannot pin rank %d; it runs unpinned\n", rank);
}

static int allreduce_body(int rank, int nranks, struct comm *comm, struct dev *dev, void *arg)
{
    struct ar_rank *out = (struct ar_rank *)arg + rank;
    pin_to_core(rank);
    for (int k = 0; k < NSIZES; k++) {
        size_t count = ar_sizes[k] / sizeof(float);
        float *buf = dev_alloc(dev, ar_sizes[k], "allreduce");
        if (!buf)
            return -1;
        /* Warm-up (first touch, the backend's set-up) and the check: every
         * rank gives rank+1, so every element must come back n(n+1)/2. */
        if (dev_fill(dev, DTYPE_F32, buf, count, rank + 1) || comm_allreduce(comm, buf, count, DTYPE_F32))
            return -1;
        double expect = nranks * (nranks + 1) / 2.0, err = 0;
        for (size_t i = 0; i < count; i++)
            err = fmax(err, fabs(buf[i] - expect));
        out->err[k] = err;
        /* In place, the sums would grow n-fold per call and overflow; zeros
         * stay zeros and cost the same to add. */
        int iters = ar_iters(ar_sizes[k]);
        if (dev_fill(dev, DTYPE_F32, buf, count, 0))
            return -1;
        /* The largest size's reference: before each of its trials rank 0
         * copies as many bytes with one memcpy (the other ranks wait at the
         * barrier), so the all-reduce and the copy it is set beside sample
         * the host within the same second rather than seconds apart. */
        char *src = NULL, *dst = NULL;
        if (k == NSIZES - 1 && rank == 0) {
            src = xmalloc(ar_sizes[k]);
            dst = xmalloc(ar_sizes[k]);
            memset(src, 1, ar_sizes[k]);
            memset(dst, 0, ar_sizes[k]);    /* first touch outside the timing */
        }
        /* TRIALS trials; main takes the best (the machine's other load only ever slows one). */
        for (int trial = 0; trial < TRIALS; trial++) {
            if (src) {
                double c0 = timer_wall();
                memcpy(dst, src, ar_sizes[k]);
                out->copy_s[trial] = timer_wall() - c0;
            }
            if (comm_barrier(comm))
                return -1;
            double t0 = timer_wall();
            for (int it = 0; it < iters; it++)
                if (comm_allreduce(comm, buf, count, DTYPE_F32))
                    return -1;
            out->time_s[k][trial] = (timer_wall() - t0) / iters;
        }
        out->iters[k] = iters;
        if (src && dst[ar_sizes[k] - 1] != 1)
            die("memcpy copied wrong bytes");
        free(src);
        free(dst);
        dev_free(dev, buf);
    }
    return 0;
}

/* ---- column-parallel GEMM --------------------------------------------------- */

struct split_arg {
    int m, n, k;
    const float *A, *W;             /* host, shared read-only inputs (M x K, K x N) */
    float *gathered;                /* rank 0's all-gathered output (rank-major blocks) */
    double step_s[64][TRIALS];      /* step time per rank and trial: GEMM + all-gather */
    double gemm_s[64][TRIALS];      /* the GEMM alone, per rank and trial */
};

static int split_body(int rank, int nranks, struct comm *comm, struct dev *dev, void *argp)
{
    struct split_arg *a = argp;
    size_t cols = comm_share((size_t)a->n, nranks, rank), off = comm_share_offset((size_t)a->n, nranks, rank);
    size_t mk = (size_t)a->m * a->k, kc = (size_t)a->k * cols, mc = (size_t)a->m * cols;
    float *A = dev_alloc(dev, mk * sizeof(float), "input");
    float *W = dev_alloc(dev, (kc ? kc : 1) * sizeof(float), "weights");
    float *Y = dev_alloc(dev, (mc ? mc : 1) * sizeof(float), "output");
    float *G = dev_alloc(dev, (size_t)a->m * a->n * sizeof(float), "gathered");
    if (!A || !W || !Y || !G)
        return -1;
    /* This rank's inputs: the whole activation, its columns of the weight. */
    if (dev_copy(dev, A, a->A, mk * sizeof(float), DEV_H2D) ||
        dev_copy2d(dev, W, cols * sizeof(float), a->W + off, (size_t)a->n * sizeof(float),
                   cols * sizeof(float), (size_t)a->k, DEV_H2D))
        return -1;
    size_t counts[64];
    for (int r = 0; r < nranks; r++)
        counts[r] = (size_t)a->m * comm_share((size_t)a->n, nranks, r);

    for (int rep = 0; rep < TRIALS; rep++) {
        if (comm_barrier(comm))
            return -1;
        double t0 = timer_wall();
        if (dev_gemm(dev, DTYPE_F32, false, false, a->m, (int)cols, a->k, 1.0, A, a->k, W,
                     (int)cols, 0.0, Y, (int)cols) || dev_sync(dev))
            return -1;
        double t1 = timer_wall();
        if (comm_allgatherv(comm, Y, G, counts, DTYPE_F32) || dev_sync(dev))
            return -1;
        double t2 = timer_wall();
        a->gemm_s[rank][rep] = t1 - t0;
        a->step_s[rank][rep] = t2 - t0;
    }
    if (rank == 0 && dev_copy(dev, a->gathered, G, (size_t)a->m * a->n * sizeof(float), DEV_D2H))
        return -1;
    dev_free(dev, A);
    dev_free(dev, W);
    dev_free(dev, Y);
    dev_free(dev, G);
    return 0;
}

/* ---- zero-work pipeline ------------------------------------------------------ */

struct pipe_arg {
    int micro, steps;
    double step_s[64][TRIALS];      /* mean step time per rank and trial */
};

/* One GPipe step's messages on this stage. */
static int pipe_step(struct comm *comm, int rank, int last, int micro)
{
    enum { TAG_ACT = 1, TAG_GRAD = 2 };
    float act = 0, grad = 0;
    for (int mb = 0; mb < micro; mb++) {
        if (rank > 0 && comm_recv(comm, &act, sizeof act, rank - 1, TAG_ACT))
            return -1;
        act += 1;
        if (rank < last && comm_send(comm, &act, sizeof act, rank + 1, TAG_ACT))
            return -1;
    }
    for (int mb = 0; mb < micro; mb++) {
        if (rank < last && comm_recv(comm, &grad, sizeof grad, rank + 1, TAG_GRAD))
            return -1;
        grad += 1;
        if (rank > 0 && comm_send(comm, &grad, sizeof grad, rank - 1, TAG_GRAD))
            return -1;
    }
    return 0;
}

/*
 * GPipe steps with no work: every micro-batch's activation goes down the
 * stages, then every gradient comes back up; a stage forwards a message as
 * soon as it has it.  What remains is the schedule's own cost: the
 * communicator's hand-offs between stage threads.  Best of TRIALS trials.
 */
static int pipe_body(int rank, int nranks, struct comm *comm, struct dev *dev, void *argp)
{
    struct pipe_arg *a = argp;
    (void)dev;
    if (pipe_step(comm, rank, nranks - 1, a->micro))      /* warm-up */
        return -1;
    for (int trial = 0; trial < TRIALS; trial++) {
        if (comm_barrier(comm))
            return -1;
        double t0 = timer_wall();
        for (int s = 0; s < a->steps; s++)
            if (pipe_step(comm, rank, nranks - 1, a->micro))
                return -1;
        if (comm_barrier(comm))
            return -1;
        a->step_s[rank][trial] = (timer_wall() - t0) / a->steps;
    }
    return 0;
}

/* ---- main ------------------------------------------------------------------ */

/* The best trial, each trial counting its slowest rank. */
static double best_trial(double (*t)[TRIALS], int ranks)
{
    double best = INFINITY;
    for (int trial = 0; trial < TRIALS; trial++) {
        double slowest = 0;
        for (int r = 0; r < ranks; r++)
            slowest = fmax(slowest, t[r][trial]);
        best = fmin(best, slowest);
    }
    return best;
}

/* The median of n figures (n odd), leaving xs as it was. */
static double median_of(const double *xs, int n)
{
    double v[SPLIT_PAIRS > TRIALS ? SPLIT_PAIRS : TRIALS];
    memcpy(v, xs, (size_t)n * sizeof *v);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[n / 2];
}

/* Whether part is one of the comma-separated names in list. */
static int wanted(const char *list, const char *part)
{
    size_t n = strlen(part);
    for (const char *p = list; (p = strstr(p, part)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int ranks = timer_cores(), stages = 2, micro = 8, size = 2048;
    const char *only = "memcpy,allreduce,split,pipeline";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--ranks") && i + 1 < argc)
            ranks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stages") && i + 1 < argc)
            stages = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--microbatches") && i + 1 < argc)
            micro = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else {
            fputs("usage: bench_labs [-o FILE] [--ranks N] [--stages P] [--microbatches M] [--size N]\n"
                  "                  [--only memcpy,allreduce,split,pipeline]\n", stderr);
            return 2;
        }
    }
    if (ranks < 1 || ranks > 64 || stages < 2 || stages > 64 || micro < 1 || size < 16)
        die("--ranks 1..64, --stages 2..64, --microbatches >= 1, --size >= 16");
    const struct backend *cpu = &backend_cpu;
    json_t *doc = json_object();
    json_object_set_new(doc, "cores", json_integer(timer_cores()));
    json_object_set_new(doc, "backend", json_string(cpu->name));

    /* memcpy: the machine's limit for moving bytes. */
    if (wanted(only, "memcpy")) {
        double cp1 = memcpy_gbs(1, 64 * MIB, 5), cpn = memcpy_gbs(ranks, 64 * MIB, 5);
        json_object_set_new(doc, "memcpy", json_pack("{s:I, s:i, s:f, s:f}", "bytes", (json_int_t)(64 * MIB),
            "threads", ranks, "one_thread_gbs", cp1, "all_threads_gbs", cpn));
        fprintf(stderr, "memcpy        64 MiB   1 thread %6.2f GB/s   %d threads %6.2f GB/s (sum)\n",
                cp1, ranks, cpn);
    }

    /* All-reduce on the threads backend. */
    if (wanted(only, "allreduce")) {
        struct ar_rank *ar = calloc((size_t)ranks, sizeof *ar);
        if (!ar || cpu->launch(ranks, allreduce_body, ar))
            die("the all-reduce run failed");
        json_t *rows = json_array();
        for (int k = 0; k < NSIZES; k++) {
            /* As bench_mpi_allreduce does: each trial counts its slowest rank, the best trial counts. */
            double t = INFINITY, err = 0, slowest[TRIALS];
            for (int trial = 0; trial < TRIALS; trial++) {
                slowest[trial] = 0;
                for (int r = 0; r < ranks; r++)
                    slowest[trial] = fmax(slowest[trial], ar[r].time_s[k][trial]);
                t = fmin(t, slowest[trial]);
            }
            for (int r = 0; r < ranks; r++)
                err = fmax(err, ar[r].err[k]);
            double algbw = ar_sizes[k] / t / 1e9, busbw = algbw * 2.0 * (ranks - 1) / ranks;
            json_t *row = json_pack("{s:I, s:i, s:f, s:f, s:f, s:f}", "bytes",
                (json_int_t)ar_sizes[k], "iters", ar[0].iters[k], "time_us", t * 1e6,
                "algbw_gbs", algbw, "busbw_gbs", busbw, "max_abs_error", err);
            fprintf(stderr, "allreduce     threads %d ranks %9zu B %10.1f us  algbw %6.2f GB/s  busbw %6.2f GB/s  err %.1e\n",
                    ranks, ar_sizes[k], t * 1e6, algbw, busbw, err);
            if (k == NSIZES - 1) {
                /* Each trial against the copy just before it: the host's
                 * bandwidth has two levels, and the best trial and the best
                 * copy may come from different ones. */
                double copy = INFINITY, per_trial[TRIALS];
                for (int trial = 0; trial < TRIALS; trial++) {
                    copy = fmin(copy, ar[0].copy_s[trial]);
                    per_trial[trial] = ar[0].copy_s[trial] / slowest[trial] * 2.0 * (ranks - 1) / ranks;
                }
                double vs = median_of(per_trial, TRIALS);
                json_object_set_new(row, "memcpy_one_thread_gbs", json_real(ar_sizes[k] / copy / 1e9));
                json_object_set_new(row, "busbw_vs_memcpy", json_real(vs));
                fprintf(stderr, "allreduce     one thread's memcpy before each trial %6.2f GB/s (best); busbw / memcpy %.2f (median of the trials)\n",
                        ar_sizes[k] / copy / 1e9, vs);
            }
            json_array_append_new(rows, row);
        }
        json_object_set_new(doc, "allreduce_threads", json_pack("{s:i, s:o}", "ranks", ranks, "sizes", rows));
        free(ar);
    }

    /* Column-parallel GEMM against one OpenBLAS GEMM with as many threads. */
    if (wanted(only, "split")) {
        struct split_arg sa = { .m = size, .n = size, .k = size };
        size_t mn = (size_t)size * size;
        float *A = xmalloc(mn * sizeof *A), *W = xmalloc(mn * sizeof *W), *C = xmalloc(mn * sizeof *C);
        sa.gathered = xmalloc(mn * sizeof(float));
        for (size_t i = 0; i < mn; i++) {
            A[i] = (float)((i * 7919 % 1000) / 1000.0 - 0.5);
            W[i] = (float)((i * 104729 % 1000) / 1000.0 - 0.5);
        }
        sa.A = A;
        sa.W = W;
        /* SPLIT_PAIRS interleaved pairs, each the reference's best of TRIALS
         * then the split's: the host's speed changes from second to second,
         * and a pair's two sides share the same few seconds of it.  The
         * figures are the pairs' medians (split_pairs below). */
        struct dev *one = dev_cpu_new(0);
        int saved = dev_cpu_blas_threads();
        double ref_at[SPLIT_PAIRS], split_at[SPLIT_PAIRS], gemm_at[SPLIT_PAIRS];
        for (int pair = 0; pair < SPLIT_PAIRS; pair++) {
            dev_cpu_set_blas_threads(ranks);
            double ref_s = INFINITY;
            for (int rep = 0; rep < TRIALS; rep++) {
                double t0 = timer_wall();
                if (dev_gemm(one, DTYPE_F32, false, false, size, size, size, 1.0, A, size, W, size, 0.0, C, size) ||
                    dev_sync(one))
                    die("the reference GEMM failed");
                ref_s = fmin(ref_s, timer_wall() - t0);
            }
            dev_cpu_set_blas_threads(saved);
            if (cpu->launch(ranks, split_body, &sa))
                die("the split GEMM run failed");
            ref_at[pair] = ref_s;
            split_at[pair] = best_trial(sa.step_s, ranks);
            gemm_at[pair] = best_trial(sa.gemm_s, ranks);
        }
        dev_free_device(one);
        /* The gathered output holds rank r's columns as an M x cols_r block.  The
         * error is relative to the product's largest element: the two GEMMs sum
         * in different orders, and an element that nearly cancels would make a
         * per-element ratio meaningless. */
        double maxdiff = 0, maxref = 0;
        for (int r = 0; r < ranks; r++) {
            size_t cols = comm_share((size_t)size, ranks, r), off = comm_share_offset((size_t)size, ranks, r);
            const float *blk = sa.gathered + (size_t)size * off;
            for (size_t i = 0; i < (size_t)size; i++)
                for (size_t j = 0; j < cols; j++) {
                    double ref = C[i * size + off + j], got = blk[i * cols + j];
                    maxdiff = fmax(maxdiff, fabs(got - ref));
                    maxref = fmax(maxref, fabs(ref));
                }
        }
        double maxrel = maxdiff / maxref;
        json_t *pairs = json_array();
        for (int pair = 0; pair < SPLIT_PAIRS; pair++)
            json_array_append_new(pairs, json_pack("{s:f, s:f, s:f}", "openblas_s", ref_at[pair],
                "split_s", split_at[pair], "split_gemm_only_s", gemm_at[pair]));
        double flop = 2.0 * size * size * size, ref_s = median_of(ref_at, SPLIT_PAIRS),
               split_s = median_of(split_at, SPLIT_PAIRS), gemm_s = median_of(gemm_at, SPLIT_PAIRS);
        json_object_set_new(doc, "tensor_split", json_pack(
            "{s:s, s:i, s:i, s:i, s:i, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:o}",
            "mode", "column-parallel GEMM + all-gather", "m", size, "n", size, "k", size, "ranks", ranks,
            "dtype", "fp32", "openblas_s", ref_s, "openblas_gflops", flop / ref_s / 1e9,
            "split_s", split_s, "split_gflops", flop / split_s / 1e9, "split_gemm_only_s", gemm_s,
            "max_rel_error_vs_openblas", maxrel, "split_pairs", pairs));
        fprintf(stderr, "tensor split  %dx%dx%d fp32  OpenBLAS %d threads %7.1f GFLOP/s   %d ranks %7.1f GFLOP/s (GEMM alone %7.1f)  rel err %.1e\n",
                size, size, size, ranks, flop / ref_s / 1e9, ranks, flop / split_s / 1e9, flop / gemm_s / 1e9, maxrel);
        free(A);
        free(W);
        free(C);
        free(sa.gathered);
    }

    /* Zero-work pipeline: the schedule's hand-offs alone. */
    if (wanted(only, "pipeline")) {
        struct pipe_arg pa = { .micro = micro, .steps = 400 / micro > 20 ? 400 / micro : 20 };
        if (cpu->launch(stages, pipe_body, &pa))
            die("the pipeline run failed");
        double step = best_trial(pa.step_s, stages);
        /* The step's critical path holds m + p - 1 forward and as many backward slots. */
        double per_slot = step / (micro + stages - 1);
        json_object_set_new(doc, "pipeline_zero_work", json_pack("{s:s, s:i, s:i, s:i, s:f, s:f}",
            "schedule", "gpipe", "stages", stages, "microbatches", micro, "steps", pa.steps,
            "step_us", step * 1e6, "per_microbatch_per_stage_us", per_slot * 1e6));
        fprintf(stderr, "pipeline      gpipe p=%d m=%d, no work: step %8.1f us, %6.2f us per micro-batch per stage\n",
                stages, micro, step * 1e6, per_slot * 1e6);
    }

    int rc = out ? json_dump_file(doc, out, JSON_INDENT(1)) : json_dumpf(doc, stdout, JSON_INDENT(1));
    json_decref(doc);
    if (rc)
        die("cannot write the JSON");
    return 0;
}
