/*
 * timer_web.h — what the web build's clocks (timer_web.c) add to timer.h.
 */
#ifndef RT_WEB_TIMER_WEB_H
#define RT_WEB_TIMER_WEB_H

/* The browser's clock, milliseconds: what timer_web.c reads, before anything is hidden. */
double timer_web_now_ms(void);

/*
 * Take `seconds` just spent off every clock of the module from now on (the
 * real ones, so the coop backend's virtual ones too): work done only to
 * measure a cost (gemm_price.c) then costs no rank anything.
 */
void timer_web_hide(double seconds);

/*
 * An operation that just took `ticked` seconds on the browser's clock costs
 * `priced` (measured apart, gemm_price.c): every clock of the module moves
 * by priced instead from now on.  Readings around the operation then differ
 * by its price, and a rank's virtual time holds the price.
 */
void timer_web_price(double ticked, double priced);

#endif
