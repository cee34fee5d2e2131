/*
 * fault.c — crashes, the watchdog, Ctrl-C and fault injection (see fault.h).
 *
 * Ranks share one process under the cpu and cuda backends, so stopping "every
 * rank" is ending the process; under MPI, mpirun ends the other ranks when
 * one exits.  What must not happen is a partial file: the output writer
 * (grammar/outfile.c) registers its temporaries, and every way out removes
 * them first (out_cleanup).  The handlers use only async-signal-safe calls
 * (write, unlink, rmdir, raise, _exit).
 */
#include "fault.h"
#include "outfile.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static _Thread_local int my_rank = -1;


/* ---- Messages from signal handlers -------------------------------------- */

static void say(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void say_int(int v)
{
    char buf[16], *p = buf + sizeof buf;
    *--p = '\0';
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    say(p);
}

static const char *signal_words(int sig)
{
    switch (sig) {
    case SIGSEGV: return "segmentation fault (SIGSEGV)";
    case SIGBUS:  return "bus error (SIGBUS)";
    case SIGFPE:  return "arithmetic exception (SIGFPE)";
    case SIGILL:  return "illegal instruction (SIGILL)";
    case SIGABRT: return "aborted (SIGABRT)";
    case SIGINT:  return "interrupted (SIGINT)";
    case SIGTERM: return "terminated (SIGTERM)";
    }
    return "a fatal signal";
}

void fault_set_rank(int r)
{
    my_rank = r;
}

/* ---- Signals ------------------------------------------------------------ */

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction previous[sizeof fatal_signals / sizeof *fatal_signals];

static void on_fatal(int sig, siginfo_t *info, void *uctx)
{
    say("labrun: error: ");
    if (my_rank >= 0) {
        say("rank ");
        say_int(my_rank);
        say(" crashed: ");
    } else {
        say("crashed: ");
    }
    say(signal_words(sig));
    say("; every rank is stopped\n");
    out_cleanup();
    /* A sanitizer's handler, when one was installed first, still gets to report. */
    for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
        if (fatal_signals[i] != sig)
            continue;
        const struct sigaction *o = &previous[i];
        if ((o->sa_flags & SA_SIGINFO) && o->sa_sigaction)
            o->sa_sigaction(sig, info, uctx);
        else if (!(o->sa_flags & SA_SIGINFO) && o->sa_handler != SIG_DFL && o->sa_handler != SIG_IGN)
            o->sa_handler(sig);
    }
    _exit(1);
}

static void on_stop(int sig)
{
    say("labrun: ");
    say(signal_words(sig));
    say(": every rank is stopped; no partial output is left\n");
    out_cleanup();
    /* The default action, so the exit status says which signal ended the run. */
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}

void fault_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
        sigaction(fatal_signals[i], &sa, &previous[i]);

    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* A write past `ulimit -f` fails with EFBIG and is reported, instead of killing labrun. */
    out_ignore_xfsz();
}

/* ---- Watchdog ----------------------------------------------------------- */

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond;
static pthread_t wd_thread;
static bool wd_running, wd_stop;
static double wd_seconds;
static char wd_what[256];
static void (*wd_describe)(void *);
static void *wd_describe_arg;

void fault_watchdog_describe(void (*describe)(void *arg), void *arg)
{
    pthread_mutex_lock(&wd_lock);
    wd_describe = describe;
    wd_describe_arg = arg;
    pthread_mutex_unlock(&wd_lock);
}

static void *watchdog(void *arg)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    double whole = floor(wd_seconds);
    until.tv_sec += (time_t)whole;
    until.tv_nsec += (long)((wd_seconds - whole) * 1e9);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&wd_lock);
    int rc = 0;
    while (!wd_stop && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&wd_cond, &wd_lock, &until);
    bool fire = !wd_stop;
    void (*describe)(void *) = wd_describe;
    void *describe_arg = wd_describe_arg;
    pthread_mutex_unlock(&wd_lock);
    if (fire) {
        fprintf(stderr, "labrun: error: %s did not finish within %g s (--timeout); every rank is stopped\n",
                wd_what, wd_seconds);
        if (describe)
            describe(describe_arg);
        out_cleanup();
        _exit(1);
    }
    return NULL;
}

int fault_watchdog_start(double seconds, const char *what)
{
    if (!(seconds > 0) || wd_running)
        return 0;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&wd_cond, &ca);
    pthread_condattr_destroy(&ca);
    wd_seconds = seconds;
    wd_stop = false;
    snprintf(wd_what, sizeof wd_what, "%s", what ? what : "the lab");
    int e = pthread_create(&wd_thread, NULL, watchdog, NULL);
    if (e != 0) {
        fprintf(stderr, "labrun: error: cannot start the --timeout watchdog: %s\n", strerror(e));
        pthread_cond_destroy(&wd_cond);
        return -1;
    }
    wd_running = true;
    return 0;
}

void fault_watchdog_stop(void)
{
    if (!wd_running)
        return;
    pthread_mutex_lock(&wd_lock);
    wd_stop = true;
    pthread_cond_signal(&wd_cond);
    pthread_mutex_unlock(&wd_lock);
    pthread_join(wd_thread, NULL);
    pthread_cond_destroy(&wd_cond);
    wd_running = false;
}

/* ---- Injection ---------------------------------------------------------- */

enum fault_kind { FAULT_NONE, FAULT_ERROR, FAULT_CRASH, FAULT_HANG, FAULT_NAN, FAULT_INF };

static const char *const kind_names[] = {
    [FAULT_ERROR] = "error", [FAULT_CRASH] = "crash", [FAULT_HANG] = "hang",
    [FAULT_NAN] = "nan", [FAULT_INF] = "inf",
};

static enum fault_kind inject;
static int inject_rank = -1;

int fault_inject_parse(const char *spec)
{
    const char *at = strchr(spec, '@');
    enum fault_kind k = FAULT_NONE;
    for (int i = FAULT_ERROR; at && i <= FAULT_INF; i++)
        if ((size_t)(at - spec) == strlen(kind_names[i]) && strncmp(spec, kind_names[i], (size_t)(at - spec)) == 0)
            k = (enum fault_kind)i;
    char *end = NULL;
    long r = at ? strtol(at + 1, &end, 10) : -1;
    if (k == FAULT_NONE || !end || end == at + 1 || *end || r < 0 || r > 1 << 20) {
        fprintf(stderr, "labrun: error: --inject-fault: '%s' is not KIND@RANK "
                "(KIND: error, crash, hang, nan, inf)\n", spec);
        return -1;
    }
    inject = k;
    inject_rank = (int)r;
    return 0;
}

int fault_rank_start(int rank)
{
    if (inject == FAULT_NONE || rank != inject_rank)
        return 0;
    switch (inject) {
    case FAULT_ERROR:
        fprintf(stderr, "labrun: error: rank %d: injected fault (--inject-fault error@%d)\n", rank, rank);
        return -1;
    case FAULT_CRASH:
        raise(SIGSEGV);
        return -1;
    case FAULT_HANG:
        for (;;)
            sleep(1000);
    default:
        return 0;
    }
}

bool fault_poison_due(double *v)
{
    if ((inject != FAULT_NAN && inject != FAULT_INF) || my_rank != inject_rank)
        return false;
    *v = inject == FAULT_NAN ? NAN : INFINITY;
    return true;
}
