/*
 * gen_bank.c — write one question bank twice: as a .qz quiz and as Moodle
 * GIFT, so quizc and a GIFT parser can be timed on the same questions.
 *
 *   gen_bank [-n N] [-s SEED] [-m] [-p short|long] [-c few|many]
 *            [-f none|every] [-l] OUT.qz OUT.gift
 *
 * N questions (default 100 000) of every kind (single 40%, multiple 20%,
 * truefalse 15%, numeric 10%, text 15%), each text in Indonesian and English.
 * Lengths follow the shipped quiz: prompts of 50-150 characters, choices of
 * 15-90, an explanation of 80-240 on two questions in three, `because`
 * feedback on a quarter of the wrong choices.  Text holds the Markdown subset
 * (`code`, *emphasis*), non-ASCII letters and quotes, as teachers write it.
 *
 * GIFT has no localized text; Moodle's multilang filter reads one
 * <span lang="xx" class="multilang"> per language, which is what a bank
 * exported from a bilingual Moodle course holds, so both languages travel in
 * each GIFT text too.  With -m the bank is in English alone: every text one
 * language-neutral string, a bank of another shape (half the strings, no
 * language blocks) for the same questions.
 *
 * The other options change the bank's shape, for the memory figures of
 * doc/performance.md: -p short prompts of 10-40 characters or long ones of
 * 400-900; -c few: two choices, or many: 8-12 short ones (5-25 characters);
 * -f none: no `because` feedback, or every: on every choice, right or wrong;
 * -l: one question in four names a lab with two `expect` claims (GIFT has
 * no labs: the question is the same there, without it).  The output is a
 * function of N, SEED and the options alone.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -m: English only, neutral strings. */
static int mono;

/* The shape: prompt and choice lengths, choices per question, feedback per choice, labs. */
static int prompt_lo = 50, prompt_hi = 150;
static int choice_lo = 15, choice_hi = 90, nchoice_lo = 3, nchoice_hi = 5;
enum because { BECAUSE_NONE, BECAUSE_SOME, BECAUSE_EVERY };
static enum because because_on = BECAUSE_SOME;
static int with_labs;

/* xorshift64*: deterministic across libcs, unlike rand(). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* Uniform in lo..hi inclusive. */
static int rng_range(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

static int rng_percent(int p) { return rng_range(0, 99) < p; }

enum lang { L_ID, L_EN, NLANG };

/* Vocabulary of the domain, one list per language, the same length so one
 * random index picks a word and its counterpart. */
static const char *const words[NLANG][48] = {
    [L_ID] = {
        "model", "tahap", "GPU", "memori", "aktivasi", "gradien", "lapisan", "matriks",
        "perkalian", "batch", "mikro", "saluran", "pipa", "waktu", "menganggur", "node",
        "tautan", "komunikasi", "hasil", "parsial", "pengoptimal", "bobot", "pelatihan", "data",
        "dibagi", "dikirim", "diterima", "setiap", "antara", "dengan", "karena", "selama",
        "jadwal", "gelembung", "perangkat", "kolom", "baris", "jumlah", "ukuran", "cepat",
        "lambat", "besar", "kecil", "paralel", "serial", "menunggu", "hulu", "hilir",
    },
    [L_EN] = {
        "model", "stage", "GPU", "memory", "activation", "gradient", "layer", "matrix",
        "multiplication", "batch", "micro", "pipeline", "pipe", "time", "idle", "node",
        "link", "communication", "result", "partial", "optimizer", "weight", "training", "data",
        "split", "sent", "received", "every", "between", "with", "because", "during",
        "schedule", "bubble", "device", "column", "row", "sum", "size", "fast",
        "slow", "large", "small", "parallel", "serial", "waits", "upstream", "downstream",
    },
};

/* Pieces that exercise the string and Markdown paths: escapes, inline code,
 * emphasis, curly quotes and symbols (UTF-8). */
static const char *const flavour[NLANG][8] = {
    [L_ID] = { "`all_reduce`", "*gelembung*", "“mikro-batch”", "≈ 2×", "`send`/`recv`",
               "**NVLink**", "\"naif\"", "(p−1)/(m+p−1)" },
    [L_EN] = { "`all_reduce`", "*bubble*", "“micro-batch”", "≈ 2×", "`send`/`recv`",
               "**NVLink**", "\"naive\"", "(p−1)/(m+p−1)" },
};

/* A text of about len characters in both languages, built from the same
 * random choices so the two read as translations of each other. */
struct text {
    char s[NLANG][1024];
};

static void make_text(struct text *t, int len, char end)
{
    size_t n[NLANG] = {0, 0};
    int first = 1;
    while ((int)n[L_EN] < len) {
        int flav = rng_percent(8);
        int k = flav ? rng_range(0, 7) : rng_range(0, 47);
        for (int l = 0; l < NLANG; l++) {
            const char *w = flav ? flavour[l][k] : words[l][k];
            size_t wl = strlen(w);
            if (n[l] + wl + 3 >= sizeof t->s[l])
                continue;
            if (!first)
                t->s[l][n[l]++] = ' ';
            memcpy(t->s[l] + n[l], w, wl);
            /* Capitalize an ASCII lower-case first letter. */
            if (first && t->s[l][n[l]] >= 'a' && t->s[l][n[l]] <= 'z')
                t->s[l][n[l]] -= 'a' - 'A';
            n[l] += wl;
        }
        first = 0;
    }
    for (int l = 0; l < NLANG; l++) {
        if (end)
            t->s[l][n[l]++] = end;
        t->s[l][n[l]] = '\0';
    }
}

/* ---- .qz ---------------------------------------------------------------- */

static void qz_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* KEYWORD { id: "..." en: "..." } on one line; KEYWORD "..." with -m. */
static void qz_text(FILE *f, const char *indent, const char *kw, const struct text *t)
{
    if (mono) {
        fprintf(f, "%s%s ", indent, kw);
        qz_string(f, t->s[L_EN]);
        return;
    }
    fprintf(f, "%s%s { id: ", indent, kw);
    qz_string(f, t->s[L_ID]);
    fputs(" en: ", f);
    qz_string(f, t->s[L_EN]);
    fputs(" }", f);
}

/* ---- GIFT --------------------------------------------------------------- */

/* GIFT reserves ~ = # { } : and the backslash; each is escaped with '\'. */
static void gift_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("~=#{}:\\", *s))
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void gift_text(FILE *f, const struct text *t)
{
    static const char *const tag[NLANG] = { "id", "en" };
    if (mono) {
        gift_escaped(f, t->s[L_EN]);
        return;
    }
    for (int l = 0; l < NLANG; l++) {
        fprintf(f, "<span lang\\=\"%s\" class\\=\"multilang\">", tag[l]);
        gift_escaped(f, t->s[l]);
        fputs("</span>", f);
    }
}

/* ---- one question, both formats ----------------------------------------- */

enum kind { K_SINGLE, K_MULTIPLE, K_TRUEFALSE, K_NUMERIC, K_TEXT };

static enum kind pick_kind(void)
{
    int r = rng_range(0, 99);
    return r < 40 ? K_SINGLE : r < 60 ? K_MULTIPLE : r < 75 ? K_TRUEFALSE
         : r < 85 ? K_NUMERIC : K_TEXT;
}

struct choice {
    int correct;
    int has_because;
    struct text body, because;
};

static void write_question(FILE *qz, FILE *gift, long id)
{
    static const char *const kw[] = { "single", "multiple", "truefalse", "numeric", "text" };
    enum kind k = pick_kind();
    struct text prompt, explain;
    struct choice ch[12];
    int nch = 0, has_explain, points;

    make_text(&prompt, rng_range(prompt_lo, prompt_hi), '?');
    has_explain = rng_percent(67);
    if (has_explain)
        make_text(&explain, rng_range(80, 240), '.');
    points = rng_percent(10) ? rng_range(2, 5) : 1;

    fprintf(qz, "\n    %s q%06ld {\n", kw[k], id);
    qz_text(qz, "        ", "prompt", &prompt);
    fputc('\n', qz);
    fprintf(gift, "::q%06ld:: ", id);
    gift_text(gift, &prompt);
    fputs(" {", gift);

    if (k == K_SINGLE || k == K_MULTIPLE) {
        int ncorrect;
        nch = rng_range(nchoice_lo, nchoice_hi);
        ncorrect = k == K_SINGLE ? 1 : rng_range(1, nch - 1);
        for (int i = 0; i < nch; i++) {
            ch[i].correct = 0;
            make_text(&ch[i].body, rng_range(choice_lo, choice_hi), 0);
            ch[i].has_because = because_on == BECAUSE_EVERY || (because_on == BECAUSE_SOME && rng_percent(25));
            if (ch[i].has_because)
                make_text(&ch[i].because, rng_range(40, 110), '.');
        }
        for (int placed = 0; placed < ncorrect;) {
            int i = rng_range(0, nch - 1);
            if (!ch[i].correct) {
                ch[i].correct = 1;
                ch[i].has_because = because_on == BECAUSE_EVERY;
                placed++;
            }
        }
        for (int i = 0; i < nch; i++) {
            qz_text(qz, "        ", ch[i].correct ? "correct" : "wrong", &ch[i].body);
            if (ch[i].has_because)
                qz_text(qz, "", " because", &ch[i].because);
            fputc('\n', qz);
            if (k == K_SINGLE)
                fputs(ch[i].correct ? "\n  =" : "\n  ~", gift);
            else if (ch[i].correct)
                fprintf(gift, "\n  ~%%%.5f%%", 100.0 / ncorrect);
            else
                fputs("\n  ~%-100%", gift);
            gift_text(gift, &ch[i].body);
            if (ch[i].has_because) {
                fputc('#', gift);
                gift_text(gift, &ch[i].because);
            }
        }
    } else if (k == K_TRUEFALSE) {
        int ans = rng_percent(50);
        fprintf(qz, "        answer %s\n", ans ? "true" : "false");
        fputs(ans ? "TRUE" : "FALSE", gift);
    } else if (k == K_NUMERIC) {
        int form = rng_range(0, 2);
        double v = rng_range(1, 99999) / 10000.0;
        if (form == 0) {
            fprintf(qz, "        answer %.4f within %.3f\n", v, v / 20);
            fprintf(gift, "#%.4f:%.3f", v, v / 20);
        } else if (form == 1) {
            fprintf(qz, "        answer %.2f..%.2f\n", v, v + 0.05);
            fprintf(gift, "#%.2f..%.2f", v, v + 0.05);
        } else {
            int exact = rng_range(1, 4096);
            fprintf(qz, "        answer %d\n", exact);
            fprintf(gift, "#%d", exact);
        }
    } else {
        static const char *const acc[] = { "NVLink", "nvlink 4", "all-reduce", "allreduce",
                                          "Megatron-LM", "1F1B", "GPipe", "pipeline bubble" };
        int na = rng_range(1, 3), first = rng_range(0, 7);
        fputs("        accept ", qz);
        for (int i = 0; i < na; i++) {
            const char *a = acc[(first + i) % 8];
            fputs(i ? ", " : "", qz);
            qz_string(qz, a);
            fputs(i ? " =" : "=", gift);
            gift_escaped(gift, a);
        }
        fputc('\n', qz);
    }

    if (has_explain) {
        qz_text(qz, "        ", "explain", &explain);
        fputc('\n', qz);
        fputs("\n  ####", gift);
        gift_text(gift, &explain);
    }
    if (points != 1)
        fprintf(qz, "        points %d\n", points);
    if (with_labs && rng_percent(25)) {
        int tp = 1 << rng_range(0, 3), pp = 1 << rng_range(0, 2);
        fprintf(qz, "        lab memory (tp = %d, pp = %d)\n"
                    "            expect max_rank_gib > 0\n"
                    "            expect live_error_pct < 0.1\n", tp, pp);
    }
    fputs("    }\n", qz);
    fputs("\n}\n\n", gift);
}

static void usage(FILE *f)
{
    fputs("usage: gen_bank [-n N] [-s SEED] [-m] [-p short|long] [-c few|many] [-f none|every] [-l]\n"
          "                OUT.qz OUT.gift\n", f);
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gen_bank: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    /* Big buffers: the bank is tens of megabytes. */
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return f;
}

int main(int argc, char **argv)
{
    long n = 100000;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            n = strtol(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            rng_state ^= strtoull(argv[++i], NULL, 10) * 0x100000001B3ull;
            if (!rng_state)
                rng_state = 1;
        } else if (!strcmp(argv[i], "-m")) {
            mono = 1;
        } else if (!strcmp(argv[i], "-p") && i + 1 < argc && !strcmp(argv[i + 1], "short")) {
            prompt_lo = 10, prompt_hi = 40, i++;
        } else if (!strcmp(argv[i], "-p") && i + 1 < argc && !strcmp(argv[i + 1], "long")) {
            prompt_lo = 400, prompt_hi = 900, i++;
        } else if (!strcmp(argv[i], "-c") && i + 1 < argc && !strcmp(argv[i + 1], "few")) {
            nchoice_lo = nchoice_hi = 2, i++;
        } else if (!strcmp(argv[i], "-c") && i + 1 < argc && !strcmp(argv[i + 1], "many")) {
            nchoice_lo = 8, nchoice_hi = 12, choice_lo = 5, choice_hi = 25, i++;
        } else if (!strcmp(argv[i], "-f") && i + 1 < argc && !strcmp(argv[i + 1], "none")) {
            because_on = BECAUSE_NONE, i++;
        } else if (!strcmp(argv[i], "-f") && i + 1 < argc && !strcmp(argv[i + 1], "every")) {
            because_on = BECAUSE_EVERY, i++;
        } else if (!strcmp(argv[i], "-l")) {
            with_labs = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (argc - i != 2 || n < 1) {
        usage(stderr);
        return 2;
    }
    FILE *qz = open_out(argv[i]), *gift = open_out(argv[i + 1]);

    fputs("# A generated question bank for benchmarks: gen_bank\n"
          "quiz bank {\n", qz);
    fputs(mono ? "    title \"Parallelism question bank\"\n"
               : "    title { id: \"Bank soal paralelisme\" en: \"Parallelism question bank\" }\n"
                 "    languages id, en\n", qz);
    fputs("    feedback on-submit\n"
          "    passing 60%\n", qz);
    fputs("// A generated question bank for benchmarks: gen_bank\n"
          "$CATEGORY: bank\n\n", gift);
    for (long q = 1; q <= n; q++)
        write_question(qz, gift, q);
    fputs("}\n", qz);

    if (fclose(qz) || fclose(gift)) {
        fprintf(stderr, "gen_bank: write failed: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
