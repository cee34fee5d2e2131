/*
 * outfile.h — the one set of rules by which quizc and labrun write what they
 * make (-o, --dir, --json, --svg, --trace, --record):
 *
 *   - a regular file (or a new name) is written to a temporary beside it and
 *     renamed over it only when whole, so a failed or stopped run leaves the
 *     previous file as it was and no temporary;
 *   - "-", /dev/stdout, /dev/stderr, /dev/fd/N, a character device and a FIFO
 *     with a reader are written through as a stream, never replaced; a FIFO
 *     with no reader, a socket, a block device and a folder are refused;
 *   - a target that is an input of the run (a file read by out_read_input)
 *     is refused before anything is written;
 *   - a package folder replaces an existing one only when that folder is
 *     empty or holds nothing but what quizc wrote there (listed in its
 *     marker file), on the same file system, and holds no input of the run.
 *
 * Every temporary is registered so that SIGINT, SIGTERM and SIGHUP remove it
 * (async-signal-safely) before the process ends with that signal.
 */
#ifndef QZ_OUTFILE_H
#define QZ_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "inputs.h"

/* The file in a package folder that lists the files quizc wrote there. */
#define OUT_MARKER ".quizc-package"

/* ---- Inputs and signals ------------------------------------------------- */


/*
 * Catch SIGINT, SIGTERM and SIGHUP: remove the registered temporaries, then
 * end with the signal's default action.  Ignore SIGXFSZ, so that a write past
 * the file size limit fails with EFBIG and is reported as an error.
 */
void out_signals_install(void);
/* Only ignore SIGXFSZ (a tool with its own stop handlers calls out_cleanup). */
void out_ignore_xfsz(void);

/* Remove every temporary this process registered.  Async-signal-safe. */
void out_cleanup(void);

/*
 * Register a temporary (a file, or a folder removed with its contents) to be
 * removed by out_cleanup.  Returns its slot, or -1 when every slot is taken
 * (the path is then not removed on a signal).  The path is copied.
 */
int out_temp_add(const char *path, bool tree);
/* The temporary of slot is gone or kept: forget it.  slot -1 is ignored. */
void out_temp_drop(int slot);

/* ---- One file ----------------------------------------------------------- */

struct out_file {
    char *path;                 /* the target as named */
    char *dest;                 /* where the temporary is renamed to (symlinks resolved) */
    char *tmp;                  /* the temporary beside dest; NULL for a stream */
    int fd;                     /* open for writing */
    bool own_fd;                /* fd is closed at the end (not stdout's) */
    int err;                    /* errno of the first failed out_write, 0 if none */
    int slot;                   /* out_temp_add slot of tmp */
};

/* Open path for writing by the rules above.  0, or -1 after reporting to d. */
int out_begin(struct diag *d, const char *path, struct out_file *f);
/* Write all of data; on failure f->err is set and -1 returned. */
int out_write(struct out_file *f, const void *data, size_t len);
/* Finish: 0, or -1 after reporting to d (the temporary is removed either way). */
int out_commit(struct diag *d, struct out_file *f);
void out_abort(struct out_file *f);
/* out_begin + out_write + out_commit. */
int out_whole(struct diag *d, const char *path, const void *data, size_t len);

/* ---- A package folder --------------------------------------------------- */

struct out_dir {
    char *path;                 /* the target, without a trailing slash */
    char *tmp;                  /* the folder being built beside it */
    bool exists;                /* path is a folder now */
    char **names, **old;        /* files written; files of the old package */
    size_t n, cap, nold;
    int slot;
};

int out_dir_begin(struct diag *d, const char *path, struct out_dir *o);
/* Add the file name (a relative path, folders made on its way). */
int out_dir_add(struct diag *d, struct out_dir *o, const char *name, const void *data, size_t len);
/* Write the marker and put the folder in place; the old package's files go. */
int out_dir_commit(struct diag *d, struct out_dir *o);
void out_dir_abort(struct out_dir *o);

#endif
