/*
 * emit.c — the buffers every emitter renders into, and the choice ids they share.
 */
#include <string.h>

#include "emit.h"

unsigned char *membuf_room(struct membuf *b, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->data = xrealloc(b->data, cap);
        b->cap = cap;
        b->data[b->len] = '\0';
    }
    return b->data + b->len;
}

void membuf_append(struct membuf *b, const void *p, size_t n)
{
    if (n == 0)
        return;
    memcpy(membuf_room(b, n), p, n);
    b->len += n;
    b->data[b->len] = '\0';     /* keeps text output printable as a C string */
}

int membuf_write(void *ctx, const char *p, int n)
{
    membuf_append(ctx, p, (size_t)n);
    return n;
}

void membuf_free(struct membuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void emit_files_add(struct emit_files *fs, const char *name, const void *p, size_t n)
{
    struct membuf b = { 0 };
    membuf_append(&b, p, n);
    emit_files_take(fs, name, &b);
}

void emit_files_add_static(struct emit_files *fs, const char *name, const void *p, size_t n)
{
    struct emit_file f = { .name = xstrdup(name), .data = p, .len = n };
    VEC_PUSH(fs->files, f);
}

void emit_files_take(struct emit_files *fs, const char *name, struct membuf *b)
{
    struct emit_file f = { .name = xstrdup(name), .data = b->data, .len = b->len, .owned = b->data };
    VEC_PUSH(fs->files, f);
    *b = (struct membuf){ 0 };
}

void emit_files_free(struct emit_files *fs)
{
    for (size_t i = 0; i < fs->files.n; i++) {
        free(fs->files.items[i].name);
        free(fs->files.items[i].owned);
    }
    VEC_FREE(fs->files);
}

char emit_choice_id(size_t i)
{
    static const char ids[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    return i < sizeof ids - 1 ? ids[i] : '\0';
}

void emit_files_move(struct emit_files *to, struct emit_files *from)
{
    for (size_t i = 0; i < from->files.n; i++)
        VEC_PUSH(to->files, from->files.items[i]);
    VEC_FREE(from->files);
}
