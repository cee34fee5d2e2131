/*
 * output.c — quizc's outputs through the shared writer (grammar/outfile.c),
 * so that quizc and labrun follow one set of rules for what they may
 * replace and what a failure or a signal leaves behind.
 */
#include "output.h"

int output_file(struct diag *d, const char *path, const void *data, size_t len)
{
    return out_whole(d, path, data, len);
}

int output_dir(struct diag *d, const char *path, const struct emit_files *fs)
{
    struct out_dir o;
    if (out_dir_begin(d, path, &o) != 0)
        return -1;
    for (size_t i = 0; i < fs->files.n; i++) {
        const struct emit_file *f = &fs->files.items[i];
        if (out_dir_add(d, &o, f->name, f->data, f->len) != 0) {
            out_dir_abort(&o);
            return -1;
        }
    }
    return out_dir_commit(d, &o);
}
