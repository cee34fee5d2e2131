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
 * A file being written in place of path: output_begin makes a temporary
 * beside it, the caller writes to fd, and output_commit closes it and
 * renames it into place; output_abort (or a failed commit) removes it, so an
 * error found halfway leaves nothing behind and the target as it was.
 */
struct output_tmp {
    char *path;                 /* the target */
    char *tmp;                  /* the temporary beside it */
    int fd;                     /* open on tmp for writing */
    int err;                    /* errno of the first failed output_write, 0 if none */
};
int output_begin(struct diag *d, const char *path, struct output_tmp *t);
/* Write all of data to t->fd; on failure t->err is set and -1 returned. */
int output_write(struct output_tmp *t, const void *data, size_t len);
/* Returns 0, or -1 after reporting to d (the temporary is removed either way). */
int output_commit(struct diag *d, struct output_tmp *t);
void output_abort(struct output_tmp *t);

/*
 * Write the files into folder path atomically (built in a temporary folder
 * beside it, then renamed; an existing folder is replaced only on success).
 */
int output_dir(struct diag *d, const char *path, const struct emit_files *fs);

#endif
