/*
 * diag.c — every diagnostic goes through here: location, level, message, the
 * source line with a caret under the span, and a count.
 */
#include "inputs.h"
#include "diag.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

const char *diag_progname = "quizc";

struct diag *diag_new(FILE *out)
{
    struct diag *d = xcalloc(1, sizeof *d);
    d->out = out;
    d->color = out && isatty(fileno(out)) && !getenv("NO_COLOR");
    return d;
}

void diag_free(struct diag *d)
{
    if (!d) return;
    diag_flush(d);
    /* Last first: src_leave finds the latest source at once, so n sources cost n, not n^2. */
    for (size_t i = d->nsources; i-- > 0;) {
        src_leave(d->sources[i]);
        free(d->sources[i]->path);
        free(d->sources[i]->text);
        src_lines_free(d->sources[i]);
        free(d->sources[i]->edits);
        free(d->sources[i]);
    }
    free(d->sources);
    free(d->error_locs);
    free(d);
}

const struct src_loc *diag_error_locs(const struct diag *d, size_t *n)
{
    *n = d->nerror_locs;
    return d->error_locs;
}

const struct source *diag_add_source(struct diag *d, const char *path, char *text, size_t len)
{
    struct source *s = xmalloc(sizeof *s);
    s->path = xstrdup(path);
    s->text = text;
    s->len = len;
    s->nul_free = 0;
    s->xml = SRC_XML_UNSCANNED;
    s->lines = NULL;
    s->nlines = 0;
    s->edits = NULL;
    s->nedits = s->capedits = 0;
    s->errors = 0;
    s->stopped = false;
    if (!src_enter(s)) {
        diag_error(d, NULL, "cannot read '%s': the sources of this run would pass 4 GiB together", path);
        free(s->path);
        free(s);
        free(text);
        return NULL;
    }
    d->sources = xrealloc(d->sources, (d->nsources + 1) * sizeof *d->sources);
    d->sources[d->nsources++] = s;
    return s;
}

const struct source *diag_read_source(struct diag *d, const char *path, const struct src_loc *at)
{
    size_t len;
    char *text = out_read_input(path, &len);
    if (!text) {
        int err = errno;
        diag_error(d, at, "cannot read '%s': %s", path,
                   err == EINVAL ? "not a regular file" : strerror(err));
        return NULL;
    }
    return diag_add_source(d, path, text, len);
}

static const char *level_name[] = {
    [DIAG_ERROR] = "error", [DIAG_WARNING] = "warning", [DIAG_NOTE] = "note",
};
static const char *level_color[] = {
    [DIAG_ERROR] = "\033[1;31m", [DIAG_WARNING] = "\033[1;35m", [DIAG_NOTE] = "\033[1;36m",
};

/* A source line longer than this many characters is shown as a window around the span. */
#define SHOW_MAX 160
#define SHOW_LEAD 60        /* characters kept before the span in such a window */
/* Bytes past the error that can be shown: SHOW_MAX characters of up to 4 bytes, and some. */
#define SHOW_BYTES (4 * SHOW_MAX + 8)

/*
 * Bytes of the line holding offset off: [*start, *end), without its line
 * break; the end no further than SHOW_BYTES past off, which is all a window
 * can show (so an error on a 10 MB line does not read to its end).
 */
static void line_bounds(const struct source *s, size_t off, size_t *start, size_t *end)
{
    if (off > s->len) off = s->len;
    size_t a = off;
    while (a > 0 && s->text[a - 1] != '\n' && s->text[a - 1] != '\r') a--;
    size_t b = off, stop = s->len - off > SHOW_BYTES ? off + SHOW_BYTES : s->len;
    while (b < stop && s->text[b] != '\n' && s->text[b] != '\r') b++;
    *start = a;
    *end = b;
}

/*
 * Print the source line (tabs expanded, bytes that are not valid UTF-8 or are
 * control characters shown as '?', a NUL in its first quotes_below bytes as
 * the closing quote it stands for) and return, through *caret_at and
 * *caret_len, the display columns of characters col..end_col.  Of a very long
 * line (a pasted blob) only SHOW_MAX characters around col are printed, with
 * "..." where it was cut.
 */
static void show_line(FILE *out, const char *p, size_t n, int col, int end_col, size_t quotes_below,
                      int *caret_at, int *caret_len)
{
    int ch = 1, disp = 0, first = -1, last = -1;
    int lo = 1, hi = INT_MAX;
    /* Past 4 bytes a character, the line is surely wide: the rest of it is not counted. */
    if (n > 4 * (SHOW_MAX + 1) || utf8_width(p, n) > SHOW_MAX) {
        lo = col > SHOW_LEAD ? col - SHOW_LEAD : 1;
        hi = lo + SHOW_MAX - 1;
    }
    fputs("    ", out);
    if (lo > 1) {
        fputs("...", out);
        disp = 3;
    }
    size_t i = 0;
    while (i < n && ch <= hi) {
        /* Only this character is checked: the rest of a long line is not rescanned each time. */
        size_t bad = utf8_check(p + i, n - i < 4 ? n - i : 4);
        size_t clen = 1;
        unsigned char c = (unsigned char)p[i];
        if (bad != 0 && c >= 0x80)
            while (i + clen < n && ((unsigned char)p[i + clen] & 0xC0) == 0x80) clen++;
        if (ch >= lo) {
            if (ch == col) first = disp;
            if (bad == 0) {
                fputc('?', out);
                disp++;
            } else if (c == '\0' && i < quotes_below) {
                fputc('"', out);    /* a string's closing quote, ended in place (loc.h) */
                disp++;
            } else if (c == '\t') {
                int to = (disp / 8 + 1) * 8;
                while (disp < to) { fputc(' ', out); disp++; }
            } else if (c < 0x20 || c == 0x7F) {
                fputc('?', out);
                disp++;
            } else {
                fwrite(p + i, 1, clen, out);
                disp++;
            }
            if (ch == end_col) last = disp;
        }
        i += clen;
        ch++;
    }
    if (i < n) {
        if (last < 0 && end_col > hi) last = disp;   /* the span runs past the window */
        fputs("...", out);
    }
    fputc('\n', out);
    if (first < 0) first = disp;            /* the span starts at the line's end */
    if (last <= first) last = first + 1;
    *caret_at = first;
    *caret_len = last - first;
}

static FILE *hold_next(struct diag *d, enum diag_level level, const struct src_loc *loc);

/* Report at loc; with no location the line starts with `who` (the program, or a file). */
static void report(struct diag *d, enum diag_level level, const struct src_loc *loc, const char *who,
                   const char *fmt, va_list ap)
{
    const struct source *src = loc_src(loc);
    if (!src) loc = NULL;
    if (src && src->stopped) return;    /* past the cap: O(1), nothing shown or kept */
    if (src && level == DIAG_ERROR) {
        if (diag_source_full(src)) {
            diag_stop(d, loc);
            return;
        }
        ((struct source *)src)->errors++;
    }
    /*
     * -Werror: a warning is shown and counted as an error, so the exit status
     * and every "no errors so far" gate treat it as one; it is still not an
     * error in the source (no place in error_locs, nothing towards the cap).
     */
    enum diag_level shown = level == DIAG_WARNING && d->werror ? DIAG_ERROR : level;
    if (shown == DIAG_ERROR) d->errors++;
    if (shown == DIAG_WARNING) d->warnings++;
    if (level == DIAG_ERROR && loc) {
        if (d->nerror_locs == d->caperror_locs) {
            d->caperror_locs = d->caperror_locs ? 2 * d->caperror_locs : 16;
            d->error_locs = xrealloc(d->error_locs, d->caperror_locs * sizeof *d->error_locs);
        }
        d->error_locs[d->nerror_locs++] = *loc;
    }

    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *msg = xmalloc((size_t)n + 1);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    if (shown != level) {
        char *tagged = xasprintf("%s [-Werror]", msg);
        free(msg);
        msg = tagged;
    }
    level = shown;

    if (d->hook) d->hook(d->hook_ctx, level, loc, msg);
    FILE *out = d->out;
    if (out && d->hold) {
        if (loc) out = hold_next(d, level, loc);
        else diag_flush(d);
    }
    if (out) {
        const char *bold = d->color ? "\033[1m" : "", *reset = d->color ? "\033[0m" : "";
        const char *lc = d->color ? level_color[level] : "";
        struct src_pos at = loc_start(loc), last = loc_end(loc);
        if (loc)
            fprintf(out, "%s%s:%d:%d: %s%s%s: %s%s\n", bold, src->path, at.line, at.col,
                    lc, level_name[level], reset, bold, msg);
        else
            fprintf(out, "%s%s: %s%s%s: %s%s\n", bold, who, lc, level_name[level],
                    reset, bold, msg);
        fputs(reset, out);
        if (loc) {
            size_t a, b;
            line_bounds(src, src_off(src, loc->from), &a, &b);
            int end_col = last.line == at.line ? last.col : at.col;
            int caret, len;
            size_t quotes_below = src->nul_free > a ? src->nul_free - a : 0;
            /* The line as written: literals decoded in place are shown escaped again (loc.h). */
            char *line = src->nedits ? xmalloc(b - a + 1) : NULL;
            if (line) src_restore(src, a, b, line);
            show_line(out, line ? line : src->text + a, b - a, at.col, end_col, quotes_below, &caret, &len);
            free(line);
            fprintf(out, "    %*s%s^", caret, "", d->color ? level_color[DIAG_NOTE] : "");
            for (int k = 1; k < len; k++) fputc('~', out);
            fprintf(out, "%s\n", reset);
        }
    }
    free(msg);
}

void diag_hold(struct diag *d)
{
    d->hold = true;
}

/* The stream the next held message is written to, with its place recorded (its length when flushed). */
static FILE *hold_next(struct diag *d, enum diag_level level, const struct src_loc *loc)
{
    if (!d->held) {
        d->held = open_memstream(&d->held_buf, &d->held_len);
        if (!d->held) return d->out;    /* no memory for the buffer: printed as reported */
    }
    if (d->nheld == d->capheld) {
        d->capheld = d->capheld ? 2 * d->capheld : 16;
        d->held_msgs = xrealloc(d->held_msgs, d->capheld * sizeof *d->held_msgs);
    }
    struct diag_held *h = &d->held_msgs[d->nheld];
    /* A note belongs to the message before it ("referenced here", "stopping here"): it sorts with it. */
    h->key = level == DIAG_NOTE && d->nheld ? d->held_msgs[d->nheld - 1].key : loc->from;
    h->seq = d->nheld;
    h->start = (size_t)ftell(d->held);
    if (d->nheld) {
        struct diag_held *prev = h - 1;
        prev->len = h->start - prev->start;
    }
    d->nheld++;
    return d->held;
}

static int by_place(const void *a, const void *b)
{
    const struct diag_held *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void diag_flush(struct diag *d)
{
    if (!d->held) return;
    fclose(d->held);    /* sets held_buf and held_len */
    d->held = NULL;
    if (d->nheld) d->held_msgs[d->nheld - 1].len = d->held_len - d->held_msgs[d->nheld - 1].start;
    qsort(d->held_msgs, d->nheld, sizeof *d->held_msgs, by_place);
    for (size_t i = 0; i < d->nheld; i++)
        fwrite(d->held_buf + d->held_msgs[i].start, 1, d->held_msgs[i].len, d->out);
    free(d->held_buf);
    d->held_buf = NULL;
    d->held_len = 0;
    free(d->held_msgs);
    d->held_msgs = NULL;
    d->nheld = d->capheld = 0;
}

void diag_stop(struct diag *d, const struct src_loc *at)
{
    const struct source *src = loc_src(at);
    if (!src || src->stopped) return;
    diag_note(d, at, "too many errors in this file (%d); stopping here", DIAG_MAX_ERRORS);
    ((struct source *)src)->stopped = true;
}

void diag_vreport(struct diag *d, enum diag_level level, const struct src_loc *loc,
                  const char *fmt, va_list ap)
{
    report(d, level, loc, diag_progname, fmt, ap);
}

void diag_report_in(struct diag *d, enum diag_level level, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, level, NULL, path, fmt, ap);
    va_end(ap);
}

void diag_report(struct diag *d, enum diag_level level, const struct src_loc *loc,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, level, loc, fmt, ap);
    va_end(ap);
}

void diag_summary(struct diag *d)
{
    diag_flush(d);
    if (!d->out || (!d->errors && !d->warnings)) return;
    if (d->errors && d->warnings)
        fprintf(d->out, "%d error%s and %d warning%s generated.\n", d->errors,
                d->errors == 1 ? "" : "s", d->warnings, d->warnings == 1 ? "" : "s");
    else if (d->errors)
        fprintf(d->out, "%d error%s generated.\n", d->errors, d->errors == 1 ? "" : "s");
    else
        fprintf(d->out, "%d warning%s generated.\n", d->warnings, d->warnings == 1 ? "" : "s");
}
