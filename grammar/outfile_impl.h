/*
 * outfile_impl.h — what outfile.c (one file) and outdir.c (a package
 * folder) share; not for the tools.
 */
#ifndef QZ_OUTFILE_IMPL_H
#define QZ_OUTFILE_IMPL_H

#include <stddef.h>

/* The folder part of path ("." when there is none).  Caller frees. */
char *out_dir_of(const char *path);
/* DIR/.BASE.XXXXXX beside path, for mkstemp or mkdtemp.  Caller frees. */
char *out_temp_template(const char *path);
/* Write all of data to fd (EINTR retried).  0, or -1 with errno set. */
int out_write_all(int fd, const void *data, size_t len);
/* Remove path and, when a folder, all it holds on its own file system. */
void out_rm_tree(const char *path);

#endif
