/*
 * quiz.y — the grammar of .qz files: a quiz, a lab manifest, or a file of
 * questions that a quiz includes.
 *
 * Actions are one-line calls to the builders in build.c (the rule they build
 * sits in a comment above each builder).  Errors are reported and the parse
 * goes on: `error` rules at statement and block level resynchronise at the
 * next statement keyword, and each completed statement re-arms reporting
 * (yyerrok), so every independent mistake in a file is reported in one run.
 * Unclosed blocks are the scanner's business (lex.c): it knows where each
 * '{' opened and supplies the missing '}' after reporting it.
 */

%code requires {
#include "ast.h"
typedef void *yyscan_t;
struct qz_parser;
}

%code provides {
int qzplex(QZPSTYPE *lval, QZPLTYPE *lloc, yyscan_t scanner, struct qz_parser *p);
}

%code {
#include <string.h>

#include "parse.h"

static void qzperror(const QZPLTYPE *loc, yyscan_t scanner, struct qz_parser *p, const char *msg);
static void unknown_statement(struct qz_parser *p, char *word, const struct src_loc *loc, bool recovering);

/* A rule's span runs from its first symbol to its last; an empty rule sits where the last one ended. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                           \
    do {                                                                      \
        if (N) {                                                              \
            (Cur) = YYRHSLOC(Rhs, 1);                                         \
            (Cur).end_line = YYRHSLOC(Rhs, N).end_line;                       \
            (Cur).end_col = YYRHSLOC(Rhs, N).end_col;                         \
        } else {                                                              \
            (Cur) = YYRHSLOC(Rhs, 0);                                         \
            (Cur).line = (Cur).end_line;                                      \
            (Cur).col = (Cur).end_col;                                        \
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
%param {yyscan_t scanner} {struct qz_parser *p}

%union {
    char *str;                  /* names and strings: heap copies */
    struct ast_value *val;      /* numbers and other values: heap nodes */
    struct ast_text *text;      /* TEXT: a heap node */
    int num;                    /* small enums: question kind, comparison */
}

%token <str> IDENT "name" STRING "string"
%token <val> NUMBER "number"
/* Keywords (tagged KEYWORDS: keep lex.c's table and the keyword rule below in sync). */
%token QUIZ "quiz" TITLE "title" LANGUAGES "languages" INTRO "intro" FEEDBACK "feedback"
       SHUFFLE "shuffle" PASSING "passing" INCLUDE "include" SINGLE "single"
       MULTIPLE "multiple" TRUEFALSE "truefalse" NUMERIC "numeric" TEXT "text"
       PROMPT "prompt" WRONG "wrong" CORRECT "correct" BECAUSE "because" EXPLAIN "explain"
       POINTS "points" ANSWER "answer" WITHIN "within" UNIT "unit" ACCEPT "accept"
       LAB "lab" EXPECT "expect" SNIPPET "snippet" OF "of" PARAM "param" METRIC "metric"
       IN "in" SUMMARY "summary" TRUE "true" FALSE "false" ALIAS "alias"
%token DOTDOT ".." LE "<=" GE ">=" EQ "=="

%type <str> name mhelp munit
%type <val> value
%type <text> text trs
%type <num> qkind cmp

%destructor { free($$); } <str>
%destructor { b_value_free($$); } <val>
%destructor { ast_text_free($$); } <text>
%destructor { (void)$$; } <num>

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
    | IDENT                 { unknown_statement(p, $1, &@1, yyerrstatus != 0); }
    | error
    ;

/* ---- Quiz ---- */

quiz
    : quizhead qitems '}'   { b_top_quiz_close(p, &@3); }
    ;

quizhead
    : QUIZ name '{'         { b_top_quiz_open(p, &@1, $2, &@2); }
    ;

qitems
    : %empty
    | qitems qitem
    ;

qitem
    : header                { yyerrok; }
    | question              { yyerrok; }
    | include               { yyerrok; }
    | IDENT                 { unknown_statement(p, $1, &@1, yyerrstatus != 0); }
    | error
    ;

header
    : TITLE text            { b_hdr_text(p, HDR_TITLE, &@1, $2); }
    | INTRO text            { b_hdr_text(p, HDR_INTRO, &@1, $2); }
    | langhead langs
    | FEEDBACK name         { b_hdr_feedback(p, &@1, $2, &@2); }
    | SHUFFLE name          { b_hdr_shuffle(p, &@1, $2, &@2); }
    | PASSING NUMBER        { b_hdr_passing(p, &@1, $2); }
    ;

langhead
    : LANGUAGES             { b_hdr_languages(p, &@1); }
    ;

langs
    : name                  { b_hdr_lang(p, $1, &@1); }
    | langs ',' name        { b_hdr_lang(p, $3, &@3); }
    ;

include
    : INCLUDE STRING        { b_include(p, &@1, $2, &@2); }
    ;

/* ---- Questions ---- */

question
    : qhead qstmts '}'      { b_question_close(p); }
    ;

qhead
    : qkind name '{'        { b_question_open(p, $1, &@1, $2, &@2); }
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
    : PROMPT text                       { b_q_prompt(p, &@1, $2); yyerrok; }
    | WRONG text                        { b_q_choice(p, false, &@1, $2, NULL); yyerrok; }
    | WRONG text BECAUSE text           { b_q_choice(p, false, &@1, $2, $4); yyerrok; }
    | CORRECT text                      { b_q_choice(p, true, &@1, $2, NULL); yyerrok; }
    | CORRECT text BECAUSE text         { b_q_choice(p, true, &@1, $2, $4); yyerrok; }
    | EXPLAIN text                      { b_q_explain(p, &@1, $2); yyerrok; }
    | UNIT text                         { b_q_unit(p, &@1, $2); yyerrok; }
    | POINTS NUMBER                     { b_q_points(p, &@1, $2); yyerrok; }
    | ANSWER name                       { b_q_answer_word(p, &@1, $2, &@2); yyerrok; }
    | ANSWER NUMBER                     { b_q_answer_num(p, &@1, $2, NULL); yyerrok; }
    | ANSWER NUMBER WITHIN NUMBER       { b_q_answer_num(p, &@1, $2, $4); yyerrok; }
    | ANSWER NUMBER DOTDOT NUMBER       { b_q_answer_range(p, &@1, $2, $4); yyerrok; }
    | accepthead accepts                { yyerrok; }
    | labhead labargs                   { b_q_lab_end(p, &@$); yyerrok; }
    | EXPECT name cmp value             { b_q_expect(p, &@$, $2, &@2, $3, $4); yyerrok; }
    | EXPECT name WITHIN value OF value { b_q_expect_within(p, &@$, $2, &@2, $4, $6); yyerrok; }
    | SNIPPET name ':' name             { b_q_snippet(p, &@$, $2, $4); yyerrok; }
    | IDENT                             { unknown_statement(p, $1, &@1, yyerrstatus != 0); }
    | error
    ;

accepthead
    : ACCEPT                { b_q_accept_start(p, &@1); }
    ;

accepts
    : STRING                { b_q_accept(p, $1, &@1); }
    | accepts ',' STRING    { b_q_accept(p, $3, &@3); }
    ;

labhead
    : LAB name              { b_q_lab(p, &@1, $2, &@2); }
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
    : name '=' value        { b_q_lab_arg(p, $1, &@1, $3); }
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
    : labdefhead lstmts '}' { b_lab_close(p); }
    ;

labdefhead
    : LAB name '{'          { b_lab_open(p, &@1, $2, &@2); }
    ;

lstmts
    : %empty
    | lstmts lstmt
    ;

lstmt
    : TITLE text                { b_lab_text(p, LABONCE_TITLE, &@1, $2); yyerrok; }
    | SUMMARY text              { b_lab_text(p, LABONCE_SUMMARY, &@1, $2); yyerrok; }
    | paramhead prange phelp palias { yyerrok; }
    | METRIC name mhelp munit   { b_lab_metric(p, &@1, $2, &@2, $3, $4); yyerrok; }
    | IDENT                     { unknown_statement(p, $1, &@1, yyerrstatus != 0); }
    | error
    ;

paramhead
    : PARAM name '=' value  { b_lab_param(p, &@1, $2, &@2, $4); }
    ;

prange
    : %empty
    | IN NUMBER DOTDOT NUMBER   { b_lab_param_range(p, $2, $4); }
    | IN choices
    ;

choices
    : name                  { b_lab_param_choice(p, $1, &@1); }
    | choices '|' name      { b_lab_param_choice(p, $3, &@3); }
    ;

phelp
    : %empty                { b_lab_param_end(p, NULL, NULL); }
    | STRING                { b_lab_param_end(p, $1, &@1); }
    ;

palias
    : %empty
    | ALIAS name            { b_lab_param_alias(p, $2, &@2); }
    ;

mhelp
    : %empty                { $$ = NULL; }
    | STRING                { $$ = $1; }
    ;

munit
    : %empty                { $$ = NULL; }
    | UNIT STRING           { $$ = $2; }
    ;

/* ---- Values, text and names ---- */

value
    : NUMBER                { $$ = $1; }
    | STRING                { $$ = b_value_string(p, $1, &@1); }
    | name                  { $$ = b_value_name(p, $1, &@1); }
    ;

text
    : STRING                { $$ = b_text_string(p, $1, &@1); }
    | '{' trs '}'           { $$ = b_text_block_end(p, $2, &@$); }
    ;

trs
    : %empty                { $$ = ast_text_new(); }
    | trs IDENT ':' STRING  { $$ = b_text_block_add(p, $1, $2, &@2, $4, &@4); }
    | trs error             { $$ = $1; }
    ;

/* A keyword stands for itself wherever a name is expected: `text q1`, `lab in`, ... */
name
    : IDENT                 { $$ = $1; }
    | keyword               { $$ = b_loc_text(p, &@1); }
    ;

keyword
    : QUIZ | TITLE | LANGUAGES | INTRO | FEEDBACK | SHUFFLE | PASSING | INCLUDE | SINGLE
    | MULTIPLE | TRUEFALSE | NUMERIC | TEXT | PROMPT | WRONG | CORRECT | BECAUSE | EXPLAIN
    | POINTS | ANSWER | WITHIN | UNIT | ACCEPT | LAB | EXPECT | SNIPPET | OF | PARAM | METRIC
    | IN | SUMMARY | TRUE | FALSE | ALIAS
    ;

%%

/* Only Bison's own failures come here (memory exhausted); syntax errors go to the function below. */
static void qzperror(const QZPLTYPE *loc, yyscan_t scanner, struct qz_parser *p, const char *msg)
{
    (void)scanner;
    diag_error(p->d, loc, "%s", msg);
}

/* The statement keywords of the innermost block, for "did you mean" (tagged STMTS). */
static const char *const stmts_question[][10] = {
    [Q_SINGLE]    = { "prompt", "wrong", "correct", "explain", "points", "lab", "expect", "snippet", NULL },
    [Q_MULTIPLE]  = { "prompt", "wrong", "correct", "explain", "points", "lab", "expect", "snippet", NULL },
    [Q_TRUEFALSE] = { "prompt", "answer", "explain", "points", "lab", "expect", "snippet", NULL },
    [Q_NUMERIC]   = { "prompt", "answer", "unit", "explain", "points", "lab", "expect", "snippet", NULL },
    [Q_TEXT]      = { "prompt", "accept", "explain", "points", "lab", "expect", "snippet", NULL },
};
static const char *const stmts_quiz[] = {
    "title", "languages", "intro", "feedback", "shuffle", "passing", "include",
    "single", "multiple", "truefalse", "numeric", "text", NULL,
};
static const char *const stmts_lab[] = { "title", "summary", "param", "metric", NULL };
static const char *const stmts_top[] = {
    "quiz", "lab", "include", "single", "multiple", "truefalse", "numeric", "text", NULL,
};

/* A token's name in quotes: keywords come bare from Bison, characters already quoted. */
static char *quoted(const char *name)
{
    return name[0] == '\'' ? xstrdup(name) : xasprintf("'%s'", name);
}

/* How a token is named in a message: its spelling for names and keywords. */
static char *describe(struct qz_parser *p, yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_YYEOF:   return xstrdup("end of file");
    case YYSYMBOL_STRING:  return xstrdup("a string");
    case YYSYMBOL_NUMBER:  return xasprintf("number %s", p->tok_text ? p->tok_text : "");
    case YYSYMBOL_IDENT:   return xasprintf("'%s'", p->tok_text ? p->tok_text : "");
    default:               return quoted(yysymbol_name(k));
    }
}

/* An expected token as a message names it. */
static const char *expected_name(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_YYEOF:   return "end of file";
    case YYSYMBOL_STRING:  return "a string";
    case YYSYMBOL_NUMBER:  return "a number";
    case YYSYMBOL_IDENT:   return "a name";
    default:               return yysymbol_name(k);
    }
}

static bool expects(const yysymbol_kind_t *exp, int n, yysymbol_kind_t k)
{
    for (int i = 0; i < n; i++)
        if (exp[i] == k) return true;
    return false;
}

static bool is_keyword(yysymbol_kind_t k)
{
    return k >= YYSYMBOL_QUIZ && k <= YYSYMBOL_FALSE;
}

/*
 * The innermost block that holds statements: its name for messages, its
 * statement keywords (for "did you mean") and the token that starts one.
 */
static const char *innermost_block(const struct qz_parser *p, const char *const **cands,
                                   yysymbol_kind_t *starter)
{
    const struct brace *b = NULL;
    for (size_t i = p->braces.n; i-- > 0;)
        if (p->braces.items[i].kind != BR_LANG) { b = &p->braces.items[i]; break; }
    if (b && b->kind == BR_QUESTION) {
        *cands = stmts_question[b->qkind]; *starter = YYSYMBOL_PROMPT; return b->what;
    } else if (b && b->kind == BR_QUIZ) {
        *cands = stmts_quiz; *starter = YYSYMBOL_TITLE; return b->what;
    } else if (b && b->kind == BR_LAB) {
        *cands = stmts_lab; *starter = YYSYMBOL_PARAM; return b->what;
    }
    *cands = stmts_top;
    *starter = YYSYMBOL_QUIZ;
    return "this file";
}

/*
 * A word where a statement starts: an unknown statement, with the nearest
 * known one.  Not reported while recovering from a syntax error (the word is
 * what the error left over; but the arguments of an unknown word are no such
 * error), nor when it follows an unknown word on the same line (it is that
 * word's argument).
 */
static void unknown_statement(struct qz_parser *p, char *word, const struct src_loc *loc, bool recovering)
{
    bool argument = p->unknown_at_set && p->unknown_line == loc->line && lex_token_before(p, loc->off) == p->unknown_at;
    if ((recovering && !p->junk_recovery) || argument) {
        if (argument) p->unknown_at = loc->off;
        free(word);
        return;
    }
    const char *const *cands;
    yysymbol_kind_t starter;
    const char *where = innermost_block(p, &cands, &starter);
    const char *hint = b_suggest(word, cands);
    if (hint)
        diag_error(p->d, loc, "unknown statement '%s' in %s; did you mean '%s'?", word, where, hint);
    else
        diag_error(p->d, loc, "unknown statement '%s' in %s", word, where);
    p->unknown_at = loc->off;
    p->unknown_line = loc->line;
    p->unknown_at_set = true;
    free(word);
}

/*
 * Syntax errors name what was found and what could stand there.  (A plain
 * word where a statement starts is no syntax error: the grammar takes it as
 * an unknown statement, reported above with a suggestion.)
 */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, struct qz_parser *p)
{
    (void)scanner;
    if (p->synthetic) return 0;     /* a '}' the scanner supplied after reporting an unclosed block */
    yysymbol_kind_t tok = yypcontext_token(ctx);
    struct src_loc loc = *yypcontext_location(ctx);
    yysymbol_kind_t exp[64];
    int n = yypcontext_expected_tokens(ctx, exp, 64);
    if (n < 0) n = 0;

    const char *const *cands;       /* unused here: a keyword out of place gets no suggestion */
    yysymbol_kind_t starter;
    const char *where = innermost_block(p, &cands, &starter);
    /* What follows an unknown statement word is its own arguments: reported with the word. */
    if (p->unknown_at_set && lex_token_before(p, loc.off) == p->unknown_at) {
        p->junk_recovery = true;
        return 0;
    }
    p->junk_recovery = false;
    /* A statement could start here (in whatever block the parser recovered into). */
    bool stmt = expects(exp, n, YYSYMBOL_PROMPT) || expects(exp, n, YYSYMBOL_TITLE) ||
                expects(exp, n, YYSYMBOL_PARAM) || expects(exp, n, YYSYMBOL_QUIZ);
    if (stmt && is_keyword(tok)) {
        diag_error(p->d, &loc, "'%s' cannot appear in %s", yysymbol_name(tok), where);
        return 0;
    }
    char *found = describe(p, tok);
    if (stmt) {
        diag_error(p->d, &loc, "expected a statement in %s, found %s", where, found);
        free(found);
        return 0;
    }
    /* Where a name is expected every keyword is too: name them once as "a name". */
    bool name_ok = expects(exp, n, YYSYMBOL_IDENT);
    char list[512] = "";
    int shown = 0;
    for (int i = 0; i < n; i++) {
        if (name_ok && is_keyword(exp[i])) continue;
        shown++;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (name_ok && is_keyword(exp[i])) continue;
        const char *sep = k == 0 ? "" : k == shown - 1 ? " or " : ", ";
        const char *nm = expected_name(exp[i]);
        bool quote = exp[i] != YYSYMBOL_STRING && exp[i] != YYSYMBOL_NUMBER &&
                     exp[i] != YYSYMBOL_IDENT && exp[i] != YYSYMBOL_YYEOF && nm[0] != '\'';
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s%s%s", sep, quote ? "'" : "", nm, quote ? "'" : "");
        k++;
    }
    if (shown)
        diag_error(p->d, &loc, "expected %s, found %s", list, found);
    else
        diag_error(p->d, &loc, "unexpected %s", found);
    free(found);
    return 0;
}
