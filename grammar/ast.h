/*
 * ast.h — the syntax tree of .qz files (quizzes, included question files and
 * lab manifests).  Shared by quizc and labrun through libqz.
 *
 * Ownership: every tree is owned by its root (struct ast_file); free it with
 * ast_file_free().  Its nodes, vectors and strings live in the file's arena
 * (arena.h) and go with it in one call; names are interned there, and a
 * string literal that needed no unescaping points into the source itself
 * (loc.h).  Only what later passes attach is on the heap (a snippet's code
 * and file, an include's tree), freed by ast_file_free too.  Locations and
 * those strings point into a struct source owned by the struct diag that read
 * it, so a tree must not outlive its diag.
 *
 * A lab manifest (struct ast_labdef) is the exception: it outlives the tree
 * and the diag it was read with (labrun keeps it), so it is a heap copy,
 * strings and texts included, freed with ast_labdef_free.
 */
#ifndef QZ_AST_H
#define QZ_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "loc.h"

/* A growable array of T: items, count, capacity.  Push with VEC_PUSH. */
#define VEC(T) struct { T *items; size_t n, cap; }
/*
 * The same with 32-bit counts, for the vectors of which a bank has millions
 * (a text's strings, a question's choices): 16 bytes instead of 24.  A
 * source is under 4 GiB (loc.h), so none can hold more.
 */
#define TVEC(T) struct { T *items; uint32_t n, cap; }

/* ---- Markdown subset ---------------------------------------------------- */

enum md_span_kind {
    MD_PLAIN,       /* literal text */
    MD_CODE,        /* `code` */
    MD_EM,          /* *emphasis* */
    MD_STRONG,      /* **strong** */
    MD_BREAK,       /* a line break inside a paragraph; text is NULL */
    MD_IMAGE,       /* ![alt](path): text is the path as written, alt the alt text */
    MD_MATH,        /* \( TeX \): text is the TeX */
    MD_DMATH,       /* \[ TeX \]: text is the TeX, displayed */
};

struct md_span {
    enum md_span_kind kind;
    const char *text;   /* UTF-8, unescaped; NULL for MD_BREAK */
    const char *alt;    /* MD_IMAGE: the alt text; NULL for every other kind */
};

enum md_block_kind {
    MD_PARAGRAPH,   /* spans */
    MD_CODEBLOCK,   /* ``` fenced ```: code */
};

struct md_block {
    enum md_block_kind kind;
    VEC(struct md_span) spans;  /* MD_PARAGRAPH */
    const char *info;           /* MD_CODEBLOCK: the word after ```, or NULL */
    const char *code;           /* MD_CODEBLOCK: the lines, verbatim */
};

/*
 * A parsed text.  Its strings point into the text md_parse read or into
 * the doc's pool; a doc parsed again reuses its blocks, their span vectors
 * and its pool, so writing a bank's millions of texts through one doc
 * allocates almost nothing.  md_doc_clear frees it all.
 */
struct md_doc {
    VEC(struct md_block) blocks;
    size_t kept;                /* blocks[0..kept) own span vectors (n may be less) */
    char *pool;                 /* the spans' copies, pool_cap bytes */
    size_t pool_cap, pool_n;
};

/* ---- Localized text ----------------------------------------------------- */

/*
 * One string of a TEXT: the raw (unescaped) string.  Its Markdown is parsed
 * where it is written out (md_parse), not kept in the tree: a bank has
 * millions of translations, and their parsed form took more memory than
 * the source.
 */
struct ast_tr {
    char *lang;             /* BCP 47 tag, or NULL for a language-neutral string */
    char *raw;              /* the string value after escapes and """ dedent */
    struct src_loc loc;     /* the string literal (or "tag: string" entry) */
};

/*
 * TEXT: one neutral string, or a { lang: "..." ... } block.  Its strings
 * follow it in the same piece (a bank has millions of texts, and a vector
 * of their own cost a pointer and a piece each).  A neutral text's location
 * is its string's; a block's (its braces) is kept just before the text, so
 * that a neutral one, the common case, does not carry it: ast_text_loc.
 * Made by ast_text_alloc.
 */
struct ast_text {
    uint32_t n;             /* strings in trs */
    bool neutral;           /* written as a single string, not a block (then n is 1) */
    struct ast_tr trs[];    /* in source order */
};

/* ---- Values used by lab parameters and expectations --------------------- */

enum ast_value_kind {
    VAL_NUMBER,             /* 4, 0.25, 1e-3, 70e9, 75% */
    VAL_IDENT,              /* gpipe, fp32 */
    VAL_STRING,             /* "text" */
    VAL_BOOL,               /* true, false */
};

struct ast_value {
    enum ast_value_kind kind;
    bool percent;           /* VAL_NUMBER written with % */
    bool integral;          /* VAL_NUMBER written without '.', exponent or % */
    bool boolean;           /* VAL_BOOL */
    double num;             /* VAL_NUMBER: the value (75% is stored as 75) */
    char *str;              /* VAL_IDENT, VAL_STRING: the text; VAL_NUMBER: the lexeme */
    struct src_loc loc;
};

/* ---- Lab references in questions ---------------------------------------- */

struct qz_run;      /* a recorded run (compiler/runs.h) */

struct ast_arg {            /* name = value inside lab NAME ( ... ) */
    char *name;
    struct ast_value value;
    struct src_loc loc;     /* the name */
};

enum ast_cmp { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_WITHIN };

/* expect METRIC OP VALUE   |   expect METRIC within TOL of (VALUE | answer) */
struct ast_expect {
    char *metric;
    struct src_loc metric_loc;
    enum ast_cmp op;
    struct ast_value value;     /* right-hand side; unused when of_answer */
    struct ast_value tolerance; /* CMP_WITHIN only */
    bool of_answer;             /* CMP_WITHIN ... of answer */
    struct src_loc loc;         /* the whole expect statement */
};

struct ast_labdef;

/* lab NAME ( args ) expect ... */
struct ast_labref {
    char *name;
    struct src_loc name_loc;
    TVEC(struct ast_arg) args;
    TVEC(struct ast_expect) expects;
    struct src_loc loc;
    const struct ast_labdef *def;   /* set by lab resolution; borrowed */
    const struct qz_run *run;       /* quizc --runs: the run recorded for these values; borrowed, or NULL */
};

/* snippet LAB:REGION */
struct ast_snippet {
    char *lab, *region;
    struct src_loc loc;
    char *code;             /* set by lab resolution: the region's lines */
    char *file;             /* set by lab resolution: file relative to the lab dir */
};

/* ---- Questions ---------------------------------------------------------- */

enum ast_qkind { Q_SINGLE, Q_MULTIPLE, Q_TRUEFALSE, Q_NUMERIC, Q_TEXT };

/*
 * A bank has a few choices a question: a choice keeps only where its
 * keyword starts, and ast_choice_loc makes the keyword's location from it
 * and its text's source.
 */
struct ast_choice {
    struct ast_text *text;
    struct ast_text *because;   /* per-choice feedback, or NULL */
    uint32_t kw_at;             /* the position of its correct/wrong keyword (loc.h) */
    bool correct;
};

/* How a multiple question scores: unset (the quiz's rule, else partial), partial credit, or all or nothing. */
enum ast_scoring { SCORING_UNSET, SCORING_PARTIAL, SCORING_ALL_OR_NOTHING };

enum ast_numkind {
    NUM_EXACT,              /* answer 42 */
    NUM_TOLERANCE,          /* answer 0.2727 within 0.01 */
    NUM_RANGE,              /* answer 0.26..0.29 */
};

struct ast_numeric {
    enum ast_numkind kind;      /* which of the union's two holds the key */
    union {
        struct {
            struct ast_value value;     /* NUM_EXACT, NUM_TOLERANCE */
            struct ast_value tolerance; /* NUM_TOLERANCE */
        };
        struct {
            struct ast_value lo, hi;    /* NUM_RANGE */
        };
    };
    struct ast_text *unit;      /* or NULL */
};

/*
 * What few questions of a bank have: points other than the default, labs,
 * snippets.  A question without any shares ast_no_extra (points 1, the
 * rest empty), so the common question carries one pointer for them.
 */
struct ast_qextra {
    double points;              /* default 1 */
    struct src_loc points_loc;
    enum ast_scoring scoring;   /* `scoring` of a multiple question; SCORING_UNSET: the quiz's */
    struct src_loc scoring_loc;
    TVEC(struct ast_labref) labs;
    TVEC(struct ast_snippet) snippets;
};

/*
 * A question.  A bank has a hundred thousand, so what only some kinds or
 * few questions use lies behind a pointer (numeric, extra), and where its
 * words stand is kept as positions (loc.h), each word's length known from
 * its spelling: ast_question_loc, ast_question_id_loc, ast_answer_loc.
 */
struct ast_question {
    enum ast_qkind kind;
    uint32_t kw_at;             /* the position of its kind keyword */
    uint32_t id_at;             /* the position of its id */
    uint32_t answer_at;         /* the position of the answer keyword, when has_answer */
    bool tf_answer;             /* Q_TRUEFALSE */
    bool has_answer;            /* Q_TRUEFALSE, Q_NUMERIC: an answer was given */
    char *id;                   /* as written */
    struct ast_text *prompt;    /* NULL if missing (an error) */
    struct ast_text *explain;   /* or NULL */

    TVEC(struct ast_choice) choices; /* Q_SINGLE, Q_MULTIPLE */

    /*
     * Q_NUMERIC: its answer key and unit (the arena's).  Any other kind:
     * &ast_no_numeric, all zero and never written; a bank is mostly other
     * kinds, and the key is larger than the rest of a question.
     */
    const struct ast_numeric *numeric;

    TVEC(struct ast_tr) accept;  /* Q_TEXT: accepted answers (lang NULL) */

    /* Points, labs, snippets: &ast_no_extra until one is given (the arena's then). */
    const struct ast_qextra *extra;
};

extern const struct ast_numeric ast_no_numeric;
extern const struct ast_qextra ast_no_extra;
/* The answer keyword of q (has_answer); no location when none was given. */
struct src_loc ast_answer_loc(const struct ast_question *q);
/* q's kind keyword, and its id. */
struct src_loc ast_question_loc(const struct ast_question *q);
struct src_loc ast_question_id_loc(const struct ast_question *q);

/* ---- Quiz --------------------------------------------------------------- */

enum ast_feedback { FEEDBACK_IMMEDIATE, FEEDBACK_ON_SUBMIT, FEEDBACK_NEVER };
enum ast_shuffle { SHUFFLE_NONE, SHUFFLE_CHOICES, SHUFFLE_QUESTIONS, SHUFFLE_ALL };

struct ast_lang {
    char *tag;
    struct src_loc loc;
};

/*
 * An include keeps where it stands among its file's questions, so that the
 * loader can splice the included questions there.
 */
struct ast_include {
    char *path;                 /* as written, relative to the including file */
    struct src_loc loc;
    uint32_t before;            /* how many of the file's questions come before it */
    struct ast_file *file;      /* set by the loader: the included file; owned */
};

struct ast_quiz {
    char *id;
    struct src_loc loc, id_loc;
    struct ast_text *title;         /* NULL if missing (an error) */
    struct ast_text *intro;         /* or NULL */
    VEC(struct ast_lang) langs;     /* empty: a single-language quiz */
    struct src_loc langs_loc;
    enum ast_feedback feedback;
    enum ast_shuffle shuffle;
    enum ast_scoring scoring;       /* `scoring` for every multiple question; SCORING_UNSET when not given */
    struct src_loc scoring_loc;
    double passing;                 /* percent, 0..100; default 80 */
    struct src_loc passing_loc;
    bool has_passing;
};

/* ---- Lab manifests ------------------------------------------------------ */

enum ast_ptype {
    PARAM_INT,      /* default and range are integers: in 1..64 */
    PARAM_REAL,     /* a range with a non-integer end or default: in 0.0..1.0 */
    PARAM_ENUM,     /* in naive|gpipe|1f1b */
    PARAM_BOOL,     /* default true/false, no range */
    PARAM_STRING,   /* default "text", no range */
};

struct ast_param {
    char *name;
    enum ast_ptype type;
    struct ast_value def;       /* default */
    double lo, hi;              /* PARAM_INT, PARAM_REAL */
    VEC(char *) choices;        /* PARAM_ENUM */
    struct ast_text *help;      /* TEXT, or NULL: the manifest's heap copy (ast_text_heap_copy) */
    char *alias;                /* a short option name (`alias b` gives -b), or NULL */
    struct src_loc loc;
};

struct ast_metric {
    char *name;
    struct ast_text *help;      /* its description: TEXT, or NULL; the manifest's heap copy */
    char *unit;                 /* optional: metric NAME "help" unit "ms" */
    struct src_loc loc;
};

struct ast_labdef {
    char *name;
    struct src_loc loc, name_loc;
    struct ast_text *title;
    struct ast_text *summary;       /* or NULL */
    VEC(struct ast_param) params;
    VEC(struct ast_metric) metrics;
    char *dir;                      /* set by the loader: the lab's folder */
};

/* ---- A parsed file ------------------------------------------------------ */

struct ast_file {
    struct arena *arena;            /* owns the tree's nodes, vectors and strings */
    const struct source *src;
    struct ast_quiz *quiz;          /* a quiz file, or NULL */
    struct ast_labdef *lab;         /* a lab manifest, or NULL */
    VEC(struct ast_question *) questions;   /* the quiz's (or an included file's) own, in source order */
    VEC(struct ast_include *) includes;     /* in source order */
};

/*
 * Constructors (nodes of the arena a, zeroed but for their defaults) and
 * destructors.  *_free(NULL) is a no-op.
 */
struct ast_file *ast_file_new(const struct source *src);
void ast_file_free(struct ast_file *f);
/*
 * A text of n strings (trs zeroed), in arena a, or on the heap when a is
 * NULL (a manifest's: freed with it).  neutral: one string (n is 1), whose
 * location is the text's; else a block, whose location is loc.
 */
struct ast_text *ast_text_alloc(struct arena *a, bool neutral, size_t n, const struct src_loc *loc);
/* The correct/wrong keyword of a choice. */
struct src_loc ast_choice_loc(const struct ast_choice *c);
/* Where t is written: its string, or its block's braces. */
static inline const struct src_loc *ast_text_loc(const struct ast_text *t)
{
    return t->neutral ? &t->trs[0].loc : (const struct src_loc *)(const void *)t - 1;
}
struct ast_question *ast_question_new(struct arena *a, enum ast_qkind kind);
struct ast_quiz *ast_quiz_new(struct arena *a);
/*
 * A lab manifest and its texts: heap copies (see above).  The manifest owns
 * every string and text it points to (title, summary, each parameter's help,
 * each metric's description); ast_labdef_free frees them all.
 */
struct ast_labdef *ast_labdef_new(void);
void ast_labdef_free(struct ast_labdef *l);
/* A heap copy of t (its strings too), for a manifest; NULL for NULL.  Freed with ast_labdef_free. */
struct ast_text *ast_text_heap_copy(const struct ast_text *t);
void md_doc_clear(struct md_doc *d);

/* Names used in messages and output: "single", "numeric", "gpipe", "<=", ... */
const char *ast_qkind_name(enum ast_qkind k);
const char *ast_feedback_name(enum ast_feedback f);
const char *ast_shuffle_name(enum ast_shuffle s);
const char *ast_cmp_name(enum ast_cmp c);
/* The comparison as course.xml names it: lt, le, gt, ge, eq, within. */
const char *ast_cmp_word(enum ast_cmp c);
/* The words of `feedback` and `shuffle` in enum order, NULL-terminated. */
extern const char *const ast_feedback_words[];
extern const char *const ast_shuffle_words[];
/* The words of `scoring`, for SCORING_PARTIAL and on, NULL-terminated: ast_scoring_words[s - 1]. */
extern const char *const ast_scoring_words[];
const char *ast_ptype_name(enum ast_ptype t);

/*
 * The text of t in lang: the entry tagged lang, else the neutral string,
 * else the first entry.  Borrowed; NULL when t is NULL or empty.
 */
const struct ast_tr *ast_text_get(const struct ast_text *t, const char *lang);

/*
 * Parse the Markdown subset of raw into d (d is cleared first).  A text that
 * is one plain paragraph keeps raw itself as its span (borrowed), so raw must
 * outlive d.  raw may be NULL (an empty document).
 */
void md_parse(const char *raw, struct md_doc *d);

/*
 * Push x onto a VEC, growing it; aborts on out-of-memory.  Capacity starts at
 * one and doubles: most vectors of a tree hold one or two items (a text's
 * paragraphs, its languages), and a big bank has millions of them.
 */
#define VEC_PUSH(v, x)                                                        \
    do {                                                                      \
        if ((v).n == (v).cap) {                                               \
            (v).cap = (v).cap ? 2 * (v).cap : 1;                              \
            (v).items = xrealloc((v).items, (v).cap * sizeof *(v).items);     \
        }                                                                     \
        (v).items[(v).n++] = (x);                                             \
    } while (0)

#define VEC_FREE(v) do { free((v).items); (v).items = NULL; (v).n = (v).cap = 0; } while (0)

#include "util.h"

#endif
