/*
 * xml_chars.h — the characters XML 1.0 cannot carry (C0 controls but tab and
 * line ends, U+FFFE, U+FFFF): one rule and one message, which the checks
 * apply to every string of a course and the course writer to what it writes.
 */
#ifndef QZ_XML_CHARS_H
#define QZ_XML_CHARS_H

#include <stdbool.h>

#include "qz.h"

/*
 * False, with "WHAT holds the character U+XXXX, which XML 1.0 cannot
 * carry" at the character (where it was typed inside the literal at `at`,
 * or the \u{...} that made it; no place when at is NULL), when s holds such
 * a character.
 */
bool xmlchars_safe(struct diag *d, const char *s, const struct src_loc *at, const char *what);

/* xmlchars_safe for the value of the string literal at lit: free when its source's scanner found none. */
bool xmlchars_literal_safe(struct diag *d, const char *s, const struct src_loc *lit, const char *what);

/*
 * Every string of c that the outputs write, checked as the course writer
 * would (the texts of a lab once, however many questions use it).  So
 * `quizc --check` refuses what writing would.  True when all are safe.
 */
bool xmlchars_check_course(struct diag *d, const struct qz_course *c);

#endif
