/*
 * arena.c — blocks that double from 16 KiB to 4 MiB (or one piece's size,
 * when larger), chained and freed together; and the interning of names in
 * them.  An arena starts small because every included file has one: a file
 * costs memory (and address space) in proportion to its size.
 *
 * Blocks are mapped from the kernel, which hands out zeroed pages: so a
 * piece is zero without a memset (which was a tenth of quizc --check on a
 * big bank), and pages a small tree never reaches are never touched.
 */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

#define ARENA_BLOCK (4u << 20)      /* the largest ordinary block, header included */
#define ARENA_FIRST (16u << 10)     /* an arena's first block */
#define ARENA_ALIGN 8

/*
 * Under AddressSanitizer every piece is a block of its own, from calloc and
 * of its exact size, so that a read or write past a node or a string is
 * caught as it would be with malloc (a mapped block is one object to ASan).
 */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_CHECKED 1
#endif
#endif

struct block {
    struct block *prev;     /* the block filled before this one */
    size_t size, used;      /* bytes of data[], and how many are taken */
    size_t mapped;          /* bytes mapped for the block, header included (0: from calloc) */
    _Alignas(ARENA_ALIGN) unsigned char data[];
};

/*
 * Small pieces the tree is done with (arena_recycle, and the old piece of a
 * vector that arena_grow moved), by size: the next piece of that size takes
 * one.  A vector that grows while other pieces are taken after it leaves a
 * piece of half its size behind each time it doubles; a parsed value is
 * copied into its statement and its node left (a lab reference's arguments
 * and claims left more bytes so than they kept).
 */
#define ARENA_RECYCLE_MAX 256

struct arena {
    struct block *top;      /* the block pieces come from now */
    void *last;             /* the latest piece (arena_grow extends it in place) */
    size_t next;            /* bytes to map for the next ordinary block (0: ARENA_FIRST) */
    void *spare[ARENA_RECYCLE_MAX / ARENA_ALIGN + 1];   /* by size / ARENA_ALIGN, linked through their first word */
};

struct arena *arena_new(void)
{
    return xcalloc(1, sizeof(struct arena));
}

void arena_free(struct arena *a)
{
    if (!a) return;
    for (struct block *b = a->top, *prev; b; b = prev) {
        prev = b->prev;
        if (b->mapped) munmap(b, b->mapped);
        else free(b);
    }
    free(a);
}

static size_t round_up(size_t n)
{
    return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

#ifndef ARENA_CHECKED
/*
 * A block of `mapped` bytes.  Small blocks have ordinary pages: a small
 * quiz, and each lab manifest (an arena of its own), touches a few KiB.
 * Blocks of 4 MiB start on a huge-page boundary, with the kernel asked for
 * huge pages: a bank's tree then costs one page fault per 2 MiB instead of
 * per 4 KiB (the faults were a third of --check's time).  Where huge pages
 * are off, the advice is ignored and pages are 4 KiB.
 */
static void *map_block(size_t mapped, bool huge)
{
    /* A huge block is mapped a huge page larger, and trimmed to the aligned part. */
    size_t span = huge ? mapped + HUGE_PAGE : mapped;
    unsigned char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        fputs("out of memory\n", stderr);
        abort();
    }
    if (!huge)
        return m;
    unsigned char *at = (unsigned char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (at > m) munmap(m, (size_t)(at - m));
    if (m + span > at + mapped) munmap(at + mapped, (size_t)(m + span - (at + mapped)));
    advise_huge(at, mapped);
    return at;
}

/* Room for n more bytes (already rounded) at the top, in a new block if need be. */
static struct block *room(struct arena *a, size_t n)
{
    struct block *b = a->top;
    if (b && b->size - b->used >= n) return b;
    /* A piece of over 1 MiB gets a block of its own size; the others share blocks that double. */
    bool own = n > ARENA_BLOCK / 4;
    size_t ordinary = a->next ? a->next : ARENA_FIRST;
    while (!own && ordinary - sizeof *b < n) ordinary *= 2;
    size_t size = own ? n : ordinary - sizeof *b;
    size_t mapped = sizeof *b + size;
    struct block *nb = map_block(mapped, mapped >= ARENA_BLOCK);
    nb->size = size;
    nb->used = 0;
    nb->mapped = mapped;
    /* A piece with a block of its own goes below the current block, which keeps filling. */
    if (b && own) {
        nb->prev = b->prev;
        b->prev = nb;
        return nb;
    }
    if (!own) a->next = ordinary < ARENA_BLOCK ? 2 * ordinary : ARENA_BLOCK;
    nb->prev = b;
    a->top = nb;
    return nb;
}
#endif

static void *take(struct arena *a, size_t n)
{
#ifdef ARENA_CHECKED
    struct block *own = xcalloc(1, sizeof *own + (n ? n : 1));
    own->size = own->used = n;
    own->prev = a->top;
    a->top = own;
    a->last = NULL;     /* never grown in place: a grown piece is a new one */
    return own->data;
#else
    n = round_up(n ? n : 1);
    void **spare = n <= ARENA_RECYCLE_MAX ? &a->spare[n / ARENA_ALIGN] : NULL;
    if (spare && *spare) {
        /* Not the latest piece of its block: never grown in place. */
        void *p = *spare;
        *spare = *(void **)p;
        return memset(p, 0, n);
    }
    struct block *b = room(a, n);
    void *p = b->data + b->used;
    b->used += n;
    a->last = p;
    return p;
#endif
}

void *arena_alloc(struct arena *a, size_t n)
{
    return take(a, n);     /* never handed out before: still zero */
}

void *arena_grow(struct arena *a, void *p, size_t old, size_t new_size)
{
    struct block *b = a->top;
    if (p && p == a->last && b && (unsigned char *)p >= b->data && (unsigned char *)p < b->data + b->size) {
        size_t at = (size_t)((unsigned char *)p - b->data);
        size_t need = round_up(new_size);
        if (at + need <= b->size) {
            b->used = at + need;        /* the bytes past the piece were never handed out: zero */
            return p;
        }
    }
    void *q = take(a, new_size);
    if (old) memcpy(q, p, old);
    arena_recycle(a, p, old);
    return q;
}

void arena_recycle(struct arena *a, void *p, size_t n)
{
#ifdef ARENA_CHECKED
    (void)a, (void)p, (void)n;      /* each piece is its own allocation: kept until arena_free */
#else
    n = round_up(n);
    if (!p || n < sizeof(void *) || n > ARENA_RECYCLE_MAX) return;
    if (p == a->last) a->last = NULL;
    *(void **)p = a->spare[n / ARENA_ALIGN];
    a->spare[n / ARENA_ALIGN] = p;
#endif
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = take(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = take(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, aq);
    va_end(aq);
    return p;
}

/* ---- Interned names ------------------------------------------------------- */

void intern_init(struct intern *in, struct arena *a)
{
    *in = (struct intern){ .a = a };
}

void intern_fini(struct intern *in)
{
    free(in->slots);
    free(in->hashes);
    *in = (struct intern){ 0 };
}

static void rehash(struct intern *in)
{
    size_t cap = in->cap ? 2 * in->cap : 64;
    const char **slots = xcalloc(cap, sizeof *slots);
    unsigned *hashes = xcalloc(cap, sizeof *hashes);
    for (size_t i = 0; i < in->cap; i++) {
        if (!in->slots[i]) continue;
        size_t k = in->hashes[i] & (cap - 1);
        while (slots[k]) k = (k + 1) & (cap - 1);
        slots[k] = in->slots[i];
        hashes[k] = in->hashes[i];
    }
    free(in->slots);
    free(in->hashes);
    in->slots = slots;
    in->hashes = hashes;
    in->cap = cap;
}

const char *intern_name(struct intern *in, const char *s, size_t n)
{
    if (2 * (in->n + 1) > in->cap) rehash(in);
    unsigned h = hash_bytes(s, n);
    size_t k = h & (in->cap - 1);
    for (; in->slots[k]; k = (k + 1) & (in->cap - 1))
        if (in->hashes[k] == h && !strncmp(in->slots[k], s, n) && in->slots[k][n] == '\0') return in->slots[k];
    in->slots[k] = arena_strndup(in->a, s, n);
    in->hashes[k] = h;
    in->n++;
    return in->slots[k];
}
