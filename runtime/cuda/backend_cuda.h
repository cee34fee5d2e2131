/*
 * backend_cuda.h — what the cuda backend tells beyond struct backend.
 */
#ifndef RT_CUDA_BACKEND_CUDA_H
#define RT_CUDA_BACKEND_CUDA_H

/*
 * One line on how the last cuda launch placed its ranks: a GPU each with
 * NCCL, or all on one GPU as streams.  "" before the first launch.
 */
const char *backend_cuda_placement(void);

#endif
