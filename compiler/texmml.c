/*
 * texmml.c — a course's formulas to MathML: Node.js reads Temml's script,
 * the driver (compiler/math/tex2mml.js) and one call holding every formula
 * on its standard input, and answers one line per formula.  Each TeX is
 * passed as hex, so no formula can change the script it travels in.  A
 * formula converted by an earlier run is taken from the cache
 * (mathcache.h); Node.js runs only for the others, if any.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "emit.h"
#include "mathcache.h"
#include "scorm.h"
#include "texmml.h"

extern const struct scorm_res math_res[];
extern const size_t math_res_count;
extern char **environ;

static const struct scorm_res *res(const char *name)
{
    for (size_t i = 0; i < math_res_count; i++)
        if (!strcmp(math_res[i].name, name))
            return &math_res[i];
    return NULL;
}

const struct scorm_res *texmml_temml(void)
{
    return res("temml.min.js");
}

static void put(struct membuf *b, const char *s)
{
    membuf_append(b, s, strlen(s));
}

/* The program Node.js reads: Temml, the driver, and the call with formulas f[todo[0..n)]. */
static void program(struct membuf *b, const struct qz_formula *f, const size_t *todo, size_t n)
{
    const struct scorm_res *t = res("temml.min.js"), *drv = res("tex2mml.js");
    membuf_append(b, t->data, t->len);
    put(b, "\n");
    membuf_append(b, drv->data, drv->len);
    put(b, "\nconvert([");
    for (size_t i = 0; i < n; i++) {
        put(b, i ? ",[\"" : "[\"");
        for (const unsigned char *s = (const unsigned char *)f[todo[i]].tex; *s; s++) {
            char hex[3];
            snprintf(hex, sizeof hex, "%02x", *s);
            put(b, hex);
        }
        put(b, f[todo[i]].display ? "\",true]" : "\",false]");
    }
    put(b, "]);\n");
}

/* Run node with stdin as its input; its standard output in out.  0, or an errno. */
static int run_node(const char *node, const struct membuf *in, struct membuf *out, int *status)
{
    int to[2], from[2];
    if (pipe(to) != 0)
        return errno;
    if (pipe(from) != 0) {
        int e = errno;
        close(to[0]);
        close(to[1]);
        return e;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from[1], 1);
    posix_spawn_file_actions_addclose(&fa, to[1]);
    posix_spawn_file_actions_addclose(&fa, from[0]);
    char *argv[] = { (char *)node, (char *)"-", NULL };
    pid_t pid;
    int e = posix_spawnp(&pid, node, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(to[0]);
    close(from[1]);
    if (e != 0) {
        close(to[1]);
        close(from[0]);
        return e;
    }
    /* Node reads its whole program before it runs it, so writing all, then reading, cannot block. */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    for (size_t off = 0; off < in->len;) {
        ssize_t w = write(to[1], in->data + off, in->len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(to[1]);
    signal(SIGPIPE, old);
    char buf[1 << 16];
    for (;;) {
        ssize_t r = read(from[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        membuf_append(out, buf, (size_t)r);
    }
    close(from[0]);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
    }
    return 0;
}

/* The place of Temml's complaint: the command at pos inside the formula at loc, when typed verbatim there. */
static struct src_loc at_command(const struct src_loc *loc, const char *tex, long pos, bool display)
{
    size_t n = strlen(tex);
    if (pos < 0 || (size_t)pos >= n || loc->to - loc->from != n + 4)
        return *loc;
    size_t len = 1;
    if (tex[pos] == '\\')
        while (pos + len < n && ((tex[pos + len] >= 'a' && tex[pos + len] <= 'z') ||
                                 (tex[pos + len] >= 'A' && tex[pos + len] <= 'Z')))
            len++;
    (void)display;
    struct src_loc l = { .from = loc->from + 2 + (uint32_t)pos, .to = loc->from + 2 + (uint32_t)(pos + len) };
    return l;
}

/*
 * Whether s is one MathML element, as every output writes it into XML as it
 * stands: well-formed, and a <math> in MathML's namespace.
 */
static bool is_mathml(const char *s)
{
    xmlDocPtr doc = xmlReadMemory(s, (int)strlen(s), "formula.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlNodePtr root = doc ? xmlDocGetRootElement(doc) : NULL;
    bool ok = root && !xmlStrcmp(root->name, BAD_CAST "math") && root->ns &&
              !xmlStrcmp(root->ns->href, BAD_CAST "http://www.w3.org/1998/Math/MathML");
    xmlFreeDoc(doc);
    return ok;
}

/* Convert f[todo[0..n)] in one run of Node.js, keeping each result in mc.  False on any error. */
static bool convert(struct diag *d, struct qz_formula *f, const size_t *todo, size_t n,
                    const struct src_loc *locs, const struct mathcache *mc)
{
    const char *node = getenv(TEXMML_NODE_ENV);
    if (!node || !*node)
        node = "node";
    struct membuf in = { 0 }, out = { 0 };
    program(&in, f, todo, n);
    int status = 0;
    int e = run_node(node, &in, &out, &status);
    membuf_free(&in);
    if (e || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        diag_error(d, &locs[todo[0]], "TeX math is turned into MathML by Temml under Node.js, and '%s' %s%s; "
                   "install Node.js, or name it in " TEXMML_NODE_ENV, node,
                   e ? "cannot run: " : "failed", e ? strerror(e) : "");
        membuf_free(&out);
        return false;
    }
    membuf_append(&out, "", 1);
    bool ok = true;
    char *line = (char *)out.data;
    for (size_t k = 0; k < n; k++) {
        size_t i = todo[k];
        char *nl = line ? strchr(line, '\n') : NULL;
        if (!nl) {
            diag_error(d, &locs[i], "Temml gave no MathML for this formula");
            ok = false;
            break;
        }
        *nl = '\0';
        if (!strncmp(line, "ok ", 3)) {
            if (is_mathml(line + 3)) {
                f[i].mathml = xstrdup(line + 3);
                mathcache_put(mc, f[i].tex, f[i].display, f[i].mathml);
            } else {
                diag_error(d, &locs[i], "Temml's MathML for this formula is not well-formed XML");
                ok = false;
            }
        } else {
            char *msg;
            long pos = strtol(line + 4, &msg, 10);
            struct src_loc at = at_command(&locs[i], f[i].tex, pos, f[i].display);
            diag_error(d, &at, "unsupported TeX: %s", msg + (*msg == ' '));
            ok = false;
        }
        line = nl + 1;
    }
    membuf_free(&out);
    return ok;
}

bool texmml_convert(struct diag *d, struct qz_formula *f, size_t n, const struct src_loc *locs)
{
    if (!n)
        return true;
    /* The converter, as the cache names it: the two scripts Node.js runs. */
    const struct scorm_res *t = res("temml.min.js"), *drv = res("tex2mml.js");
    const unsigned char *parts[] = { t->data, drv->data };
    const size_t lens[] = { t->len, drv->len };
    struct mathcache mc;
    mathcache_open(&mc, parts, lens, 2);
    size_t *todo = xmalloc(n * sizeof *todo), ntodo = 0;
    for (size_t i = 0; i < n; i++) {
        char *kept = mathcache_get(&mc, f[i].tex, f[i].display);
        if (kept && is_mathml(kept)) {
            f[i].mathml = kept;
        } else {
            free(kept);
            todo[ntodo++] = i;
        }
    }
    bool ok = !ntodo || convert(d, f, todo, ntodo, locs, &mc);
    free(todo);
    mathcache_close(&mc);
    return ok;
}
