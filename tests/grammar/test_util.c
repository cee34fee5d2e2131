/*
 * test_util.c — the one way numbers are written (fmt_number), reading a
 * file whole (read_file), and the arena's recycled pieces.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "util.h"

/* Under AddressSanitizer every arena piece is its own allocation and none is reused (arena.c). */
#if defined(__SANITIZE_ADDRESS__)
#define REUSED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REUSED 0
#endif
#endif
#ifndef REUSED
#define REUSED 1
#endif

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

/* ---- The arena's recycled pieces ----------------------------------------- */

Test(arena, a_recycled_piece_is_the_next_piece_of_its_size_and_comes_back_zeroed)
{
    struct arena *a = arena_new();
    unsigned char *p = arena_alloc(a, 40);
    memset(p, 0xAB, 40);
    arena_alloc(a, 8);                  /* p is no longer the latest piece */
    arena_recycle(a, p, 40);
    unsigned char *other = arena_alloc(a, 48);
    cr_assert_neq(other, p, "a piece of another size never takes it");
    unsigned char *q = arena_alloc(a, 40);
    cr_assert_eq(q == p, REUSED, "the next piece of 40 bytes is the recycled one (unless checked)");
    for (int i = 0; i < 40; i++)
        cr_assert_eq(q[i], 0, "byte %d of a reused piece is %d, not 0", i, q[i]);
    cr_assert_neq(arena_alloc(a, 40), p, "a piece is reused once");
    arena_free(a);
}

Test(arena, a_vector_that_moves_leaves_its_old_piece_to_the_next_vector)
{
    struct arena *a = arena_new();
    struct { long *items; size_t n, cap; } v = { 0 }, w = { 0 };
    AVEC_PUSH(a, v, 1);
    long *first = v.items;
    arena_alloc(a, 8);                  /* v can no longer grow in place */
    AVEC_PUSH(a, v, 2);
    cr_assert_neq(v.items, first, "v moved");
    cr_assert_eq(v.items[0], 1);
    cr_assert_eq(v.items[1], 2);
    AVEC_PUSH(a, w, 7);
    cr_assert_eq(w.items == first, REUSED, "w's first piece is the one v left (unless checked)");
    cr_assert_eq(w.items[0], 7);
    cr_assert_eq(v.items[0], 1, "v is untouched");
    arena_free(a);
}

Test(arena, the_latest_piece_recycled_is_never_grown_in_place)
{
    struct arena *a = arena_new();
    long *p = arena_alloc(a, 16);
    arena_recycle(a, p, 16);
    long *q = arena_grow(a, arena_alloc(a, 16), 16, 32);   /* the recycled piece, then grown */
    cr_assert_eq(q == p, false, "a recycled piece moves when it grows");
    long *r = arena_alloc(a, 8);
    cr_assert(r + 1 <= q || r >= q + 4, "a later piece does not overlap the grown one");
    arena_free(a);
}
