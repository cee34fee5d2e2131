/*
 * place.c — the GPU placement rules and the report's placement line (place.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "place.h"

bool place_cuda_nccl(int nranks, int ngpu, bool have_nccl)
{
    return have_nccl && nranks <= ngpu;
}

int place_cuda_gpu(int rank, bool use_nccl)
{
    return use_nccl ? rank : 0;
}

int place_gpu_of(int local, int nvisible)
{
    return nvisible < 1 || local < 0 ? -1 : local % nvisible;
}

bool place_shared(const char *const *ids, int n, int *a, int *b)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(ids[i], ids[j]) == 0) {
                *a = i;
                *b = j;
                return true;
            }
    return false;
}

/* Text appended at *at within buf[0..n); a line cut short stays terminated. */
static void add(char *buf, size_t n, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t n, size_t *at, const char *fmt, ...)
{
    if (*at >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *at, n - *at, fmt, ap);
    va_end(ap);
    if (w > 0)
        *at = *at + (size_t)w < n ? *at + (size_t)w : n;
}

static const char *name_of(const char *const *names, int g, int ngpu)
{
    return names && g < ngpu && names[g] ? names[g] : "?";
}

void place_cuda_text(char *buf, size_t n, int nranks, int ngpu, const char *const *names,
                     bool have_nccl)
{
    size_t at = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    bool nccl = place_cuda_nccl(nranks, ngpu, have_nccl);
    add(buf, n, &at, "%d rank%s on %d of %d GPU%s: ", nranks, nranks == 1 ? "" : "s",
        nccl ? nranks : 1, ngpu, ngpu == 1 ? "" : "s");
    if (nccl) {
        for (int r = 0; r < nranks; r++)
            add(buf, n, &at, "%srank %d -> GPU %d (%s)", r ? ", " : "", r, place_cuda_gpu(r, true),
                name_of(names, place_cuda_gpu(r, true), ngpu));
        add(buf, n, &at, "; no two ranks share a GPU; data moves by NCCL (bytes shown are what "
            "a ring moves: NCCL picks its own algorithm)");
        return;
    }
    if (nranks == 1)
        add(buf, n, &at, "rank 0 -> GPU 0 (%s)", name_of(names, 0, ngpu));
    else
        add(buf, n, &at, "ranks 0-%d -> GPU 0 (%s); %d ranks SHARE GPU 0, each a CUDA stream with "
            "its own memory, and contend for it", nranks - 1, name_of(names, 0, ngpu), nranks);
    add(buf, n, &at, "; data moves by device-to-device copies ordered by events, not NCCL (%s)",
        have_nccl ? "NCCL needs a GPU per rank and there are more ranks than GPUs"
                  : "this labrun was built without NCCL");
}
