/*
 * i18n.c — choosing the catalogue of labrun's messages (i18n.h).
 */
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "util.h"

#ifndef LABRUN_LOCALEDIR
#define LABRUN_LOCALEDIR "/usr/local/share/locale"
#endif

const char *const labrun_langs[] = { "en", "id", NULL };

#if !defined(LABRUN_NO_GETTEXT) && !defined(__EMSCRIPTEN__)
static const char *current = "en";

const char *labrun_current_lang(void)
{
    return current;
}

/* The folder that holds lang's labrun.mo: build/locale beside a built labrun, else the installed one. */
static char *locale_dir(const char *lang)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char *mo = xasprintf("%s/locale/%s/LC_MESSAGES/labrun.mo", exe, lang);
            struct stat st;
            bool here = stat(mo, &st) == 0;
            free(mo);
            if (here)
                return xasprintf("%s/locale", exe);
        }
    }
    return xstrdup(LABRUN_LOCALEDIR);
}

bool labrun_has_catalogue(const char *lang)
{
    if (strcmp(lang, "en") == 0)
        return true;
    char *dir = locale_dir(lang), *mo = xasprintf("%s/%s/LC_MESSAGES/labrun.mo", dir, lang);
    struct stat st;
    bool here = strchr(lang, '/') == NULL && stat(mo, &st) == 0;
    free(mo);
    free(dir);
    return here;
}

/* Bumped when the language changes: glibc's gettext keeps what it translated until it moves. */
extern int _nl_msg_cat_cntr;

void labrun_lang(const char *lang)
{
    static bool bound;
    if (!lang)
        lang = "en";
    if (strcmp(lang, current) == 0)
        return;
    if (!bound) {
        /*
         * gettext reads LANGUAGE under any locale but "C" and "POSIX": C.UTF-8
         * is one every glibc has, and keeps its messages' bytes as they are.
         * Only LC_MESSAGES changes; numbers stay C's.
         */
        if (!setlocale(LC_MESSAGES, "C.UTF-8"))
            return;
        char *dir = locale_dir(lang);
        bindtextdomain("labrun", dir);
        bind_textdomain_codeset("labrun", "UTF-8");
        textdomain("labrun");
        free(dir);
        bound = true;
    }
    /* English has no catalogue: its messages are the msgids. */
    setenv("LANGUAGE", lang, 1);
    ++_nl_msg_cat_cntr;
    current = lang;
}
#endif
