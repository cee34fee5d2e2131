/*
 * i18n.h — labrun's own words in the learner's language: _("...") marks a
 * message (a heading, a table's title or columns, a lab's note or check)
 * and gives its translation from the catalogue labrun_lang chose (GNU
 * gettext, domain "labrun", po/LANG.po); the English msgid where there is
 * none.  A printf format marked so keeps its placeholders: msgfmt
 * --check-format rejects a translation whose placeholders differ.
 *
 * A build without gettext (LABRUN_NO_GETTEXT) gets the English msgid from
 * _(), so every file that uses it still compiles.  The WebAssembly build
 * (Emscripten) has no gettext either: runtime/web/i18n_web.c reads the same
 * compiled catalogue, embedded in the module.
 */
#ifndef LABRUN_I18N_H
#define LABRUN_I18N_H

#include <stdbool.h>

#if defined(__EMSCRIPTEN__)
/* The embedded catalogue's translation, else the msgid (i18n_web.c). */
const char *labrun_gettext(const char *msgid);
const char *labrun_ngettext(const char *one, const char *many, unsigned long n);
#define _(msgid) labrun_gettext(msgid)
#define ngettext(one, many, n) labrun_ngettext(one, many, n)
#elif defined(LABRUN_NO_GETTEXT)
/* No catalogue: the English msgid. */
#define _(msgid) ((const char *)(msgid))
#define ngettext(one, many, n) ((n) == 1 ? (one) : (many))
#else
#include <libintl.h>
#define _(msgid) gettext(msgid)
#endif

/*
 * The languages labrun speaks, NULL-terminated: its catalogue's (po/LANG.po)
 * and English, which are those every lab's manifest (labs/NAME/lab.qz) is
 * written in; quizc warns when a quiz's language is missing from one.
 */
extern const char *const labrun_langs[];

/* A message marked for the catalogue but translated where it is shown (a table of words). */
#define N_(msgid) msgid

#if defined(LABRUN_NO_GETTEXT) && !defined(__EMSCRIPTEN__)
/* No catalogue: English, whatever is asked. */
static inline void labrun_lang(const char *lang)
{
    (void)lang;
}

static inline bool labrun_has_catalogue(const char *lang)
{
    return lang[0] == 'e' && lang[1] == 'n' && !lang[2];
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
 * language's decimal mark from num_in_lang.  In the WebAssembly build, the
 * catalogue embedded in the module (/locale/LANG/labrun.mo); a language
 * without one is English.
 */
void labrun_lang(const char *lang);

/* The language labrun_lang chose ("en" before it), for numbers a lab writes into its words. */
const char *labrun_current_lang(void);

/* Whether labrun_lang(lang) gives lang's words: English, or a language whose catalogue is installed. */
bool labrun_has_catalogue(const char *lang);
#endif

#endif
