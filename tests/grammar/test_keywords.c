/*
 * test_keywords.c — the keyword table (keywords.def, keywords.c): the
 * scanner finds every keyword and nothing else, the table agrees with
 * itself, and the copies outside the code — the fuzzing dictionary and the
 * language reference — list exactly its keywords.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "keywords.gen.h"
#include "keywords.h"
#include "util.h"

TestSuite(keywords);

static const struct kw *row_spelled(const char *word, size_t n)
{
    for (int i = 0; i < KW_N; i++)
        if (strlen(kw_table[i].word) == n && !memcmp(kw_table[i].word, word, n)) return &kw_table[i];
    return NULL;
}

Test(keywords, every_keyword_is_found_by_its_spelling_and_near_misses_are_not)
{
    for (int i = 0; i < KW_N; i++) {
        const char *w = kw_table[i].word;
        size_t n = strlen(w);
        cr_assert_eq(kw_lookup(w, n), kw_table[i].tok, "'%s'", w);
        cr_assert_eq(kw_of(kw_table[i].tok), &kw_table[i], "'%s'", w);
        /* A prefix, a longer word and another first letter are names, unless the table spells them. */
        char buf[64];
        snprintf(buf, sizeof buf, "%sx", w);
        cr_assert_eq(kw_lookup(buf, n + 1), 0, "'%s'", buf);
        const struct kw *prefix = row_spelled(w, n - 1);
        if (n > 1) cr_assert_eq(kw_lookup(w, n - 1), prefix ? prefix->tok : 0, "'%.*s'", (int)(n - 1), w);
        snprintf(buf, sizeof buf, "%c%s", w[0] == 'z' ? 'y' : w[0] + 1, w + 1);
        const struct kw *other = row_spelled(buf, n);
        cr_assert_eq(kw_lookup(buf, n), other ? other->tok : 0, "'%s'", buf);
        buf[0] = (char)(w[0] - 'a' + 'A');
        snprintf(buf + 1, sizeof buf - 1, "%s", w + 1);
        cr_assert_eq(kw_lookup(buf, n), 0, "'%s': keywords are lower case", buf);
    }
    cr_assert_eq(kw_lookup("q1", 2), 0);
    cr_assert_not(kw_is(T_IDENT));
    cr_assert_null(kw_of('{'));
}

Test(keywords, the_table_agrees_with_itself)
{
    unsigned questions = 0;
    for (int q = Q_SINGLE; q <= Q_TEXT; q++) questions |= KW_AT(KWB_QUESTION(q));
    for (int i = 0; i < KW_N; i++) {
        const struct kw *k = &kw_table[i];
        cr_assert(k->takes, "'%s' stands nowhere", k->word);
        cr_assert_eq(k->once & ~k->takes, 0, "'%s' is once-only where it cannot stand", k->word);
        /* A question statement that some kinds lack says whose it is, for "cannot appear in". */
        unsigned in_questions = k->takes & questions;
        cr_assert_eq(in_questions && in_questions != questions, k->owners != NULL, "'%s'", k->word);
        /* What `KEYWORD NAME {` opens is a block, and the keyword is a name's head. */
        if (k->opens != KWB_NONE) {
            cr_assert(k->opens <= KWB_TEXT, "'%s'", k->word);
            cr_assert_not_null(k->named, "'%s' opens a block after a name", k->word);
        }
        cr_assert_eq(kw_index(k), i);
    }
}

/* The statements of a block, as one string: "prompt explain ...". */
static void statements(enum kw_place b, char *out, size_t size)
{
    const char *list[KW_N + 1];
    kw_statements(b, list);
    out[0] = '\0';
    for (int i = 0; list[i]; i++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", i ? " " : "", list[i]);
    }
}

/* The statement tables of doc/language.md, block by block. */
Test(keywords, each_block_holds_the_statements_the_language_reference_lists)
{
    static const struct { enum kw_place b; const char *want; } blocks[] = {
        { KWB_FILE,      "quiz include single multiple truefalse numeric text lab" },
        { KWB_QUIZ,      "title languages intro feedback shuffle passing include single multiple truefalse numeric text scoring" },
        { KWB_LAB,       "title param metric summary" },
        { KWB_SINGLE,    "prompt wrong correct explain points lab expect snippet" },
        { KWB_MULTIPLE,  "prompt wrong correct explain points scoring lab expect snippet" },
        { KWB_TRUEFALSE, "prompt explain points answer lab expect snippet" },
        { KWB_NUMERIC,   "prompt explain points answer unit lab expect snippet" },
        { KWB_TEXT,      "prompt explain points accept lab expect snippet" },
    };
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        char got[512];
        statements(blocks[i].b, got, sizeof got);
        cr_assert_str_eq(got, blocks[i].want);
    }
    char kinds[64];
    kw_kinds(kw_of(T_WRONG), kinds, sizeof kinds);
    cr_assert_str_eq(kinds, "single and multiple");
    kw_kinds(kw_of(T_PROMPT), kinds, sizeof kinds);
    cr_assert_str_eq(kinds, "single, multiple, truefalse, numeric and text");
}

/* Is word[0..n) a keyword of the table?  Each one found is marked in seen. */
static void mark(const char *word, size_t n, bool seen[KW_N], const char *where)
{
    const struct kw *k = row_spelled(word, n);
    cr_assert_not_null(k, "%s lists '%.*s', which is no keyword", where, (int)n, word);
    cr_assert_not(seen[kw_index(k)], "%s lists '%s' twice", where, k->word);
    seen[kw_index(k)] = true;
}

static void assert_all_seen(const bool seen[KW_N], const char *where)
{
    for (int i = 0; i < KW_N; i++) cr_assert(seen[i], "%s lacks the keyword '%s'", where, kw_table[i].word);
}

Test(keywords, the_fuzzing_dictionary_holds_exactly_the_keywords)
{
    size_t len;
    char *text = read_file("tests/fuzz/qz.dict", &len);
    cr_assert_not_null(text);
    bool seen[KW_N] = { false };
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "kw_", 3) != 0) continue;
        char *q = strchr(line, '"'), *end = q ? strchr(q + 1, '"') : NULL;
        cr_assert_not_null(end, "%s", line);
        mark(q + 1, (size_t)(end - q - 1), seen, "qz.dict");
    }
    assert_all_seen(seen, "qz.dict");
    free(text);
}

Test(keywords, the_language_reference_lists_exactly_the_keywords)
{
    size_t len;
    char *text = read_file("doc/language.md", &len);
    cr_assert_not_null(text);
    char *s = strstr(text, "**Keywords.**");
    cr_assert_not_null(s);
    s = strchr(s, '\n');
    bool seen[KW_N] = { false };
    /* The indented block after the heading (a blank line first): words separated by spaces. */
    for (char *line = strtok(s, "\n"); line && !strncmp(line, "    ", 4); line = strtok(NULL, "\n")) {
        for (char *w = line; *w;) {
            while (*w == ' ') w++;
            size_t n = strcspn(w, " ");
            if (n) mark(w, n, seen, "doc/language.md");
            w += n;
        }
    }
    assert_all_seen(seen, "doc/language.md");
    free(text);
}
