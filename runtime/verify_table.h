/*
 * verify_table.h — the table labrun --verify prints, one row a claim:
 * columns as wide as their widest cell, counted in characters.
 */
#ifndef QZ_VERIFY_TABLE_H
#define QZ_VERIFY_TABLE_H

#include <stddef.h>
#include <stdio.h>

enum { COL_Q, COL_LAB, COL_PARAMS, COL_METRIC, COL_EXPECTED, COL_MEASURED, COL_RESULT, NCOL };

/* The header, a rule, then rows of NCOL cells each. */
void verify_print_rows(FILE *out, char *(*cells)[NCOL], size_t rows);

#endif
