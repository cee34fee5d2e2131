/*
 * jansson.h (web build) — the part of jansson's API the report's JSON uses
 * (report_json.c), for the WebAssembly module: Debian packages jansson only
 * as a native library.  Same names and meanings as jansson's, so
 * report_json.c compiles unchanged; json_web.c implements them.
 */
#ifndef RT_WEB_JANSSON_H
#define RT_WEB_JANSSON_H

#include <stddef.h>

typedef struct json_t json_t;
typedef long long json_int_t;

#define JSON_INDENT(n) ((size_t)(n) & 0x1F)
#define JSON_PRESERVE_ORDER 0x100   /* objects keep their insertion order (always, here) */

json_t *json_object(void);
json_t *json_array(void);
json_t *json_string(const char *s);
json_t *json_integer(json_int_t v);
json_t *json_real(double v);
json_t *json_null(void);
json_t *json_true(void);
json_t *json_false(void);
#define json_boolean(v) ((v) ? json_true() : json_false())

/* Both take over value (freed here on failure). */
int json_object_set_new(json_t *object, const char *key, json_t *value);
int json_array_append_new(json_t *array, json_t *value);

/* Build a value from a format of {} s (string) b (bool) i (int) o (a json_t taken over). */
json_t *json_pack(const char *fmt, ...);

/* The value as text (malloc'd); flags: JSON_INDENT(n). */
char *json_dumps(const json_t *v, size_t flags);

void json_decref(json_t *v);

#endif
