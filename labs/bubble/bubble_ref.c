/*
 * bubble_ref.c — the bubble lab's data and reference: every stage's weight
 * and every micro-batch's input (the same on every rank and in the
 * reference), and the unpipelined computation the pipelined gradients are
 * checked against.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bubble.h"
#include "i18n.h"
#include "util.h"

void bubble_weight(int q, int h, double *W)
{
    /* Variance 1/(3h) per entry keeps |X W| near |X| through many stages. */
    double scale = 1.0 / sqrt((double)h);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < h; j++)
            W[(size_t)i * (size_t)h + (size_t)j] = scale * lab_value_at(1000u + (unsigned)q, (unsigned)i, (unsigned)j);
}

void bubble_input(int mb, int b, int h, double *X)
{
    for (int i = 0; i < b; i++)
        for (int j = 0; j < h; j++)
            X[(size_t)i * (size_t)h + (size_t)j] = lab_value_at((unsigned)mb, (unsigned)i, (unsigned)j);
}

int bubble_reference(struct dev *d, const struct bubble_cfg *cfg, double *ref, const char **how)
{
    /* The model is p*v pieces; piece q is chunk q / p of stage q % p. */
    int p = cfg->p * cfg->v, h = cfg->h;
    /* The whole batch at once when it fits in 256 MiB, else one micro-batch at a time. */
    size_t whole = (size_t)cfg->m * (size_t)cfg->b * (size_t)h * sizeof(double) * (size_t)(p + 2);
    int per = whole <= ((size_t)256 << 20) ? cfg->m : 1;
    int rows = per * cfg->b;
    size_t wbytes = (size_t)h * (size_t)h * sizeof(double), abytes = (size_t)rows * (size_t)h * sizeof(double);
    *how = per == cfg->m ? N_("the whole batch in one GEMM per stage") : N_("one micro-batch at a time");
    void **act = xcalloc((size_t)p + 1, sizeof *act), **W = xcalloc((size_t)p, sizeof *W);
    void *dW = dev_alloc(d, wbytes, "reference"), *g = dev_alloc(d, abytes, "reference"),
         *g2 = dev_alloc(d, abytes, "reference");
    double *host = xmalloc(wbytes > abytes ? wbytes : abytes);
    int rc = dW && g && g2 ? 0 : -1;
    for (int s = 0; s <= p && rc == 0; s++)
        rc = (act[s] = dev_alloc(d, abytes, "reference")) ? 0 : -1;
    for (int s = 0; s < p && rc == 0; s++) {
        if (!(W[s] = dev_alloc(d, wbytes, "reference"))) {
            rc = -1;
            break;
        }
        bubble_weight(s, h, host);
        rc = dev_copy(d, W[s], host, wbytes, DEV_H2D);
    }
    memset(ref, 0, (size_t)p * wbytes);
    for (int mb0 = 0; mb0 < cfg->m && rc == 0; mb0 += per) {
        for (int k = 0; k < per; k++)
            bubble_input(mb0 + k, cfg->b, h, host + (size_t)k * cfg->b * h);
        rc = dev_copy(d, act[0], host, abytes, DEV_H2D);
        for (int s = 0; s < p && rc == 0; s++)
            rc = dev_gemm(d, DTYPE_F64, false, false, rows, h, h, 1.0, act[s], h, W[s], h, 0.0, act[s + 1], h);
        /* dY of the loss 0.5 |Y|^2 is Y. */
        rc = rc ? rc : dev_copy(d, g, act[p], abytes, DEV_D2D);
        for (int s = p - 1; s >= 0 && rc == 0; s--) {
            rc = dev_gemm(d, DTYPE_F64, true, false, h, h, rows, 1.0, act[s], h, g, h, 0.0, dW, h);
            rc = rc ? rc : dev_gemm(d, DTYPE_F64, false, true, rows, h, h, 1.0, g, h, W[s], h, 0.0, g2, h);
            rc = rc ? rc : dev_copy(d, g, g2, abytes, DEV_D2D);
            rc = rc ? rc : dev_copy(d, host, dW, wbytes, DEV_D2H);
            for (size_t i = 0; rc == 0 && i < (size_t)h * (size_t)h; i++)
                ref[(size_t)s * h * h + i] += host[i];
        }
    }
    for (int s = 0; s <= p; s++)
        dev_free(d, act[s]);
    for (int s = 0; s < p; s++)
        dev_free(d, W[s]);
    dev_free(d, dW);
    dev_free(d, g);
    dev_free(d, g2);
    free(host);
    free(act);
    free(W);
    return rc;
}
