/*
 * live_labs.c — the stand-in for the labs' WebAssembly module (scorm.h):
 * none.  When mk/web.mk builds the module, its resource table
 * (build/gen/live_labs_res.c) is linked into quizc and replaces these weak
 * definitions; a quizc built without emscripten keeps them, and its
 * packages have no Run button.
 */
#include "scorm.h"

__attribute__((weak)) const struct scorm_res scorm_live_labs[] = { { 0, 0, 0 } };
__attribute__((weak)) const size_t scorm_live_labs_count = 0;
