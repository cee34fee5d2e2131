/*
 * callcheck.h — the one set of check macros for CUDA, cuBLAS, NCCL and MPI calls.
 *
 * Each macro evaluates its call once; on failure it prints
 *     FILE:LINE: error: LIB call `CALL` failed: REASON
 * where REASON is the library's own error string, then ends the process with
 * status 1 (MPI_CHECK aborts the whole MPI job, so no rank is left waiting).
 * A backend may install a fail hook that runs first: the cuda backend's ends
 * just the failing rank's thread after aborting NCCL, so the other ranks stop
 * waiting for it; the mpi backend's aborts the whole job (exit's
 * MPI_Finalize would wait for ranks stuck in NCCL).
 * They are statements, never expressions: do not put them inside assert, which
 * NDEBUG would compile away together with the call.
 *
 * Include the library's header before this one; a macro is only usable where
 * the library it names is.  Works from C and from CUDA C++.
 */
#ifndef RT_CALLCHECK_H
#define RT_CALLCHECK_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Print the failure in the format above (to stderr), nothing else.  detail,
 * when not NULL or empty, is appended in parentheses (NCCL's last-error text).
 */
void callcheck_report(const char *lib, const char *call, const char *file, int line,
                  const char *reason, const char *detail);

/*
 * What callcheck_fail calls after its report: it may end the thread or the
 * process; if it returns, the process exits with status 1.
 */
typedef void (*callcheck_hook)(void);

/*
 * Install hook (NULL: none) and return the one it replaces.  Call only while
 * no other thread makes checked calls (before a launch starts its ranks, after
 * it has joined them).
 */
callcheck_hook callcheck_set_fail_hook(callcheck_hook hook);

/* callcheck_report, then the fail hook, then exit(1). */
__attribute__((noreturn))
void callcheck_fail(const char *lib, const char *call, const char *file, int line,
                const char *reason, const char *detail);

#ifdef __cplusplus
}
#endif

#define CUDA_CHECK(call) do { \
        cudaError_t chk_e_ = (call); \
        if (chk_e_ != cudaSuccess) \
            callcheck_fail("CUDA", #call, __FILE__, __LINE__, cudaGetErrorString(chk_e_), NULL); \
    } while (0)

#define CUBLAS_CHECK(call) do { \
        cublasStatus_t chk_s_ = (call); \
        if (chk_s_ != CUBLAS_STATUS_SUCCESS) \
            callcheck_fail("cuBLAS", #call, __FILE__, __LINE__, cublasGetStatusString(chk_s_), NULL); \
    } while (0)

/* ncclGetLastError(NULL) adds NCCL's detail ("peer 3 unreachable") to the code's name. */
#define NCCL_CHECK(call) do { \
        ncclResult_t chk_r_ = (call); \
        if (chk_r_ != ncclSuccess && chk_r_ != ncclInProgress) \
            callcheck_fail("NCCL", #call, __FILE__, __LINE__, ncclGetErrorString(chk_r_), \
                       ncclGetLastError(NULL)); \
    } while (0)

/* MPI's default handler aborts before we see the code; comm_mpi sets MPI_ERRORS_RETURN. */
#define MPI_CHECK(call) do { \
        int chk_m_ = (call); \
        if (chk_m_ != MPI_SUCCESS) { \
            char chk_b_[MPI_MAX_ERROR_STRING]; \
            int chk_n_ = 0; \
            if (MPI_Error_string(chk_m_, chk_b_, &chk_n_) != MPI_SUCCESS) \
                snprintf(chk_b_, sizeof chk_b_, "MPI error code %d", chk_m_); \
            callcheck_report("MPI", #call, __FILE__, __LINE__, chk_b_, NULL); \
            MPI_Abort(MPI_COMM_WORLD, 1); \
        } \
    } while (0)

#endif
