/*
 * comm_threads_ar.c — the threads backend's all-reduce: NCCL's ring, each
 * rank reading its left neighbour's buffer in place.
 *
 * The schedule is the ring of coll.c (and of NCCL): the buffer is cut into
 * one block per rank; in n-1 reduce-scatter steps rank r adds its left
 * neighbour's partial sum of block r-s-2 into its own, after which it holds
 * the full sum of block r; in n-1 all-gather steps it copies block r-g-1
 * from its left neighbour.  The first of those copies is made by the left
 * neighbour instead: the reduce-scatter's last step, which finishes block r,
 * stores each sum in rank r's own buffer and in its right neighbour's in
 * the same pass, as NCCL's ring reduces a block and sends it on in one
 * pass.  That pass reads and writes what one memcpy of the block would;
 * summing first and copying after read the block three times.
 *
 * The ring goes round piece by piece (piece k of every block:
 * AR_BLOCK_BYTES, or the comm's chunk when smaller), each through all
 * 2(n-1) steps before the next: a piece one rank has just summed is still
 * in cache when its right neighbour copies it, and each element is still
 * summed in its whole-buffer block's order.
 *
 * Ranks are threads of one process, so no byte is staged: a step reads the
 * neighbour's buffer where it lies.  What replaces the messages is one
 * counter per rank, the steps it has finished (over all its all-reduces,
 * so every rank starts a call at the same count).  Rank r waits for
 *   - its left neighbour to have finished the step that produced what r
 *     reads (every read is of data the left rank wrote, or its input);
 *   - its right neighbour, before r overwrites a block in the all-gather,
 *     to have finished reading that block's partial sum (its reduce-scatter
 *     step g), and before r returns, to have finished the call (the caller
 *     may then free the buffer);
 *   - the rank two to its right, before r stores block r in its right
 *     neighbour's buffer, to have read the partial sum there (its step 0).
 * A wait spins on the counter for a while when every rank has a core (as
 * MPI's shared-memory transport polls), then sleeps on the rank's mailbox
 * condition; a rank that finishes a step wakes a neighbour that sleeps.
 *
 * When ranks outnumber cores a wait sleeps, and waking a thread costs tens
 * of microseconds: an all-reduce of at most AR_EAGER_BYTES then skips the
 * ring's 2(n-1) waits.  Each rank stages its input and waits once for every
 * other rank's (eager_allreduce, below).  When every rank has a core a wait
 * is a spin of a few hundred nanoseconds, and the ring is the faster, even at
 * 4 KiB: it copies nothing, and in a loop of calls each rank's block stays in
 * the cache of the rank that sums it.  Two ranks on two cores, 4 KiB: the
 * ring 0.5 us a call, staging 0.7-0.9 us (1.6-1.8 and 2.0-2.3 in the
 * seconds when the host's cores are slower to reach each other); four ranks
 * on two cores: staging 40 us, the ring 180-260 us.
 *
 * Each element is summed in the ring's order, so results are the same bits
 * as coll.c's; the bytes counted are the ring's, as if they had travelled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#define HAVE_MEMBARRIER 1
#endif

#include "comm.h"
#include "comm_threads_impl.h"
#include "timer.h"

/* One rank's block of a slice: a step's reads and writes stay in the core's L2 cache. */
#define AR_BLOCK_BYTES ((size_t)256 << 10)

/* How long a wait spins before it sleeps (when every rank has a core). */
#define AR_SPIN_SECONDS 50e-6

static int mod(int a, int n) { return ((a % n) + n) % n; }

/*
 * Counting a step and reading whether a neighbour sleeps must not pass each
 * other, nor raising `sleeping` and reading the counter it waits on: each
 * side needs a full fence, or a sleeper and the rank that should wake it may
 * miss each other.  A locked add on a counter the neighbours are polling
 * waits for their copies of its line to go: at 4 KiB on two ranks, 1.5 us a
 * call against 1.0 with a plain store.  So where the kernel offers it
 * (membarrier's private expedited command) and every rank has a core, a
 * rank counts its steps with plain stores, and a rank about to sleep, after
 * spinning for AR_SPIN_SECONDS, pays for both fences: membarrier runs a full
 * fence on every thread of the process that is on a core at that moment (a
 * thread off its core passed one when it left).  Elsewhere every count is a
 * sequentially consistent add.
 */
static pthread_once_t fence_once = PTHREAD_ONCE_INIT;
static int sleeper_fences;   /* 1: the sleeper fences every thread; 0: every count is a locked add */

static void fence_setup(void)
{
#ifdef HAVE_MEMBARRIER
    long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    long want = MEMBARRIER_CMD_PRIVATE_EXPEDITED | MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
    if (cmds >= 0 && (cmds & want) == want &&
        syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
        sleeper_fences = 1;
#endif
}

/* A full fence on every running thread of this process; 0, or -1 where that failed. */
static int fence_all_threads(void)
{
#ifdef HAVE_MEMBARRIER
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return 0;
#endif
    return -1;
}

/*
 * Plain counts, while every rank has a core: a wait then spins first and
 * seldom sleeps.  With more ranks than cores every wait sleeps at once, and
 * a membarrier for each costs more than the locked adds it saves (4 KiB,
 * four ranks on two cores: 88 us a call against 40).
 */
static int plain_counts(const struct comm_threads_world *w) { return sleeper_fences && w->spin; }

/* Rank me's slot counts one more step, releasing what the rank wrote before it. */
static void count_step(const struct comm_threads_world *w, struct ar_slot *mine)
{
    if (plain_counts(w)) {
        unsigned long d = atomic_load_explicit(&mine->done, memory_order_relaxed);
        atomic_store_explicit(&mine->done, d + 1, memory_order_release);
        /* The compiler keeps the store before the reads of `sleeping` that follow; the sleeper fences the CPU. */
        atomic_signal_fence(memory_order_seq_cst);
    } else {
        atomic_fetch_add(&mine->done, 1);
    }
}

struct ar_slot *comm_threads_ar_slots(int n)
{
    pthread_once(&fence_once, fence_setup);
    struct ar_slot *s = aligned_alloc(_Alignof(struct ar_slot), (size_t)n * sizeof *s);
    if (!s) {
        fputs("labrun: error: out of memory\n", stderr);
        exit(1);
    }
    for (int r = 0; r < n; r++) {
        atomic_init(&s[r].done, 0);
        atomic_init(&s[r].buf, NULL);
        atomic_init(&s[r].bytes, 0);
        atomic_init(&s[r].sleeping, 0);
        s[r].eager = 0;
        atomic_init(&s[r].staged[0], 0);
        atomic_init(&s[r].staged[1], 0);
    }
    return s;
}

/* Wait until rank r has finished `want` steps; -1 when a rank failed meanwhile. */
static int wait_done(struct comm_threads_world *w, int me, int r, unsigned long want)
{
    atomic_ulong *done = &w->ar[r].done;
    if (atomic_load_explicit(done, memory_order_acquire) >= want)
        return 0;
    if (w->spin) {
        double until = timer_wall() + AR_SPIN_SECONDS;
        for (int i = 1; atomic_load_explicit(done, memory_order_acquire) < want; i++)
            if (i % 64 == 0 && (atomic_load_explicit(&w->aborted, memory_order_relaxed) ||
                                timer_wall() > until))
                break;
        if (atomic_load_explicit(done, memory_order_acquire) >= want)
            return 0;
    }
    /*
     * Sleep.  `sleeping` is raised before the counter is read again, and a
     * rank that finishes a step counts it before it reads `sleeping`, each
     * with a full fence between (count_step, above): one of the two sees
     * the other, and the wake-up takes the lock this wait holds until it
     * sleeps.
     */
    struct mailbox *b = &w->boxes[me];
    atomic_int *sleeping = &w->ar[me].sleeping;
    pthread_mutex_lock(&b->lock);
    atomic_fetch_add(sleeping, 1);
    if (plain_counts(w) && fence_all_threads() != 0) {
        atomic_fetch_sub(sleeping, 1);
        pthread_mutex_unlock(&b->lock);
        fprintf(stderr, "labrun: error: rank %d cannot sleep: membarrier failed\n", me);
        return -1;
    }
    while (atomic_load(done) < want && !atomic_load(&w->aborted))
        pthread_cond_wait(&b->arrived, &b->lock);
    atomic_fetch_sub(sleeping, 1);
    pthread_mutex_unlock(&b->lock);
    if (atomic_load_explicit(done, memory_order_acquire) >= want)
        return 0;
    fprintf(stderr, "labrun: error: rank %d stops waiting for rank %d: a rank failed\n", me, r);
    return -1;
}

static void wake(struct comm_threads_world *w, int r)
{
    if (atomic_load(&w->ar[r].sleeping)) {
        pthread_mutex_lock(&w->boxes[r].lock);
        comm_threads_box_changed(&w->boxes[r]);
        pthread_mutex_unlock(&w->boxes[r].lock);
    }
}

/*
 * Rank me has finished a step: count it (releasing what it wrote) and wake
 * the ranks that wait for its steps: its neighbours, and the rank two to its
 * left, whose last reduce-scatter step waits for this rank's step 0.
 */
static void step_done(struct comm_threads_world *w, int me, int left, int right)
{
    count_step(w, &w->ar[me]);
    wake(w, left);
    if (right != left)
        wake(w, right);
    int second = mod(left - 1, w->n);
    if (second != me && second != right)
        wake(w, second);
}

/* Piece k of block b (the ring's blocks of the whole buffer): its length in elements, its first element at *off. */
static size_t piece_of(size_t count, int n, int b, size_t k, size_t piece, size_t *off)
{
    size_t share = comm_share(count, n, b), from = k * piece;
    *off = comm_share_offset(count, n, b) + (from < share ? from : share);
    return from < share ? (share - from < piece ? share - from : piece) : 0;
}

/*
 * A small all-reduce in one hand-off: each rank stages its input, counts the
 * step, waits for every other rank's, and sums each block in the ring's
 * order from the staged inputs: block b is x[b+1] + x[b+2] + ... + x[b],
 * one addition at a time, as the reduce-scatter adds them, so the result
 * is the ring's, bit for bit.  Every rank sums every block (n times the
 * ring's additions, which at these sizes cost less than the 2(n-1) waits
 * they replace).  Staging alternates between two areas: a rank writes the
 * one of call k once every rank has begun call k-1, which it saw while it
 * waited then, so no rank still reads what call k-2 staged there.  A rank
 * may be one call ahead of another (it saw every input of call k before the
 * other has summed them), so each area keeps its own size.
 */
static int eager_allreduce(struct comm_threads_world *w, int me, int n, char *own, size_t count,
                           enum dtype t, unsigned long base)
{
    size_t es = dtype_size(t);
    struct ar_slot *mine = &w->ar[me];
    int area = (int)(mine->eager++ & 1);
    memcpy(mine->stage[area], own, count * es);
    atomic_store_explicit(&mine->staged[area], count * es, memory_order_relaxed);
    /* The step is counted as the ring's are, but every rank reads it, so any may sleep on it. */
    count_step(w, mine);
    for (int r = 0; r < n; r++)
        if (r != me)
            wake(w, r);
    for (int r = 0; r < n; r++) {
        if (r == me)
            continue;
        if (wait_done(w, me, r, base) < 0)
            return -1;
        size_t bytes = atomic_load_explicit(&w->ar[r].staged[area], memory_order_relaxed);
        if (bytes != count * es) {
            fprintf(stderr, "labrun: error: rank %d all-reduces %zu bytes, rank %d %zu bytes\n", me,
                    count * es, r, bytes);
            return -1;
        }
    }
    for (int b = 0; b < n; b++) {
        size_t off = comm_share_offset(count, n, b) * es, len = comm_share(count, n, b);
        memcpy(own + off, w->ar[mod(b + 1, n)].stage[area] + off, len * es);
        for (int k = 2; k <= n; k++)
            comm_sum_into(t, own + off, w->ar[mod(b + k, n)].stage[area] + off, len);
    }
    return 0;
}

/* The ring's bytes, as if they had travelled: each phase moves every block but one. */
static void count_ring(struct comm *c, size_t count, size_t es, int me, int left, int right)
{
    size_t total = count * es;
    size_t blk_me = comm_share(count, c->size, me) * es, blk_left = comm_share(count, c->size, left) * es,
           blk_right = comm_share(count, c->size, right) * es;
    comm_count(c, (total - blk_me) + (total - blk_right), (total - blk_left) + (total - blk_me));
}

int comm_threads_allreduce(struct comm *c, void *buf, size_t count, enum dtype t)
{
    int n = c->size, me = c->rank;
    if (n == 1 || count == 0)
        return 0;
    struct comm_threads_world *w = c->impl;
    size_t es = dtype_size(t);
    int left = mod(me - 1, n), right = mod(me + 1, n);
    struct ar_slot *mine = &w->ar[me];
    char *own = buf;
    unsigned long base = atomic_load_explicit(&mine->done, memory_order_relaxed) + 1;
    if (!w->spin && count * es <= AR_EAGER_BYTES) {
        if (eager_allreduce(w, me, n, own, count, t, base) < 0)
            return -1;
        count_ring(c, count, es, me, left, right);
        return 0;
    }

    /* Step 0 of the call: the buffer is published. */
    atomic_store_explicit(&mine->buf, own, memory_order_relaxed);
    atomic_store_explicit(&mine->bytes, count * es, memory_order_relaxed);
    step_done(w, me, left, right);
    if (wait_done(w, me, left, base) < 0)
        return -1;
    const char *peer = atomic_load_explicit(&w->ar[left].buf, memory_order_relaxed);
    size_t peer_bytes = atomic_load_explicit(&w->ar[left].bytes, memory_order_relaxed);
    if (peer_bytes != count * es) {
        fprintf(stderr, "labrun: error: rank %d all-reduces %zu bytes, rank %d %zu bytes\n",
                me, count * es, left, peer_bytes);
        return -1;
    }

    /* The right neighbour's buffer, which this rank's last reduce-scatter step writes. */
    if (wait_done(w, me, right, base) < 0)
        return -1;
    char *next = atomic_load_explicit(&w->ar[right].buf, memory_order_relaxed);

    /* A piece moves at most the comm's chunk, as a ring's message does. */
    size_t block = c->chunk_bytes && c->chunk_bytes < AR_BLOCK_BYTES ? c->chunk_bytes : AR_BLOCK_BYTES;
    size_t piece = block / es ? block / es : 1;                       /* elements */
    size_t pieces = (comm_share(count, n, 0) + piece - 1) / piece;   /* of the largest block */
    unsigned long steps = 2 * (unsigned long)(n - 1), at = base;
    int second = mod(me + 2, n);
    for (size_t k = 0; k < pieces; k++, at += steps) {
        for (int s = 0; s < n - 1; s++) {
            int b = mod(me - s - 2, n);
            size_t off, len = piece_of(count, n, b, k, piece, &off);
            if (wait_done(w, me, left, at + (unsigned long)s) < 0)
                return -1;
            if (s < n - 2) {
                comm_sum_into(t, own + off * es, peer + off * es, len);
            } else {
                /*
                 * The last step sums block me, and stores the sum in the
                 * right neighbour's buffer too: its all-gather step 0, as
                 * NCCL's ring sends a finished block on in the pass that
                 * reduced it.  The right neighbour's partial of block me is
                 * read by its own right neighbour, in that rank's step 0
                 * (here, for two ranks, in this very pass).
                 */
                if (second != me && wait_done(w, me, second, at + 1) < 0)
                    return -1;
                comm_sum_into_copy(t, own + off * es, peer + off * es, next + off * es, len);
            }
            step_done(w, me, left, right);
        }
        for (int g = 0; g < n - 1; g++) {
            int b = mod(me - g - 1, n);
            size_t off, len = piece_of(count, n, b, k, piece, &off);
            /* Step 0's block was stored here by the left neighbour's last reduce-scatter step. */
            if (wait_done(w, me, left, at + (unsigned long)(n - 1 + g)) < 0 ||
                (g > 0 && wait_done(w, me, right, at + (unsigned long)g + 1) < 0))
                return -1;
            if (g > 0)
                memcpy(own + off * es, peer + off * es, len * es);
            step_done(w, me, left, right);
        }
    }
    /*
     * The right neighbour reads this buffer until its last all-gather step;
     * the caller may free it after.  Of two ranks, the right neighbour's
     * all-gather reads nothing (its one step's block was stored by this
     * rank): its last reduce-scatter step, already awaited above, is the
     * last to touch this buffer, and the call ends without another wait.
     */
    if (wait_done(w, me, right, n == 2 ? at - 1 : at) < 0)
        return -1;

    count_ring(c, count, es, me, left, right);
    return 0;
}
