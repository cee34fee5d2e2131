/*
 * test_xw.c — the XML writer's CDATA sections: a text arrives whole, its
 * white space included, and a "]]>" inside it cannot end the section.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "emit.h"
#include "xw.h"

static struct membuf out;

static const char *doc(const char *text)
{
    out = (struct membuf){ 0 };
    struct xw *w = xw_new(membuf_write, &out, false);
    xw_start(w, "text");
    xw_cdata(w, text);
    cr_assert_eq(xw_finish(w), 0);
    xw_free(w);
    membuf_write(&out, "", 1);
    return (const char *)out.data;
}

Test(xw, a_cdata_section_keeps_white_space_and_markup_as_they_are)
{
    cr_expect_str_eq(doc("<em>a</em> \u2014 b\n  c"), "<text><![CDATA[<em>a</em> \u2014 b\n  c]]></text>\n");
    membuf_free(&out);
    cr_expect_str_eq(doc(" "), "<text><![CDATA[ ]]></text>\n");
    membuf_free(&out);
}

Test(xw, a_closing_bracket_pair_is_split_across_two_sections)
{
    cr_expect_str_eq(doc("a]]>b"), "<text><![CDATA[a]]]]><![CDATA[>b]]></text>\n");
    membuf_free(&out);
    cr_expect_str_eq(doc("]]>]]>"), "<text><![CDATA[]]]]><![CDATA[>]]]]><![CDATA[>]]></text>\n");
    membuf_free(&out);
    cr_expect_str_eq(doc("]]]>"), "<text><![CDATA[]]]]]><![CDATA[>]]></text>\n");
    membuf_free(&out);
}
