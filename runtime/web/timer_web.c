/*
 * timer_web.c — the real clocks and the core count of timer.h in the
 * WebAssembly module (timer_real.c's and timer_cores.c's counterparts;
 * timer.c is linked as it is).  The browser gives one clock,
 * performance.now() (emscripten_get_now), coarsened to 0.1 ms or so in a
 * page that is not cross-origin isolated; the module runs on the worker's
 * one thread, so that thread's time is the wall time it ran (the coop
 * backend splits it between the ranks), and there is no core to pin it to.
 */
#include <emscripten.h>
#include <stddef.h>

#include "timer.h"

double timer_wall_real(void)
{
    return emscripten_get_now() * 1e-3;
}

double timer_thread_cpu_real(void)
{
    return emscripten_get_now() * 1e-3;
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
