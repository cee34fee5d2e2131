/*
 * test_zip_packed.c — the files quizc deflated at build time (zip.c's
 * zip_packed, made by packzip.c): a package copies their deflated bytes,
 * which are the bytes deflating them now would give, and a file with a
 * packed file's name but other bytes is deflated as it is.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>
#include <zlib.h>

#include "emit.h"
#include "scorm.h"

extern const struct scorm_res zip_packed[];
extern const size_t zip_packed_count;
extern const struct scorm_res math_res[];
extern const size_t math_res_count;

static struct diag *d;

static void setup(void)
{
    d = diag_new(NULL);
}

static void teardown(void)
{
    diag_free(d);
}

TestSuite(zip_packed, .init = setup, .fini = teardown);

static zip_t *open_bytes(const void *p, size_t len)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(p, len, 0, &ze);
    cr_assert_not_null(src);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
    cr_assert_not_null(za, "libzip cannot read the archive: %s", zip_error_strerror(&ze));
    zip_error_fini(&ze);
    return za;
}

/* Entry name's bytes, read from za (compressed: still deflated), malloc'd; its length in *len. */
static unsigned char *entry(zip_t *za, const char *name, zip_flags_t flags, size_t *len)
{
    zip_stat_t st;
    cr_assert_eq(zip_stat(za, name, 0, &st), 0, "no entry '%s'", name);
    size_t n = flags & ZIP_FL_COMPRESSED ? st.comp_size : st.size;
    unsigned char *p = malloc(n + 1);
    zip_file_t *f = zip_fopen(za, name, flags);
    cr_assert_not_null(f, "cannot open '%s'", name);
    cr_assert_eq(zip_fread(f, p, n), (zip_int64_t)n, "'%s' reads short", name);
    zip_fclose(f);
    *len = n;
    return p;
}

/* Every file of fs is an entry of za with its bytes (which: whose entries, for the message). */
static void expect_files(zip_t *za, const struct emit_files *fs, const char *which)
{
    for (size_t i = 0; i < fs->files.n; i++) {
        const struct emit_file *f = &fs->files.items[i];
        size_t len;
        unsigned char *p = entry(za, f->name, 0, &len);
        cr_expect(len == f->len && !memcmp(p, f->data, len), "%s '%s' is not quizc's file", which, f->name);
        free(p);
    }
}

/* The files a package carries as they are: the player's and Temml. */
static void fixed_files(struct emit_files *fs)
{
    for (size_t i = 0; i < scorm_player_count; i++)
        emit_files_add(fs, scorm_player[i].name, scorm_player[i].data, scorm_player[i].len);
    for (size_t i = 0; i < math_res_count; i++)
        if (!strcmp(math_res[i].name, "temml.min.js"))
            emit_files_add(fs, math_res[i].name, math_res[i].data, math_res[i].len);
}

Test(zip_packed, every_file_quizc_carries_as_it_is_is_packed_with_its_bytes)
{
    cr_assert_eq(zip_packed_count, 1);
    zip_t *packed = open_bytes(zip_packed[0].data, zip_packed[0].len);
    struct emit_files fs = { 0 };
    fixed_files(&fs);
    cr_assert_gt(fs.files.n, 10);
    expect_files(packed, &fs, "packed");
    emit_files_free(&fs);
    zip_discard(packed);
}

Test(zip_packed, a_package_holds_the_packed_bytes_which_are_the_bytes_deflating_gives)
{
    struct emit_files fs = { 0 };
    fixed_files(&fs);
    /* The same bytes under a name nothing packed has: deflated by this emit_zip. */
    const struct emit_file *mod = NULL;
    for (size_t i = 0; i < fs.files.n; i++)
        if (!strcmp(fs.files.items[i].name, "temml.min.js"))
            mod = &fs.files.items[i];
    cr_assert_not_null(mod);
    struct membuf copy = { 0 };
    membuf_append(&copy, mod->data, mod->len);
    emit_files_add(&fs, "fresh/temml.min.js", copy.data, copy.len);
    struct membuf z = { 0 };
    cr_assert_eq(emit_zip(&fs, &z, d), 0);
    zip_t *za = open_bytes(z.data, z.len), *packed = open_bytes(zip_packed[0].data, zip_packed[0].len);

    size_t a, b, c;
    unsigned char *copied = entry(za, "temml.min.js", ZIP_FL_COMPRESSED, &a);
    unsigned char *fresh = entry(za, "fresh/temml.min.js", ZIP_FL_COMPRESSED, &b);
    unsigned char *built = entry(packed, "temml.min.js", ZIP_FL_COMPRESSED, &c);
    cr_expect(a == c && !memcmp(copied, built, a), "the package's entry is not the packed one");
    cr_expect(a == b && !memcmp(copied, fresh, a), "the packed bytes are not what deflating them now gives");
    free(copied);
    free(fresh);
    free(built);
    /* And every entry reads back as its file. */
    expect_files(za, &fs, "the package's");
    zip_discard(packed);
    zip_discard(za);
    membuf_free(&z);
    membuf_free(&copy);
    emit_files_free(&fs);
}

Test(zip_packed, a_file_with_a_packed_name_and_other_bytes_is_the_package_s_own)
{
    /* As the player's index.html in a quiz with formulas. */
    const char *page = "<!DOCTYPE html>\n<title>another page</title>\n";
    struct emit_files fs = { 0 };
    emit_files_add(&fs, "index.html", page, strlen(page));
    struct membuf z = { 0 };
    cr_assert_eq(emit_zip(&fs, &z, d), 0);
    zip_t *za = open_bytes(z.data, z.len);
    size_t len;
    unsigned char *p = entry(za, "index.html", 0, &len);
    cr_expect(len == strlen(page) && !memcmp(p, page, len), "index.html holds the packed page, not this one");
    free(p);
    zip_discard(za);
    membuf_free(&z);
    emit_files_free(&fs);
}
