/*
 * output.h — quizc's results, written by the rules both tools share
 * (grammar/outfile.h): a file appears whole or not at all and a stream is
 * written through; a package folder replaces only a package quizc wrote.
 */
#ifndef QZ_OUTPUT_H
#define QZ_OUTPUT_H

#include <stddef.h>

#include "diag.h"
#include "emit.h"
#include "outfile.h"

/* Write data to path whole (out_whole).  Returns 0, or -1 after reporting to d. */
int output_file(struct diag *d, const char *path, const void *data, size_t len);

/*
 * Write the files into folder path: built in a temporary folder beside it,
 * then put in place; an existing folder is replaced only when it is empty or
 * a package quizc wrote, and only on success.
 */
int output_dir(struct diag *d, const char *path, const struct emit_files *fs);

#endif
