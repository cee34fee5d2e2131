/*
 * snippet.c — `snippet LAB:REGION`: the region between `// snippet: REGION`
 * and `// end snippet` cut out of a lab's sources, so the code a learner
 * reads with a question is the code that runs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "outfile.h"
#include "labref.h"
#include "util.h"

static bool snippet_ext(const char *name)
{
    static const char *const exts[] = { ".c", ".h", ".cu", ".cuh", ".py", ".sh", ".qz" };
    const char *dot = strrchr(name, '.');
    if (!dot)
        return false;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i]) == 0)
            return true;
    return false;
}

/*
 * Classify a line: a start marker `// snippet: NAME` (or `# snippet: NAME`)
 * returns 1 with the name in *name and *nlen, an end marker `// end snippet`
 * returns -1, anything else 0.
 */
static int marker(const char *line, size_t len, const char **name, size_t *nlen)
{
    const char *p = line, *end = line + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p >= 2 && p[0] == '/' && p[1] == '/')
        p += 2;
    else if (p < end && *p == '#')
        p++;
    else
        return 0;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    if ((size_t)(end - p) == strlen("end snippet") && memcmp(p, "end snippet", 11) == 0)
        return -1;
    if (end - p < 8 || memcmp(p, "snippet:", 8) != 0)
        return 0;
    p += 8;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    *name = p;
    *nlen = (size_t)(end - p);
    return 1;
}

static size_t indent_of(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i;
}

/* The region in text, dedented, or NULL.  Nested regions' markers are dropped. */
static char *cut_region(const char *text, size_t tlen, const char *region)
{
    struct { const char *p; size_t n; } *lines = NULL;
    size_t nlines = 0, cap = 0;
    int depth = 0;
    bool done = false;
    const char *p = text, *end = text + tlen;

    while (p < end && !done) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *name;
        size_t nlen;
        int m = marker(p, len, &name, &nlen);
        if (depth == 0) {
            if (m == 1 && nlen == strlen(region) && memcmp(name, region, nlen) == 0)
                depth = 1;
        } else if (m == 1) {
            depth++;
        } else if (m == -1) {
            if (--depth == 0)
                done = true;
        } else {
            if (len > 0 && p[len - 1] == '\r')
                len--;
            if (nlines == cap) {
                cap = cap ? 2 * cap : 16;
                lines = xrealloc(lines, cap * sizeof *lines);
            }
            lines[nlines].p = p;
            lines[nlines].n = len;
            nlines++;
        }
        p = nl ? nl + 1 : end;
    }
    if (!done) {
        free(lines);
        return NULL;
    }

    /* Common indentation of the non-blank lines, as a byte prefix they share. */
    size_t common = (size_t)-1;
    const char *ref = NULL;
    for (size_t i = 0; i < nlines; i++) {
        size_t ind = indent_of(lines[i].p, lines[i].n);
        if (ind == lines[i].n)
            continue;
        if (!ref) {
            ref = lines[i].p;
            common = ind;
            continue;
        }
        size_t k = 0;
        while (k < common && k < ind && lines[i].p[k] == ref[k])
            k++;
        common = k;
    }
    if (common == (size_t)-1)
        common = 0;

    size_t total = 1;
    for (size_t i = 0; i < nlines; i++)
        total += lines[i].n + 1;
    /* Lines joined by newlines, none after the last: as a fenced code block's code. */
    char *out = xmalloc(total), *o = out;
    for (size_t i = 0; i < nlines; i++) {
        size_t skip = lines[i].n < common ? lines[i].n : common;
        if (i)
            *o++ = '\n';
        memcpy(o, lines[i].p + skip, lines[i].n - skip);
        o += lines[i].n - skip;
    }
    *o = '\0';
    free(lines);
    return out;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* What one search carries down the lab's folders. */
struct search {
    const char *root;       /* the lab folder's real path (no symbolic link in it), or NULL */
    const char *region;     /* the region looked for; NULL: every region is listed in regions */
    char **file;            /* where the region's file goes, or NULL */
    char *outside;          /* the first link met that leads outside the lab (relative path), or NULL */
    struct qz_regions *regions;     /* region NULL: the list being made */
};

/*
 * What a region shows: the first sentence of the comment it starts with
 * (`// ...` lines, `# ...` lines or a block comment), without the
 * comment's marks, its lines joined: it ends at a full stop that ends a
 * line or is followed by two spaces.  "" when it starts with code.
 */
static char *region_about(const char *p, const char *end)
{
    char *out = xstrdup("");
    bool block = false, line_comment = false;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *a = p, *b = nl ? nl : end;
        p = nl ? nl + 1 : end;
        while (a < b && (*a == ' ' || *a == '\t')) a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r')) b--;
        bool closes = false;
        if (!block && b - a >= 2 && a[0] == '/' && a[1] == '*') { a += 2; block = true; }
        else if (!block && b - a >= 2 && a[0] == '/' && a[1] == '/') { a += 2; line_comment = true; }
        else if (!block && a < b && *a == '#') { a++; line_comment = true; }
        else if (block && a < b && *a == '*' && !(b - a >= 2 && a[1] == '/')) a++;
        else if (!block) break;     /* code: the comment (if any) has ended */
        if (block && b - a >= 2 && b[-2] == '*' && b[-1] == '/') { b -= 2; closes = true; }
        while (a < b && (*a == ' ' || *a == '\t')) a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t')) b--;
        if (a < b) {
            char *joined = xasprintf("%s%s%.*s", out, *out ? " " : "", (int)(b - a), a);
            free(out);
            out = joined;
            if (b[-1] == '.') break;    /* the first sentence is enough for a list */
        }
        if (closes || (line_comment && a == b)) break;
    }
    /* A sentence ends in a full stop and two spaces (as the labs' comments write): "et al. 2021" goes on. */
    char *stop = strstr(out, ".  ");
    if (stop) stop[1] = '\0';
    return out;
}

/* Add every region of text to the list (a name met again, in a later file, is listed once). */
static void list_regions(const char *text, size_t tlen, struct qz_regions *out)
{
    const char *p = text, *end = text + tlen;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *name;
        size_t nlen;
        const char *next = nl ? nl + 1 : end;
        if (marker(p, len, &name, &nlen) == 1 && nlen > 0) {
            bool seen = false;
            for (size_t i = 0; i < out->n && !seen; i++)
                seen = strlen(out->items[i].name) == nlen && memcmp(out->items[i].name, name, nlen) == 0;
            if (!seen) {
                struct qz_region r = { xstrndup(name, nlen), region_about(next, end) };
                VEC_PUSH(*out, r);
            }
        }
        p = next;
    }
}

/* Whether real (a real path) lies in the folder root or is root. */
static bool inside(const char *root, const char *real)
{
    size_t n = strlen(root);
    return strncmp(real, root, n) == 0 && (real[n] == '\0' || real[n] == '/' || (n == 1 && root[0] == '/'));
}

/*
 * Search dir (rel: its path relative to the lab) in name order, sub-folders
 * included.  A symbolic link is followed only when it leads to a place in
 * the lab's folder: one that leads out stops the search (a snippet shows
 * the lab's own code, never a file that happens to be linked in).
 */
static char *snippet_in(struct search *S, const char *dir, const char *rel, int depth)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    if (n < 0)
        return NULL;
    char *found = NULL;
    for (int i = 0; i < n; i++) {
        const char *nm = ents[i]->d_name;
        if (found || S->outside || nm[0] == '.')
            continue;
        char *path = path_join(dir, nm);
        char *relp = rel ? path_join(rel, nm) : xstrdup(nm);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
            char *real = realpath(path, NULL);
            if (real && S->root && !inside(S->root, real)) {
                S->outside = relp;
                relp = NULL;
            }
            free(real);
        }
        if (!S->outside && stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode) && depth < 4) {
                found = snippet_in(S, path, relp, depth + 1);
            } else if (S_ISREG(st.st_mode) && snippet_ext(nm)) {
                size_t len;
                char *text = out_read_input(path, &len);
                if (text && !S->region) {
                    list_regions(text, len, S->regions);
                    free(text);
                } else if (text) {
                    found = cut_region(text, len, S->region);
                    free(text);
                    if (found && S->file) {
                        *S->file = relp;
                        relp = NULL;
                    }
                }
            }
        }
        free(path);
        free(relp);
    }
    for (int i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
    return found;
}

char *qz_snippet(const char *dir, const char *region, char **file, char **outside)
{
    if (file)
        *file = NULL;
    if (outside)
        *outside = NULL;
    char *root = realpath(dir, NULL);
    struct search S = { .root = root, .region = region, .file = file };
    char *found = snippet_in(&S, dir, NULL, 0);
    free(root);
    if (S.outside) {
        free(found);
        found = NULL;
        if (file) {
            free(*file);
            *file = NULL;
        }
        if (outside)
            *outside = S.outside;
        else
            free(S.outside);
    }
    return found;
}

struct qz_regions *qz_snippet_regions(const char *dir)
{
    struct qz_regions *r = xcalloc(1, sizeof *r);
    char *root = realpath(dir, NULL);
    struct search S = { .root = root, .regions = r };
    snippet_in(&S, dir, NULL, 0);
    free(root);
    free(S.outside);    /* what lies past the link is not the lab's: the list stops there */
    return r;
}

void qz_regions_free(struct qz_regions *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->items[i].name);
        free(r->items[i].about);
    }
    VEC_FREE(*r);
    free(r);
}

const char *qz_region_near(const struct qz_regions *r, const char *name)
{
    const char **cands = xmalloc((r->n + 1) * sizeof *cands);
    for (size_t i = 0; i < r->n; i++)
        cands[i] = r->items[i].name;
    cands[r->n] = NULL;
    const char *near = closest_word(name, cands);
    free(cands);
    return near;
}
