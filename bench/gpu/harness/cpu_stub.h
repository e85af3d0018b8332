/* Included first (g++ -include) when a CPU-only translation is built as a
 * program of its own: lf-translate --target=cuda still ends its main with
 * LF_CUDA_CHECK(cudaDeviceSynchronize()), which needs libcudart and a device.
 * Host code only here, so there is nothing to wait for. */
#pragma once
#include <cuda_runtime.h>
#define cudaDeviceSynchronize() cudaSuccess
#define cudaGetErrorName(e) "unreachable"
#define cudaGetErrorString(e) "unreachable"
