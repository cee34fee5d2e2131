/*
 * run.c — run one lab: start its ranks on a backend, give each its context,
 * collect the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fault.h"
#include "lablimits.h"
#include "report_impl.h"
#include "run.h"
#include "util.h"

struct run_arg {
    const struct lab_impl *impl;
    const struct lab_params *params;
    struct lab_report *report;
    const char *backend;
    int cores;
    enum lab_basis timed;
};

/* The note that says how the device computed (GEMM library, math mode), when it has one. */
static int device_note(struct lab_ctx *c, void *dev)
{
    char note[1024];
    dev_note(dev, note, sizeof note);
    if (note[0])
        lab_note(c, "%s", note);
    return 0;
}

static int rank_body(int rank, int nranks, struct comm *comm, struct dev *dev, void *arg)
{
    struct run_arg *a = arg;
    struct lab_ctx ctx = {
        .rank = rank,
        .nranks = nranks,
        .comm = comm,
        .dev = dev,
        .params = a->params,
        .report = a->report,
        .backend = a->backend,
        .cores = a->cores,
        .timed = a->timed,
        .dir = a->params->def->dir,
    };
    fault_set_rank(rank);
    if (fault_rank_start(rank) < 0)
        return -1;
    int rc = a->impl->run(&ctx);
    /* After the lab's own notes, in each language it reported in: how rank 0's device computed. */
    if (rank == 0) {
        device_note(&ctx, dev);
        lab_report_words_also(&ctx, device_note, dev);
    }
    return rc;
}

int lab_nranks(const struct lab_impl *impl, const struct lab_params *p)
{
    return impl->ranks ? impl->ranks(p) : 1;
}

/* Bytes a run may use; 0 until lab_run_set_memory (then: what the machine and the limits allow). */
static double memory_budget;

void lab_run_set_memory(double bytes)
{
    memory_budget = bytes;
}

double lab_run_memory(void)
{
    if (memory_budget > 0)
        return memory_budget;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double have = pages > 0 && page > 0 ? (double)pages * (double)page : 1e18;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (double)rl.rlim_cur < have)
        have = (double)rl.rlim_cur;
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (double)rl.rlim_cur < have)
        have = (double)rl.rlim_cur;
    return have;
}

/* "3.2 GiB" */
static void fmt_bytes(char *buf, size_t n, double b)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
    int u = 0;
    while (b >= 1024 && u < 5) {
        b /= 1024;
        u++;
    }
    snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

int lab_run(const struct lab_impl *impl, const struct lab_params *p, const struct backend *b,
            struct lab_report *rep)
{
    /* The last guard: callers with the manifest's diagnostics have checked it at its lines. */
    if (lab_limits_check(impl, p->def, NULL) < 0)
        return -1;
    const char *bad = impl->invalid ? impl->invalid(p) : NULL;
    if (bad) {
        fprintf(stderr, "labrun: error: %s: %s\n", impl->name, bad);
        return -2;
    }
    if (b->absent) {
        fprintf(stderr, "labrun: error: backend %s is not built in: %s\n", b->name, b->absent);
        return -2;
    }
    char why[512] = "";
    if (b->available && b->available(why, sizeof why) < 0) {
        fprintf(stderr, "labrun: error: backend %s cannot run here: %s\n", b->name, why);
        return -2;
    }
    if (impl->bytes) {
        /* Refused before any rank allocates: a run too large ends in this line, not an OOM kill. */
        double need = impl->bytes(p), have = lab_run_memory();
        /* Under a launcher (MPI) each process holds its own ranks' share, maybe on another machine. */
        int procs = b->launched_ranks ? b->launched_ranks() : 0;
        if (procs > 1)
            need /= procs;
        if (!(need <= have)) {
            char nb[32], hb[32];
            fmt_bytes(nb, sizeof nb, need);
            fmt_bytes(hb, sizeof hb, have);
            fprintf(stderr, "labrun: error: %s: this run needs about %s of memory, more than the %s it may "
                    "use here; choose smaller sizes\n", impl->name, nb, hb);
            return -1;
        }
    }
    int n = lab_nranks(impl, p);
    if (n < 1) {
        fprintf(stderr, "labrun: error: %s: %d ranks\n", impl->name, n);
        return -1;
    }
    /* Ranks that take turns in virtual time each count as having a core of their own. */
    struct run_arg a = { .impl = impl, .params = p, .report = rep, .backend = b->name,
                         .cores = b->replays_time ? n : rep->cores,
                         .timed = b->replays_time ? LAB_REPLAYED : LAB_MEASURED };
    rep->nranks = n;
    rep->replayed = b->replays_time;
    rep->t0 = timer_wall();
    int rc = b->launch(n, rank_body, &a);
    /* Under the backend line, so that 8 ranks sharing one GPU are seen before any figure. */
    if (b->placement && b->placement()[0]) {
        free(rep->placement);
        rep->placement = xstrdup(b->placement());
    }
    lab_report_finish(rep);
    return rc < 0 ? -1 : 0;
}
