/*
 * activations_ref.c — the activations lab's data and reference: the weights
 * and inputs (the same on every rank and in the reference), and the unsplit
 * model on the host in double precision that every stage's weight
 * gradients are checked against.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "activations.h"
#include "gelu.h"

/* A value in [-1, 1) for (stream, i), rounded to t so device and reference start equal. */
static double det_value(uint64_t stream, uint64_t i, enum dtype t)
{
    double v = lab_value_at((unsigned)stream, (unsigned)i, 0);
    return t == DTYPE_F32 ? (double)(float)v : v;
}

double act_weight_value(long layer, long h, uint64_t i, enum dtype t)
{
    /* Variance 1/h keeps activations of order one through the stack. */
    double v = det_value(1000 + (uint64_t)layer, i, t) * sqrt(3.0 / (double)h);
    return t == DTYPE_F32 ? (double)(float)v : v;
}

double act_input_value(long mb, uint64_t i, enum dtype t) { return det_value((uint64_t)mb, i, t); }

/* ---- The reference: the unsplit model on the host in double precision --- */

static double gelu(double x)
{
    return GELU(double, tanh, x);
}

static double gelu_grad(double x)
{
    return GELU_GRAD(double, tanh, x);
}

/*
 * dW of layers [first, first + nl) for the whole step, computed without any
 * split: forward through all L layers, backward from the top.  ref gets nl
 * h x h blocks.  Returns -1 when out of memory.
 */
static int reference_grads(long L, long first, long nl, long m, long n, long h, enum dtype t,
                           double *ref)
{
    size_t nh = (size_t)n * (size_t)h, hh = (size_t)h * (size_t)h;
    double *W = malloc((size_t)L * hh * sizeof *W);
    double *X = malloc((size_t)(L + 1) * nh * sizeof *X);
    double *Z = malloc((size_t)L * nh * sizeof *Z);
    double *g = malloc(nh * sizeof *g), *gz = malloc(nh * sizeof *gz);
    if (!W || !X || !Z || !g || !gz) {
        free(W); free(X); free(Z); free(g); free(gz);
        return -1;
    }
    for (long l = 0; l < L; l++)
        for (size_t i = 0; i < hh; i++)
            W[(size_t)l * hh + i] = act_weight_value(l, h, i, t);
    memset(ref, 0, (size_t)nl * hh * sizeof *ref);
    for (long mb = 0; mb < m; mb++) {
        for (size_t i = 0; i < nh; i++)
            X[i] = act_input_value(mb, i, t);
        for (long l = 0; l < L; l++) {
            const double *x = X + (size_t)l * nh, *w = W + (size_t)l * hh;
            double *z = Z + (size_t)l * nh, *y = X + (size_t)(l + 1) * nh;
            for (long i = 0; i < n; i++)
                for (long j = 0; j < h; j++) {
                    double s = 0;
                    for (long q = 0; q < h; q++)
                        s += x[i * h + q] * w[q * h + j];
                    z[i * h + j] = s;
                    y[i * h + j] = gelu(s);
                }
        }
        memcpy(g, X + (size_t)L * nh, nh * sizeof *g);     /* d(0.5 y^2)/dy = y */
        for (long l = L - 1; l >= first; l--) {
            const double *x = X + (size_t)l * nh, *w = W + (size_t)l * hh, *z = Z + (size_t)l * nh;
            for (size_t i = 0; i < nh; i++)
                gz[i] = g[i] * gelu_grad(z[i]);
            if (l < first + nl) {
                double *dw = ref + (size_t)(l - first) * hh;
                for (long i = 0; i < n; i++)
                    for (long q = 0; q < h; q++)
                        for (long j = 0; j < h; j++)
                            dw[q * h + j] += x[i * h + q] * gz[i * h + j];
            }
            for (long i = 0; i < n; i++)
                for (long q = 0; q < h; q++) {
                    double s = 0;
                    for (long j = 0; j < h; j++)
                        s += gz[i * h + j] * w[q * h + j];
                    g[i * h + q] = s;
                }
        }
    }
    free(W); free(X); free(Z); free(g); free(gz);
    return 0;
}

/* The larger of a and b, and NaN when either is: fmax would drop a NaN and let a broken result pass. */
double act_max_or_nan(double a, double b)
{
    return isnan(a) ? a : isnan(b) ? b : fmax(a, b);
}

/* max |dW - ref| and max |ref| over this stage's layers. */
int act_compare_grads(struct stage *s, long L, double *err, double *refmax)
{
    size_t hh = (size_t)s->h * (size_t)s->h;
    double *ref = malloc((size_t)s->nl * hh * sizeof *ref);
    void *host = malloc(hh * s->e);
    int rc = -1;
    *err = 0;
    *refmax = 0;
    if (ref && host && reference_grads(L, s->first, s->nl, s->m, s->n, s->h, s->t, ref) == 0) {
        rc = 0;
        for (long l = 0; l < s->nl && rc == 0; l++) {
            if (dev_copy(s->c->dev, host, s->dW[l], hh * s->e, DEV_D2H) != 0 || dev_sync(s->c->dev) != 0) {
                rc = -1;
                break;
            }
            for (size_t i = 0; i < hh; i++) {
                double r = ref[(size_t)l * hh + i];
                *err = act_max_or_nan(*err, fabs(dtype_get(s->t, host, i) - r));
                *refmax = fmax(*refmax, fabs(r));
            }
        }
    }
    free(ref);
    free(host);
    return rc;
}
