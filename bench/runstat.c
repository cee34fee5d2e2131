/*
 * runstat.c — run a command and report what it cost: wall time, user and
 * system CPU time and peak resident memory, from wait4()'s rusage.  GNU time
 * is not on every machine; this is the part of it the benchmarks need.
 *
 *   runstat [-o FILE] [-q] -- COMMAND [ARG...]
 *
 * Prints one JSON object {"wall_s":…, "user_s":…, "sys_s":…, "max_rss_kib":…,
 * "status":…} to stdout, or to FILE with -o.  With -q the command's own stdout
 * goes to /dev/null (its stderr is kept, so failures stay visible).  The exit
 * status is the command's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int quiet = 0, i = 1;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "-q"))
            quiet = 1;
        else if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else
            break;
    }
    if (i >= argc) {
        fputs("usage: runstat [-o FILE] [-q] -- COMMAND [ARG...]\n", stderr);
        return 2;
    }

    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        perror("runstat: fork");
        return 1;
    }
    if (pid == 0) {
        if (quiet) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0)
                dup2(fd, STDOUT_FILENO);
        }
        execvp(argv[i], argv + i);
        fprintf(stderr, "runstat: %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }

    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            perror("runstat: wait4");
            return 1;
        }
    }
    double wall = now_s() - t0;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "runstat: %s: %s\n", out, strerror(errno));
        return 1;
    }
    /* ru_maxrss is in KiB on Linux. */
    fprintf(f, "{\"wall_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f, \"max_rss_kib\": %ld, "
               "\"status\": %d}\n",
            wall, tv_s(ru.ru_utime), tv_s(ru.ru_stime), ru.ru_maxrss, code);
    if (out && fclose(f)) {
        fprintf(stderr, "runstat: %s: %s\n", out, strerror(errno));
        return 1;
    }
    return code;
}
