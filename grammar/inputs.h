/*
 * inputs.h — the files a run reads (quiz, includes, lab manifests and
 * sources, runs files), so that nothing the run writes can overwrite one of
 * them or a folder holding one (outfile.h's rules).
 *
 * A file is known by its device and inode, so a second name for it (a link,
 * "./a/../q.qz") is the same input.  One table per process.
 */
#ifndef QZ_INPUTS_H
#define QZ_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* path is an input of this run: no output may overwrite it or a folder holding it. */
void out_note_input(const char *path);
/* read_file, noting path as an input.  Every reader of a source uses it. */
char *out_read_input(const char *path, size_t *len);
/* Whether the file st describes is an input of this run. */
bool out_is_input(const struct stat *st);
/* The real path of an input under the folder real_dir (a realpath), or NULL. */
const char *out_input_under(const char *real_dir);

#endif
