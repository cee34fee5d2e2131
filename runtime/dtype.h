/*
 * dtype.h — the element types the runtime moves and computes with.
 */
#ifndef RT_DTYPE_H
#define RT_DTYPE_H

#include <stddef.h>
#include <string.h>

enum dtype {
    DTYPE_F32,      /* IEEE binary32, "fp32" */
    DTYPE_F64,      /* IEEE binary64, "fp64" */
};

/* Bytes per element. */
static inline size_t dtype_size(enum dtype t) { return t == DTYPE_F64 ? 8 : 4; }

/* "fp32" / "fp64", as the labs' --dtype parameter spells them. */
static inline const char *dtype_name(enum dtype t) { return t == DTYPE_F64 ? "fp64" : "fp32"; }

/* Parse "fp32" / "fp64" into *t; returns 0, or -1 for anything else. */
static inline int dtype_parse(const char *s, enum dtype *t)
{
    if (strcmp(s, "fp32") == 0) { *t = DTYPE_F32; return 0; }
    if (strcmp(s, "fp64") == 0) { *t = DTYPE_F64; return 0; }
    return -1;
}

#endif
