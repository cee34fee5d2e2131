/*
 * sandbox.h — a private temporary folder for the fuzz harnesses: the input is
 * written into it as a file, and every include or lab it names resolves
 * inside it, so a fuzzed `include` never reaches the rest of the machine
 * through a relative path.
 */
#ifndef QZ_FUZZ_SANDBOX_H
#define QZ_FUZZ_SANDBOX_H

#include <stddef.h>

/* One file of the fixed sandbox: a path relative to the folder and its text. */
struct sandbox_file {
    const char *path;       /* "part.qz", "labs/bubble/lab.qz"; a trailing '/' makes a folder */
    const char *text;       /* the contents; "->TARGET" makes a symbolic link to TARGET */
};

/*
 * Create a fresh folder under $TMPDIR holding files[0..n) and return its path
 * (static storage, valid until sandbox_remove).  Aborts when it cannot: a
 * harness without its sandbox would test nothing.
 */
const char *sandbox_create(const char *tag, const struct sandbox_file *files, size_t n);

/* path inside the sandbox, in a static buffer reused by the next call. */
const char *sandbox_path(const char *rel);

/* Replace the file rel with data[0..len) (written in place: the harness is single-threaded). */
void sandbox_write(const char *rel, const void *data, size_t len);

/* Remove the sandbox and everything in it (registered with atexit by sandbox_create). */
void sandbox_remove(void);

#endif
