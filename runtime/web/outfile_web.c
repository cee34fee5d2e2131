/*
 * outfile_web.c — the part of grammar/outfile.h the WebAssembly module
 * calls, over its in-memory file system: writing a whole file (the report
 * under /out).  The module has no other process, no signal and nothing on
 * disk to guard, so the temporaries, renames and clean-up of outfile.c have
 * nothing to do here.
 */
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "outfile.h"

int out_whole(struct diag *d, const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        diag_error(d, NULL, "cannot write %s", path);
        return -1;
    }
    return 0;
}
