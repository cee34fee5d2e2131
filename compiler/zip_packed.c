/*
 * zip_packed.c — the stand-in for the zip of packed files (zip.c): none.
 * quizc links the real table (build/gen/packed_res.c), which replaces these
 * weak definitions; the build tool that makes that zip (packzip.c) keeps
 * them, and deflates every file.  They live apart from zip.c so the
 * compiler cannot take zip.c's own empty table for the one linked.
 */
#include "scorm.h"

__attribute__((weak)) const struct scorm_res zip_packed[] = { { 0, 0, 0 } };
__attribute__((weak)) const size_t zip_packed_count = 0;
