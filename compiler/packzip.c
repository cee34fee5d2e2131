/*
 * packzip.c — a build tool: the files every SCORM package carries as they
 * are (the player, Temml, the labs' WebAssembly module) deflated once, into
 * a zip that quizc carries (zip.c copies each entry's deflated bytes from
 * it instead of deflating the file again at every compile).
 *
 *     packzip OUT.zip NAME=PATH ...
 *
 * The zip is written by emit_zip, so its entries are deflated exactly as a
 * package's own would be.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "emit.h"

static int add(struct emit_files *fs, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        fprintf(stderr, "packzip: '%s' is not NAME=PATH\n", arg);
        return -1;
    }
    FILE *in = fopen(eq + 1, "rb");
    if (!in) {
        perror(eq + 1);
        return -1;
    }
    struct membuf b = { 0 };
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        membuf_append(&b, buf, n);
    int err = ferror(in);
    fclose(in);
    if (err) {
        perror(eq + 1);
        membuf_free(&b);
        return -1;
    }
    char *name = xstrdup(arg);
    name[eq - arg] = '\0';
    emit_files_add(fs, name, b.data ? (const void *)b.data : "", b.len);
    free(name);
    membuf_free(&b);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: packzip OUT.zip NAME=PATH ...\n", stderr);
        return 2;
    }
    struct emit_files fs = { 0 };
    for (int i = 2; i < argc; i++)
        if (add(&fs, argv[i]) < 0)
            return 1;
    struct diag *d = diag_new(stderr);
    struct membuf z = { 0 };
    int rc = emit_zip(&fs, &z, d);
    diag_free(d);
    if (rc == 0) {
        FILE *out = fopen(argv[1], "wb");
        rc = out && fwrite(z.data, 1, z.len, out) == z.len ? 0 : -1;
        if (!out || fclose(out) != 0)
            rc = -1;
        if (rc)
            perror(argv[1]);
    }
    membuf_free(&z);
    emit_files_free(&fs);
    return rc ? 1 : 0;
}
