/*
 * replay.c — run a fuzz harness over files without libFuzzer, so that every
 * input that once crashed (tests/fuzz/regress/) and every seed stays a
 * regression test in the ordinary build and under ASan+UBSan.
 *
 *     replay_quizc FILE|DIR...
 *
 * Each file is one input; a folder stands for the files in it (not recursive).
 * A failing input aborts, and the name printed just before says which.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count;

static void run_file(const char *path)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf) {
        perror(path);
        exit(1);
    }
    printf("replay %s (%zu bytes)\n", path, len);
    fflush(stdout);
    LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
    free(buf);
    count++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static void run_dir(const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    if (n < 0) {
        perror(dir);
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        if (ents[i]->d_name[0] != '.') {
            char *path = xasprintf("%s/%s", dir, ents[i]->d_name);
            struct stat st;
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
                run_file(path);
            free(path);
        }
        free(ents[i]);
    }
    free(ents);
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            run_dir(argv[i]);
        else
            run_file(argv[i]);
    }
    printf("replay: %d passed, 0 failed\n", count);
    return 0;
}
