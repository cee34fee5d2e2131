/*
 * media.c — the media pass: every text of a course parsed once more for its
 * images and formulas.  An image is read (an input of the run, outfile.h),
 * checked (image_check.c) and hashed; the alt texts are checked against the
 * quiz's languages; the formulas go to the TeX converter (texmml.c) in one
 * batch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "image_check.h"
#include "texmml.h"
#include "media.h"
#include "outfile.h"

struct pass {
    struct diag *d;
    struct qz_course *c;
    char *dir;                          /* the quiz file's folder */
    VEC(struct src_loc) formula_locs;   /* where each formula of c->media was first written */
    VEC(char *) names;                  /* package names given so far (borrowed from the images) */
};

struct src_loc media_locate(const struct src_loc *lit, const char *needle, size_t at, size_t n)
{
    const struct source *src = loc_src(lit);
    if (!src)
        return *lit;
    size_t from = src_off(src, lit->from), to = src_off(src, lit->to);
    size_t len = strlen(needle);
    if (to > src->len)
        to = src->len;
    if (to < from)
        return *lit;
    /* The literal as written (a string with quote escapes is decoded in place, loc.h). */
    char *tmp;
    const char *t = src_view(src, from, to, &tmp);
    struct src_loc l = *lit;
    for (size_t i = 0; i + len <= to - from; i++)
        if (memcmp(t + i, needle, len) == 0) {
            l = loc_bytes(src, from + i + at, n ? n : 1);
            break;
        }
    free(tmp);
    return l;
}

const struct qz_image *media_image(const struct qz_course *c, const char *path)
{
    for (size_t i = 0; i < c->media.images.n; i++)
        if (strcmp(c->media.images.items[i].path, path) == 0)
            return &c->media.images.items[i];
    return NULL;
}

const struct qz_formula *media_formula(const struct qz_course *c, const char *tex, bool display)
{
    for (size_t i = 0; i < c->media.formulas.n; i++) {
        const struct qz_formula *f = &c->media.formulas.items[i];
        if (f->display == display && strcmp(f->tex, tex) == 0)
            return f;
    }
    return NULL;
}

/* A name for path in packages, "media/" and its file name, made unique with a number before it. */
static char *package_name(struct pass *p, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *name = xasprintf("media/%s", base);
    for (int k = 2;; k++) {
        bool taken = false;
        for (size_t i = 0; i < p->names.n && !taken; i++)
            taken = strcmp(p->names.items[i], name) == 0;
        if (!taken)
            break;
        free(name);
        name = xasprintf("media/%d-%s", k, base);
    }
    VEC_PUSH(p->names, name);
    return name;
}

/* The image at path, read and checked once; errors at `at`. */
static void add_image(struct pass *p, const char *path, const struct src_loc *at)
{
    if (media_image(p->c, path))
        return;
    /* Seen once, checked once: a failed image is kept, empty, so one mistake is one error. */
    struct qz_image im = { .path = xstrdup(path) };
    VEC_PUSH(p->c->media.images, im);
    struct qz_image *slot = &p->c->media.images.items[p->c->media.images.n - 1];
    const char *bad = image_path_problem(path);
    if (bad) {
        diag_error(p->d, at, "image '%s': %s", path, bad);
        return;
    }
    const char *mime = image_mime_for_name(path);
    if (!mime) {
        diag_error(p->d, at, "image '%s': a figure is a PNG, JPEG or SVG file (.png, .jpg, .jpeg or .svg)", path);
        return;
    }
    char *full = path_join(p->dir, path);
    struct stat st;
    bool found = stat(full, &st) == 0;
    if (!found || !S_ISREG(st.st_mode)) {
        diag_error(p->d, at, "cannot read image '%s': %s", path, found ? "not a file" : strerror(errno));
        free(full);
        return;
    }
    if ((size_t)st.st_size > MEDIA_MAX_IMAGE) {
        diag_error(p->d, at, "image '%s' is %.1f MiB; an image is at most " MEDIA_MAX_IMAGE_TEXT, path,
                   (double)st.st_size / (1 << 20));
        free(full);
        return;
    }
    size_t len;
    char *bytes = out_read_input(full, &len);
    free(full);
    if (!bytes) {
        diag_error(p->d, at, "cannot read image '%s': %s", path, strerror(errno));
        return;
    }
    char why[200];
    if (!image_check_bytes(mime, (const unsigned char *)bytes, len, why, sizeof why)) {
        diag_error(p->d, at, "image '%s' %s", path, why);
        free(bytes);
        return;
    }
    slot->bytes = (unsigned char *)bytes;
    slot->len = len;
    slot->mime = mime;
    image_sha256(slot->bytes, len, slot->sha256);
    slot->name = package_name(p, path);
}

static void add_formula(struct pass *p, const char *tex, bool display, const struct src_loc *at)
{
    if (media_formula(p->c, tex, display))
        return;
    struct qz_formula f = { .tex = xstrdup(tex), .display = display };
    VEC_PUSH(p->c->media.formulas, f);
    VEC_PUSH(p->formula_locs, *at);
}

/* The delimiters left as text: a \( or \[ with no partner on its line, or a partner with no opener. */
static void stray_delimiters(struct pass *p, const struct ast_tr *tr, const char *s)
{
    for (const char *b = strchr(s, '\\'); b; b = strchr(b + 1, '\\')) {
        if (!strchr("()[]", b[1]) || !b[1])
            continue;
        char mark[3] = { '\\', b[1], 0 };
        struct src_loc at = media_locate(&tr->loc, mark, 0, 2);
        bool open = b[1] == '(' || b[1] == '[';
        char other = b[1] == '(' ? ')' : b[1] == '[' ? ']' : b[1] == ')' ? '(' : '[';
        diag_error(p->d, &at, open ? "'\\%c' without '\\%c' on its line: a formula ends on the line it starts"
                                   : "'\\%c' without an opening '\\%c' before it on its line",
                   b[1], other);
        b++;
    }
}

/*
 * One translation: its images and formulas; whether it shows an image.  An
 * image starts with '!', a formula and a stray delimiter with '\\': a text
 * with neither, as most are, is not parsed at all.
 */
static bool scan_tr(struct pass *p, const struct ast_tr *tr, struct md_doc *doc)
{
    if (!tr->raw || !tr->raw[strcspn(tr->raw, "!\\")])
        return false;
    bool images = false;
    md_parse(tr->raw, doc);
    for (size_t i = 0; i < doc->blocks.n; i++) {
        const struct md_block *blk = &doc->blocks.items[i];
        for (size_t k = 0; blk->kind == MD_PARAGRAPH && k < blk->spans.n; k++) {
            const struct md_span *s = &blk->spans.items[k];
            if (s->kind == MD_PLAIN) {
                stray_delimiters(p, tr, s->text);
            } else if (s->kind == MD_IMAGE) {
                char *needle = xasprintf("](%s)", s->text);
                struct src_loc at = media_locate(&tr->loc, needle, 2, strlen(s->text));
                free(needle);
                add_image(p, s->text, &at);
                images = true;
                if (!s->alt[strspn(s->alt, " \t")]) {
                    struct src_loc a = media_locate(&tr->loc, "![", 0, 2);
                    diag_error(p->d, &a, "image '%s' has an empty alt text%s%s%s: say what the figure shows, for a reader who cannot see it",
                               s->text, tr->lang ? " in '" : "", tr->lang ? tr->lang : "", tr->lang ? "'" : "");
                }
            } else if (s->kind == MD_MATH || s->kind == MD_DMATH) {
                bool display = s->kind == MD_DMATH;
                char *needle = xasprintf(display ? "\\[%s\\]" : "\\(%s\\)", s->text);
                struct src_loc at = media_locate(&tr->loc, needle, 0, strlen(needle));
                free(needle);
                if (!s->text[strspn(s->text, " \t")])
                    diag_error(p->d, &at, "empty formula");
                else
                    add_formula(p, s->text, display, &at);
            }
        }
    }
    return images;
}

/* Whether the translation tr shows the image at path. */
static bool shows(const struct ast_tr *tr, const char *path, struct md_doc *doc)
{
    md_parse(tr->raw, doc);
    for (size_t i = 0; i < doc->blocks.n; i++)
        for (size_t k = 0; k < doc->blocks.items[i].spans.n; k++) {
            const struct md_span *s = &doc->blocks.items[i].spans.items[k];
            if (s->kind == MD_IMAGE && strcmp(s->text, path) == 0)
                return true;
        }
    return false;
}

/*
 * Each of the quiz's languages has an alt text for each image of t: a
 * translated text shows it in every translation, and a one-string text in
 * a quiz of several languages shows none.
 */
static void alt_languages(struct pass *p, const struct ast_text *t, struct md_doc *doc, struct md_doc *other)
{
    const struct ast_quiz *quiz = p->c->quiz;
    size_t nlangs = quiz ? quiz->langs.n : 0;
    for (uint32_t i = 0; i < t->n; i++) {
        md_parse(t->trs[i].raw, doc);
        for (size_t b = 0; b < doc->blocks.n; b++)
            for (size_t k = 0; k < doc->blocks.items[b].spans.n; k++) {
                const struct md_span *s = &doc->blocks.items[b].spans.items[k];
                if (s->kind != MD_IMAGE)
                    continue;
                char *needle = xasprintf("](%s)", s->text);
                struct src_loc at = media_locate(&t->trs[i].loc, needle, 2, strlen(s->text));
                free(needle);
                if (t->neutral && nlangs > 1) {
                    diag_error(p->d, &at, "image '%s' in a text of one string: its alt text is in one language, "
                               "and the quiz has %zu; write the text in each of them", s->text, nlangs);
                    continue;
                }
                for (uint32_t j = 0; j < t->n; j++)
                    if (j != i && !shows(&t->trs[j], s->text, other))
                        diag_error(p->d, &t->trs[j].loc, "image '%s' has no alt text in '%s': "
                                   "the '%s' text shows it, this one does not", s->text,
                                   t->trs[j].lang ? t->trs[j].lang : "?", t->trs[i].lang ? t->trs[i].lang : "?");
            }
    }
}

static void scan_text(struct pass *p, const struct ast_text *t)
{
    if (!t)
        return;
    struct md_doc doc = { 0 }, other = { 0 };
    bool images = false;
    for (uint32_t i = 0; i < t->n; i++)
        images |= scan_tr(p, &t->trs[i], &doc);
    if (images)
        alt_languages(p, t, &doc, &other);
    md_doc_clear(&doc);
    md_doc_clear(&other);
}

bool media_check(struct diag *d, struct qz_course *c)
{
    int before = diag_errors(d);
    struct pass p = { .d = d, .c = c };
    const struct source *root = c->quiz ? loc_src(&c->quiz->loc) : NULL;
    const char *path = root ? root->path : ".";
    const char *slash = strrchr(path, '/');
    p.dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
    if (c->quiz) {
        scan_text(&p, c->quiz->title);
        scan_text(&p, c->quiz->intro);
    }
    for (size_t qi = 0; qi < c->questions.n; qi++) {
        const struct ast_question *q = c->questions.items[qi];
        scan_text(&p, q->prompt);
        for (size_t i = 0; i < q->choices.n; i++) {
            scan_text(&p, q->choices.items[i].text);
            scan_text(&p, q->choices.items[i].because);
        }
        if (q->kind == Q_NUMERIC && q->numeric)
            scan_text(&p, q->numeric->unit);
        scan_text(&p, q->explain);
    }
    if (c->media.formulas.n)
        texmml_convert(d, c->media.formulas.items, c->media.formulas.n, p.formula_locs.items);
    c->media.done = true;
    VEC_FREE(p.formula_locs);
    VEC_FREE(p.names);
    free(p.dir);
    return diag_errors(d) == before;
}
