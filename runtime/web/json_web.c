/*
 * json_web.c — the JSON values and writer behind the web build's jansson.h:
 * what report_json.c builds and prints, in jansson's output format (keys in
 * insertion order, reals with 17 significant digits).
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum kind { J_OBJECT, J_ARRAY, J_STRING, J_INTEGER, J_REAL, J_TRUE, J_FALSE, J_NULL };

struct json_t {
    enum kind kind;
    char *str;                  /* J_STRING */
    json_int_t i;               /* J_INTEGER */
    double r;                   /* J_REAL */
    char **keys;                /* J_OBJECT: n keys; J_ARRAY: NULL */
    json_t **items;             /* J_OBJECT, J_ARRAY: n values */
    size_t n, cap;
};

static json_t *make(enum kind k)
{
    json_t *v = xcalloc(1, sizeof *v);
    v->kind = k;
    return v;
}

json_t *json_object(void) { return make(J_OBJECT); }
json_t *json_array(void) { return make(J_ARRAY); }
json_t *json_null(void) { return make(J_NULL); }
json_t *json_true(void) { return make(J_TRUE); }
json_t *json_false(void) { return make(J_FALSE); }

json_t *json_string(const char *s)
{
    if (!s)
        return NULL;
    json_t *v = make(J_STRING);
    v->str = xstrdup(s);
    return v;
}

json_t *json_integer(json_int_t i)
{
    json_t *v = make(J_INTEGER);
    v->i = i;
    return v;
}

json_t *json_real(double r)
{
    json_t *v = make(J_REAL);
    v->r = r;
    return v;
}

void json_decref(json_t *v)
{
    if (!v)
        return;
    for (size_t k = 0; k < v->n; k++) {
        if (v->keys)
            free(v->keys[k]);
        json_decref(v->items[k]);
    }
    free(v->keys);
    free(v->items);
    free(v->str);
    free(v);
}

static void push(json_t *c, char *key, json_t *value)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->items = xrealloc(c->items, c->cap * sizeof *c->items);
        if (c->kind == J_OBJECT)
            c->keys = xrealloc(c->keys, c->cap * sizeof *c->keys);
    }
    if (c->kind == J_OBJECT)
        c->keys[c->n] = key;
    c->items[c->n++] = value;
}

int json_object_set_new(json_t *o, const char *key, json_t *value)
{
    if (!o || o->kind != J_OBJECT || !key || !value) {
        json_decref(value);
        return -1;
    }
    for (size_t k = 0; k < o->n; k++)
        if (strcmp(o->keys[k], key) == 0) {
            json_decref(o->items[k]);
            o->items[k] = value;
            return 0;
        }
    push(o, xstrdup(key), value);
    return 0;
}

int json_array_append_new(json_t *a, json_t *value)
{
    if (!a || a->kind != J_ARRAY || !value) {
        json_decref(value);
        return -1;
    }
    push(a, NULL, value);
    return 0;
}

/* One value of a json_pack format at *f; NULL on a bad format. */
static json_t *pack_value(const char **f, va_list *ap);

static void skip(const char **f)
{
    while (**f == ' ' || **f == ',' || **f == ':' || **f == '\t' || **f == '\n')
        (*f)++;
}

static json_t *pack_object(const char **f, va_list *ap)
{
    json_t *o = json_object();
    for (;;) {
        skip(f);
        if (**f == '}') {
            (*f)++;
            return o;
        }
        if (**f != 's') {
            json_decref(o);
            return NULL;
        }
        (*f)++;
        const char *key = va_arg(*ap, const char *);
        skip(f);
        json_t *v = pack_value(f, ap);
        if (!v || json_object_set_new(o, key, v) < 0) {
            json_decref(o);
            return NULL;
        }
    }
}

static json_t *pack_value(const char **f, va_list *ap)
{
    skip(f);
    switch (*(*f)++) {
    case '{':
        return pack_object(f, ap);
    case 's':
        return json_string(va_arg(*ap, const char *));
    case 'b':
        return json_boolean(va_arg(*ap, int));
    case 'i':
        return json_integer(va_arg(*ap, int));
    case 'o':
        return va_arg(*ap, json_t *);
    default:
        return NULL;
    }
}

json_t *json_pack(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *f = fmt;
    json_t *v = pack_value(&f, &ap);
    va_end(ap);
    return v;
}

/* ---- Writing ---------------------------------------------------------------- */

struct buf {
    char *s;
    size_t n, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        while (b->n + n + 1 > b->cap)
            b->cap = b->cap ? 2 * b->cap : 256;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void puts_(struct buf *b, const char *s) { put(b, s, strlen(s)); }

static void put_string(struct buf *b, const char *s)
{
    put(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        switch (c) {
        case '"': puts_(b, "\\\""); break;
        case '\\': puts_(b, "\\\\"); break;
        case '\n': puts_(b, "\\n"); break;
        case '\t': puts_(b, "\\t"); break;
        case '\r': puts_(b, "\\r"); break;
        case '\b': puts_(b, "\\b"); break;
        case '\f': puts_(b, "\\f"); break;
        default:
            if (c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04X", c);
                puts_(b, esc);
            } else
                put(b, s, 1);
        }
    }
    put(b, "\"", 1);
}

static void newline(struct buf *b, size_t indent, int depth)
{
    if (!indent)
        return;
    put(b, "\n", 1);
    for (size_t k = 0; k < indent * (size_t)depth; k++)
        put(b, " ", 1);
}

static void dump(struct buf *b, const json_t *v, size_t indent, int depth)
{
    char num[40];
    switch (v->kind) {
    case J_NULL: puts_(b, "null"); return;
    case J_TRUE: puts_(b, "true"); return;
    case J_FALSE: puts_(b, "false"); return;
    case J_STRING: put_string(b, v->str); return;
    case J_INTEGER:
        snprintf(num, sizeof num, "%lld", v->i);
        puts_(b, num);
        return;
    case J_REAL:
        snprintf(num, sizeof num, "%.17g", v->r);
        if (!strpbrk(num, ".eEn"))
            strcat(num, ".0");
        puts_(b, num);
        return;
    case J_OBJECT:
    case J_ARRAY: {
        bool obj = v->kind == J_OBJECT;
        puts_(b, obj ? "{" : "[");
        for (size_t k = 0; k < v->n; k++) {
            newline(b, indent, depth + 1);
            if (obj) {
                put_string(b, v->keys[k]);
                puts_(b, indent ? ": " : ":");
            }
            dump(b, v->items[k], indent, depth + 1);
            if (k + 1 < v->n)
                puts_(b, indent ? "," : ", ");
        }
        if (v->n)
            newline(b, indent, depth);
        puts_(b, obj ? "}" : "]");
        return;
    }
    }
}

char *json_dumps(const json_t *v, size_t flags)
{
    if (!v)
        return NULL;
    struct buf b = { 0 };
    dump(&b, v, flags & 0x1F, 0);
    return b.s ? b.s : xstrdup("");
}
