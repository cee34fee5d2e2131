/*
 * lab_helpers.c — what every lab needs besides its lesson: its figures
 * gathered on rank 0, deterministic data, medians and quantiles (lab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lab.h"

int lab_gatherv(struct lab_ctx *c, const void *mine, void *all, const size_t *bytes)
{
    if (c->rank != 0)
        return bytes[c->rank] ? comm_send(c->comm, mine, bytes[c->rank], 0, LAB_TAG_GATHER) : 0;
    /* Rank 0 receives in rank order: under NCCL's rules messages between two ranks match in posting order. */
    char *at = all;
    for (int r = 0; r < c->nranks; r++) {
        if (r == 0)
            memcpy(at, mine, bytes[0]);
        else if (bytes[r] && comm_recv(c->comm, at, bytes[r], r, LAB_TAG_GATHER) != 0)
            return -1;
        at += bytes[r];
    }
    return 0;
}

int lab_gather(struct lab_ctx *c, const void *mine, size_t bytes, void *all)
{
    size_t *each = malloc((size_t)c->nranks * sizeof *each);
    if (!each)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        each[r] = bytes;
    int rc = lab_gatherv(c, mine, all, each);
    free(each);
    return rc;
}

double lab_value_at(unsigned a, unsigned b, unsigned c)
{
    /* An integer hash of the three coordinates (multiply-xorshift rounds), its top 24 bits scaled. */
    unsigned x = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 1) * 0xC2B2AE3Du;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    x *= 0x297A2D39u;
    x ^= x >> 15;
    return (double)(x >> 8) / (double)(1u << 23) - 1.0;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double lab_quantile(double *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, compare_double);
    double at = q * (double)(n - 1);
    size_t lo = (size_t)at;
    return lo + 1 < n ? v[lo] + (at - (double)lo) * (v[lo + 1] - v[lo]) : v[lo];
}

double lab_median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
