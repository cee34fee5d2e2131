/*
 * test_build_mistake.c — answers written as on paper (build_mistake.c): one
 * error each, which shows how the language writes it, and the answer still
 * recorded so that no second error follows.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "capture.h"

static struct capture cap;
static struct ast_file *file;

static void setup(void) { cap_init(&cap); file = NULL; }
static void teardown(void) { ast_file_free(file); cap_fini(&cap); }

TestSuite(build_mistake, .init = setup, .fini = teardown);

static void parse(const char *text) { file = cap_parse(&cap, text); }

Test(build_mistake, a_decimal_comma_asks_for_the_point_and_says_learners_may_type_either)
{
    parse("numeric n {\n  prompt \"p\"\n  answer 1,875\n}\n");
    cap_assert_error(&cap, 0, 3, 10, "write the answer with a decimal point: `answer 1.875` "
                     "(learners may type either `1.875` or `1,875`)");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(cap_question(file, 0)->numeric->kind, NUM_EXACT);
}

Test(build_mistake, a_comma_between_two_numbers_is_no_decimal_comma)
{
    parse("numeric n { prompt \"p\" answer 1, 2 }\n");
    cap_assert_error(&cap, 0, 1, 32, "'answer' takes one number (a range is written `answer 1 .. 2`)");
    cr_assert_eq(cap_errors(&cap), 1);
}

Test(build_mistake, plus_minus_in_either_spelling_asks_for_within)
{
    parse("numeric a { prompt \"p\" answer 0.27 +- 0.01 }\n"
          "numeric b { prompt \"p\" answer 0.27 \xC2\xB1 0.01 }\n"
          "numeric c { prompt \"p\" answer 3 \xC2\xB1""0.5 }\n");
    cap_assert_error(&cap, 0, 1, 36, "a tolerance is written with `within`: `answer 0.27 within 0.01`");
    cap_assert_error(&cap, 1, 2, 36, "a tolerance is written with `within`: `answer 0.27 within 0.01`");
    cap_assert_error(&cap, 2, 3, 33, "a tolerance is written with `within`: `answer 3 within 0.5`");
    cr_assert_eq(cap_errors(&cap), 3);
    cr_assert_eq(cap_question(file, 0)->numeric->kind, NUM_TOLERANCE);
}

Test(build_mistake, a_quoted_answer_in_a_text_question_asks_for_accept)
{
    parse("text t {\n  prompt \"p\"\n  answer \"Gauss\"\n}\n");
    cap_assert_error(&cap, 0, 3, 3, "a text question's answers are written with `accept`: `accept \"Gauss\"`");
    cr_assert_eq(cap_errors(&cap), 1);
    cr_assert_eq(cap_question(file, 0)->accept.n, 1);
}

Test(build_mistake, a_quoted_answer_elsewhere_asks_for_no_quotes)
{
    parse("truefalse t { prompt \"p\" answer \"true\" }\n");
    cap_assert_error(&cap, 0, 1, 33, "'answer' takes a number or a word, without quotes");
}

Test(build_mistake, plus_minus_is_not_offered_where_it_is_no_answer)
{
    parse("truefalse t { prompt \"p\" answer }\n");
    cap_assert_error(&cap, 0, 1, 33, "expected a name or a number, found '}'");
}
