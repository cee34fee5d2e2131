/*
 * inputs.c — the files a run reads, kept by (device, inode) in an
 * open-addressed table: a quiz with tens of thousands of includes notes
 * each in O(1), and an output is checked against all of them in O(1).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs.h"
#include "util.h"

struct input {
    dev_t dev;
    ino_t ino;
    char *real;                 /* realpath, for "does this folder hold it"; NULL if it failed */
};

static struct input *slots;     /* cap slots, a power of two, at most half full */
static bool *used;              /* which slots hold an input */
static size_t count, cap;
static struct input *order;     /* the inputs in the order they were noted, for out_input_under */
static size_t norder, caporder;

static size_t slot_of(dev_t dev, ino_t ino)
{
    uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15u ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4fu;
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/* The slot holding (dev, ino), or the empty slot where it would go. */
static size_t find(dev_t dev, ino_t ino)
{
    size_t i = slot_of(dev, ino);
    while (used[i] && !(slots[i].dev == dev && slots[i].ino == ino))
        i = (i + 1) & (cap - 1);
    return i;
}

static void grow(void)
{
    struct input *old = slots;
    bool *old_used = used;
    size_t old_cap = cap;
    cap = cap ? 2 * cap : 64;
    slots = xcalloc(cap, sizeof *slots);
    used = xcalloc(cap, sizeof *used);
    for (size_t i = 0; i < old_cap; i++)
        if (old_used[i]) {
            size_t j = find(old[i].dev, old[i].ino);
            slots[j] = old[i];
            used[j] = true;
        }
    free(old);
    free(old_used);
}

void out_note_input(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    if (cap && used[find(st.st_dev, st.st_ino)])
        return;
    if (2 * (count + 1) > cap)
        grow();
    struct input in = { st.st_dev, st.st_ino, realpath(path, NULL) };
    size_t i = find(st.st_dev, st.st_ino);
    slots[i] = in;
    used[i] = true;
    count++;
    if (norder == caporder)
        order = xrealloc(order, (caporder = caporder ? 2 * caporder : 64) * sizeof *order);
    order[norder++] = in;
}

char *out_read_input(const char *path, size_t *len)
{
    char *text = read_file(path, len);
    if (text)
        out_note_input(path);
    return text;
}

bool out_is_input(const struct stat *st)
{
    return cap && used[find(st->st_dev, st->st_ino)];
}

const char *out_input_under(const char *real_dir)
{
    size_t n = strlen(real_dir);
    for (size_t i = 0; i < norder; i++) {
        const char *r = order[i].real;
        if (r && strncmp(r, real_dir, n) == 0 && (r[n] == '/' || (n == 1 && real_dir[0] == '/')))
            return r;
    }
    return NULL;
}
