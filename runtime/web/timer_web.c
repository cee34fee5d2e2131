/*
 * timer_web.c — the real clocks and the core count of timer.h in the
 * WebAssembly module (timer_real.c's and timer_cores.c's counterparts;
 * timer.c is linked as it is).  The browser gives one clock,
 * performance.now() (emscripten_get_now), coarsened to 0.1 ms or so in a
 * page that is not cross-origin isolated; the module runs on the worker's
 * one thread, so that thread's time is the wall time it ran (the coop
 * backend splits it between the ranks), and there is no core to pin it to.
 * Time spent only to price an operation (gemm_price.c) is taken off both
 * clocks (timer_web_hide), so no rank's virtual time holds it, and an
 * operation too short for the clock counts its price instead of the ticks
 * it spanned (timer_web_price, dev_web.c).
 */
#include <emscripten.h>
#include <stddef.h>

#include "timer.h"
#include "timer_web.h"

/*
 * Seconds taken off the clocks: time spent only to measure (timer_web_hide),
 * and what priced operations took on the clock less their prices (timer_web_price).
 */
static double hidden;

double timer_web_now_ms(void)
{
    return emscripten_get_now();
}

void timer_web_hide(double seconds)
{
    if (seconds > 0)
        hidden += seconds;
}

void timer_web_price(double ticked, double priced)
{
    hidden += ticked - priced;
}

double timer_wall_real(void)
{
    return emscripten_get_now() * 1e-3 - hidden;
}

double timer_thread_cpu_real(void)
{
    return emscripten_get_now() * 1e-3 - hidden;
}

int timer_cores(void)
{
    return 1;
}

void *timer_pin(void)
{
    return NULL;
}

void timer_unpin(void *saved)
{
    (void)saved;
}
