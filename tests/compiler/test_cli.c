/*
 * test_cli.c — quizc end to end: exit codes, messages, the lab search path,
 * and that no output is created or changed when anything is wrong.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#ifndef QUIZC_BIN
#define QUIZC_BIN "build/quizc"
#endif

static char dir[64];

struct result {
    int status;         /* exit status, or -1 when killed */
    char *out, *err;
};
static struct result res;

static void setup(void)
{
    strcpy(dir, "/tmp/quizc-cli-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    memset(&res, 0, sizeof res);
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(p);
}

static void teardown(void)
{
    nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    free(res.out);
    free(res.err);
}

TestSuite(cli, .init = setup, .fini = teardown);

static char *in_dir(const char *name)
{
    return xasprintf("%s/%s", dir, name);
}

static char *slurp(const char *path)
{
    size_t len;
    char *s = read_file(path, &len);
    return s ? s : xstrdup("");
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static bool exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* Run quizc with the given arguments (NULL-terminated), from the repository root. */
static void quizc(const char *arg, ...)
{
    const char *argv[32] = { QUIZC_BIN };
    int n = 1;
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a && n < 31; a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;

    char *out = in_dir(".stdout"), *err = in_dir(".stderr");
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        execv(QUIZC_BIN, (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    free(res.out);
    free(res.err);
    res.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    res.out = slurp(out);
    res.err = slurp(err);
    unlink(out);
    unlink(err);
    free(out);
    free(err);
}

static const char good_quiz[] =
    "quiz good {\n"
    "    title \"A good quiz\"\n"
    "    truefalse q1 { prompt \"Is this fine?\" answer true }\n"
    "}\n";

static const char bad_quiz[] =
    "quiz bad {\n"
    "    title \"A bad quiz\"\n"
    "    single q1 { prompt \"Pick\" wrong \"a\" wrong \"b\" }\n"
    "}\n";

Test(cli, help_prints_the_usage_and_exits_0)
{
    quizc("--help", NULL);
    cr_expect_eq(res.status, 0);
    cr_expect(strstr(res.out, "usage: quizc") != NULL, "stdout: %s", res.out);
    cr_expect(strstr(res.out, "--check") != NULL);
}

Test(cli, version_prints_the_version_and_exits_0)
{
    quizc("--version", NULL);
    cr_expect_eq(res.status, 0);
    cr_expect_str_eq(res.out, "quizc " QZ_VERSION "\n");
}

Test(cli, an_unknown_option_is_a_usage_error_with_a_one_line_hint)
{
    quizc("--frobnicate", "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 2);
    cr_expect_str_eq(res.err, "quizc: unknown option '--frobnicate'\n"
                              "usage: quizc [-o FILE] [--format FORMAT] [--dir DIR] [--lang TAG] [-L DIR]... "
                              "[--scorm 1.2|2004] [--no-live-labs] [--runs RUNS.json] [-Werror] [--check] FILE.qz (quizc --help for more)\n");
}

Test(cli, a_missing_input_file_argument_is_a_usage_error)
{
    quizc("--check", NULL);
    cr_expect_eq(res.status, 2);
    cr_expect(strstr(res.err, "no input file") != NULL, "stderr: %s", res.err);
}

Test(cli, an_option_without_its_argument_is_a_usage_error)
{
    quizc("tests/data/compiler/kinds.qz", "-o", NULL);
    cr_expect_eq(res.status, 2);
    cr_expect(strstr(res.err, "-o needs an argument") != NULL, "stderr: %s", res.err);
}

Test(cli, a_bad_scorm_version_is_a_usage_error)
{
    quizc("--scorm", "3", "--check", "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 2);
    cr_expect(strstr(res.err, "--scorm takes 1.2 or 2004, not '3'") != NULL, "stderr: %s", res.err);
    quizc("--scorm", "2004", "--check", "-L", "tests/data/labs", "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
}

Test(cli, an_output_name_of_unknown_kind_is_a_usage_error)
{
    char *out = in_dir("course.txt");
    quizc("-o", out, "tests/data/compiler/markdown.qz", NULL);
    cr_expect_eq(res.status, 2);
    cr_expect_not(exists(out));
    free(out);
}

Test(cli, a_gift_name_writes_gift_and_format_says_what_any_other_name_gets)
{
    char *gift = in_dir("bank.gift"), *moodle = in_dir("bank.txt"), *qti = in_dir("quiz.zip");
    quizc("-L", "tests/data/labs", "-o", gift, "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    char *text = slurp(gift);
    cr_expect(text && strstr(text, "::pick::[html]") != NULL, "%s", text);
    free(text);
    quizc("-L", "tests/data/labs", "--format", "moodle", "-o", moodle, "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    text = slurp(moodle);
    cr_expect(text && strstr(text, "<question type=\"multichoice\">") != NULL);
    free(text);
    quizc("-L", "tests/data/labs", "--format", "qti21", "-o", qti, "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    char *cmd = xasprintf("unzip -l %s | grep -q items/pick.xml", qti);
    cr_expect_eq(system(cmd), 0, "no items/pick.xml in %s", qti);
    free(cmd);
    free(gift);
    free(moodle);
    free(qti);
}

Test(cli, what_a_format_cannot_hold_is_a_located_warning_and_the_output_is_written)
{
    char *gift = in_dir("bank.gift");
    quizc("-L", "tests/data/labs", "-o", gift, "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 0);
    cr_expect(strstr(res.err, "tests/data/compiler/kinds.qz:19:16: warning: question 'pick' has 2 points; GIFT cannot carry points") != NULL,
              "stderr: %s", res.err);
    cr_expect(exists(gift));
    free(gift);
}

Test(cli, a_bad_format_or_a_lang_the_quiz_lacks_is_refused)
{
    char *out = in_dir("bank.gift");
    quizc("--format", "docx", "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 2);
    char *course = in_dir("c.xml");
    quizc("--lang", "en", "-o", course, "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 2, "--lang with the course document");
    free(course);
    quizc("-L", "tests/data/labs", "--lang", "fr", "-o", out, "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 1);
    cr_expect(strstr(res.err, "--lang fr") != NULL, "stderr: %s", res.err);
    cr_expect_not(exists(out));
    free(out);
}

Test(cli, two_input_files_are_a_usage_error)
{
    quizc("tests/data/compiler/kinds.qz", "tests/data/compiler/markdown.qz", NULL);
    cr_expect_eq(res.status, 2);
}

Test(cli, a_good_quiz_compiles_to_a_valid_document)
{
    char *out = in_dir("course.xml");
    quizc("-L", "tests/data/labs", "-o", out, "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    cr_expect_str_eq(res.err, "");
    cr_assert(exists(out));
    char *cmd = xasprintf("xmllint --noout --schema compiler/course.xsd %s 2>/dev/null", out);
    cr_expect_eq(system(cmd), 0, "xmllint rejects %s", out);
    free(cmd);
    free(out);
}

Test(cli, the_output_is_byte_identical_across_runs)
{
    char *a = in_dir("a.xml"), *b = in_dir("b.xml");
    quizc("-L", "tests/data/labs", "-o", a, "tests/data/compiler/kinds.qz", NULL);
    cr_assert_eq(res.status, 0);
    quizc("-L", "tests/data/labs", "-o", b, "tests/data/compiler/kinds.qz", NULL);
    cr_assert_eq(res.status, 0);
    char *sa = slurp(a), *sb = slurp(b);
    cr_expect_str_eq(sa, sb);
    free(sa);
    free(sb);
    free(a);
    free(b);
}

Test(cli, without_o_the_document_goes_beside_the_quiz_with_an_xml_extension)
{
    char *q = in_dir("lesson.qz"), *x = in_dir("lesson.xml");
    spit(q, good_quiz);
    quizc(q, NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    cr_expect(exists(x));
    free(q);
    free(x);
}

Test(cli, errors_exit_1_with_located_messages_and_a_count)
{
    char *q = in_dir("bad.qz"), *x = in_dir("out.xml");
    spit(q, bad_quiz);
    quizc("-o", x, q, NULL);
    cr_expect_eq(res.status, 1);
    char *want = xasprintf("%s:3:12: error: single question 'q1' needs exactly one correct choice, has none\n", q);
    cr_expect(strncmp(res.err, want, strlen(want)) == 0, "stderr: %s", res.err);
    cr_expect(strstr(res.err, "\n1 error generated.\n") != NULL, "stderr: %s", res.err);
    cr_expect_not(exists(x), "no output after an error");
    free(want);
    free(q);
    free(x);
}

Test(cli, an_existing_output_is_untouched_after_an_error)
{
    char *q = in_dir("bad.qz"), *x = in_dir("out.xml");
    spit(q, bad_quiz);
    spit(x, "precious\n");
    quizc("-o", x, q, NULL);
    cr_expect_eq(res.status, 1);
    char *s = slurp(x);
    cr_expect_str_eq(s, "precious\n");
    free(s);
    free(q);
    free(x);
}

Test(cli, check_reports_but_writes_nothing)
{
    char *q = in_dir("lesson.qz"), *x = in_dir("lesson.xml"), *o = in_dir("o.xml");
    spit(q, good_quiz);
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    quizc("--check", "-o", o, q, NULL);
    cr_expect_eq(res.status, 0);
    cr_expect_not(exists(x));
    cr_expect_not(exists(o));
    spit(q, bad_quiz);
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    cr_expect_not(exists(x));
    free(q);
    free(x);
    free(o);
}

Test(cli, an_unreadable_input_exits_1)
{
    char *q = in_dir("missing.qz");
    quizc(q, NULL);
    cr_expect_eq(res.status, 1);
    cr_expect(strstr(res.err, "cannot read") != NULL, "stderr: %s", res.err);
    free(q);
}

Test(cli, a_folder_as_output_is_a_clear_error)
{
    char *x = in_dir("out.xml");
    cr_assert_eq(mkdir(x, 0777), 0);
    quizc("-L", "tests/data/labs", "-o", x, "tests/data/compiler/markdown.qz", NULL);
    cr_expect_eq(res.status, 1);
    cr_expect(strstr(res.err, "it is a folder") != NULL, "stderr: %s", res.err);
    free(x);
}

Test(cli, double_dash_ends_the_options)
{
    quizc("--check", "--", "--help", NULL);
    cr_expect_eq(res.status, 1, "'--help' after -- is a file name");
    cr_expect(strstr(res.err, "cannot read '--help'") != NULL, "stderr: %s", res.err);
}

/* A quiz in the scratch folder naming lab `pipe` and a metric only one of two copies declares. */
static char *lab_quiz(void)
{
    char *labs = in_dir("labs"), *pipe = in_dir("labs/pipe"), *m = in_dir("labs/pipe/lab.qz");
    cr_assert_eq(mkdir(labs, 0777), 0);
    cr_assert_eq(mkdir(pipe, 0777), 0);
    spit(m, "lab pipe {\n    title \"Local copy\"\n    param stages = 2 in 1..8 \"stages\"\n"
            "    metric only_here \"a metric the fixture lab lacks\"\n}\n");
    char *q = in_dir("labs.qz");
    spit(q, "quiz l {\n    title \"T\"\n    truefalse q {\n        prompt \"P\" answer true\n"
            "        lab pipe (stages = 2) expect only_here > 0\n    }\n}\n");
    free(labs);
    free(pipe);
    free(m);
    return q;
}

Test(cli, labs_beside_the_quiz_are_found_without_L)
{
    char *q = lab_quiz();
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    free(q);
}

Test(cli, L_folders_come_before_the_labs_beside_the_quiz)
{
    char *q = lab_quiz();
    quizc("--check", "-L", "tests/data/labs", q, NULL);
    cr_expect_eq(res.status, 1);
    cr_expect(strstr(res.err, "lab 'pipe' reports no metric 'only_here'") != NULL, "stderr: %s", res.err);
    free(q);
}

Test(cli, an_unknown_lab_exits_1_at_its_location)
{
    char *q = in_dir("nolab.qz");
    spit(q, "quiz l {\n    title \"T\"\n    truefalse q { prompt \"P\" answer true lab nowhere }\n}\n");
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    char *want = xasprintf("%s:3:46: error: unknown lab 'nowhere'", q);
    cr_expect(strstr(res.err, want) != NULL, "stderr: %s", res.err);
    free(want);
    free(q);
}

Test(cli, a_mistyped_statement_is_one_error_not_two)
{
    char *q = in_dir("typo.qz");
    spit(q, "quiz t {\n    title \"T\"\n    truefalse q1 { promt \"P\" answer true }\n}\n");
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    cr_expect(strstr(res.err, ":3:20: error: unknown statement 'promt'") != NULL, "stderr: %s", res.err);
    cr_expect(strstr(res.err, "\n1 error generated.\n") != NULL, "stderr: %s", res.err);
    free(q);
}

Test(cli, diagnostics_come_out_in_source_order)
{
    /* The lab is resolved while reading, the choices checked after: the output still reads top down. */
    char *q = in_dir("order.qz");
    spit(q, "quiz o {\n    title \"T\"\n    single q1 { prompt \"P\" wrong \"a\" wrong \"b\" }\n"
            "    truefalse q2 { prompt \"P\" answer true lab nowhere }\n}\n");
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    const char *first = strstr(res.err, ":3:12: error: single question 'q1'");
    const char *second = strstr(res.err, ":4:47: error: unknown lab 'nowhere'");
    cr_expect(first && second && first < second, "stderr: %s", res.err);
    cr_expect(strstr(res.err, "\n2 errors generated.\n") != NULL, "stderr: %s", res.err);
    free(q);
}

Test(cli, a_semantic_error_comes_before_a_later_syntax_error)
{
    /* The semantic pass runs after every syntax error is known; its messages are sorted in among them. */
    char *q = in_dir("later.qz");
    spit(q, "quiz o {\n    title \"T\"\n    single q1 { prompt \"P\" correct \"a\" }\n"
            "    single q2 { prompt \"P\" correct \"a\" wrong \"b\" }\n"
            "    single q3 { prompt \"P\" correct \"a\" wrong \"b\" bogus }\n}\n");
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    const char *first = strstr(res.err, ":3:12: error: single question 'q1' needs at least two choices");
    const char *second = strstr(res.err, ":5:50: error: unknown statement 'bogus' in single question 'q3'");
    cr_expect(first && second && first < second, "stderr: %s", res.err);
    /* Each message keeps its source line and caret: the line under the first error is its own. */
    cr_expect(first && strstr(first, "\n        single q1 {") == strchr(first, '\n'), "stderr: %s", res.err);
    cr_expect(strstr(res.err, "\n2 errors generated.\n") != NULL, "stderr: %s", res.err);
    free(q);
}

Test(cli, a_source_line_shown_under_an_error_keeps_its_strings_quotes)
{
    /* The scanner ends plain strings in place (a NUL over the closing quote); the line still reads as written. */
    char *q = in_dir("quotes.qz");
    spit(q, "quiz t {\n    title \"T\"\n    truefalse q1 { prompt \"P\" explain \"E\" promt \"x\\ty\" answer true }\n}\n");
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    const char *want = "\n        truefalse q1 { prompt \"P\" explain \"E\" promt \"x\\ty\" answer true }\n";
    cr_expect(strstr(res.err, want) != NULL, "stderr: %s", res.err);
    free(q);
}

Test(cli, a_source_line_shown_under_an_error_keeps_its_escapes)
{
    /* A string whose only escapes are \" and \\ is decoded in place; the line and columns still read as written. */
    char *q = in_dir("escapes.qz");
    spit(q, "quiz t {\n    title \"T\"\n    truefalse q1 { prompt \"a \\\"b\\\" \\\\ c\" promt \"x\" answer true }\n}\n");
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    const char *at = strstr(res.err, ":3:42: error: unknown statement 'promt'");
    cr_expect(at != NULL, "stderr: %s", res.err);
    const char *want = "\n        truefalse q1 { prompt \"a \\\"b\\\" \\\\ c\" promt \"x\" answer true }\n"
                       "                                             ^~~~~\n";
    cr_expect(strstr(res.err, want) != NULL, "stderr: %s", res.err);
    free(q);
}

Test(cli, an_image_and_a_character_in_a_string_with_quote_escapes_are_found_where_written)
{
    /* The image path and the U+FFFE are looked up in the literal as written, not in its value decoded in place. */
    char *q = in_dir("escaped_media.qz");
    spit(q, "quiz e {\n    title \"T\"\n    truefalse q1 { prompt \"a \\\"b\\\" c ![fig](nope.png) and \xEF\xBF\xBE\" answer true }\n}\n");
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    cr_expect(strstr(res.err, ":3:45: error: cannot read image 'nope.png'") != NULL, "stderr: %s", res.err);
    cr_expect(strstr(res.err, "\n" "                                                ^~~~~~~~\n") != NULL, "stderr: %s", res.err);
    cr_expect(strstr(res.err, ":3:59: error: the prompt holds the character U+FFFE") != NULL, "stderr: %s", res.err);
    /* One character wide: its end is counted in the line as written too. */
    cr_expect(strstr(res.err, "\n" "                                                              ^\n") != NULL, "stderr: %s", res.err);
    free(q);
}

Test(cli, a_character_after_quote_escapes_is_one_column_wide)
{
    char *q = in_dir("escaped_char.qz");
    spit(q, "quiz e {\n    title \"\\\\  \xEF\xBF\xBE\\\"\xE6\x97\xA5\"\n    truefalse q1 { prompt \"P\" answer true }\n}\n");
    quizc("--check", q, NULL);
    cr_expect_eq(res.status, 1);
    cr_expect(strstr(res.err, ":2:16: error: the title holds the character U+FFFE") != NULL, "stderr: %s", res.err);
    cr_expect(strstr(res.err, "\n" "                   ^\n") != NULL, "stderr: %s", res.err);
    free(q);
}

/* ---- Recorded runs: what was packed is told; -Werror refuses to pack a warned-about run ---- */

/* Lab hello with ranks = 2: its run in the seed measured max_abs_error 0, so the claim fails. */
static char *runs_quiz(void)
{
    char *q = in_dir("runs.qz");
    spit(q, "quiz rr {\n    title \"T\"\n    truefalse q {\n        prompt \"P\"\n        answer true\n"
            "        lab hello (ranks = 2)\n            expect max_abs_error > 1\n    }\n}\n");
    return q;
}

#define SEED_RUNS "tests/fuzz/runs-seeds/hello.json"

Test(cli, a_packed_run_that_fails_its_claim_is_a_warning_and_an_unused_run_a_note)
{
    char *q = runs_quiz(), *x = in_dir("out.xml");
    quizc("-L", "tests/data/labs", "--runs", SEED_RUNS, "-o", x, q, NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    cr_expect(exists(x), "a warning writes the output");
    char *want = xasprintf("%s:6:9: warning: the run packed for this lab line fails 'max_abs_error > 1': measured 0\n"
                           "            lab hello (ranks = 2)\n"
                           "            ^~~~~~~~~~~~~~~~~~~~~\n", q);
    cr_expect(strstr(res.err, want) != NULL, "stderr: %s", res.err);
    cr_expect(strstr(res.err, SEED_RUNS ": note: runs[1] (hello with ranks=4, count=1000) matches no lab line of "
                              "this quiz; it is not packed\n") != NULL, "stderr: %s", res.err);
    cr_expect(strstr(res.err, "2 warnings generated.\n") != NULL, "stderr: %s", res.err);
    free(want);
    free(q);
    free(x);
}

Test(cli, Werror_makes_every_warning_an_error_exits_1_and_writes_nothing)
{
    char *q = runs_quiz(), *x = in_dir("out.xml"), *zip = in_dir("out.zip"), *gift = in_dir("out.gift");
    char *moodle = in_dir("out.moodle.xml"), *pkg = in_dir("pkg"), *old = in_dir("old.xml");
    /* Each output kind, from the runs' warnings at compile time. */
    const char *outs[][4] = {
        { "-o", x, NULL, NULL }, { "-o", zip, NULL, NULL }, { "-o", gift, NULL, NULL },
        { "--format", "moodle", "-o", moodle }, { "--format", "qti21", "-o", zip }, { "--dir", pkg, NULL, NULL },
    };
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++) {
        quizc("-Werror", "-L", "tests/data/labs", "--runs", SEED_RUNS, outs[i][0], outs[i][1],
              outs[i][2] ? outs[i][2] : q, outs[i][2] ? outs[i][3] : NULL, outs[i][2] ? q : NULL, NULL);
        cr_expect_eq(res.status, 1, "case %zu: stderr: %s", i, res.err);
        cr_expect(strstr(res.err, ":6:9: error: the run packed for this lab line fails 'max_abs_error > 1': "
                                  "measured 0 [-Werror]\n") != NULL, "case %zu: stderr: %s", i, res.err);
        cr_expect(strstr(res.err, "2 errors generated.\n") != NULL, "case %zu: stderr: %s", i, res.err);
        cr_expect(strstr(res.err, "warning") == NULL, "case %zu: stderr: %s", i, res.err);
    }
    cr_expect_not(exists(x));
    cr_expect_not(exists(zip));
    cr_expect_not(exists(gift));
    cr_expect_not(exists(moodle));
    cr_expect_not(exists(pkg));
    /* An output that is already there stays as it was. */
    spit(old, "precious\n");
    quizc("-Werror", "-L", "tests/data/labs", "--runs", SEED_RUNS, "-o", old, q, NULL);
    cr_expect_eq(res.status, 1);
    char *s = slurp(old);
    cr_expect_str_eq(s, "precious\n");
    free(s);
    /* A warning of the writer's own (GIFT cannot carry points) is one too, found while writing. */
    quizc("-Werror", "-L", "tests/data/labs", "-o", gift, "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 1, "stderr: %s", res.err);
    cr_expect(strstr(res.err, "kinds.qz:19:16: error: question 'pick' has 2 points; GIFT cannot carry points") != NULL,
              "stderr: %s", res.err);
    cr_expect_not(exists(gift));
    /* Without warnings, -Werror changes nothing. */
    char *g = in_dir("good.qz");
    spit(g, good_quiz);
    quizc("-Werror", "-o", x, g, NULL);
    cr_expect_eq(res.status, 0, "stderr: %s", res.err);
    cr_expect_str_eq(res.err, "");
    cr_expect(exists(x));
    free(g);
    free(q), free(x), free(zip), free(gift), free(moodle), free(pkg), free(old);
}

Test(cli, a_W_option_other_than_Werror_is_a_usage_error)
{
    quizc("-Wall", "tests/data/compiler/kinds.qz", NULL);
    cr_expect_eq(res.status, 2);
    cr_expect(strstr(res.err, "quizc: unknown warning option '-Wall' (quizc knows -Werror)\n") != NULL, "stderr: %s",
              res.err);
}
