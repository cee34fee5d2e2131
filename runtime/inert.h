/*
 * inert.h — a manifest's words made safe to print on a terminal.
 *
 * A lab.qz found on disk (a labs/ folder beside someone's quiz) is text
 * labrun did not write; printed as it is, an ESC could recolour, move the
 * cursor or retitle the terminal, a CR or backspace could overwrite what
 * --help or --list just said.  Every manifest text labrun prints goes
 * through term_inert.
 */
#ifndef RT_INERT_H
#define RT_INERT_H

#include <stdio.h>

/*
 * s with every control character shown as an escape and so inert: C0
 * controls but newline and tab, and DEL, as "\x1b"; C1 controls (U+0080 to
 * U+009F, in UTF-8) as "\u009b".  A new string; NULL gives "".
 */
char *term_inert(const char *s);

#endif
