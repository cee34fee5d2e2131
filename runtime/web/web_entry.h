/*
 * web_entry.h — what the WebAssembly module's main (labrun_web.c) can do
 * besides running a lab.
 */
#ifndef RT_WEB_ENTRY_H
#define RT_WEB_ENTRY_H

/* `main --gemm-bench MxNxK...`: the web GEMM timed (gemm_bench.c). */
int gemm_bench_main(int argc, char **argv);
/* `main --gemm-check`: the web GEMM against an fp64 reference (gemm_check.c). */
int gemm_check_main(int argc, char **argv);

#endif
