/*
 * bench_mpi_allreduce.c — Open MPI's MPI_Allreduce (float sum) over a range of
 * sizes, reported with the nccl-tests conventions, as the peer that labrun's
 * threads all-reduce is compared with.
 *
 *   mpirun -np N bench_mpi_allreduce [-o FILE] [BYTES...]
 *
 * Default sizes 4 KiB to 64 MiB, by fours.  Out of place (send and receive buffers
 * differ, as in nccl-tests) and in place (as labrun's all-reduce works); the
 * faster of the two is the figure compared.  For each size: one warm-up call,
 * checked, then five trials of 3-1000 calls each way (some 64 MiB in all); the time of a call is the
 * slowest rank's mean in the best trial.  algbw = bytes / time, busbw = algbw * 2(N-1)/N.  The
 * warm-up's result is checked (every rank contributes rank+1, so every element
 * must be N(N+1)/2) and the error printed.  Rank 0 writes the JSON.
 */
#include <jansson.h>
#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MPI_CHECK(call)                                                         \
    do {                                                                        \
        int mpi_rc_ = (call);                                                   \
        if (mpi_rc_ != MPI_SUCCESS) {                                           \
            char msg_[MPI_MAX_ERROR_STRING];                                    \
            int len_ = 0;                                                       \
            MPI_Error_string(mpi_rc_, msg_, &len_);                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, msg_); \
            MPI_Abort(MPI_COMM_WORLD, 1);                                       \
        }                                                                       \
    } while (0)

/* Timed trials; the fastest counts (the machine's other load only ever slows one). */
#define TRIALS 5

/*
 * Seconds of one call: in each trial, the slowest rank's mean over iters
 * calls; the best trial's (on rank 0).
 */
static double time_calls(const void *send, float *recv, size_t count, int iters)
{
    double best = INFINITY;
    for (int trial = 0; trial < TRIALS; trial++) {
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = MPI_Wtime();
        for (int it = 0; it < iters; it++)
            MPI_CHECK(MPI_Allreduce(send, recv, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
        double mine = (MPI_Wtime() - t0) / iters, slowest = 0;
        MPI_CHECK(MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
        best = fmin(best, slowest);
    }
    return best;
}

int main(int argc, char **argv)
{
    MPI_CHECK(MPI_Init(&argc, &argv));
    int rank, n;
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &n));

    const char *out = NULL;
    size_t sizes[32];
    int nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (nsizes < 32)
            sizes[nsizes++] = strtoull(argv[i], NULL, 10);
    }
    if (!nsizes)
        for (size_t s = 4u << 10; s <= 64u << 20; s *= 4)
            sizes[nsizes++] = s;

    json_t *rows = json_array();
    for (int k = 0; k < nsizes; k++) {
        size_t count = sizes[k] / sizeof(float);
        float *send = malloc(count * sizeof *send), *recv = malloc(count * sizeof *recv);
        if (!send || !recv) {
            fprintf(stderr, "bench_mpi_allreduce: out of memory at %zu bytes\n", sizes[k]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (size_t j = 0; j < count; j++)
            send[j] = (float)(rank + 1);
        memset(recv, 0, count * sizeof *recv);

        /* Warm-up: first-touch of the buffers and MPI's own set-up. */
        MPI_CHECK(MPI_Allreduce(send, recv, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
        double expect = n * (n + 1) / 2.0, err = 0;
        for (size_t j = 0; j < count; j++)
            err = fmax(err, fabs(recv[j] - expect));
        double maxerr = 0;
        MPI_CHECK(MPI_Reduce(&err, &maxerr, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
        size_t want = (64u << 20) / (sizes[k] ? sizes[k] : 1);
        int iters = want < 3 ? 3 : want > 1000 ? 1000 : (int)want;

        double oop = time_calls(send, recv, count, iters);
        /* In place, as labrun's comm_allreduce works: zeros, which stay zeros
         * (sums of rank+1 would grow n-fold per call) and cost the same to add. */
        memset(recv, 0, count * sizeof *recv);
        double inp = time_calls(MPI_IN_PLACE, recv, count, iters);
        double best = fmin(oop, inp);

        if (rank == 0) {
            double algbw = (double)sizes[k] / best / 1e9;
            double busbw = algbw * 2.0 * (n - 1) / n;
            json_array_append_new(rows, json_pack("{s:I, s:i, s:f, s:f, s:f, s:f, s:f, s:f}",
                "bytes", (json_int_t)sizes[k], "iters", iters, "out_of_place_us", oop * 1e6,
                "in_place_us", inp * 1e6, "time_us", best * 1e6,
                "algbw_gbs", algbw, "busbw_gbs", busbw, "max_abs_error", maxerr));
            fprintf(stderr, "allreduce     Open MPI %d ranks %8zu B %10.1f us  algbw %6.2f GB/s  busbw %6.2f GB/s  err %g\n",
                    n, sizes[k], best * 1e6, algbw, busbw, maxerr);
        }
        free(send);
        free(recv);
    }

    if (rank == 0) {
        json_t *doc = json_pack("{s:s, s:i, s:o}", "impl", "Open MPI MPI_Allreduce",
                                "ranks", n, "sizes", rows);
        int rc = out ? json_dump_file(doc, out, JSON_INDENT(1))
                     : json_dumpf(doc, stdout, JSON_INDENT(1));
        if (rc)
            fprintf(stderr, "bench_mpi_allreduce: cannot write %s\n", out ? out : "stdout");
        json_decref(doc);
    } else {
        json_decref(rows);
    }
    MPI_Finalize();
    return 0;
}
