/*
 * test_lexer.c — tokens, their locations (columns in characters), strings
 * and their escapes and dedent, and the scanner's error messages.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "lex.h"
#include "quiz.tab.h"

struct tok {
    int kind;
    struct src_loc loc;
    char *str;              /* IDENT, STRING: the value; NUMBER: the lexeme (the arena's) */
    double num;
    bool percent, integral;
};

static struct capture cap;
static struct arena *arena;     /* the tokens' strings and values */
static struct tok toks[128];
static int ntoks;
static const struct source *scanned;   /* the source lex_n read last */

static void setup(void) { cap_init(&cap); arena = arena_new(); ntoks = 0; }

static void teardown(void)
{
    arena_free(arena);
    cap_fini(&cap);
}

TestSuite(lexer, .init = setup, .fini = teardown);

/* Scan text[0..len) to the end, keeping every token. */
static void lex_n(const char *text, size_t len)
{
    const struct source *src = scanned = cap_source(&cap, text, len);
    struct lex_state lx;
    lex_init(&lx, cap.d, src, arena);
    for (;;) {
        QZPSTYPE v = { 0 };
        QZPLTYPE l = { 0 };
        int t = qzplex(&v, &l, &lx);
        cr_assert_lt(ntoks, 128);
        struct tok *k = &toks[ntoks++];
        memset(k, 0, sizeof *k);
        k->kind = t;
        k->loc = l;
        if (t == T_IDENT || t == T_STRING) k->str = v.str;
        if (t == T_NUMBER) {
            k->str = v.val->str;
            k->num = v.val->num;
            k->percent = v.val->percent;
            k->integral = v.val->integral;
        }
        if (t == 0) break;
    }
    lex_fini(&lx);
}

static void lex(const char *text) { lex_n(text, strlen(text)); }

static void assert_tok(int i, int kind, int line, int col)
{
    cr_assert_lt(i, ntoks, "token %d of %d", i, ntoks);
    cr_assert_eq(toks[i].kind, kind, "token %d: kind %d, expected %d", i, toks[i].kind, kind);
    cr_assert_eq(loc_start(&toks[i].loc).line, line, "token %d: line %d, expected %d", i, loc_start(&toks[i].loc).line, line);
    cr_assert_eq(loc_start(&toks[i].loc).col, col, "token %d: col %d, expected %d", i, loc_start(&toks[i].loc).col, col);
}

static void assert_error(int i, int line, int col, const char *msg) { cap_assert_error(&cap, i, line, col, msg); }

Test(lexer, keywords_and_names_are_told_apart)
{
    lex("quiz text q-1 _x memory-limit texts");
    assert_tok(0, T_QUIZ, 1, 1);
    assert_tok(1, T_TEXT, 1, 6);
    assert_tok(2, T_IDENT, 1, 11);
    cr_assert_str_eq(toks[2].str, "q-1");
    assert_tok(3, T_IDENT, 1, 15);
    cr_assert_str_eq(toks[3].str, "_x");
    assert_tok(4, T_IDENT, 1, 18);
    cr_assert_str_eq(toks[4].str, "memory-limit");
    assert_tok(5, T_IDENT, 1, 31);
    assert_tok(6, 0, 1, 36);
    cr_assert_eq(cap_errors(&cap), 0);
}

Test(lexer, every_punctuation_token_is_recognised)
{
    lex("{ } ( ) , : = .. < <= > >= == |");
    int want[] = { '{', '}', '(', ')', ',', ':', '=', T_DOTDOT, '<', T_LE, '>', T_GE, T_EQ, '|', 0 };
    for (int i = 0; i < (int)(sizeof want / sizeof want[0]); i++)
        cr_assert_eq(toks[i].kind, want[i], "token %d", i);
    assert_tok(7, T_DOTDOT, 1, 15);
    assert_tok(13, '|', 1, 31);
    cr_assert_eq(cap_errors(&cap), 0);
}

Test(lexer, numbers_keep_their_value_lexeme_and_kind)
{
    lex("4 0.2727 1e-3 70e9 75% -2");
    cr_assert_eq(toks[0].kind, T_NUMBER);
    cr_assert_eq(toks[0].num, 4);
    cr_assert(toks[0].integral);
    cr_assert_float_eq(toks[1].num, 0.2727, 1e-12);
    cr_assert_not(toks[1].integral);
    cr_assert_float_eq(toks[2].num, 1e-3, 1e-15);
    cr_assert_not(toks[2].integral);
    cr_assert_eq(toks[3].num, 70e9);
    cr_assert_str_eq(toks[3].str, "70e9");
    cr_assert_eq(toks[4].num, 75);
    cr_assert(toks[4].percent);
    cr_assert_not(toks[4].integral);
    cr_assert_str_eq(toks[4].str, "75%");
    cr_assert_eq(toks[5].num, -2);
    assert_tok(5, T_NUMBER, 1, 24);
}

Test(lexer, a_range_lexes_as_number_dotdot_number)
{
    lex("1..64 0.26..0.29");
    assert_tok(0, T_NUMBER, 1, 1);
    assert_tok(1, T_DOTDOT, 1, 2);
    assert_tok(2, T_NUMBER, 1, 4);
    cr_assert_eq(toks[2].num, 64);
    assert_tok(3, T_NUMBER, 1, 7);
    assert_tok(4, T_DOTDOT, 1, 11);
    assert_tok(5, T_NUMBER, 1, 13);
    cr_assert_float_eq(toks[5].num, 0.29, 1e-12);
}

Test(lexer, a_word_that_starts_with_digits_is_a_name)
{
    lex("naive|gpipe|1f1b");
    assert_tok(4, T_IDENT, 1, 13);
    cr_assert_str_eq(toks[4].str, "1f1b");
}

Test(lexer, columns_count_characters_not_bytes)
{
    /* 🙂 is 4 bytes, the curly quotes and é 3 and 2: each is one column. */
    lex("prompt \"Kenapa 🙂 “gelembung” é\" q");
    assert_tok(1, T_STRING, 1, 8);
    cr_assert_eq(loc_end(&toks[1].loc).col, 31);
    cr_assert_str_eq(toks[1].str, "Kenapa 🙂 “gelembung” é");
    assert_tok(2, T_IDENT, 1, 33);
    cr_assert_eq(toks[2].loc.from - loc_src(&toks[2].loc)->base, strlen("prompt \"Kenapa 🙂 “gelembung” é\" "));
}

Test(lexer, a_tab_is_one_column)
{
    lex("\tx\t\ty");
    assert_tok(0, T_IDENT, 1, 2);
    assert_tok(1, T_IDENT, 1, 5);
}

Test(lexer, crlf_and_a_lone_cr_end_lines)
{
    lex("a\r\nb\rc\n d\r\n\r\ne");
    assert_tok(0, T_IDENT, 1, 1);
    assert_tok(1, T_IDENT, 2, 1);
    assert_tok(2, T_IDENT, 3, 1);
    assert_tok(3, T_IDENT, 4, 2);
    assert_tok(4, T_IDENT, 6, 1);
}

Test(lexer, comments_run_to_the_end_of_the_line)
{
    lex("a # a comment with \"quotes\" and { braces\nb #\n#only\nc");
    assert_tok(0, T_IDENT, 1, 1);
    assert_tok(1, T_IDENT, 2, 1);
    assert_tok(2, T_IDENT, 4, 1);
    assert_tok(3, 0, 4, 2);
    cr_assert_eq(cap_errors(&cap), 0);
}

Test(lexer, a_hash_inside_a_string_is_text)
{
    lex("\"# not a comment\" x");
    cr_assert_str_eq(toks[0].str, "# not a comment");
    assert_tok(1, T_IDENT, 1, 19);
}

Test(lexer, escapes_are_decoded)
{
    lex("\"a\\\"b\\\\c\\nd\\te\\u{1F600}\\u{e9}\"");
    cr_assert_eq(toks[0].kind, T_STRING);
    cr_assert_str_eq(toks[0].str, "a\"b\\c\nd\te\xF0\x9F\x98\x80\xC3\xA9");
    cr_assert_eq(cap_errors(&cap), 0);
}

Test(lexer, an_unknown_escape_is_reported_at_the_escape)
{
    lex("x \"ab\\qc\" y");
    assert_error(0, 1, 6, "unknown escape '\\q'");
    cr_assert_str_eq(toks[1].str, "abc");
    assert_tok(2, T_IDENT, 1, 11);
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(lexer, an_escape_that_is_no_character_is_reported)
{
    lex("\"ok \\u{D800} \\u{110000}\"");
    assert_error(0, 1, 5, "'\\u{D800}' is not a Unicode character");
    assert_error(1, 1, 14, "'\\u{110000}' is not a Unicode character");
}

Test(lexer, unterminated_string_is_reported_at_its_opening_quote)
{
    lex("title \"Apa “ini”\nnext");
    assert_error(0, 1, 7, "unterminated string");
    cr_assert_eq(cap_errors(&cap), 1);
    assert_tok(1, T_STRING, 1, 7);
    cr_assert_str_eq(toks[1].str, "Apa “ini”");
    assert_tok(2, T_IDENT, 2, 1);
}

Test(lexer, a_string_unterminated_at_the_end_of_the_file_is_reported_at_its_opening)
{
    lex("x\n  \"abc");
    assert_error(0, 2, 3, "unterminated string");
    assert_tok(1, T_STRING, 2, 3);
    cr_assert_eq(toks[2].kind, 0);
}

Test(lexer, triple_quoted_strings_lose_their_common_indentation)
{
    lex("  \"\"\"\n      line one\n        indented\n\n      line three\n      \"\"\" x");
    cr_assert_eq(toks[0].kind, T_STRING);
    cr_assert_str_eq(toks[0].str, "line one\n  indented\n\nline three");
    assert_tok(0, T_STRING, 1, 3);
    cr_assert_eq(loc_end(&toks[0].loc).line, 6);
    cr_assert_eq(loc_end(&toks[0].loc).col, 9);
    assert_tok(1, T_IDENT, 6, 11);
}

Test(lexer, a_triple_quoted_string_keeps_text_on_its_first_line)
{
    lex("\"\"\"First line\n    second\n      third\"\"\"");
    cr_assert_str_eq(toks[0].str, "First line\nsecond\n  third");
}

Test(lexer, a_triple_quoted_string_keeps_quotes_backslashes_and_crlf_becomes_newline)
{
    lex("\"\"\"\r\n  say \"hi\" \\n\r\n  done\r\n  \"\"\"");
    cr_assert_str_eq(toks[0].str, "say \"hi\" \\n\ndone");
    cr_assert_eq(cap_errors(&cap), 0);
}

Test(lexer, an_unterminated_triple_quoted_string_is_reported_at_its_opening)
{
    lex("a\nb \"\"\"\n text\n");
    assert_error(0, 2, 3, "unterminated \"\"\" string");
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(lexer, invalid_utf8_is_reported_at_its_line_and_column)
{
    lex("ok\n  \"é\" x\xC3(y");
    assert_error(0, 2, 8, "invalid UTF-8 byte 0xC3");
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(lexer, invalid_utf8_in_a_string_is_reported_and_replaced)
{
    lex("\"añ\xFF\xFEz\" q");
    assert_error(0, 1, 4, "invalid UTF-8 byte 0xFF");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_str_eq(toks[0].str, "añ\xEF\xBF\xBD\xEF\xBF\xBDz");
    /* Each bad byte counts as one column, as the caret line shows it. */
    assert_tok(1, T_IDENT, 1, 9);
}

Test(lexer, invalid_utf8_in_a_comment_is_reported)
{
    lex("# fine “quote”\n# bad \xE2\x80 here\nx");
    assert_error(0, 2, 7, "invalid UTF-8 byte 0xE2");
    assert_tok(0, T_IDENT, 3, 1);
}

Test(lexer, surrogates_and_overlong_forms_are_not_utf8)
{
    lex("\"\xED\xA0\x80\" \"\xC0\xAF\"");
    assert_error(0, 1, 2, "invalid UTF-8 byte 0xED");
    assert_error(1, 1, 8, "invalid UTF-8 byte 0xC0");
}

Test(lexer, a_nul_byte_is_reported_where_it_stands)
{
    lex_n("ab\0cd \"x\0y\"", 11);
    assert_error(0, 1, 3, "NUL byte");
    assert_error(1, 1, 9, "NUL byte");
    assert_tok(0, T_IDENT, 1, 1);
    assert_tok(1, T_IDENT, 1, 4);
    cr_assert_str_eq(toks[2].str, "xy");
}

Test(lexer, a_stray_character_is_reported_once_per_line_and_skipped)
{
    lex("a @ b ; c\n“d”\n\x01");
    assert_error(0, 1, 3, "unexpected character '@'");
    assert_error(1, 2, 1, "unexpected character '“' (strings are written in straight quotes");
    assert_error(2, 3, 1, "unexpected control character U+0001");
    cr_assert_eq(cap_errors(&cap), 3);
    assert_tok(1, T_IDENT, 1, 5);
    assert_tok(2, T_IDENT, 1, 9);
    assert_tok(3, T_IDENT, 2, 2);
}

Test(lexer, invalid_utf8_is_reported_even_after_a_stray_character_on_its_line)
{
    lex("@ \xFF");
    assert_error(0, 1, 1, "unexpected character '@'");
    assert_error(1, 1, 3, "invalid UTF-8 byte 0xFF");
}

Test(lexer, scanning_stops_after_fifty_errors_in_a_file)
{
    char text[400];
    size_t n = 0;
    for (int i = 0; i < 60; i++) { text[n++] = '@'; text[n++] = '\n'; }
    text[n++] = 'z';
    lex_n(text, n);
    cr_assert_eq(cap_errors(&cap), 50);
    const struct rec *note = cap_find(&cap, "too many errors in this file");
    cr_assert_not_null(note);
    cr_assert_eq(note->line, 61);
    cr_assert_eq(toks[0].kind, 0);
}

Test(lexer, a_keyword_before_a_colon_in_a_language_block_is_a_tag)
{
    lex("prompt { in: \"x\" }");
    assert_tok(2, T_IDENT, 1, 10);
    cr_assert_str_eq(toks[2].str, "in");
}

Test(lexer, an_open_brace_at_the_end_of_the_file_is_closed_after_reporting_it)
{
    lex("quiz x {\n  title \"t\"\n");
    assert_error(0, 1, 8, "unclosed '{' of quiz 'x'");
    const struct rec *note = cap_find(&cap, "the file ended here");
    cr_assert_not_null(note);
    cr_assert_eq(note->level, DIAG_NOTE);
    cr_assert_eq(note->line, 2);
    cr_assert_eq(note->col, 12);
    cr_assert_eq(toks[5].kind, '}');
    cr_assert_eq(toks[6].kind, 0);
}

Test(lexer, a_plain_string_and_one_with_quote_escapes_stay_in_the_source_and_others_are_copies)
{
    const char *text = "\"plain\" \"es\\\"ca\\\\ped\" x \"new\\nline\"";
    lex(text);
    assert_tok(0, T_STRING, 1, 1);
    cr_assert_str_eq(toks[0].str, "plain");
    cr_assert(toks[0].str == scanned->text + 1, "kept where it stands, its closing quote now its end");
    cr_assert_str_eq(toks[1].str, "es\"ca\\ped");
    cr_assert(toks[1].str == scanned->text + 9, "only \\\" and \\\\ escapes: decoded where it stands");
    /* The name after it keeps its column: the bytes the escapes saved are filled, one column each. */
    assert_tok(2, T_IDENT, 1, 23);
    cr_assert_str_eq(toks[3].str, "new\nline");
    cr_assert(toks[3].str < scanned->text || toks[3].str > scanned->text + scanned->len, "a copy");
    cr_assert_eq(scanned->nul_free, scanned->len, "the whole source was read and held no NUL");
    /* The source as written comes back, byte for byte, whole or from inside the decoded literal. */
    size_t n = strlen(text);
    char back[64];
    cr_assert_lt(n, sizeof back);
    src_restore(scanned, 8, n, back);
    cr_assert(memcmp(back, text + 8, n - 8) == 0, "restored: %.*s", (int)(n - 8), back);
    src_restore(scanned, 12, 19, back);
    cr_assert(memcmp(back, text + 12, 7) == 0, "restored: %.7s", back);
}

Test(lexer, a_name_is_stored_once_however_often_it_is_written)
{
    lex("en en x en");
    cr_assert_str_eq(toks[0].str, "en");
    cr_assert(toks[0].str == toks[1].str && toks[1].str == toks[3].str);
    cr_assert(toks[2].str != toks[0].str);
}

Test(lexer, no_string_is_kept_in_place_past_a_nul_in_the_source)
{
    static const char text[] = "\"a\" \0 \"b\"";
    lex_n(text, sizeof text - 1);
    cr_assert_str_eq(toks[0].str, "a");
    cr_assert(toks[0].str == scanned->text + 1);
    cr_assert_eq(scanned->nul_free, 4, "the file's own NUL is at byte 4");
    cr_assert_str_eq(toks[1].str, "b");
    cr_assert(toks[1].str < scanned->text || toks[1].str > scanned->text + scanned->len, "a copy");
    assert_error(0, 1, 5, "NUL byte in the source");
}

Test(lexer, a_plain_run_stops_at_the_first_byte_the_string_rules_must_see)
{
    /* Each stop byte at every offset, across the eight-byte steps. */
    static const char stops[] = { '"', '\\', '\n', '\r', '\0', '\x01', '\x1F', '\x80', '\xC3', '\xFF' };
    for (size_t s = 0; s < sizeof stops; s++)
        for (size_t at = 0; at < 20; at++) {
            char text[24];
            memset(text, 'a', sizeof text);
            text[at] = stops[s];
            cr_assert_eq(lex_plain_run(text, text + sizeof text), at, "byte 0x%02X at %zu",
                         (unsigned char)stops[s], at);
        }
    static const char plain[] = " ~\x7F" "abcdefghijklmnop" "#{}";
    cr_assert_eq(lex_plain_run(plain, plain + sizeof plain - 1), sizeof plain - 1, "printable ASCII and DEL run on");
    cr_assert_eq(lex_plain_run(plain, plain + 5), 5, "and stop at the end given");
}

Test(lexer, a_string_read_across_the_scanners_buffer_keeps_its_text_and_span)
{
    /* Flex reads the source a buffer at a time (16 KiB first): one string runs over that edge. */
    size_t pad = 16000, len = 2000;
    char *text = malloc(pad + len + 8);
    memset(text, ' ', pad);
    text[pad] = '"';
    for (size_t i = 0; i < len; i++)
        text[pad + 1 + i] = (char)('a' + i % 26);
    memcpy(text + pad + 1 + len, "\" x", 4);
    lex(text);
    assert_tok(0, T_STRING, 1, (int)pad + 1);
    cr_assert_eq(strlen(toks[0].str), len);
    cr_assert_eq(strncmp(toks[0].str, text + pad + 1, len), 0);
    cr_assert_eq(loc_end(&toks[0].loc).col, (int)(pad + len + 2), "the span ends at the closing quote");
    assert_tok(1, T_IDENT, 1, (int)(pad + len + 4));
    free(text);
}

Test(lexer, text_after_a_character_or_escape_across_the_buffer_edge_keeps_its_value_and_span)
{
    /*
     * The plain text after a non-ASCII character or a \" or \\ escape is
     * taken in runs too: a string of such pieces, over the edge of Flex's
     * first 16 KiB, comes out decoded, in place, with the next token where
     * it stands.
     */
    static const char *const written[] = { "é", "\\\"", "\\\\", "“q”" };
    static const char *const value[] = { "é", "\"", "\\", "“q”" };
    size_t pad = 15000, room = 4096;
    char *text = malloc(pad + room + 8), *want = malloc(room);
    memset(text, ' ', pad);
    size_t t = pad, w = 0, cols = 0;
    text[t++] = '"';
    for (size_t i = 0; t + 40 < pad + room; i++) {
        for (size_t k = 0; k < 3 + i % 11; k++, cols++)
            text[t++] = want[w++] = (char)('a' + (i + k) % 26);
        const char *a = written[i % 4], *b = value[i % 4];
        memcpy(text + t, a, strlen(a));
        t += strlen(a);
        memcpy(want + w, b, strlen(b));
        w += strlen(b);
        cols += (size_t)utf8_width(a, strlen(a));
    }
    want[w] = '\0';
    memcpy(text + t, "\" x", 4);
    lex(text);
    cr_assert_eq(cap_errors(&cap), 0);
    assert_tok(0, T_STRING, 1, (int)pad + 1);
    cr_assert_str_eq(toks[0].str, want);
    cr_assert(toks[0].str == scanned->text + pad + 1, "only \\\" and \\\\ escapes: decoded where it stands");
    cr_assert_eq(loc_end(&toks[0].loc).col, (int)(pad + cols + 2), "the span ends at the closing quote");
    assert_tok(1, T_IDENT, 1, (int)(pad + cols + 4));
    free(text);
    free(want);
}
