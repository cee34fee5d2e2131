/*
 * quiz.y — the grammar of .qz files: a quiz, a lab manifest, or a file of
 * questions that a quiz includes.
 *
 * Actions are one-line calls to the builders (build.h; the rule they build
 * sits in a comment above each builder).  Errors are reported and the parse
 * goes on: `error` rules at statement and block level resynchronise at the
 * next statement keyword, and each completed statement re-arms reporting
 * (yyerrok), so every independent mistake in a file is reported in one run.
 * An unknown word takes a text as its argument (`promt { en: "..." }`,
 * argtext), so a misspelled statement is one error, not one per word of its
 * block; and
 * a few answers written as on paper (`answer 1,875`, `answer 0.27 ± 0.01`,
 * `answer "yes"`) are rules of their own, whose builders (build_mistake.c)
 * say how the language writes them.
 * What a syntax error says is parse_error.c's business; unclosed blocks are
 * the scanner's (lex.c): it knows where each '{' opened and supplies the
 * missing '}' after reporting it.
 *
 * The keywords come from keywords.def: the build (kwgen) replaces the two
 * "kwgen:" marker lines below with their tokens and the `keyword` rule, and
 * Bison reads that copy.
 */

%code requires {
#include "ast.h"
struct lex_state;
struct build_state;
struct perr_state;
}

%code {
#include "build.h"
#include "lex.h"
#include "parse_error.h"

static void qzperror(const QZPLTYPE *loc, struct lex_state *lx, struct build_state *b, struct perr_state *e,
                     const char *msg);

/* A rule's span runs from its first symbol to its last; an empty rule sits where the last one ended. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                           \
    do {                                                                      \
        if (N) {                                                              \
            (Cur) = YYRHSLOC(Rhs, 1);                                         \
            (Cur).to = YYRHSLOC(Rhs, N).to;                                   \
        } else {                                                              \
            (Cur) = YYRHSLOC(Rhs, 0);                                         \
            if ((Cur).from) (Cur).from = loc_last(&(Cur));                    \
        }                                                                     \
    } while (0)
}

%define api.prefix {qzp}
%define api.pure full
%define api.token.prefix {T_}
%define api.location.type {struct src_loc}
%define parse.error custom
%locations
%expect 0
%lex-param {struct lex_state *lx}
%parse-param {struct lex_state *lx} {struct build_state *b} {struct perr_state *e}

%union {
    char *str;                  /* names and strings: the tree's arena's, or in the source (lex.h) */
    struct ast_value *val;      /* numbers and other values: nodes of the arena */
    struct ast_text *text;      /* TEXT: a node of the arena */
    int num;                    /* small enums: question kind, comparison */
}

%token <str> IDENT "name" STRING "string"
%token <val> NUMBER "number"
/* The keywords, QUIZ "quiz" and the rest, in the order of keywords.def; kwgen writes them here. */
/* kwgen: keyword tokens */
%token DOTDOT ".." LE "<=" GE ">=" EQ "=="
/* `+-` or `±`: no operator of the language, but a tolerance as teachers write it (`answer 0.27 ± 0.01`). */
%token PLUSMINUS "±"

%type <str> name munit
%type <val> value
%type <text> text ltext
%type <num> qkind cmp

/* Values are the arena's: one dropped by error recovery goes with the tree. */
%destructor { (void)$$; } <str> <val> <text> <num>

%%

file
    : %empty
    | file topitem
    ;

topitem
    : quiz                  { yyerrok; }
    | labdef                { yyerrok; }
    | question              { yyerrok; }
    | include               { yyerrok; }
    | IDENT                 { perr_unknown_statement(e, $1, &@1, yyerrstatus != 0); }
    | IDENT            { perr_unknown_statement(e, $1, &@1, yyerrstatus != 0); } argtext { yyerrok; }
    | error
    ;

/* ---- Quiz ---- */

quiz
    : quizhead qitems '}'   { b_top_quiz_close(b, &@3); }
    ;

quizhead
    : QUIZ name '{'         { b_top_quiz_open(b, &@1, $2, &@2); }
    ;

qitems
    : %empty
    | qitems qitem
    ;

qitem
    : header                { yyerrok; }
    | question              { yyerrok; }
    | include               { yyerrok; }
    | IDENT                 { if (perr_unknown_statement(e, $1, &@1, yyerrstatus != 0)) b_hdr_lang(b, $1, &@1); }
    | IDENT            { if (perr_unknown_statement(e, $1, &@1, yyerrstatus != 0)) b_hdr_lang(b, $1, &@1); } argtext { yyerrok; }
    | error
    ;

header
    : TITLE text            { b_hdr_text(b, T_TITLE, &@1, $2); }
    | INTRO text            { b_hdr_text(b, T_INTRO, &@1, $2); }
    | langhead langs
    | FEEDBACK name         { b_hdr_feedback(b, &@1, $2, &@2); }
    | SHUFFLE name          { b_hdr_shuffle(b, &@1, $2, &@2); }
    | SCORING name          { b_hdr_scoring(b, &@1, $2, &@2); }
    | PASSING NUMBER        { b_hdr_passing(b, &@1, $2); }
    ;

langhead
    : LANGUAGES             { b_hdr_languages(b, &@1); }
    ;

langs
    : name                  { b_hdr_lang(b, $1, &@1); perr_language(e, $1, &@1); }
    | langs ',' name        { b_hdr_lang(b, $3, &@3); perr_language(e, $3, &@3); }
    ;

include
    : INCLUDE STRING        { b_include(b, &@1, $2, &@2); }
    ;

/* ---- Questions ---- */

question
    : qhead qstmts '}'      { b_question_close(b); }
    ;

qhead
    : qkind name '{'        { b_question_open(b, $1, &@1, $2, &@2); }
    ;

qkind
    : SINGLE                { $$ = Q_SINGLE; }
    | MULTIPLE              { $$ = Q_MULTIPLE; }
    | TRUEFALSE             { $$ = Q_TRUEFALSE; }
    | NUMERIC               { $$ = Q_NUMERIC; }
    | TEXT                  { $$ = Q_TEXT; }
    ;

qstmts
    : %empty
    | qstmts qstmt
    ;

qstmt
    : PROMPT text                       { b_q_prompt(b, &@1, $2); yyerrok; }
    | WRONG text                        { b_q_choice(b, false, &@1, $2, NULL); yyerrok; }
    | WRONG text BECAUSE text           { b_q_choice(b, false, &@1, $2, $4); yyerrok; }
    | CORRECT text                      { b_q_choice(b, true, &@1, $2, NULL); yyerrok; }
    | CORRECT text BECAUSE text         { b_q_choice(b, true, &@1, $2, $4); yyerrok; }
    | EXPLAIN text                      { b_q_explain(b, &@1, $2); yyerrok; }
    | UNIT text                         { b_q_unit(b, &@1, $2); yyerrok; }
    | POINTS NUMBER                     { b_q_points(b, &@1, $2); yyerrok; }
    | SCORING name                      { b_q_scoring(b, &@1, $2, &@2); yyerrok; }
    | ANSWER name                       { b_q_answer_word(b, &@1, $2, &@2); yyerrok; }
    | ANSWER NUMBER                     { b_q_answer_num(b, &@1, $2, NULL); yyerrok; }
    | ANSWER NUMBER WITHIN NUMBER       { b_q_answer_num(b, &@1, $2, $4); yyerrok; }
    | ANSWER NUMBER DOTDOT NUMBER       { b_q_answer_range(b, &@1, $2, $4); yyerrok; }
    | ANSWER NUMBER ',' NUMBER          { b_q_answer_comma(b, &@1, $2, &@3, $4); yyerrok; }
    | ANSWER NUMBER PLUSMINUS NUMBER    { b_q_answer_plusminus(b, &@1, $2, &@3, $4); yyerrok; }
    | ANSWER STRING                     { b_q_answer_string(b, &@1, $2, &@2); yyerrok; }
    | accepthead accepts                { yyerrok; }
    | labhead labargs                   { b_q_lab_end(b, &@$); yyerrok; }
    | EXPECT name cmp value             { b_q_expect(b, &@$, $2, &@2, $3, $4); yyerrok; }
    | EXPECT name WITHIN value OF value { b_q_expect_within(b, &@$, $2, &@2, $4, $6); yyerrok; }
    | SNIPPET name ':' name             { b_q_snippet(b, &@$, $2, $4); yyerrok; }
    | IDENT                             { perr_unknown_statement(e, $1, &@1, yyerrstatus != 0); }
    | IDENT                        { perr_unknown_statement(e, $1, &@1, yyerrstatus != 0); } argtext { yyerrok; }
    | error
    ;

accepthead
    : ACCEPT                { b_q_accept_start(b, &@1); }
    ;

accepts
    : STRING                { b_q_accept(b, $1, &@1); }
    | accepts ',' STRING    { b_q_accept(b, $3, &@3); }
    ;

labhead
    : LAB name              { b_q_lab(b, &@1, $2, &@2); }
    ;

labargs
    : %empty
    | '(' ')'
    | '(' args ')'
    ;

args
    : arg
    | args ',' arg
    ;

arg
    : name '=' value        { b_q_lab_arg(b, $1, &@1, $3); }
    ;

cmp
    : '<'                   { $$ = CMP_LT; }
    | LE                    { $$ = CMP_LE; }
    | '>'                   { $$ = CMP_GT; }
    | GE                    { $$ = CMP_GE; }
    | EQ                    { $$ = CMP_EQ; }
    ;

/* ---- Lab manifests ---- */

labdef
    : labdefhead lstmts '}' { b_lab_close(b); }
    ;

labdefhead
    : LAB name '{'          { b_lab_open(b, &@1, $2, &@2); }
    ;

lstmts
    : %empty
    | lstmts lstmt
    ;

lstmt
    : TITLE text                { b_lab_text(b, T_TITLE, &@1, $2); yyerrok; }
    | SUMMARY text              { b_lab_text(b, T_SUMMARY, &@1, $2); yyerrok; }
    | paramhead prange phelp palias { yyerrok; }
    | METRIC name ltext munit   { b_lab_metric(b, &@1, $2, &@2, $3, $4); yyerrok; }
    | IDENT                     { perr_unknown_statement(e, $1, &@1, yyerrstatus != 0); }
    | IDENT                { perr_unknown_statement(e, $1, &@1, yyerrstatus != 0); } argtext { yyerrok; }
    | error
    ;

paramhead
    : PARAM name '=' value  { b_lab_param(b, &@1, $2, &@2, $4); }
    ;

prange
    : %empty
    | IN NUMBER DOTDOT NUMBER   { b_lab_param_range(b, $2, $4); }
    | IN choices
    ;

choices
    : name                  { b_lab_param_choice(b, $1, &@1); }
    | choices '|' name      { b_lab_param_choice(b, $3, &@3); }
    ;

phelp
    : ltext                 { b_lab_param_end(b, $1); }
    ;

palias
    : %empty
    | ALIAS name            { b_lab_param_alias(b, $2, &@2); }
    ;

/* A parameter's help or a metric's description: optional, TEXT as in quizzes. */
ltext
    : %empty                { $$ = NULL; }
    | text                  { $$ = $1; }
    ;

munit
    : %empty                { $$ = NULL; }
    | UNIT STRING           { $$ = $2; }
    ;

/* ---- Values, text and names ---- */

value
    : NUMBER                { $$ = $1; }
    | STRING                { $$ = b_value_string(b, $1, &@1); }
    | name                  { $$ = b_value_name(b, $1, &@1); }
    ;

text
    : STRING                { $$ = b_text_string(b, $1, &@1); }
    | '{' trs '}'           { $$ = b_text_block_end(b, &@$); }
    ;

trs
    : %empty                { b_text_block_start(b); }
    | trs IDENT ':' STRING  { b_text_block_add(b, $2, &@2, $4, &@4); }
    | trs error
    ;

/*
 * The argument of an unknown statement word (`promt { id: "..." en: "..." }`):
 * read past and kept nowhere, its own errors unreported (parse_error.c), so
 * the word's one message is the mistake's only one.
 */
argtext
    : STRING                { (void)$1; }
    | '{' argtrs '}'
    ;

argtrs
    : %empty
    | argtrs IDENT ':' STRING   { (void)$2; (void)$4; }
    | argtrs error
    ;

/* A keyword stands for itself wherever a name is expected: `text q1`, `lab in`, ... */
name
    : IDENT                 { $$ = $1; }
    | keyword               { $$ = b_loc_text(b, &@1); }
    ;

/* keyword: QUIZ | TITLE | ... (every keyword of keywords.def; kwgen writes the rule) */
/* kwgen: keyword rule */

%%

/* Only Bison's own failures come here (memory exhausted); syntax errors go to the function below. */
static void qzperror(const QZPLTYPE *loc, struct lex_state *lx, struct build_state *b, struct perr_state *e,
                     const char *msg)
{
    diag_error(e->d, loc, "%s", msg);
}

/* A symbol as parse_error.c takes it: the token code the scanner returns for it, and Bison's name. */
static struct perr_tok token_of(yysymbol_kind_t k)
{
    struct perr_tok t = { -1, yysymbol_name(k) };
    if (k == YYSYMBOL_YYerror || k == YYSYMBOL_YYUNDEF) return t;
    for (int c = 0; c <= YYMAXUTOK; c++)
        if (YYTRANSLATE(c) == k) { t.tok = c; break; }
    return t;
}

/* A syntax error: what was found and what was expected, for parse_error.c to put in words. */
static int yyreport_syntax_error(const yypcontext_t *ctx, struct lex_state *lx, struct build_state *b,
                                 struct perr_state *e)
{
    yysymbol_kind_t kinds[YYNTOKENS];
    struct perr_tok expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, kinds, YYNTOKENS);
    for (int i = 0; i < n; i++) expected[i] = token_of(kinds[i]);
    perr_syntax(e, token_of(yypcontext_token(ctx)), yypcontext_location(ctx), expected, n < 0 ? 0 : n);
    return 0;
}
