/*
 * test_util.c — the one way numbers are written (fmt_number), and reading a
 * file whole (read_file).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static void expect_number(double x, const char *want)
{
    char buf[FMT_NUMBER_MAX];
    cr_assert_str_eq(fmt_number(buf, x), want, "%.17g written as '%s', expected '%s'", x, buf, want);
}

Test(fmt_number, integers_are_written_in_full_as_printf_would)
{
    expect_number(0, "0");
    expect_number(-0.0, "-0");
    expect_number(1, "1");
    expect_number(-2, "-2");
    expect_number(10, "10");
    expect_number(70e9, "70000000000");
    expect_number(999999999999999, "999999999999999");
    expect_number(-999999999999999, "-999999999999999");
    /* Every integer below 1e15 reads as printf's %.0f does: a sweep over the magnitudes. */
    char want[64], buf[FMT_NUMBER_MAX];
    for (double x = 1; x < 1e15; x = x * 7 + 3) {
        for (int sign = -1; sign <= 1; sign += 2) {
            snprintf(want, sizeof want, "%.0f", sign * x);
            cr_assert_str_eq(fmt_number(buf, sign * x), want);
        }
    }
}

Test(fmt_number, other_numbers_take_the_fewest_digits_that_read_back)
{
    expect_number(0.2727, "0.2727");
    expect_number(0.1 + 0.2, "0.30000000000000004");
    expect_number(1e-9, "1e-09");
    expect_number(1e15, "1e+15");
    expect_number(2.5, "2.5");
    expect_number(INFINITY, "inf");
    expect_number(-INFINITY, "-inf");
}

Test(num_in_lang, indonesian_writes_the_decimal_comma_every_other_language_the_point)
{
    char buf[FMT_NUMBER_MAX];
    cr_assert_eq(num_decimal_mark("id"), ',');
    cr_assert_eq(num_decimal_mark("id-ID"), ',');
    cr_assert_eq(num_decimal_mark("en"), '.');
    cr_assert_eq(num_decimal_mark("ide"), '.', "a language whose tag only starts with id is not Indonesian");
    cr_assert_eq(num_decimal_mark(NULL), '.');
    cr_assert_str_eq(num_in_lang(strcpy(buf, "0.2727"), "id"), "0,2727");
    cr_assert_str_eq(num_in_lang(strcpy(buf, "1.200e-07"), "id-ID"), "1,200e-07");
    cr_assert_str_eq(num_in_lang(strcpy(buf, "0.2727"), "en"), "0.2727");
    cr_assert_str_eq(num_in_lang(strcpy(buf, "12"), "id"), "12");
    fmt_number(buf, 0.03);
    cr_assert_str_eq(num_in_lang(buf, "id"), "0,03");
}

Test(read_file, reads_a_file_whole_with_a_nul_after_it)
{
    char path[] = "/tmp/qz-util-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    /* Larger than the buffers the reader asks huge pages for, with a NUL inside. */
    size_t n = (9u << 20) + 13;
    char *data = malloc(n);
    for (size_t i = 0; i < n; i++) data[i] = (char)('a' + i % 26);
    data[12345] = '\0';
    cr_assert(write(fd, data, n) == (ssize_t)n);
    close(fd);
    size_t len = 0;
    char *got = read_file(path, &len);
    unlink(path);
    cr_assert(got != NULL);
    cr_assert_eq(len, n);
    cr_assert(memcmp(got, data, n) == 0);
    cr_assert_eq(got[n], '\0');
    free(got);
    free(data);
}

static const char *const lab_names[] = { "zero", "optimizer_gib", "bubble_fraction", "step_ms", "stages", NULL };

Test(closest_word, a_word_added_to_a_name_still_finds_it)
{
    cr_expect_str_eq(closest_word("zero-stage", lab_names), "zero");
    cr_expect_str_eq(closest_word("optimizer_states_gib", lab_names), "optimizer_gib");
}

Test(closest_word, a_word_left_out_of_a_name_still_finds_it)
{
    cr_expect_str_eq(closest_word("fraction", lab_names), "bubble_fraction");
}

Test(closest_word, near_misses_and_prefixes_are_found_as_before)
{
    cr_expect_str_eq(closest_word("stagse", lab_names), "stages");
    cr_expect_str_eq(closest_word("bubble_frac", lab_names), "bubble_fraction");
}

Test(closest_word, names_that_share_no_word_get_no_suggestion)
{
    cr_expect_null(closest_word("learning_rate", lab_names));
    cr_expect_null(closest_word("zeroes_total", lab_names));
}
