/*
 * The check macros (runtime/callcheck.h): a failed call prints its site, the
 * call and the library's own error string, and ends the process with
 * status 1, or hands over to the fail hook a backend installed (the cuda
 * backend's ends only the failing rank's thread, the mpi backend's the job).  The error strings come from the libraries without a GPU, so
 * these run everywhere nvcc is.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>

#include "callcheck.h"

Test(callcheck, a_report_names_the_site_the_call_and_the_reason, .init = cr_redirect_stderr)
{
    callcheck_report("CUDA", "cudaMalloc(&p, n)", "dev.c", 42, "out of memory", NULL);
    callcheck_report("NCCL", "ncclSend(...)", "comm.c", 7, "unhandled system error", "peer 3 unreachable");
    fflush(stderr);
    cr_assert_stderr_eq_str("dev.c:42: error: CUDA call `cudaMalloc(&p, n)` failed: out of memory\n"
                            "comm.c:7: error: NCCL call `ncclSend(...)` failed: unhandled system error "
                            "(peer 3 unreachable)\n");
}

Test(callcheck, a_successful_call_passes_through_each_macro)
{
    int calls = 0;
    CUDA_CHECK((calls++, cudaSuccess));
    CUBLAS_CHECK((calls++, CUBLAS_STATUS_SUCCESS));
    NCCL_CHECK((calls++, ncclSuccess));
    cr_assert_eq(calls, 3, "each call is evaluated exactly once");
}

/* The failing ones end the process: Criterion checks the status, stderr goes to the log. */
Test(callcheck, a_failed_cuda_call_exits_with_status_1, .exit_code = 1)
{
    CUDA_CHECK(cudaErrorInvalidValue);
}

Test(callcheck, a_failed_cublas_call_exits_with_status_1, .exit_code = 1)
{
    CUBLAS_CHECK(CUBLAS_STATUS_NOT_INITIALIZED);
}

Test(callcheck, a_failed_nccl_call_exits_with_status_1, .exit_code = 1)
{
    NCCL_CHECK(ncclInvalidArgument);
}

Test(callcheck, the_cuda_reason_is_the_runtime_s_own_string, .init = cr_redirect_stderr)
{
    callcheck_report("CUDA", "x", "f.c", 1, cudaGetErrorString(cudaErrorInvalidValue), NULL);
    callcheck_report("cuBLAS", "y", "f.c", 2, cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED), NULL);
    callcheck_report("NCCL", "z", "f.c", 3, ncclGetErrorString(ncclInvalidArgument), NULL);
    fflush(stderr);
    char want[512];
    snprintf(want, sizeof want,
             "f.c:1: error: CUDA call `x` failed: %s\nf.c:2: error: cuBLAS call `y` failed: %s\n"
             "f.c:3: error: NCCL call `z` failed: %s\n",
             cudaGetErrorString(cudaErrorInvalidValue),
             cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED),
             ncclGetErrorString(ncclInvalidArgument));
    cr_assert_stderr_eq_str(want);
}

/* ---- The fail hook ------------------------------------------------------- */

static void end_with_3(void)
{
    _exit(3);
}

Test(callcheck, an_installed_fail_hook_decides_how_the_process_ends, .exit_code = 3)
{
    (void)callcheck_set_fail_hook(end_with_3);
    NCCL_CHECK(ncclInvalidArgument);
}

static void hook_returns(void)
{
}

Test(callcheck, a_fail_hook_that_returns_still_ends_the_process_with_status_1, .exit_code = 1)
{
    (void)callcheck_set_fail_hook(hook_returns);
    CUDA_CHECK(cudaErrorInvalidValue);
}

Test(callcheck, setting_a_fail_hook_returns_the_one_it_replaces)
{
    cr_assert_null(callcheck_set_fail_hook(end_with_3));
    cr_assert_eq(callcheck_set_fail_hook(hook_returns), end_with_3);
    cr_assert_eq(callcheck_set_fail_hook(NULL), hook_returns);
    cr_assert_null(callcheck_set_fail_hook(NULL));
}

/* As the cuda backend's hook does for a rank: end the calling thread only. */
static int hooked;

static void end_thread(void)
{
    hooked++;
    pthread_exit(NULL);
}

static int failing_line;     /* the line of failing_rank's check */

static void *failing_rank(void *arg)
{
    int *after = arg;
    failing_line = __LINE__ + 1;
    CUBLAS_CHECK(CUBLAS_STATUS_NOT_INITIALIZED);
    *after = 1;
    return NULL;
}

Test(callcheck, a_fail_hook_can_end_just_the_thread_whose_call_failed, .init = cr_redirect_stderr)
{
    int after = 0;
    pthread_t th;
    (void)callcheck_set_fail_hook(end_thread);
    cr_assert_eq(pthread_create(&th, NULL, failing_rank, &after), 0);
    cr_assert_eq(pthread_join(th, NULL), 0);
    (void)callcheck_set_fail_hook(NULL);
    cr_assert_eq(hooked, 1, "the hook ran once");
    cr_assert_eq(after, 0, "the failing thread did not go on past its check");
    fflush(stderr);
    char want[256];
    snprintf(want, sizeof want, "%s:%d: error: cuBLAS call `CUBLAS_STATUS_NOT_INITIALIZED` failed: %s\n",
             __FILE__, failing_line, cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED));
    cr_assert_stderr_eq_str(want);
}
