/*
 * test_zip.c — compiler/zip.c: the package as a zip, read back with libzip.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zip.h>

#include "emit.h"

static struct diag *d;

static void setup(void)
{
    d = diag_new(NULL);
    unsetenv("SOURCE_DATE_EPOCH");
}

static void teardown(void)
{
    diag_free(d);
}

TestSuite(zip, .init = setup, .fini = teardown);

static void add(struct emit_files *fs, const char *name, const char *text)
{
    emit_files_add(fs, name, text, strlen(text));
}

/* A small package, its files added in the order given. */
static void package(struct emit_files *fs, bool reversed)
{
    static const char *const names[] = { "player.js", "imsmanifest.xml", "course.xml", "index.html", "sub/x.txt" };
    static const char *const bodies[] = { "var x = 1;\n", "<manifest/>\n", "<course/>\n", "<!DOCTYPE html>\n", "" };
    for (size_t k = 0; k < 5; k++) {
        size_t i = reversed ? 4 - k : k;
        add(fs, names[i], bodies[i]);
    }
}

static zip_t *open_mem(const struct membuf *m, zip_source_t **src)
{
    zip_error_t ze;
    zip_error_init(&ze);
    *src = zip_source_buffer_create(m->data, m->len, 0, &ze);
    cr_assert_not_null(*src);
    zip_t *za = zip_open_from_source(*src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
    cr_assert_not_null(za, "libzip cannot read the archive back: %s", zip_error_strerror(&ze));
    zip_error_fini(&ze);
    return za;
}

Test(zip, the_same_files_in_any_order_give_the_same_bytes)
{
    struct emit_files a = { 0 }, b = { 0 };
    struct membuf ma = { 0 }, mb = { 0 }, mc = { 0 };
    package(&a, false);
    package(&b, true);
    cr_assert_eq(emit_zip(&a, &ma, d), 0);
    cr_assert_eq(emit_zip(&b, &mb, d), 0);
    cr_assert_eq(emit_zip(&a, &mc, d), 0);
    cr_assert_gt(ma.len, 0);
    cr_assert_eq(ma.len, mb.len);
    cr_assert(memcmp(ma.data, mb.data, ma.len) == 0, "insertion order changed the bytes");
    cr_assert_eq(ma.len, mc.len);
    cr_assert(memcmp(ma.data, mc.data, ma.len) == 0, "a second run changed the bytes");
    membuf_free(&ma);
    membuf_free(&mb);
    membuf_free(&mc);
    emit_files_free(&a);
    emit_files_free(&b);
}

Test(zip, entries_are_sorted_deflated_and_hold_their_bytes)
{
    struct emit_files fs = { 0 };
    struct membuf m = { 0 };
    package(&fs, true);
    cr_assert_eq(emit_zip(&fs, &m, d), 0);
    zip_source_t *src;
    zip_t *za = open_mem(&m, &src);
    static const char *const want[] = { "course.xml", "imsmanifest.xml", "index.html", "player.js", "sub/x.txt" };
    cr_assert_eq(zip_get_num_entries(za, 0), 5);
    for (zip_uint64_t i = 0; i < 5; i++) {
        zip_stat_t st;
        cr_assert_eq(zip_stat_index(za, i, 0, &st), 0);
        cr_assert_str_eq(st.name, want[i]);
        if (st.size > 0)
            cr_assert_eq(st.comp_method, ZIP_CM_DEFLATE, "%s is not deflated", st.name);
        char buf[64] = { 0 };
        zip_file_t *f = zip_fopen_index(za, i, 0);
        cr_assert_not_null(f);
        zip_int64_t n = zip_fread(f, buf, sizeof buf - 1);
        zip_fclose(f);
        cr_assert_eq((zip_uint64_t)n, st.size);
        for (size_t k = 0; k < fs.files.n; k++)
            if (!strcmp(fs.files.items[k].name, st.name)) {
                cr_assert_eq(fs.files.items[k].len, (size_t)n);
                cr_assert(memcmp(buf, fs.files.items[k].data ? (const char *)fs.files.items[k].data : "", (size_t)n) == 0);
            }
    }
    zip_close(za);
    membuf_free(&m);
    emit_files_free(&fs);
}

Test(zip, every_entry_is_dated_1980_01_01_in_any_time_zone)
{
    struct emit_files fs = { 0 };
    struct membuf m1 = { 0 }, m2 = { 0 };
    package(&fs, false);
    setenv("TZ", "UTC", 1);
    tzset();
    cr_assert_eq(emit_zip(&fs, &m1, d), 0);
    setenv("TZ", "Asia/Jakarta", 1);
    tzset();
    cr_assert_eq(emit_zip(&fs, &m2, d), 0);
    cr_assert_eq(m1.len, m2.len);
    cr_assert(memcmp(m1.data, m2.data, m1.len) == 0, "the time zone changed the bytes");

    zip_source_t *src;
    zip_t *za = open_mem(&m2, &src);
    for (zip_int64_t i = 0; i < zip_get_num_entries(za, 0); i++) {
        zip_stat_t st;
        cr_assert_eq(zip_stat_index(za, (zip_uint64_t)i, 0, &st), 0);
        struct tm tm;
        localtime_r(&st.mtime, &tm);
        cr_assert_eq(tm.tm_year + 1900, 1980, "%s dated %d", st.name, tm.tm_year + 1900);
        cr_assert_eq(tm.tm_mon, 0);
        cr_assert_eq(tm.tm_mday, 1);
        cr_assert_eq(tm.tm_hour, 0);
    }
    zip_close(za);
    unsetenv("TZ");
    tzset();
    membuf_free(&m1);
    membuf_free(&m2);
    emit_files_free(&fs);
}

Test(zip, source_date_epoch_sets_the_date_of_every_entry)
{
    struct emit_files fs = { 0 };
    struct membuf m = { 0 };
    package(&fs, false);
    setenv("SOURCE_DATE_EPOCH", "1767225600", 1);   /* 2026-01-01 00:00:00 UTC */
    cr_assert_eq(emit_zip(&fs, &m, d), 0);
    zip_source_t *src;
    zip_t *za = open_mem(&m, &src);
    zip_stat_t st;
    cr_assert_eq(zip_stat_index(za, 0, 0, &st), 0);
    struct tm tm;
    localtime_r(&st.mtime, &tm);
    cr_assert_eq(tm.tm_year + 1900, 2026);
    cr_assert_eq(tm.tm_mon, 0);
    cr_assert_eq(tm.tm_mday, 1);
    zip_close(za);
    membuf_free(&m);
    emit_files_free(&fs);
}

struct bad_name {
    char name[24];         /* inline: Criterion copies the parameters into each test process */
};

static struct bad_name bad_names[] = {
    { "/etc/passwd" }, { "../up.txt" }, { "a/../../b" }, { "./x" }, { "a//b" },
    { "dir/" }, { "" }, { "c:\\x" }, { "a\\b" },
};

ParameterizedTestParameters(zip, unsafe_names_are_refused)
{
    return cr_make_param_array(struct bad_name, bad_names, sizeof bad_names / sizeof bad_names[0]);
}

ParameterizedTest(struct bad_name *p, zip, unsafe_names_are_refused)
{
    struct emit_files fs = { 0 };
    struct membuf m = { 0 };
    add(&fs, "index.html", "x");
    add(&fs, p->name, "y");
    cr_assert_eq(emit_zip(&fs, &m, d), -1, "'%s' was accepted", p->name);
    cr_assert_eq(diag_errors(d), 1);
    cr_assert_eq(m.len, 0, "nothing is written for a refused package");
    emit_files_free(&fs);
}

Test(zip, two_files_with_one_name_are_refused)
{
    struct emit_files fs = { 0 };
    struct membuf m = { 0 };
    add(&fs, "index.html", "x");
    add(&fs, "index.html", "y");
    cr_assert_eq(emit_zip(&fs, &m, d), -1);
    cr_assert_eq(diag_errors(d), 1);
    emit_files_free(&fs);
}

Test(zip, an_empty_package_is_refused)
{
    struct emit_files fs = { 0 };
    struct membuf m = { 0 };
    cr_assert_eq(emit_zip(&fs, &m, d), -1);
    cr_assert_eq(diag_errors(d), 1);
}
