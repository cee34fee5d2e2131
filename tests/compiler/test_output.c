/*
 * test_output.c — atomic output: a file or folder appears whole, replaces an
 * old one only on success, and leaves no temporary behind either way.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

static char dir[64];
static struct diag *d;

static void setup(void)
{
    strcpy(dir, "/tmp/quizc-output-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    d = diag_new(NULL);
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(p);
}

static void teardown(void)
{
    nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    diag_free(d);
}

TestSuite(output, .init = setup, .fini = teardown);

static char *path_in(const char *name)
{
    return xasprintf("%s/%s", dir, name);
}

static char *slurp(const char *path)
{
    size_t len;
    char *s = read_file(path, &len);
    cr_assert_not_null(s, "cannot read %s", path);
    return s;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* Entries in the test folder, hidden ones (temporaries) included. */
static int entries(void)
{
    DIR *dp = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(dp);
    return n;
}

Test(output, a_new_file_gets_exactly_the_bytes_and_no_temporary_remains)
{
    char *p = path_in("course.xml");
    cr_assert_eq(output_file(d, p, "<a/>\n", 5), 0);
    char *s = slurp(p);
    cr_expect_str_eq(s, "<a/>\n");
    cr_expect_eq(entries(), 1);
    struct stat st;
    cr_assert_eq(stat(p, &st), 0);
    mode_t um = umask(0);
    umask(um);
    cr_expect_eq(st.st_mode & 0777, 0666 & ~um, "a new file has the ordinary mode, not mkstemp's 0600");
    free(s);
    free(p);
}

Test(output, an_existing_file_is_replaced_whole)
{
    char *p = path_in("course.xml");
    spit(p, "old contents that are longer than the new ones\n");
    cr_assert_eq(output_file(d, p, "new\n", 4), 0);
    char *s = slurp(p);
    cr_expect_str_eq(s, "new\n");
    cr_expect_eq(entries(), 1);
    free(s);
    free(p);
}

Test(output, a_replaced_file_keeps_its_mode)
{
    char *p = path_in("course.xml");
    spit(p, "old");
    cr_assert_eq(chmod(p, 0640), 0);
    cr_assert_eq(output_file(d, p, "new", 3), 0);
    struct stat st;
    cr_assert_eq(stat(p, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0640);
    free(p);
}

Test(output, a_folder_in_the_way_is_a_clear_error_and_is_left_alone)
{
    char *p = path_in("course.xml");
    cr_assert_eq(mkdir(p, 0777), 0);
    cr_expect_eq(output_file(d, p, "x", 1), -1);
    cr_expect_eq(diag_errors(d), 1);
    struct stat st;
    cr_expect(stat(p, &st) == 0 && S_ISDIR(st.st_mode));
    cr_expect_eq(entries(), 1, "no temporary is left behind");
    free(p);
}

Test(output, a_missing_folder_is_an_error_and_nothing_is_created)
{
    char *p = path_in("no/such/course.xml");
    cr_expect_eq(output_file(d, p, "x", 1), -1);
    cr_expect_eq(diag_errors(d), 1);
    cr_expect_eq(entries(), 0);
    free(p);
}

Test(output, a_file_without_a_folder_part_is_written_in_the_working_folder)
{
    char *cwd = getcwd(NULL, 0);
    cr_assert_eq(chdir(dir), 0);
    int rc = output_file(d, "plain.xml", "p", 1);
    cr_assert_eq(chdir(cwd), 0);
    free(cwd);
    cr_expect_eq(rc, 0);
    char *p = path_in("plain.xml");
    char *s = slurp(p);
    cr_expect_str_eq(s, "p");
    free(s);
    free(p);
}

static struct emit_files package(void)
{
    struct emit_files fs = { 0 };
    emit_files_add(&fs, "imsmanifest.xml", "<manifest/>", 11);
    emit_files_add(&fs, "player/app.js", "go();", 5);
    emit_files_add(&fs, "player/css/app.css", "p{}", 3);
    return fs;
}

Test(output, a_folder_is_written_with_its_subfolders)
{
    char *p = path_in("pkg");
    struct emit_files fs = package();
    cr_assert_eq(output_dir(d, p, &fs), 0);
    char *f = path_in("pkg/player/css/app.css");
    char *s = slurp(f);
    cr_expect_str_eq(s, "p{}");
    cr_expect_eq(entries(), 1, "only the package folder, no temporary");
    free(s);
    free(f);
    emit_files_free(&fs);
    free(p);
}

Test(output, a_package_quizc_wrote_is_replaced_only_on_success)
{
    char *p = path_in("pkg");
    struct emit_files first = { 0 };
    emit_files_add(&first, "stale.txt", "old", 3);
    emit_files_add(&first, "old/deep.txt", "old", 3);
    cr_assert_eq(output_dir(d, p, &first), 0);
    emit_files_free(&first);
    char *stale = path_in("pkg/stale.txt");

    /* A bad name makes the write fail: the old folder must stay as it was. */
    struct emit_files bad = { 0 };
    emit_files_add(&bad, "../escape.txt", "x", 1);
    cr_expect_eq(output_dir(d, p, &bad), -1);
    cr_expect_eq(access(stale, F_OK), 0, "the old folder is untouched after a failure");
    cr_expect_eq(entries(), 1);
    emit_files_free(&bad);

    struct emit_files fs = package();
    cr_assert_eq(output_dir(d, p, &fs), 0);
    cr_expect_neq(access(stale, F_OK), 0, "the old package's files are gone after success");
    char *old = path_in("pkg/old");
    cr_expect_neq(access(old, F_OK), 0, "and so are its folders");
    char *m = path_in("pkg/imsmanifest.xml");
    char *s = slurp(m);
    cr_expect_str_eq(s, "<manifest/>");
    cr_expect_eq(entries(), 1, "no temporary or old copy is left beside it");
    free(s);
    free(m);
    free(old);
    emit_files_free(&fs);
    free(stale);
    free(p);
}

Test(output, a_folder_quizc_did_not_write_is_refused_and_kept)
{
    char *p = path_in("pkg");
    char *thesis = path_in("pkg/thesis.tex");
    cr_assert_eq(mkdir(p, 0777), 0);
    spit(thesis, "years of work");
    struct emit_files fs = package();
    cr_expect_eq(output_dir(d, p, &fs), -1);
    char *s = slurp(thesis);
    cr_expect_str_eq(s, "years of work");
    cr_expect_eq(entries(), 1, "no temporary is left beside it");
    free(s);
    emit_files_free(&fs);
    free(thesis);
    free(p);
}

Test(output, a_file_added_to_a_package_makes_it_no_longer_quizc_s)
{
    char *p = path_in("pkg");
    struct emit_files fs = package();
    cr_assert_eq(output_dir(d, p, &fs), 0);
    char *notes = path_in("pkg/player/notes.txt");
    spit(notes, "mine");
    cr_expect_eq(output_dir(d, p, &fs), -1);
    char *s = slurp(notes);
    cr_expect_str_eq(s, "mine");
    free(s);
    free(notes);
    emit_files_free(&fs);
    free(p);
}

Test(output, an_empty_folder_is_filled)
{
    char *p = path_in("pkg");
    cr_assert_eq(mkdir(p, 0777), 0);
    struct emit_files fs = package();
    cr_expect_eq(output_dir(d, p, &fs), 0);
    char *m = path_in("pkg/" OUT_MARKER);
    char *s = slurp(m);
    cr_expect(strstr(s, "\nplayer/css/app.css\n") != NULL, "the marker lists what was written: %s", s);
    cr_expect_eq(entries(), 1);
    free(s);
    free(m);
    emit_files_free(&fs);
    free(p);
}

Test(output, a_file_read_as_input_is_not_overwritten)
{
    char *p = path_in("lesson.qz");
    spit(p, "quiz \"q\" { }\n");
    size_t len;
    free(out_read_input(p, &len));
    cr_expect_eq(output_file(d, p, "<a/>", 4), -1);
    char *s = slurp(p);
    cr_expect_str_eq(s, "quiz \"q\" { }\n");
    free(s);
    free(p);
}

Test(output, a_file_in_the_way_of_a_folder_is_an_error)
{
    char *p = path_in("pkg");
    spit(p, "not a folder");
    struct emit_files fs = package();
    cr_expect_eq(output_dir(d, p, &fs), -1);
    char *s = slurp(p);
    cr_expect_str_eq(s, "not a folder");
    cr_expect_eq(entries(), 1);
    free(s);
    emit_files_free(&fs);
    free(p);
}

Test(output, a_trailing_slash_still_names_the_folder)
{
    char *p = path_in("pkg/");
    struct emit_files fs = package();
    cr_assert_eq(output_dir(d, p, &fs), 0, "errors: %d", diag_errors(d));
    cr_expect_eq(entries(), 1);
    char *m = path_in("pkg/player/app.js");
    cr_expect_eq(access(m, F_OK), 0);
    free(m);
    emit_files_free(&fs);
    free(p);
}
