/*
 * report_words.c — a run's words in more languages than its own: the lab's
 * report called again in each language (lab_report_words, lab.h), each time
 * into a report of its own, which a recorded run keeps (verify_record.c).
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "report_impl.h"
#include "util.h"

void lab_report_set_languages(struct lab_report *r, const char *const *langs)
{
    r->langs = langs;
}

/* r's report in lang, made empty the first time it is asked for. */
static struct lab_report *words_in(struct lab_report *r, const char *lang)
{
    for (size_t i = 0; i < r->words.n; i++)
        if (strcmp(r->words.items[i]->lang, lang) == 0)
            return r->words.items[i];
    struct lab_report *w = lab_report_new(r->def, r->params, r->backend, r->nranks, r->cores);
    w->lang = lang;
    w->replayed = r->replayed;
    pthread_mutex_lock(&r->lock);
    VEC_PUSH(r->words, w);
    pthread_mutex_unlock(&r->lock);
    return w;
}

/* fn on w in w's language, through a copy of c; the messages go back to r's language after. */
static void call_in(struct lab_ctx *c, struct lab_report *r, struct lab_report *w,
                    int (*fn)(struct lab_ctx *, void *), void *arg)
{
    struct lab_ctx in = *c;
    in.report = w;
    labrun_lang(w->lang);
    fn(&in, arg);
    labrun_lang(r->lang);
}

int lab_report_words(struct lab_ctx *c, int (*report)(struct lab_ctx *c, void *arg), void *arg)
{
    struct lab_report *r = c->report;
    int rc = report(c, arg);
    for (const char *const *l = r->langs; l && *l; l++)
        if (strcmp(*l, r->lang) != 0)
            call_in(c, r, words_in(r, *l), report, arg);
    return rc;
}

void lab_report_words_also(struct lab_ctx *c, int (*fn)(struct lab_ctx *c, void *arg), void *arg)
{
    struct lab_report *r = c->report;
    for (size_t i = 0; i < r->words.n; i++)
        call_in(c, r, r->words.items[i], fn, arg);
}
