/*
 * i18n.h — labrun's own words in the learner's language: _("...") marks a
 * message (a heading, a table's title or columns, a lab's note or check)
 * and gives its translation from the catalogue labrun_lang chose (GNU
 * gettext, domain "labrun", po/LANG.po); the English msgid where there is
 * none.  A printf format marked so keeps its placeholders: msgfmt
 * --check-format rejects a translation whose placeholders differ.
 *
 * A build without gettext (LABRUN_NO_GETTEXT, or Emscripten's) gets the
 * English msgid from _(), so every file that uses it still compiles.
 */
#ifndef LABRUN_I18N_H
#define LABRUN_I18N_H

#if defined(LABRUN_NO_GETTEXT) || defined(__EMSCRIPTEN__)
/* No catalogue: the English msgid. */
#define _(msgid) ((const char *)(msgid))
#define ngettext(one, many, n) ((n) == 1 ? (one) : (many))
#else
#include <libintl.h>
#define _(msgid) gettext(msgid)
#endif

/* A message marked for the catalogue but translated where it is shown (a table of words). */
#define N_(msgid) msgid

#if defined(LABRUN_NO_GETTEXT) || defined(__EMSCRIPTEN__)
/* No catalogue (the WebAssembly build compiles no i18n.c): English, whatever is asked. */
static inline void labrun_lang(const char *lang)
{
    (void)lang;
}

static inline const char *labrun_current_lang(void)
{
    return "en";
}
#else
/*
 * Choose lang ("en", "id") for every _() after it: the catalogue beside the
 * program (build/locale, from `make`), else the installed one
 * (PREFIX/share/locale).  English needs none.  LC_NUMERIC stays "C", so
 * printf writes the point JSON needs; the report's figures take their
 * language's decimal mark from num_in_lang.
 */
void labrun_lang(const char *lang);

/* The language labrun_lang chose ("en" before it), for numbers a lab writes into its words. */
const char *labrun_current_lang(void);
#endif

#endif
