/*
 * test_loc.c — lines and columns found from byte offsets (loc.c), and the
 * size limit that keeps offsets within 32 bits.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "loc.h"
#include "util.h"

static struct capture cap;
static void setup(void) { cap_init(&cap); }
static void teardown(void) { cap_fini(&cap); }
TestSuite(loc, .init = setup, .fini = teardown);

static const struct source *src_of(const char *text)
{
    return cap_source(&cap, text, strlen(text));
}

static void assert_pos(const struct source *s, size_t off, int line, int col)
{
    struct src_pos p = src_pos(s, off);
    cr_assert(p.line == line && p.col == col, "offset %zu: %d:%d, expected %d:%d", off, p.line, p.col, line, col);
}

Test(loc, every_line_end_counts_once_and_columns_count_characters)
{
    /* "\r\n" is one line end, a lone "\r" another; é is one column, a tab one. */
    const struct source *s = src_of("ab\r\n\xC3\xA9x\ry\n\tz");
    assert_pos(s, 0, 1, 1);
    assert_pos(s, 1, 1, 2);
    assert_pos(s, 4, 2, 1);     /* é */
    assert_pos(s, 6, 2, 2);     /* x */
    assert_pos(s, 8, 3, 1);     /* y */
    assert_pos(s, 11, 4, 2);    /* z, after the tab */
    assert_pos(s, s->len, 4, 3);
}

Test(loc, a_byte_order_mark_takes_no_column_and_a_bad_byte_takes_one)
{
    const struct source *s = src_of("\xEF\xBB\xBFq\xFFr");
    assert_pos(s, 3, 1, 1);
    assert_pos(s, 5, 1, 3);
}

Test(loc, the_lines_of_a_long_file_are_found_at_their_edges)
{
    char text[3001];
    size_t n = 0;
    for (int i = 0; i < 1000; i++) {
        text[n++] = 'a' + i % 26;
        text[n++] = i % 2 ? 'b' : 'c';
        text[n++] = '\n';
    }
    text[n] = '\0';
    const struct source *s = src_of(text);
    for (int i = 0; i < 1000; i++) {
        assert_pos(s, (size_t)i * 3, i + 1, 1);
        assert_pos(s, (size_t)i * 3 + 2, i + 1, 3);     /* the line end belongs to its line */
        cr_assert_eq(src_offset(s, i + 1, 2), (size_t)i * 3 + 1);
    }
    cr_assert_eq(src_offset(s, 5000, 1), s->len, "past the last line: the end");
    cr_assert_eq(src_offset(s, 2, 99), 5, "past a line's end: its end");
}

Test(loc, a_span_ends_at_its_last_character_not_at_a_line_end_after_it)
{
    const struct source *s = src_of("say \"caf\xC3\xA9\"\n\nnext");
    struct src_loc word = loc_bytes(s, 4, 7);           /* "café" */
    cr_assert_eq(src_off(s, loc_last(&word)), 10, "the closing quote");
    struct src_loc with_break = loc_bytes(s, 4, 9);     /* and the two line ends */
    cr_assert_eq(src_off(s, loc_last(&with_break)), 10);
    struct src_loc e_acute = loc_bytes(s, 8, 2);
    cr_assert_eq(src_off(s, loc_last(&e_acute)), 8, "a two-byte character is one");
    struct src_pos end = loc_end(&with_break);
    cr_assert(end.line == 1 && end.col == 10, "%d:%d", end.line, end.col);
    struct src_loc empty = loc_bytes(s, 15, 0);
    cr_assert_eq(src_off(s, loc_last(&empty)), 15);
    struct src_loc none = { 0 };
    cr_assert_eq(loc_line(&none), 0, "no location has no line");
}

Test(loc, a_stray_continuation_byte_at_a_span_end_is_a_character_of_its_own)
{
    const struct source *s = src_of("x\xC3\xA9\x80y");
    struct src_loc l = loc_bytes(s, 0, 4);
    cr_assert_eq(src_off(s, loc_last(&l)), 3);
    cr_assert_eq(loc_end(&l).col, 3);
}

Test(loc, a_file_too_large_for_32_bit_offsets_is_refused_before_it_is_read)
{
    char path[] = "/tmp/qz-loc-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    /* Sparse: no disk is used, and read_file must refuse it from its size alone. */
    int rc = ftruncate(fd, (off_t)READ_FILE_MAX + 2);
    close(fd);
    if (rc != 0) {
        unlink(path);
        cr_skip_test("this file system cannot hold a sparse file of 4 GiB");
    }
    size_t len = 0;
    errno = 0;
    char *text = read_file(path, &len);
    int err = errno;
    unlink(path);
    cr_assert_null(text);
    cr_assert_eq(err, EFBIG);
}

/* The scanner's count, forward from the start: the last character of [off, end). */
static size_t last_forward(const char *t, size_t off, size_t end)
{
    while (end > off && (t[end - 1] == '\n' || t[end - 1] == '\r'))
        end--;
    size_t i = off, last = off;
    while (i < end) {
        last = i;
        size_t len = utf8_char_len(t + i, end - i);
        i += len ? len : 1;
    }
    return last;
}

Test(loc, the_last_character_found_backward_is_the_one_the_scanner_counts_to)
{
    /* Every span of byte strings mixing ASCII, valid and broken UTF-8 and line ends. */
    static const char *const pieces[] = { "a", "\xC3\xA9", "\xE2\x80\x9C", "\xF0\x9F\x99\x82", "\x80", "\xC3",
                                          "\xE2\x80", "\xF5", "\n", "\r" };
    unsigned seed = 12345;
    for (int round = 0; round < 2000; round++) {
        char text[64] = "";
        size_t n = 0;
        for (int k = 0; k < 6; k++) {
            seed = seed * 1103515245u + 12345u;
            const char *p = pieces[(seed >> 16) % (sizeof pieces / sizeof *pieces)];
            memcpy(text + n, p, strlen(p));
            n += strlen(p);
        }
        text[n] = '\0';
        const struct source *s = src_of(text);
        for (size_t off = 0; off < n; off++)
            for (size_t end = off + 1; end <= n; end++) {
                struct src_loc l = loc_bytes(s, off, end - off);
                cr_assert_eq(src_off(s, loc_last(&l)), last_forward(text, off, end), "round %d, [%zu, %zu)", round, off, end);
            }
    }
}

Test(loc, each_source_has_its_own_positions_and_a_location_finds_its_source)
{
    const struct source *a = src_of("first\n"), *b = src_of("second");
    struct src_loc in_a = loc_bytes(a, 2, 3), end_a = loc_bytes(a, a->len, 0), in_b = loc_bytes(b, 0, 6);
    cr_assert_eq(loc_src(&in_a), a);
    cr_assert_eq(loc_src(&end_a), a, "a span at the end of a file is the file's");
    cr_assert_eq(loc_src(&in_b), b);
    cr_assert(end_a.from < in_b.from, "the second source's positions follow the first's");
    cr_assert_eq(src_at(end_a.from + 1), b, "the position after a source's end is the next one's first");
    cr_assert_null(src_at(0));
    cr_assert_eq(loc_line(&in_b), 1);
    cr_assert_eq(loc_col(&in_b), 1);
    struct src_loc none = { 0 };
    cr_assert_null(loc_src(&none));
    cr_assert_not(loc_known(&none));
}

Test(loc, sources_that_would_pass_4_gib_together_are_refused)
{
    src_of("x");
    /* Only its length is looked at: nothing of a 4 GiB text is made. */
    struct source huge = { .path = "huge.qz", .len = UINT32_MAX - 1 };
    cr_assert_not(src_enter(&huge));
    struct source fits = { .path = "fits.qz", .len = 100 };
    cr_assert(src_enter(&fits));
    struct src_loc l = loc_bytes(&fits, 10, 1);
    cr_assert_eq(loc_src(&l), &fits);
    src_leave(&fits);
    cr_assert_null(loc_src(&l), "a source that has left is found no more");
}

Test(loc, the_space_starts_again_when_every_source_has_left)
{
    struct source one = { .path = "one.qz", .len = 1000 };
    cr_assert(src_enter(&one));
    uint32_t base = one.base;
    src_leave(&one);
    struct source two = { .path = "two.qz", .len = 5 };
    cr_assert(src_enter(&two));
    cr_assert_eq(two.base, base, "so that a long-running process never runs out of positions");
    src_leave(&two);
}
