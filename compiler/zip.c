/*
 * zip.c — a set of files as a zip archive in memory, with libzip.
 *
 * The archive is byte-identical across runs and machines: entries sorted by
 * name, every timestamp the same (SOURCE_DATE_EPOCH when set, else
 * 1980-01-01 00:00, the earliest a zip can hold), the same permissions, and
 * names checked to be relative and free of `..` so an unzip cannot write
 * outside its folder.
 *
 * Entries are deflated at ZIP_LEVEL, not zlib's default 6: for the seed
 * quiz's package (about 190 KB of text) level 6 took 41 % of the
 * instructions of a whole compile; level 3 takes about half of that for a
 * package 9 % larger (54 KB instead of 49 KB).  Level 1 saves little more
 * and grows it 19 %.
 *
 * The files every package carries as they are (the player, Temml, the
 * labs' WebAssembly module: a megabyte, most of a small quiz's package)
 * were deflated when quizc was built (packzip.c, the table zip_packed).
 * An entry whose name, size and CRC-32 are those of a packed one is copied
 * from it, still deflated: the same bytes, without deflating them again.
 * (A name alone would not do: the player's index.html differs in a quiz
 * with formulas.)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <zip.h>
#include <zlib.h>

#include "emit.h"
#include "scorm.h"

#define ZIP_LEVEL 3

/* A name an unzip writes inside its target folder: relative, no "." or ".." parts, no "\". */
static bool safe_name(const char *name)
{
    if (!*name || name[0] == '/' || strchr(name, '\\') || strchr(name, ':'))
        return false;
    for (const char *p = name; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
            return false;
        p += n;
        if (*p == '/')
            p++;
        if (!*p && p[-1] == '/')
            return false;   /* a trailing slash names a folder, not a file */
    }
    return true;
}

/*
 * libzip turns a time_t into the zip's DOS date through localtime(), so the
 * time_t that yields the wanted wall-clock fields is computed with mktime()
 * in the same time zone: the stored date is then the same in every zone.
 */
static time_t fixed_mtime(void)
{
    struct tm tm = { .tm_year = 80, .tm_mon = 0, .tm_mday = 1, .tm_isdst = -1 };
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (sde && *sde) {
        char *end;
        errno = 0;
        long long t = strtoll(sde, &end, 10);
        time_t tt = (time_t)t;
        struct tm g;
        /* DOS dates run from 1980; earlier epochs keep the default. */
        if (!errno && !*end && t >= 315532800LL && gmtime_r(&tt, &g)) {
            tm = g;
            tm.tm_isdst = -1;
        }
    }
    return mktime(&tm);
}

/* The packed files: one zip (packzip.c), or none (zip_packed.c). */
extern const struct scorm_res zip_packed[];
extern const size_t zip_packed_count;

/* The packed zip, opened for reading, or NULL (none, or it cannot be read: then every file is deflated). */
static zip_t *open_packed(void)
{
    if (!zip_packed_count)
        return NULL;
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(zip_packed[0].data, zip_packed[0].len, 0, &ze);
    zip_t *p = src ? zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze) : NULL;
    if (!p)
        zip_source_free(src);
    zip_error_fini(&ze);
    return p;
}

/* f's deflated bytes from the packed zip, when it holds f as it is; else NULL. */
static zip_source_t *packed_source(zip_t *za, zip_t *packed, const struct emit_file *f)
{
    zip_stat_t st;
    zip_int64_t i = packed ? zip_name_locate(packed, f->name, 0) : -1;
    if (i < 0 || zip_stat_index(packed, (zip_uint64_t)i, 0, &st) < 0 ||
        (st.valid & (ZIP_STAT_SIZE | ZIP_STAT_CRC | ZIP_STAT_COMP_METHOD)) !=
            (ZIP_STAT_SIZE | ZIP_STAT_CRC | ZIP_STAT_COMP_METHOD) ||
        st.comp_method != ZIP_CM_DEFLATE || st.size != f->len ||
        crc32_z(0, f->data, f->len) != st.crc)
        return NULL;
    /* The whole entry (start 0, length -1): libzip then reads it still deflated. */
    return zip_source_zip(za, packed, (zip_uint64_t)i, 0, 0, -1);
}

static int by_name(const void *a, const void *b)
{
    const struct emit_file *x = *(const struct emit_file *const *)a;
    const struct emit_file *y = *(const struct emit_file *const *)b;
    return strcmp(x->name, y->name);
}

static int zip_fail(struct diag *d, const char *what, zip_error_t *ze)
{
    diag_error(d, NULL, "cannot build the zip package: %s: %s", what, zip_error_strerror(ze));
    return -1;
}

int emit_zip(const struct emit_files *fs, struct membuf *out, struct diag *d)
{
    size_t n = fs->files.n;
    if (n == 0) {
        diag_error(d, NULL, "cannot build a zip package with no files");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!safe_name(fs->files.items[i].name)) {
            diag_error(d, NULL, "refusing to put '%s' in a zip: names must be relative, without '..'",
                       fs->files.items[i].name);
            return -1;
        }
        for (size_t k = 0; k < i; k++)
            if (!strcmp(fs->files.items[i].name, fs->files.items[k].name)) {
                diag_error(d, NULL, "two files named '%s' in one package", fs->files.items[i].name);
                return -1;
            }
    }

    const struct emit_file **sorted = xcalloc(n ? n : 1, sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        sorted[i] = &fs->files.items[i];
    qsort(sorted, n, sizeof *sorted, by_name);

    int rc = -1;
    zip_t *packed = NULL;   /* read by za's sources until za is closed */
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *dst = zip_source_buffer_create(NULL, 0, 0, &ze);
    zip_t *za = dst ? zip_open_from_source(dst, ZIP_TRUNCATE, &ze) : NULL;
    if (!za) {
        zip_fail(d, "open", &ze);
        zip_source_free(dst);
        goto done;
    }
    zip_source_keep(dst);   /* the archive's bytes are read from it after zip_close */

    packed = open_packed();
    time_t mtime = fixed_mtime();
    for (size_t i = 0; i < n; i++) {
        const struct emit_file *f = sorted[i];
        zip_source_t *src = packed_source(za, packed, f);
        if (!src)
            src = zip_source_buffer(za, f->data ? f->data : (const void *)"", f->len, 0);
        zip_int64_t idx = src ? zip_file_add(za, f->name, src, ZIP_FL_ENC_UTF_8) : -1;
        if (idx < 0) {
            zip_source_free(src);
            zip_fail(d, f->name, zip_get_error(za));
            zip_discard(za);
            goto free_dst;
        }
        if (zip_file_set_mtime(za, (zip_uint64_t)idx, mtime, 0) < 0 ||
            zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_DEFLATE, ZIP_LEVEL) < 0 ||
            zip_file_set_external_attributes(za, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX,
                                             (zip_uint32_t)(0100644) << 16) < 0) {
            zip_fail(d, f->name, zip_get_error(za));
            zip_discard(za);
            goto free_dst;
        }
    }
    if (zip_close(za) < 0) {
        zip_fail(d, "close", zip_get_error(za));
        zip_discard(za);
        goto free_dst;
    }

    /* Read the finished archive back out of the memory source. */
    zip_stat_t st;
    if (zip_source_stat(dst, &st) < 0 || !(st.valid & ZIP_STAT_SIZE) || zip_source_open(dst) < 0) {
        zip_fail(d, "read back", zip_source_error(dst));
        goto free_dst;
    }
    /* Straight into out: a megabyte not copied again. */
    zip_int64_t got = zip_source_read(dst, membuf_room(out, st.size), st.size);
    zip_source_close(dst);
    if (got < 0 || (zip_uint64_t)got != st.size) {
        zip_fail(d, "read back", zip_source_error(dst));
        goto free_dst;
    }
    out->len += st.size;
    out->data[out->len] = '\0';
    rc = 0;
free_dst:
    zip_source_free(dst);
done:
    if (packed)
        zip_discard(packed);
    zip_error_fini(&ze);
    free(sorted);
    return rc;
}
