/*
 * output.h — write results so that no partial or clobbered file is ever left:
 * everything goes to a temporary beside the target and is renamed into place
 * only when complete.
 */
#ifndef QZ_OUTPUT_H
#define QZ_OUTPUT_H

#include <stddef.h>

#include "diag.h"
#include "emit.h"

/* Write data to path atomically.  Returns 0, or -1 after reporting to d. */
int output_file(struct diag *d, const char *path, const void *data, size_t len);

/*
 * Write the files into folder path atomically (built in a temporary folder
 * beside it, then renamed; an existing folder is replaced only on success).
 */
int output_dir(struct diag *d, const char *path, const struct emit_files *fs);

#endif
