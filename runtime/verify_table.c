/* verify_table.c — the claims table labrun --verify prints (verify_table.h). */
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "verify_table.h"

void verify_print_rows(FILE *out, char *(*cells)[NCOL], size_t rows)
{
    static const char *const head[NCOL] = { "question", "lab", "params", "metric", "expected", "measured", "result" };
    int w[NCOL];
    for (int c = 0; c < NCOL; c++) {
        w[c] = utf8_width(head[c], strlen(head[c]));
        for (size_t r = 0; r < rows; r++) {
            int x = utf8_width(cells[r][c], strlen(cells[r][c]));
            if (x > w[c])
                w[c] = x;
        }
    }
    for (int c = 0; c < NCOL; c++)
        fprintf(out, "%s%-*s", c ? " | " : "", w[c], head[c]);
    fputc('\n', out);
    for (int c = 0; c < NCOL; c++) {
        fprintf(out, "%s", c ? "-|-" : "");
        for (int i = 0; i < w[c]; i++)
            fputc('-', out);
    }
    fputc('\n', out);
    for (size_t r = 0; r < rows; r++) {
        for (int c = 0; c < NCOL; c++) {
            int pad = w[c] - utf8_width(cells[r][c], strlen(cells[r][c]));
            fprintf(out, "%s%s%*s", c ? " | " : "", cells[r][c], c == NCOL - 1 ? 0 : pad, "");
        }
        fputc('\n', out);
    }
}
