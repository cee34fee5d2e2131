/*
 * arena.h — a bump allocator: many small pieces, freed together in one call.
 * A tree's nodes, vectors and strings live in its file's arena (ast.h), so
 * a bank of a hundred thousand questions is a few dozen blocks, not millions
 * of mallocs, and goes with one arena_free.
 *
 * Ownership: arena_new/arena_free; everything arena_* returns belongs to the
 * arena and is never passed to free().
 */
#ifndef QZ_ARENA_H
#define QZ_ARENA_H

#include <stddef.h>

struct arena;

struct arena *arena_new(void);
/* Frees every block of a (NULL is a no-op). */
void arena_free(struct arena *a);

/* n zeroed bytes aligned for any object of the tree (8 bytes); never NULL (aborts when out of memory). */
void *arena_alloc(struct arena *a, size_t n);
/*
 * p (old bytes, from this arena, or NULL) made new bytes long, new > old:
 * extended where it stands when it is the latest piece, else copied into a
 * new piece (the old one stays until arena_free).  The bytes past old are zeroed.
 */
void *arena_grow(struct arena *a, void *p, size_t old, size_t new_size);
/*
 * p (n bytes, from arena_alloc or arena_grow of this arena, or NULL) is no
 * longer used: a later piece of the same size may be it.  Never for a string.
 */
void arena_recycle(struct arena *a, void *p, size_t n);
/* s[0..n) and a NUL, as a string of the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* printf into a new piece of the arena. */
char *arena_printf(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Names, interned: the one copy of s[0..n) in the arena (the same pointer
 * for the same name), so that a language tag written a million times is
 * stored once.  The table belongs to the intern set; its strings to a.
 */
struct intern {
    struct arena *a;        /* where the names live (borrowed) */
    const char **slots;     /* open addressing, cap slots (a power of two); owned */
    unsigned *hashes;       /* each slot's hash; owned */
    size_t n, cap;
};
void intern_init(struct intern *in, struct arena *a);
void intern_fini(struct intern *in);
const char *intern_name(struct intern *in, const char *s, size_t n);

/*
 * Push x onto a VEC (ast.h) whose items live in arena a: capacity starts at
 * one and doubles; the last piece of the arena grows in place.
 */
#define AVEC_PUSH(a, v, x)                                                    \
    do {                                                                      \
        if ((v).n == (v).cap) {                                               \
            size_t ncap_ = (v).cap ? 2 * (v).cap : 1;                         \
            (v).items = arena_grow((a), (v).items, (v).cap * sizeof *(v).items, \
                                   ncap_ * sizeof *(v).items);                \
            (v).cap = ncap_;                                                  \
        }                                                                     \
        (v).items[(v).n++] = (x);                                             \
    } while (0)

#endif
