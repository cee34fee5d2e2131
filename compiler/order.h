/*
 * order.h — diagnostics in source order.  Lab references are resolved while
 * the quiz is read and the semantic checks run after, so reports arrive
 * grouped by the pass that found them; an author reads them best top to
 * bottom.  While held, every diagnostic (with its notes) is kept in memory
 * and printed sorted by file, line and column when released.
 */
#ifndef QZ_ORDER_H
#define QZ_ORDER_H

#include <stddef.h>

#include "diag.h"

struct order;

/* Hold d's diagnostics from now on (d's output and hook are taken over until order_release). */
struct order *order_hold(struct diag *d);

/* The places of the errors reported so far (borrowed, valid until the next report or release). */
const struct src_loc *order_errors(const struct order *o, size_t *n);

/* Print everything held, in source order, to d's own output; restore d; free o. */
void order_release(struct order *o);

#endif
