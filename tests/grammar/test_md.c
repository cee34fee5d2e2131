/*
 * test_md.c — the Markdown subset: paragraphs, breaks, code, emphasis,
 * strong, fenced blocks; unmatched markers stay literal text.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "ast.h"

static struct md_doc doc;

static void teardown(void) { md_doc_clear(&doc); }

TestSuite(md, .fini = teardown);

static const struct md_span *span(size_t b, size_t s)
{
    cr_assert_lt(b, doc.blocks.n, "block %zu of %zu", b, doc.blocks.n);
    cr_assert_lt(s, doc.blocks.items[b].spans.n, "span %zu of %zu", s, doc.blocks.items[b].spans.n);
    return &doc.blocks.items[b].spans.items[s];
}

static void assert_span(size_t b, size_t s, enum md_span_kind k, const char *text)
{
    const struct md_span *sp = span(b, s);
    cr_assert_eq(sp->kind, k, "block %zu span %zu: kind %d, expected %d", b, s, sp->kind, k);
    if (text) cr_assert_str_eq(sp->text, text);
    else cr_assert_null(sp->text);
}

Test(md, plain_text_is_one_paragraph_of_one_span)
{
    md_parse("Apa yang dimaksud dengan “gelembung”? 🙂", &doc);
    cr_assert_eq(doc.blocks.n, 1);
    cr_assert_eq(doc.blocks.items[0].kind, MD_PARAGRAPH);
    cr_assert_eq(doc.blocks.items[0].spans.n, 1);
    assert_span(0, 0, MD_PLAIN, "Apa yang dimaksud dengan “gelembung”? 🙂");
}

Test(md, code_emphasis_and_strong_become_spans)
{
    md_parse("Run `labrun bubble` for *idle* time, **not** memory.", &doc);
    cr_assert_eq(doc.blocks.items[0].spans.n, 7);
    assert_span(0, 0, MD_PLAIN, "Run ");
    assert_span(0, 1, MD_CODE, "labrun bubble");
    assert_span(0, 2, MD_PLAIN, " for ");
    assert_span(0, 3, MD_EM, "idle");
    assert_span(0, 4, MD_PLAIN, " time, ");
    assert_span(0, 5, MD_STRONG, "not");
    assert_span(0, 6, MD_PLAIN, " memory.");
}

Test(md, blank_lines_split_paragraphs_and_single_newlines_are_breaks)
{
    md_parse("first line\nsecond line\n\n  \nnext paragraph", &doc);
    cr_assert_eq(doc.blocks.n, 2);
    cr_assert_eq(doc.blocks.items[0].spans.n, 3);
    assert_span(0, 0, MD_PLAIN, "first line");
    assert_span(0, 1, MD_BREAK, NULL);
    assert_span(0, 2, MD_PLAIN, "second line");
    assert_span(1, 0, MD_PLAIN, "next paragraph");
}

Test(md, a_fenced_block_keeps_its_lines_and_info_word)
{
    md_parse("Look:\n```c\nfor (int i = 0; i < n; i++)\n    *p++ = `x`;\n```\nAfter.", &doc);
    cr_assert_eq(doc.blocks.n, 3);
    assert_span(0, 0, MD_PLAIN, "Look:");
    const struct md_block *b = &doc.blocks.items[1];
    cr_assert_eq(b->kind, MD_CODEBLOCK);
    cr_assert_str_eq(b->info, "c");
    cr_assert_str_eq(b->code, "for (int i = 0; i < n; i++)\n    *p++ = `x`;");
    cr_assert_eq(b->spans.n, 0);
    assert_span(2, 0, MD_PLAIN, "After.");
}

Test(md, a_fence_without_info_has_none_and_may_be_empty)
{
    md_parse("```\n```", &doc);
    cr_assert_eq(doc.blocks.n, 1);
    cr_assert_eq(doc.blocks.items[0].kind, MD_CODEBLOCK);
    cr_assert_null(doc.blocks.items[0].info);
    cr_assert_str_eq(doc.blocks.items[0].code, "");
}

Test(md, an_unclosed_fence_is_literal_text)
{
    md_parse("```python\nprint(1)", &doc);
    cr_assert_eq(doc.blocks.n, 1);
    cr_assert_eq(doc.blocks.items[0].kind, MD_PARAGRAPH);
    assert_span(0, 0, MD_PLAIN, "```python");
    assert_span(0, 1, MD_BREAK, NULL);
    assert_span(0, 2, MD_PLAIN, "print(1)");
}

Test(md, unmatched_markers_stay_literal)
{
    md_parse("2 * 3 * 4, a `tick, **half and *one", &doc);
    cr_assert_eq(doc.blocks.items[0].spans.n, 1);
    assert_span(0, 0, MD_PLAIN, "2 * 3 * 4, a `tick, **half and *one");
}

Test(md, html_is_plain_text)
{
    md_parse("<script>alert(1)</script> & <b>", &doc);
    cr_assert_eq(doc.blocks.items[0].spans.n, 1);
    assert_span(0, 0, MD_PLAIN, "<script>alert(1)</script> & <b>");
}

Test(md, double_backticks_enclose_a_single_backtick)
{
    md_parse("use ``a ` b`` here", &doc);
    assert_span(0, 1, MD_CODE, "a ` b");
    assert_span(0, 2, MD_PLAIN, " here");
}

Test(md, markers_inside_code_are_not_emphasis)
{
    md_parse("`*not em*` and *em*", &doc);
    assert_span(0, 0, MD_CODE, "*not em*");
    assert_span(0, 2, MD_EM, "em");
}

Test(md, strong_is_not_closed_by_a_single_star)
{
    md_parse("**a*b**", &doc);
    cr_assert_eq(doc.blocks.items[0].spans.n, 1);
    assert_span(0, 0, MD_STRONG, "a*b");
}

Test(md, parsing_again_replaces_the_previous_document)
{
    md_parse("one\n\ntwo", &doc);
    cr_assert_eq(doc.blocks.n, 2);
    md_parse("three", &doc);
    cr_assert_eq(doc.blocks.n, 1);
    assert_span(0, 0, MD_PLAIN, "three");
}

Test(md, an_empty_string_has_no_blocks)
{
    md_parse("", &doc);
    cr_assert_eq(doc.blocks.n, 0);
    md_parse("\n  \n", &doc);
    cr_assert_eq(doc.blocks.n, 0);
}

Test(md, images_and_formulas_become_spans)
{
    md_parse("See ![Two blocks](fig/split.svg): \\(a_1\\) and \\[ \\frac{1}{2} \\]!", &doc);
    cr_assert_eq(doc.blocks.items[0].spans.n, 7);
    assert_span(0, 0, MD_PLAIN, "See ");
    assert_span(0, 1, MD_IMAGE, "fig/split.svg");
    cr_assert_str_eq(span(0, 1)->alt, "Two blocks");
    assert_span(0, 2, MD_PLAIN, ": ");
    assert_span(0, 3, MD_MATH, "a_1");
    assert_span(0, 4, MD_PLAIN, " and ");
    assert_span(0, 5, MD_DMATH, " \\frac{1}{2} ");
    assert_span(0, 6, MD_PLAIN, "!");
}

Test(md, unfinished_images_and_formulas_and_code_stay_literal)
{
    md_parse("Wow! ![alt](a b.png) \\( x\nnext \\) `\\(y\\)` ![x]", &doc);
    assert_span(0, 0, MD_PLAIN, "Wow! ![alt](a b.png) \\( x");
    assert_span(0, 1, MD_BREAK, NULL);
    assert_span(0, 2, MD_PLAIN, "next \\) ");
    assert_span(0, 3, MD_CODE, "\\(y\\)");
    assert_span(0, 4, MD_PLAIN, " ![x]");
}
