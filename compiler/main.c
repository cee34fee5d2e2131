/*
 * main.c — the quizc command line: read a quiz, check it, and write the
 * course document (or, where packaging is built in, a SCORM package).
 *
 * Exit status: 0 success, 1 errors in the input (or the output could not be
 * written), 2 a usage error.  Nothing is written when there is any error.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "emit.h"
#include "formats.h"
#include "media.h"
#include "output.h"
#include "qz.h"
#include "runs.h"

#ifndef QZ_VERSION
#define QZ_VERSION "0.1.0"
#endif

struct options {
    const char *input;
    const char *output;         /* -o; NULL: the default */
    const char *dir;            /* --dir */
    bool check_only;            /* --check */
    const struct format *format; /* --format, else what -o's name (or --dir) says; formats.c */
    struct emit_opts emit;      /* --scorm, --lang, --no-live-labs */
    struct qz_labpath labpath;  /* -L DIRs first; the defaults are added after parsing */
    const char *runs;           /* --runs RUNS.json */
    bool werror;                /* -Werror: every warning is an error, and nothing is written */
};

static const char usage_line[] =
    "usage: quizc [-o FILE] [--format FORMAT] [--dir DIR] [--lang TAG] [-L DIR]... [--scorm 1.2|2004] [--no-live-labs] [--runs RUNS.json] [-Werror] [--check] FILE.qz";

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "quizc: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s (quizc --help for more)\n", usage_line);
}

static void help(void)
{
    printf("%s\n\n"
           "Compile a .qz quiz into a course document, a SCORM package, or the quiz\n"
           "formats of other systems' quiz engines.\n\n"
           "  -o FILE          write FILE: .xml the course document, .zip a SCORM package,\n"
           "                   .gift GIFT (default: the quiz's name with .xml, beside the quiz)\n"
           "  --format FORMAT  what to write, whatever -o's name:\n"
           "                     course  the course document (compiler/course.xsd)\n"
           "                     scorm   a SCORM package with the player\n"
           "                     gift    GIFT, for Moodle's question bank\n"
           "                     moodle  Moodle XML, for Moodle's question bank\n"
           "                     qti21   a QTI 2.1 package (Canvas, Blackboard, TAO, ...)\n"
           "  --dir DIR        write a package's files (scorm, qti21) into the folder DIR\n"
           "  --lang TAG       gift, moodle: write this language only (default: every\n"
           "                   language, as Moodle multi-language text); qti21: the\n"
           "                   package's language (default: the quiz's first)\n"
           "  --scorm VERSION  SCORM version of a package: 1.2 (default) or 2004\n"
           "  -L DIR           look for labs in DIR first (repeatable); then labs/ beside\n"
           "                   the quiz, then labs/ in the working folder\n"
           "  --no-live-labs   no Run button: leave the labs' WebAssembly module out of a package\n"
           "  --runs RUNS.json recorded lab runs (labrun --verify QUIZ --record RUNS.json):\n"
           "                   the course document and SCORM packages carry what they measured\n"
           "  -Werror          make every warning an error: exit 1 and write nothing\n"
           "                   (for a release build: no unchecked recorded run is packed)\n"
           "  --check          report problems only; write nothing\n"
           "  --help           show this help\n"
           "  --version        show the version\n\n"
           "Exit status: 0 success, 1 errors in the quiz or its output, 2 usage errors.\n",
           usage_line);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool is_package(const struct format *f) { return f->package; }
static bool takes_lang(const struct format *f) { return f->one_lang; }

static const struct format *first_of(bool (*keep)(const struct format *))
{
    for (const struct format *f = formats; f->name; f++)
        if (keep(f))
            return f;
    return NULL;
}

static bool has_suffix(const struct format *f)
{
    return f->suffix != NULL;
}

/* ".xml (course document)": an -o ending and what it makes. */
static char *ending(const struct format *f)
{
    return f->suffix_is ? xasprintf("%s (%s)", f->suffix, f->suffix_is) : xstrdup(f->suffix);
}

/* Returns -1 to go on, or the exit status (help, version, usage errors). */
static int parse_args(int argc, char **argv, struct options *o)
{
    enum { OPT_CHECK = 256, OPT_DIR, OPT_SCORM, OPT_FORMAT, OPT_LANG, OPT_HELP, OPT_VERSION, OPT_RUNS, OPT_NO_LIVE_LABS };
    static const struct option longs[] = {
        { "output",  required_argument, NULL, 'o' },
        { "check",   no_argument,       NULL, OPT_CHECK },
        { "dir",     required_argument, NULL, OPT_DIR },
        { "scorm",   required_argument, NULL, OPT_SCORM },
        { "format",  required_argument, NULL, OPT_FORMAT },
        { "lang",    required_argument, NULL, OPT_LANG },
        { "help",    no_argument,       NULL, OPT_HELP },
        { "version", no_argument,       NULL, OPT_VERSION },
        { "runs",    required_argument, NULL, OPT_RUNS },
        { "no-live-labs", no_argument,  NULL, OPT_NO_LIVE_LABS },
        { NULL, 0, NULL, 0 },
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:L:W:", longs, NULL)) != -1) {
        switch (c) {
        case 'o':
            o->output = optarg;
            break;
        case 'L':
            qz_labpath_add(&o->labpath, optarg);
            break;
        case 'W':
            /* -Werror, as C compilers spell it; quizc has no warning groups to name. */
            if (strcmp(optarg, "error") != 0) {
                usage_error("unknown warning option '-W%s' (quizc knows -Werror)", optarg);
                return 2;
            }
            o->werror = true;
            break;
        case OPT_CHECK:
            o->check_only = true;
            break;
        case OPT_DIR:
            o->dir = optarg;
            break;
        case OPT_SCORM:
            if (strcmp(optarg, "1.2") == 0) {
                o->emit.scorm = SCORM_12;
            } else if (strcmp(optarg, "2004") == 0) {
                o->emit.scorm = SCORM_2004;
            } else {
                usage_error("--scorm takes 1.2 or 2004, not '%s'", optarg);
                return 2;
            }
            break;
        case OPT_FORMAT:
            o->format = format_named(optarg);
            if (!o->format) {
                char *names = format_list(NULL, " or ");
                char *msg = xasprintf("--format takes %s, not '%%s'", names);
                usage_error(msg, optarg);
                free(msg);
                free(names);
                return 2;
            }
            break;
        case OPT_LANG:
            o->emit.lang = optarg;
            break;
        case OPT_RUNS:
            o->runs = optarg;
            break;
        case OPT_NO_LIVE_LABS:
            o->emit.live_labs = false;
            break;
        case OPT_HELP:
            help();
            return 0;
        case OPT_VERSION:
            printf("quizc %s\n", QZ_VERSION);
            return 0;
        case ':':
            usage_error("%s needs an argument", argv[optind - 1]);
            return 2;
        default:
            if (optopt)
                usage_error("unknown option '-%c'", (char[]){ (char)optopt, '\0' });
            else
                usage_error("unknown option '%s'", argv[optind - 1]);
            return 2;
        }
    }
    if (optind >= argc) {
        usage_error("%s", "no input file");
        return 2;
    }
    if (argc - optind > 1) {
        usage_error("one input file at a time; '%s' is one too many", argv[optind + 1]);
        return 2;
    }
    o->input = argv[optind];
    if (o->output && o->dir) {
        usage_error("%s", "-o and --dir cannot be used together");
        return 2;
    }
    if (!o->format) {
        /* The first format is the default; the first package, what --dir writes. */
        if (o->dir)
            o->format = first_of(is_package);
        else if (o->output)
            o->format = format_for_output(o->output);
        else
            o->format = &formats[0];
        if (!o->format) {
            char *endings = format_join(has_suffix, ending, " or ");
            char *msg = xasprintf("-o '%%s': the name must end in %s, or --format must say what to write", endings);
            usage_error(msg, o->output);
            free(msg);
            free(endings);
            return 2;
        }
    }
    if (o->dir && !o->format->package) {
        char *names = format_list(is_package, " or ");
        char *msg = xasprintf("--dir writes a package (--format %s)", names);
        usage_error("%s", msg);
        free(msg);
        free(names);
        return 2;
    }
    if (o->emit.lang && !o->format->one_lang) {
        char *names = format_list(takes_lang, " and ");
        char *msg = xasprintf("--lang applies to --format %s (the other formats hold every language)", names);
        usage_error("%s", msg);
        free(msg);
        free(names);
        return 2;
    }
    return -1;
}

/* FILE.qz -> FILE.xml, FILE.gift, ... (any other name gets the extension appended). */
static char *default_output(const char *input, const struct format *f)
{
    const char *ext = f->ext;
    if (ends_with(input, ".qz"))
        return xasprintf("%.*s%s", (int)(strlen(input) - 3), input, ext);
    return xasprintf("%s%s", input, ext);
}

/*
 * The document goes to the output's temporary as it is made, gathered into
 * large writes: holding a big bank's document in memory first cost as much
 * in page faults and copying as making it.  The writer's own buffer is as
 * large (xw.c), so its full buffers go straight out.
 */
#define XML_CHUNK (1u << 20)

struct xml_sink {
    struct diag *d;
    struct out_file *t;
    char *buf;                  /* XML_CHUNK bytes, len of them in use */
    size_t len;
};

static int sink_flush(struct xml_sink *s, const void *p, size_t len)
{
    if (out_write(s->t, p, len) == 0)
        return 0;
    diag_error(s->d, NULL, "cannot write '%s': write failed: %s", s->t->path, strerror(s->t->err));
    return -1;
}

/*
 * After a failed write the rest of the document is let go unwritten rather
 * than refused: a refusal would have the reference writer (xw_libxml.c,
 * libxml2) print its own, vaguer, error.
 */
static int sink_write(void *ctx, const char *p, int n)
{
    struct xml_sink *s = ctx;
    size_t len = (size_t)n;
    if (s->t->err)
        return n;
    if (s->len + len > XML_CHUNK) {
        if (sink_flush(s, s->buf, s->len) != 0)
            return n;
        s->len = 0;
    }
    if (len >= XML_CHUNK) {
        sink_flush(s, p, len);
        return n;
    }
    memcpy(s->buf + s->len, p, len);
    s->len += len;
    return n;
}

static int write_stream(struct diag *d, const struct qz_course *c, const struct format *f, const char *path)
{
    struct out_file t;
    if (out_begin(d, path, &t) != 0)
        return -1;
    struct xml_sink s = { .d = d, .t = &t, .buf = xmalloc(XML_CHUNK) };
    int rc = f->stream(c, sink_write, &s, d);
    if (rc == 0 && diag_errors(d))
        rc = -1;    /* -Werror and a warning while writing: the document is not kept */
    if (rc == 0)
        rc = t.err ? -1 : sink_flush(&s, s.buf, s.len);
    free(s.buf);
    if (rc != 0) {
        out_abort(&t);          /* nothing of a failed document is left behind */
        return -1;
    }
    return out_commit(d, &t);
}

/* A package: its files zipped into path, or into the folder --dir names. */
static int write_package(struct diag *d, const struct qz_course *c, const struct options *o,
                         const char *path)
{
    if (!o->format->files) {
        diag_error(d, NULL, "cannot write '%s': this quizc was built without packaging",
                   o->dir ? o->dir : path);
        return -1;
    }
    struct emit_files files = { 0 };
    int rc = o->format->files(c, &o->emit, &files, d);
    if (rc == 0 && diag_errors(d))
        rc = -1;    /* -Werror and a warning while packing: nothing is written */
    if (rc == 0 && o->dir) {
        rc = output_dir(d, o->dir, &files);
    } else if (rc == 0) {
        struct membuf zip = { 0 };
        rc = emit_zip(&files, &zip, d);
        if (rc == 0)
            rc = output_file(d, path, zip.data, zip.len);
        membuf_free(&zip);
    }
    emit_files_free(&files);
    return rc;
}

/* A text (a question bank for Moodle: GIFT, Moodle XML), made whole in memory, then written. */
static int write_text(struct diag *d, const struct qz_course *c, const struct options *o,
                      const char *path)
{
    struct membuf out = { 0 };
    int rc = o->format->text(c, &o->emit, &out, d);
    if (rc == 0 && diag_errors(d))
        rc = -1;    /* -Werror and a warning while writing the bank: nothing is written */
    if (rc == 0)
        rc = output_file(d, path, out.data, out.len);
    membuf_free(&out);
    return rc;
}

/* --lang names one of the quiz's languages (any tag, for a quiz that declares none). */
static bool lang_known(const struct ast_quiz *q, const char *lang)
{
    if (!lang || !q || q->langs.n == 0)
        return true;
    for (size_t i = 0; i < q->langs.n; i++)
        if (strcmp(q->langs.items[i].tag, lang) == 0)
            return true;
    return false;
}

/* The course of this run, kept until exit (see the end of main); volatile, so the store is not optimized away. */
static struct qz_course *volatile kept_course;

/* --runs: the recorded runs read and attached to the course's lab references (NULL after an error). */
static struct qz_runs *attach_runs(struct diag *d, struct qz_course *c, const char *path)
{
    struct qz_runs *rs = runs_load(d, path);
    if (rs)
        runs_attach(d, rs, c);
    return rs;
}

int main(int argc, char **argv)
{
    struct options o = { .emit = { .scorm = SCORM_12, .live_labs = true } };
    int status = parse_args(argc, argv, &o);
    if (status >= 0) {
        qz_labpath_clear(&o.labpath);
        return status;
    }
    qz_labpath_defaults(&o.labpath, o.input);
    /* A stopped run removes its temporaries; a write past `ulimit -f` is an error. */
    out_signals_install();

    /*
     * Two passes: reading the quiz (syntax, includes), then the semantic
     * pass over it, a question at a time (its checks and its labs).  The
     * errors met while reading tell the second which questions were not
     * read whole.  Their messages are held and come out in source order.
     */
    struct diag *d = diag_new(stderr);
    d->werror = o.werror;
    diag_hold(d);   /* the two passes' messages are printed together, in source order */
    struct qz_course *c = qz_load(d, o.input);
    if (c) {
        check_course(d, c, &o.labpath);
        media_check(d, c);      /* figures read and checked, formulas made MathML (media.h) */
    }
    struct qz_runs *runs = c && o.runs && diag_errors(d) == 0 ? attach_runs(d, c, o.runs) : NULL;

    if (c && diag_errors(d) == 0 && !lang_known(c->quiz, o.emit.lang)) {
        diag_error(d, &c->quiz->langs_loc, "--lang %s: the quiz's languages are those declared here",
                   o.emit.lang);
    } else if (c && diag_errors(d) == 0 && !o.check_only) {
        char *path = o.output ? xstrdup(o.output) : default_output(o.input, o.format);
        if (o.format->stream)
            write_stream(d, c, o.format, path);
        else if (o.format->text)
            write_text(d, c, &o, path);
        else
            write_package(d, c, &o, path);
        free(path);
    }

    diag_summary(d);
    status = diag_errors(d) ? 1 : 0;
    /*
     * The process ends here.  The tree is not handed back to malloc node by
     * node (a sixth of a --check on a 100 000-question bank); the kernel
     * takes the heap back at once.  It stays reachable from kept_course, so
     * leak checkers do not count it as lost.
     */
    kept_course = c;
    runs_free(runs);
    diag_free(d);
    qz_labpath_clear(&o.labpath);
    return status;
}
