/*
 * tensor_split_ref.c — the tensor-split lab's data and reference: the
 * generated tensors (a function of the global position, so every rank makes
 * only its own slice), the unsplit layer in fp64 that the split result is
 * checked against, and the unsplit layer timed on one device.
 */
#include <math.h>
#include <stdlib.h>

#include "tensor_split.h"
#include "util.h"

void ts_fill(enum dtype t, void *host, int tensor, int rows, int cols, int row0, int col0, double scale)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            dtype_set(t, host, (size_t)i * (size_t)cols + (size_t)j,
                      scale * lab_value_at((unsigned)tensor, (unsigned)(row0 + i), (unsigned)(col0 + j)));
}

/* Scales that keep every product near 1 whatever the sizes. */
double ts_scale(int tensor, const struct ts_cfg *cfg)
{
    return tensor == TS_A ? 1.0 / sqrt((double)cfg->hidden) : tensor == TS_B ? 1.0 / sqrt((double)cfg->ffn) : 1.0;
}

/* A generated tensor on the device in fp64, its values rounded through dtype t first. */
static void *make_ref(struct dev *d, const struct ts_cfg *cfg, int tensor, int rows, int cols)
{
    size_t n = (size_t)rows * (size_t)cols;
    void *narrow = xmalloc(n * dtype_size(cfg->dtype) + 1);
    double *wide = xmalloc(n * sizeof *wide + 1);
    ts_fill(cfg->dtype, narrow, tensor, rows, cols, 0, 0, ts_scale(tensor, cfg));
    for (size_t i = 0; i < n; i++)
        wide[i] = dtype_get(cfg->dtype, narrow, i);
    void *p = dev_alloc(d, n * sizeof(double), "reference");
    if (p && dev_copy(d, p, wide, n * sizeof(double), DEV_H2D) < 0) {
        dev_free(d, p);
        p = NULL;
    }
    free(narrow);
    free(wide);
    return p;
}

/*
 * The layer unsplit, in type t: Y = X A (column), X B (row) or gelu(X A) B
 * (mlp, through Z).  The buffers a mode does not use may be NULL.
 */
static int layer(struct dev *d, enum dtype t, const struct ts_cfg *cfg, const void *X, const void *A,
                 const void *B, void *Z, void *Y)
{
    int m = cfg->tokens, h = cfg->hidden, f = cfg->ffn;
    if (cfg->mode == TS_COLUMN)
        return dev_gemm(d, t, false, false, m, f, h, 1.0, X, h, A, f, 0.0, Y, f);
    if (cfg->mode == TS_ROW)
        return dev_gemm(d, t, false, false, m, h, f, 1.0, X, f, B, h, 0.0, Y, h);
    int rc = dev_gemm(d, t, false, false, m, f, h, 1.0, X, h, A, f, 0.0, Z, f);
    rc = rc ? rc : dev_gelu(d, t, (size_t)m * (size_t)f, Z, Z);
    return rc ? rc : dev_gemm(d, t, false, false, m, h, f, 1.0, Z, f, B, h, 0.0, Y, h);
}

int ts_reference(struct dev *d, const struct ts_cfg *cfg, double *ref)
{
    int m = cfg->tokens, h = cfg->hidden, f = cfg->ffn;
    enum dtype t = DTYPE_F64;
    void *X = make_ref(d, cfg, TS_X, m, cfg->mode == TS_ROW ? f : h);
    void *A = cfg->mode != TS_ROW ? make_ref(d, cfg, TS_A, h, f) : NULL;
    void *B = cfg->mode != TS_COLUMN ? make_ref(d, cfg, TS_B, f, h) : NULL;
    void *Z = dev_alloc(d, (size_t)m * (size_t)f * sizeof(double), "reference");
    void *Y = dev_alloc(d, (size_t)m * (size_t)(cfg->mode == TS_COLUMN ? f : h) * sizeof(double), "reference");
    int rc = X && Z && Y && (A || cfg->mode == TS_ROW) && (B || cfg->mode == TS_COLUMN) ? 0 : -1;
    if (rc == 0)
        rc = layer(d, t, cfg, X, A, B, Z, Y);
    size_t ny = (size_t)m * (size_t)(cfg->mode == TS_COLUMN ? f : h);
    if (rc == 0)
        rc = dev_copy(d, ref, Y, ny * sizeof(double), DEV_D2H);
    void *bufs[] = { X, A, B, Z, Y };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        dev_free(d, bufs[i]);
    return rc;
}

double ts_rel_error(enum dtype t, const void *y, const double *ref, size_t n)
{
    double maxdiff = 0, maxref = 0;
    for (size_t i = 0; i < n; i++) {
        double v = dtype_get(t, y, i), e = fabs(v - ref[i]);
        if (isnan(e))
            return INFINITY;
        maxdiff = fmax(maxdiff, e);
        maxref = fmax(maxref, fabs(ref[i]));
    }
    return maxref > 0 ? maxdiff / maxref : maxdiff;
}

/*
 * The layer unsplit on this one device in cfg's dtype: its bytes (weights,
 * input, intermediate, output) and the thread CPU time of its GEMMs and GeLU.
 */
int ts_unsplit(struct dev *d, const struct ts_cfg *cfg, double *bytes, double *cpu)
{
    int m = cfg->tokens, h = cfg->hidden, f = cfg->ffn;
    enum dtype t = cfg->dtype;
    size_t es = dtype_size(t);
    uint64_t before = d->usage.current;
    /* Elements of each buffer: the first touch below fills each whole, never more. */
    size_t nx = (size_t)m * (size_t)(cfg->mode == TS_ROW ? f : h), nw = (size_t)h * (size_t)f,
           nz = (size_t)m * (size_t)f, ny = (size_t)m * (size_t)(cfg->mode == TS_COLUMN ? f : h);
    void *X = dev_alloc(d, nx * es, "unsplit");
    void *A = cfg->mode != TS_ROW ? dev_alloc(d, nw * es, "unsplit") : NULL;
    void *B = cfg->mode != TS_COLUMN ? dev_alloc(d, nw * es, "unsplit") : NULL;
    void *Z = cfg->mode == TS_MLP ? dev_alloc(d, nz * es, "unsplit") : NULL;
    void *Y = dev_alloc(d, ny * es, "unsplit");
    *bytes = (double)(d->usage.current - before);
    int rc = X && Y && (A || cfg->mode == TS_ROW) && (B || cfg->mode == TS_COLUMN) &&
             (Z || cfg->mode != TS_MLP) ? 0 : -1;
    void *bufs[] = { X, A, B, Z, Y };
    const size_t counts[] = { nx, nw, nw, nz, ny };
    for (size_t i = 0; rc == 0 && i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i])
            rc = dev_fill(d, t, bufs[i], counts[i], 0.5);   /* first touch, outside the timing */
    /* Warm once, then time. */
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        double t0 = dev_clock(d);
        rc = layer(d, t, cfg, X, A, B, Z, Y);
        *cpu = dev_clock(d) - t0;
    }
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        dev_free(d, bufs[i]);
    return rc;
}
