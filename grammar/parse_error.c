/*
 * parse_error.c — syntax errors and unknown statements, in words an author
 * reads: what was found, what could stand there, which block it is in.
 *
 * A statement starts with a keyword, and wherever a name stands a keyword
 * may stand too (`text text { ... }`).  So where Bison expects a name it
 * expects every keyword as well; those are named once, as what the name is
 * ("a language tag" after `languages`, keywords.def's NAMED), and such a
 * place is not taken for one where a statement could start.
 */
#include <stdio.h>
#include <string.h>

#include "keywords.h"
#include "parse_error.h"
#include "quiz.tab.h"
#include "util.h"

void perr_init(struct perr_state *e, struct diag *d, const struct lex_state *lx)
{
    *e = (struct perr_state){ .d = d, .lx = lx };
}

/*
 * The innermost block that holds statements: its name for messages, and
 * which block it is.  at: where the token in question starts, or
 * (size_t)-1 for the latest one.  The parser may have read one token past
 * it (to see whether an argument follows an unknown word): a '{' that opens
 * the word's argument is no block of the word's, and a '}' that closed a
 * block leaves it just above the scanner's stack, where it still is.
 */
static const char *innermost_block(const struct perr_state *e, size_t at, enum kw_place *block)
{
    const struct lex_state *lx = e->lx;
    size_t n = lx->braces.n;
    if (at != (size_t)-1 && lx->recent[1] == at) {
        if (lx->prev_tok == '{' && n) n--;
        else if (lx->closed) n++;
    }
    const struct brace *b = NULL;
    for (size_t i = n; i-- > 0 && !b;)
        if (lx->braces.items[i].kind != BR_LANG) b = &lx->braces.items[i];
    if (b && b->block != KWB_NONE) {
        *block = b->block;
        return lex_brace_what(e->lx, b);
    }
    *block = KWB_FILE;
    return "this file";
}

/* A plain word where a statement starts: not reported while recovering, nor as an unknown word's argument. */
/* Whether the parser stands in the block argument of an unknown word (or on the '}' that closed it). */
static bool in_argument(const struct perr_state *e)
{
    const struct lex_state *lx = e->lx;
    if (!e->arg_open) return false;
    if (lx->braces.n > e->arg_depth && lx->braces.items[e->arg_depth].loc.from == e->arg_from) return true;
    return lx->closed && lx->braces.n == e->arg_depth && lx->braces.items[e->arg_depth].loc.from == e->arg_from;
}

bool perr_unknown_statement(struct perr_state *e, char *word, const struct src_loc *loc, bool recovering)
{
    /* A '{' right after the word (the parser has read it to choose the rule) opens the word's argument. */
    const struct lex_state *lx = e->lx;
    if (lx->prev_tok == '{' && lx->recent[1] == lex_off(lx, loc) && lx->braces.n) {
        e->arg_open = true;
        e->arg_depth = lx->braces.n - 1;
        e->arg_from = lx->braces.items[lx->braces.n - 1].loc.from;
    }
    /*
     * While recovering from a syntax error the word is what the error left
     * over (but the arguments of an unknown word are no such error); a word
     * after an unknown word on its line is that word's argument.
     */
    bool argument = e->unknown_at_set && e->unknown_line == loc_line(loc) &&
                    lex_token_before(e->lx, lex_off(e->lx, loc)) == e->unknown_at;
    if ((recovering && !e->junk_recovery) || argument) {
        if (argument) e->unknown_at = lex_off(e->lx, loc);
        return argument && e->lang_words;
    }
    e->lang_words = false;
    /*
     * `languages id en`: the parser ends the list at `id` and takes `en`
     * for a statement.  Said as what it is, once for the line.
     */
    if (e->lang && lex_token_before(e->lx, lex_off(e->lx, loc)) == e->lang_at && loc_line(&e->lang_loc) == loc_line(loc)) {
        diag_error(e->d, loc, "languages are separated by commas: write `%s, %s`", e->lang, word);
        e->lang = NULL;
        e->unknown_at = lex_off(e->lx, loc);
        e->unknown_line = loc_line(loc);
        e->unknown_at_set = true;
        e->lang_words = true;
        return true;
    }
    enum kw_place block;
    const char *where = innermost_block(e, lex_off(e->lx, loc), &block);
    const char *cands[KW_N + 1];
    kw_statements(block, cands);
    const char *hint = closest_word(word, cands);
    if (hint)
        diag_error(e->d, loc, "unknown statement '%s' in %s; did you mean '%s'?", word, where, hint);
    else
        diag_error(e->d, loc, "unknown statement '%s' in %s", word, where);
    e->unknown_at = lex_off(e->lx, loc);
    e->unknown_line = loc_line(loc);
    e->unknown_at_set = true;
    return false;
}

void perr_language(struct perr_state *e, const char *tag, const struct src_loc *loc)
{
    e->lang = tag;
    e->lang_at = lex_off(e->lx, loc);
    e->lang_loc = *loc;
}

/* How the found token is named: its spelling for names, numbers and keywords. */
static char *describe(const struct perr_state *e, struct perr_tok t)
{
    const char *text = e->lx->tok_text ? e->lx->tok_text : "";
    switch (t.tok) {
    case T_YYEOF:   return xstrdup("end of file");
    case T_STRING:  return xstrdup("a string");
    case T_NUMBER:  return xasprintf("number %s", text);
    case T_IDENT:   return xasprintf("'%s'", text);
    default:        return t.name[0] == '\'' ? xstrdup(t.name) : xasprintf("'%s'", t.name);
    }
}

static bool expects(const struct perr_tok *exp, int n, int tok)
{
    for (int i = 0; i < n; i++)
        if (exp[i].tok == tok) return true;
    return false;
}

/* Every keyword is expected: a name stands here (the grammar's `name` rule). */
static bool name_expected(const struct perr_tok *exp, int n)
{
    if (!expects(exp, n, T_IDENT)) return false;
    int kws = 0;
    for (int i = 0; i < n; i++)
        if (kw_is(exp[i].tok)) kws++;
    return kws == KW_N;
}

/* What the expected name is: after a keyword, keywords.def says; otherwise a name. */
static const char *name_called(const struct perr_state *e, struct perr_tok found)
{
    /* At the end of the file no token was handed out for it: the last one is the one before. */
    const struct kw *k = kw_of(found.tok == T_YYEOF ? e->lx->prev_tok : e->lx->prev2_tok);
    return k && k->named ? k->named : "a name";
}

/* An expected token as a message names it, quoted when it is a word or a character. */
static void add_expected(char *list, size_t size, const char *sep, struct perr_tok t, const char *name_is)
{
    const char *nm = t.name;
    bool quote = true;
    switch (t.tok) {
    case T_YYEOF:   nm = "end of file"; quote = false; break;
    case T_STRING:  nm = "a string"; quote = false; break;
    case T_NUMBER:  nm = "a number"; quote = false; break;
    case T_IDENT:   nm = name_is; quote = false; break;
    default:        quote = nm[0] != '\'';
    }
    size_t len = strlen(list);
    snprintf(list + len, size - len, "%s%s%s%s", sep, quote ? "'" : "", nm, quote ? "'" : "");
}

void perr_syntax(struct perr_state *e, struct perr_tok found, const struct src_loc *at,
                 const struct perr_tok *exp, int n)
{
    if (e->lx->synthetic) return;   /* a '}' the scanner supplied after reporting an unclosed block */
    if (in_argument(e)) return;     /* the block is an unknown word's argument: reported with the word */
    struct src_loc loc = *at;
    /* What follows an unknown statement word is its own arguments: reported with the word. */
    if (e->unknown_at_set && lex_token_before(e->lx, lex_off(e->lx, &loc)) == e->unknown_at) {
        e->junk_recovery = true;
        return;
    }
    e->junk_recovery = false;
    enum kw_place block;
    const char *where = innermost_block(e, (size_t)-1, &block);
    bool name_ok = expects(exp, n, T_IDENT);
    /* A statement could start here (in whatever block the parser recovered into). */
    bool stmt = false;
    if (!name_expected(exp, n))
        for (int i = 0; i < n && !stmt; i++) stmt = kw_starts_statement(exp[i].tok);
    if (stmt && kw_is(found.tok)) {
        diag_error(e->d, &loc, "'%s' cannot appear in %s", kw_of(found.tok)->word, where);
        return;
    }
    char *what = describe(e, found);
    if (stmt) {
        diag_error(e->d, &loc, "expected a statement in %s, found %s", where, what);
        free(what);
        return;
    }
    /*
     * Some tokens are in the grammar only to say how a mistake is written
     * right (`answer 0.27 ± 0.01`, `answer "yes"` in a text question:
     * build_mistake.c); they are not offered as what could stand here.
     */
    int before = found.tok == T_YYEOF ? e->lx->prev_tok : e->lx->prev2_tok;
    struct perr_tok kept[n > 0 ? n : 1];
    int nk = 0;
    for (int i = 0; i < n; i++)
        if (exp[i].tok != T_PLUSMINUS && !(exp[i].tok == T_STRING && before == T_ANSWER)) kept[nk++] = exp[i];
    exp = kept;
    n = nk;
    /* Where a name is expected every keyword is too: name them once, as the name. */
    const char *name_is = name_called(e, found);
    char list[512] = "";
    int shown = 0, k = 0;
    for (int i = 0; i < n; i++)
        if (!(name_ok && kw_is(exp[i].tok)) && exp[i].tok >= 0) shown++;
    for (int i = 0; i < n; i++) {
        if ((name_ok && kw_is(exp[i].tok)) || exp[i].tok < 0) continue;
        add_expected(list, sizeof list, k == 0 ? "" : k == shown - 1 ? " or " : ", ", exp[i], name_is);
        k++;
    }
    if (shown)
        diag_error(e->d, &loc, "expected %s, found %s", list, what);
    else
        diag_error(e->d, &loc, "unexpected %s", what);
    free(what);
}
