/*
 * gpu_info — what the GPU check needs to know first: whether the CUDA
 * runtime this build links can talk to the driver, and what each GPU is.
 *
 *     gpu_info            one line per fact; exit 0, or 1 with the driver's reason
 *
 * Prints "driver X.Y runtime X.Y", then per GPU its index, name, compute
 * capability, SMs, peak clock, memory and UUID, and the fp32 peak of its
 * CUDA cores, labelled modelled: SMs x fp32 lanes per SM x 2 (a fused
 * multiply-add) x peak clock; tensor cores (TF32) are not counted, since
 * the labs' fp32 GEMMs do not use them by default.
 */
#include <stdio.h>

#include <cuda_runtime.h>

/* fp32 lanes per SM by compute capability: 64 on 6.0, 7.x and 8.0 (P100, V100, A100), else 128. */
static int fp32_lanes(int major, int minor)
{
    if ((major == 6 && minor == 0) || major == 7 || (major == 8 && minor == 0))
        return 64;
    return 128;
}

int main(void)
{
    int drv = 0, rt = 0, n = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    printf("driver %d.%d runtime %d.%d\n", drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        printf("error: %s\n", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA-capable device is detected");
        return 1;
    }
    printf("gpus %d\n", n);
    for (int g = 0; g < n; g++) {
        struct cudaDeviceProp p;
        int clock_khz = 0, sms = 0;
        if (cudaGetDeviceProperties(&p, g) != cudaSuccess ||
            cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, g) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g) != cudaSuccess) {
            printf("error: GPU %d: %s\n", g, cudaGetErrorString(cudaGetLastError()));
            return 1;
        }
        double peak = (double)sms * fp32_lanes(p.major, p.minor) * 2 * clock_khz * 1e3;
        printf("gpu %d name=\"%s\" cc=%d.%d sms=%d clock_mhz=%d memory_gib=%.1f uuid=GPU-", g, p.name,
               p.major, p.minor, sms, clock_khz / 1000, (double)p.totalGlobalMem / (1 << 30));
        for (int i = 0; i < 16; i++)
            printf("%02x", (unsigned char)p.uuid.bytes[i]);
        printf(" fp32_peak_gflops=%.0f (modelled)\n", peak / 1e9);
    }
    return 0;
}
