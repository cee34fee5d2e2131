/*
 * fuzz_quizc.c — libFuzzer harness over the whole quizc front end: the input
 * becomes the root file of a sandbox folder, is loaded with its includes
 * (qz_load), checked with its labs resolved (check_course) and, when it is a valid quiz,
 * rendered by every emitter into memory.
 *
 * Beyond "no crash, no leak, no undefined behaviour" it asserts what must
 * hold for any input: an emitter that fails has reported why; course.xml and
 * every XML file of the package are well-formed and the same bytes twice;
 * package entry names are relative and never climb out with `..`; the zip
 * reads back with exactly those entries.
 *
 * Set FUZZ_VERBOSE=1 to see the diagnostics when replaying one input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <zip.h>

#include "check.h"
#include "emit.h"
#include "qz.h"
#include "sandbox.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The fixed sandbox.  The names are in qz.dict so the fuzzer finds them: an
 * include chain with a cycle, a self-include, a folder, a symlink loop, a
 * missing file, a lab with a snippet and a broken lab.
 */
static const struct sandbox_file files[] = {
    { "part.qz",
      "# an included file: questions only\n"
      "single inc1 {\n"
      "    prompt { id: \"Pilih satu\" en: \"Pick one\" }\n"
      "    correct \"a\" because \"yes\"\n"
      "    wrong \"b\"\n"
      "}\n"
      "include \"sub/deep.qz\"\n" },
    { "sub/deep.qz",
      "truefalse inc2 { prompt \"\"\"\n    deep\n      text\n    \"\"\" answer false }\n"
      "include \"../part.qz\"\n" },
    { "leaf.qz", "numeric inc3 { prompt \"n\" answer 0.26..0.29 unit \"fraction\" }\n" },
    { "self.qz", "include \"self.qz\"\n" },
    { "folder.qz/", "" },
    { "loop.qz", "->loop.qz" },
    { "labs/bubble/lab.qz",
      "lab bubble {\n"
      "    title \"Bubble\"\n"
      "    summary { id: \"gelembung\" en: \"bubble\" }\n"
      "    param stages       = 4     in 1..64             \"stages\"\n"
      "    param microbatches = 1     in 1..4096           \"micro-batches\"\n"
      "    param schedule     = gpipe in naive|gpipe|1f1b  \"schedule\"\n"
      "    param ratio        = 0.5   in 0.0..1.0          \"a real\"\n"
      "    param check        = true                       \"a flag\"\n"
      "    param label        = \"x\"                        \"a string\"\n"
      "    metric bubble_fraction \"idle share\"\n"
      "    metric step_ms \"step time\" unit \"ms\"\n"
      "}\n" },
    { "labs/bubble/sched.c",
      "int f(void)\n{\n    // snippet: gpipe-schedule\n    int x = 1;\n"
      "    // snippet: inner\n    x++;\n    // end snippet\n    return x;\n    // end snippet\n}\n" },
    { "labs/broken/lab.qz", "lab broken { title \"unterminated }\n" },
    { "labs/misnamed/lab.qz", "lab other { title \"t\" }\n" },
};

static FILE *diag_out;
static struct qz_labpath labpath;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    sandbox_create("fuzz-quizc", files, sizeof files / sizeof *files);
    const char *v = getenv("FUZZ_VERBOSE");
    /* Diagnostics are printed (to /dev/null) so the caret code runs too. */
    diag_out = v && *v == '1' ? stderr : fopen("/dev/null", "w");
    if (!diag_out)
        abort();
    qz_labpath_add(&labpath, sandbox_path("labs"));
    xmlInitParser();
    return 0;
}

static void fail(const char *why, const char *detail)
{
    fprintf(stderr, "fuzz_quizc: %s%s%s\n", why, detail ? ": " : "", detail ? detail : "");
    abort();
}

static void expect_well_formed(const char *name, const void *data, size_t len)
{
    if (len > (size_t)INT32_MAX)
        fail("document too large", name);
    xmlDocPtr doc = xmlReadMemory((const char *)data, (int)len, name, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_HUGE);
    if (!doc)
        fail("emitted XML is not well-formed", name);
    xmlFreeDoc(doc);
}

/* An entry name must stay inside the package: relative, no `..` component, no backslash. */
static void expect_safe_name(const char *name)
{
    if (!name || !*name || name[0] == '/' || strchr(name, '\\'))
        fail("unsafe package entry name", name);
    for (const char *p = name; p; p = strchr(p, '/')) {
        if (*p == '/')
            p++;
        if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
            fail("package entry name climbs out", name);
    }
}

static void check_zip(const struct emit_files *fs, const struct membuf *zipped)
{
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *src = zip_source_buffer_create(zipped->data, zipped->len, 0, &err);
    if (!src)
        fail("zip source", zip_error_strerror(&err));
    zip_t *z = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
    if (!z)
        fail("the package does not read back as a zip", zip_error_strerror(&err));
    if ((size_t)zip_get_num_entries(z, 0) != fs->files.n)
        fail("the zip does not hold every file", NULL);
    for (size_t i = 0; i < fs->files.n; i++) {
        const char *name = fs->files.items[i].name;
        struct zip_stat st;
        if (zip_stat(z, name, 0, &st) != 0)
            fail("file missing from the zip", name);
        if (st.size != fs->files.items[i].len)
            fail("zip entry size differs from the file", name);
    }
    zip_close(z);
    zip_error_fini(&err);
}

static void emit_all(struct qz_course *c, struct diag *d, unsigned variant)
{
    {
        struct membuf a = { 0 }, b = { 0 };
        int before = diag_errors(d);
        if (emit_course_xml(c, &a, d) != 0) {
            if (diag_errors(d) == before)
                fail("emit_course_xml failed without reporting why", NULL);
        } else {
            expect_well_formed("course.xml", a.data, a.len);
            if (emit_course_xml(c, &b, d) != 0 || a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
                fail("course.xml differs between two runs", NULL);
        }
        membuf_free(&a);
        membuf_free(&b);
    }
    {
        struct emit_opts o = { .scorm = variant & 1 ? SCORM_2004 : SCORM_12 };
        struct emit_files fs = { 0 };
        int before = diag_errors(d);
        if (emit_scorm_files(c, &o, &fs, d) != 0) {
            if (diag_errors(d) == before)
                fail("emit_scorm_files failed without reporting why", NULL);
        } else {
            for (size_t i = 0; i < fs.files.n; i++) {
                const struct emit_file *f = &fs.files.items[i];
                expect_safe_name(f->name);
                size_t n = strlen(f->name);
                if (n > 4 && strcmp(f->name + n - 4, ".xml") == 0)
                    expect_well_formed(f->name, f->data, f->len);
            }
            {
                struct membuf z = { 0 };
                before = diag_errors(d);
                if (emit_zip(&fs, &z, d) != 0) {
                    if (diag_errors(d) == before)
                        fail("emit_zip failed without reporting why", NULL);
                } else {
                    check_zip(&fs, &z);
                }
                membuf_free(&z);
            }
        }
        emit_files_free(&fs);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sandbox_write("root.qz", data, size);
    struct diag *d = diag_new(diag_out);
    struct qz_course *c = qz_load(d, sandbox_path("root.qz"));
    if (!c)
        fail("qz_load returned NULL for a readable file", NULL);
    /* The CLI checks a loaded course even after syntax errors, to report everything at once. */
    check_course(d, c, &labpath);
    if (diag_errors(d) == 0)
        emit_all(c, d, size > 0 ? data[size - 1] : 0);
    diag_summary(d);
    qz_course_free(c);
    diag_free(d);
    return 0;
}
