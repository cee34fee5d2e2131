/*
 * parse.c — qz_parse: one source through the scanner, the grammar and the
 * builders.  The glue that holds the three states side by side: the
 * scanner's (lex.h), the builders' (build.h) and the error reporter's
 * (parse_error.h); the grammar is handed each.
 */
#include "build.h"
#include "lex.h"
#include "parse_error.h"
#include "qz.h"
#include "quiz.tab.h"

struct ast_file *qz_parse(struct diag *d, const struct source *src)
{
    struct lex_state lx;
    struct build_state b;
    struct perr_state e;
    int errors_before = diag_errors(d);
    b_init(&b, d, src);
    lex_init(&lx, d, src, b.file->arena);
    b.names = &lx.names;
    perr_init(&e, d, &lx);
    int rc = qzpparse(&lx, &b, &e);
    if (rc != 0 && diag_errors(d) == errors_before) {
        struct src_loc end = loc_bytes(src, lx.off, 0);
        diag_error(d, &end, "the file could not be parsed past this point");
    }
    lex_fini(&lx);
    return b_finish(&b);
}
