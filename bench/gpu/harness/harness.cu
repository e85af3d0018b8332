/* Timing harness of the PolyBench GPU suite (bench/gpu/polybench.sh).
 *
 * It #includes one file that lf-translate --target=cuda emitted for one
 * workload (LFB_SRC) and calls its host function (the kernel's func.func,
 * which allocates device buffers, copies, launches and copies back as the lf
 * pipeline placed them). specs.h says which workload (-DLFB_GEMM, ...), its
 * arrays and the call; the sizes are -DLFB_NI=... etc.
 *
 * Builds (polybench.sh does this):
 *   nvcc -O3 -arch=sm_90 -DLFB_GEMM -DLFB_NI=1024 ... -DLFB_SRC='"ihop.cu"' harness.cu
 *   g++ -O3 -x c++ -DLFB_CPU -DLFB_GEMM ... -DLFB_SRC='"cpu.cu"' harness.cu    (CPU-only code)
 *
 * Run:  harness VARIANT DUMP [--runs=R] [--kruns=K] [--ref=NAME:FILE]...
 *   - fills the arrays with deterministic pseudo-random values in [0.5, 1.5)
 *     (LFB_OUT arrays with NaN), restores them before every call; the arrays'
 *     element type is lfb_elem (specs.h's LFB_ELEM for the workload: double
 *     for the fp64 mgrid stencils, float by default);
 *   - one call whose outputs are written to DUMP (raw lfb_elem, the written arrays
 *     in argument order) and compared with each --ref dump (relative L2 error,
 *     NaN or a size mismatch fails);
 *   - GPU: a warm-up call, R timed calls (CUDA events around the call; the
 *     median is reported), then K instrumented calls (default 3) that record an event
 *     after every cudaMemcpy, cudaMalloc/cudaFree and kernel launch of the
 *     emitted code, to split the time into kernels, copies and the rest;
 *   - CPU: timed with std::chrono, R calls or until LFB_CPU_BUDGET_S seconds
 *     (default 20) have been spent, at least one.
 * Prints one line:
 *   PB|workload|variant|median_ms|min_ms|kernel_ms|copy_ms|launches|runs|GFLOP/s|checks|status
 * where checks is "NAME=relerr" per --ref and status PASS or FAIL (with
 * LFB_ELEM_TOL, specs.h's per-element tolerance, "NAME=relerr/N" where N
 * elements differ by more than it: any such element fails the check; against
 * the reference named cpu the tolerance is LFB_ELEM_TOL_CPU where the spec
 * sets one); on the
 * GPU a second line splits the kernels' time by launch, in launch order:
 *   PBL|workload|variant|median_ms,median_ms,...|min_ms,min_ms,...
 * Exit status 1 on a failed check or a CUDA error. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#ifndef LFB_SRC
#error "define LFB_SRC, the emitted file to include"
#endif

#ifndef LFB_CPU
#include <cuda_runtime.h>

#define LFB_CHECK(call)                                                                          \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      fprintf(stderr, "harness %s:%d: CUDA error %s\n", __FILE__, __LINE__, cudaGetErrorName(e_)); \
      exit(1);                                                                                   \
    }                                                                                            \
  } while (0)

/* Instrumentation: while lfb_instrument is set, every hooked call records an
 * event after itself; the interval from the previous event to it is charged
 * to its kind. All work of the emitted code goes to the default stream, so
 * the intervals tile the call. */
enum { LFB_K_KERNEL = 0, LFB_K_COPY = 1, LFB_K_OTHER = 2 };
static int lfb_instrument = 0;
static std::vector<cudaEvent_t> lfb_events;
static std::vector<int> lfb_kinds;
static size_t lfb_nev = 0;
static long lfb_launches = 0;

static void lfb_record(int kind) {
  if (lfb_nev == lfb_events.size()) {
    cudaEvent_t e;
    LFB_CHECK(cudaEventCreate(&e));
    lfb_events.push_back(e);
    lfb_kinds.push_back(0);
  }
  LFB_CHECK(cudaEventRecord(lfb_events[lfb_nev], 0));
  lfb_kinds[lfb_nev++] = kind;
}

/* Busy SMs for about 2M cycles (1 ms at full clock). */
__global__ void lfb_spin_kernel(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

static void lfb_mark(int kind) {
  if (kind == LFB_K_KERNEL) lfb_launches++;
  if (!lfb_instrument) return;
  lfb_record(kind);
  if (kind != LFB_K_KERNEL) {
    /* After a copy (tens of milliseconds of host copies for the large
     * inputs) the SMs have idled and lowered their clocks; the kernel after
     * it would be timed while they ramp up, which the hand-written
     * references (timed back to back) are not. Keep the SMs busy for a
     * moment, charged to "other", so that kernels are timed warm. */
    lfb_spin_kernel<<<1024, 128>>>(2000000);
    lfb_record(LFB_K_OTHER);
  }
}

static cudaError_t lfb_memcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k) {
  cudaError_t e = cudaMemcpy(dst, src, n, k);
  lfb_mark(LFB_K_COPY);
  return e;
}
static cudaError_t lfb_malloc(void **p, size_t n) {
  cudaError_t e = cudaMalloc(p, n);
  lfb_mark(LFB_K_OTHER);
  return e;
}
static cudaError_t lfb_free(void *p) {
  cudaError_t e = cudaFree(p);
  lfb_mark(LFB_K_OTHER);
  return e;
}
static cudaError_t lfb_memset(void *p, int v, size_t n) {
  cudaError_t e = cudaMemset(p, v, n);
  lfb_mark(LFB_K_COPY);
  return e;
}
/* the emitter checks every launch with cudaPeekAtLastError() */
static cudaError_t lfb_after_launch(void) {
  cudaError_t e = cudaPeekAtLastError();
  lfb_mark(LFB_K_KERNEL);
  return e;
}

#define cudaMemcpy lfb_memcpy
#define cudaMalloc lfb_malloc
#define cudaFree lfb_free
#define cudaMemset lfb_memset
#define cudaPeekAtLastError lfb_after_launch
#endif /* !LFB_CPU */

/* the CPU version is a program (lf-translate needs a @main for CPU-only
 * code): keep its main out of the way */
#define main static lfb_emitted_main
#include LFB_SRC
#undef main

#ifndef LFB_CPU
#undef cudaMemcpy
#undef cudaMalloc
#undef cudaFree
#undef cudaMemset
#undef cudaPeekAtLastError
#endif

#include "specs.h"

static double lfb_now_ms(void) {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

/* deterministic values in [0.5, 1.5): never zero (zeros hide wrong indexing) */
static lfb_elem lfb_value(uint64_t array, uint64_t i) {
  uint64_t x = (array + 1) * 0x9E3779B97F4A7C15ull ^ (i + 0x632BE59BD9B4E019ull);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  /* in the element type: for float exactly 0.5f + (float)k / 1000000.0f */
  return (lfb_elem)0.5 + (lfb_elem)(x % 1000000) / (lfb_elem)1000000.0;
}

struct lfb_state {
  std::vector<lfb_elem *> work;      /* what the function gets */
  std::vector<lfb_elem *> pristine;  /* the start values */
};

static void lfb_restore(lfb_state &s) {
  for (int a = 0; a < lfb_narrays; a++)
    memcpy(s.work[a], s.pristine[a], (size_t)lfb_arrays[a].count * sizeof(lfb_elem));
}

static double lfb_median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void lfb_sync(void) {
#ifndef LFB_CPU
  LFB_CHECK(cudaDeviceSynchronize());
  LFB_CHECK(cudaGetLastError());
#endif
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s VARIANT DUMP [--runs=R] [--kruns=K] [--ref=NAME:FILE]...\n", argv[0]);
    return 2;
  }
  const char *variant = argv[1];
  const char *dump = argv[2];
  int runs = 20, kruns = 3;
  std::vector<std::pair<std::string, std::string>> refs;
  for (int i = 3; i < argc; i++) {
    if (!strncmp(argv[i], "--runs=", 7)) {
      runs = atoi(argv[i] + 7);
    } else if (!strncmp(argv[i], "--kruns=", 8)) {
      kruns = atoi(argv[i] + 8);
      if (kruns < 1) kruns = 1;
    } else if (!strncmp(argv[i], "--ref=", 6)) {
      std::string r = argv[i] + 6;
      size_t c = r.find(':');
      if (c == std::string::npos) {
        fprintf(stderr, "bad --ref %s (NAME:FILE)\n", argv[i]);
        return 2;
      }
      refs.push_back({r.substr(0, c), r.substr(c + 1)});
    } else {
      fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }

  lfb_state s;
  for (int a = 0; a < lfb_narrays; a++) {
    size_t n = (size_t)lfb_arrays[a].count;
    lfb_elem *w = (lfb_elem *)malloc(n * sizeof(lfb_elem));
    lfb_elem *p = (lfb_elem *)malloc(n * sizeof(lfb_elem));
    if (!w || !p) {
      fprintf(stderr, "out of host memory\n");
      return 1;
    }
    for (size_t i = 0; i < n; i++) p[i] = lfb_arrays[a].role == LFB_OUT ? NAN : lfb_value((uint64_t)a, i);
    s.work.push_back(w);
    s.pristine.push_back(p);
  }
  lfb_fixup(s.pristine.data());

  /* the checked call (also the CPU's first timing sample) */
  lfb_restore(s);
  double t0 = lfb_now_ms();
  lfb_call(s.work.data());
  lfb_sync();
  double first_ms = lfb_now_ms() - t0;

  std::vector<lfb_elem> out;
  for (int a = 0; a < lfb_narrays; a++)
    if (lfb_arrays[a].role != LFB_IN) out.insert(out.end(), s.work[a], s.work[a] + lfb_arrays[a].count);
  int ok = 1;
  size_t nan_count = 0;
  for (lfb_elem v : out) nan_count += isnan(v) ? 1 : 0;
  if (nan_count) ok = 0;
  {
    FILE *f = fopen(dump, "wb");
    if (!f || fwrite(out.data(), sizeof(lfb_elem), out.size(), f) != out.size()) {
      fprintf(stderr, "cannot write %s\n", dump);
      return 1;
    }
    fclose(f);
  }
  std::string checks;
  for (auto &r : refs) {
    FILE *f = fopen(r.second.c_str(), "rb");
    std::vector<lfb_elem> ref(out.size() + 1);
    size_t got = f ? fread(ref.data(), sizeof(lfb_elem), ref.size(), f) : 0;
    if (f) fclose(f);
    char buf[128];
    if (got != out.size()) {
      snprintf(buf, sizeof buf, "%s=%s", r.first.c_str(), f ? "size-mismatch" : "missing");
      if (f) ok = 0; /* a missing reference (its variant failed) is reported, not a failure here */
    } else {
      double num = 0, den = 0;
      for (size_t i = 0; i < out.size(); i++) {
        double d = (double)out[i] - (double)ref[i];
        num += d * d;
        den += (double)ref[i] * (double)ref[i];
      }
      double rel = den > 0 ? sqrt(num / den) : sqrt(num);
      if (!(rel <= 1e-4)) ok = 0;
      snprintf(buf, sizeof buf, "%s=%.2e", r.first.c_str(), rel);
#ifdef LFB_ELEM_TOL
      /* every element within LFB_ELEM_TOL (relative to max(1, |ref|)) of the
       * reference; against the CPU build's, LFB_ELEM_TOL_CPU where the spec sets it */
      double tol = LFB_ELEM_TOL;
#ifdef LFB_ELEM_TOL_CPU
      if (r.first == "cpu") tol = LFB_ELEM_TOL_CPU;
#endif
      size_t ndiff = 0;
      for (size_t i = 0; i < out.size(); i++) {
        double d = fabs((double)out[i] - (double)ref[i]);
        if (!(d <= tol * fmax(1.0, fabs((double)ref[i])))) ndiff++;
      }
      if (ndiff) ok = 0;
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "/%zu", ndiff);
#endif
    }
    if (!checks.empty()) checks += ",";
    checks += buf;
  }
  if (nan_count) {
    char buf[64];
    snprintf(buf, sizeof buf, "%snan=%zu", checks.empty() ? "" : ",", nan_count);
    checks += buf;
  }
  if (checks.empty()) checks = "-";

  std::vector<double> times;
  double kernel_ms = NAN, copy_ms = NAN;
  long launches = 0;
#ifdef LFB_CPU
  launches = 0;
  (void)kruns;
  double budget_ms = 1000.0 * (getenv("LFB_CPU_BUDGET_S") ? atof(getenv("LFB_CPU_BUDGET_S")) : 20.0);
  double spent = first_ms;
  times.push_back(first_ms);
  while ((int)times.size() < runs && spent + first_ms < budget_ms) {
    lfb_restore(s);
    double a = lfb_now_ms();
    lfb_call(s.work.data());
    double b = lfb_now_ms() - a;
    times.push_back(b);
    spent += b;
  }
#else
  (void)first_ms;
  cudaEvent_t e0, e1;
  LFB_CHECK(cudaEventCreate(&e0));
  LFB_CHECK(cudaEventCreate(&e1));
  lfb_launches = 0;
  lfb_restore(s); /* warm-up */
  lfb_call(s.work.data());
  lfb_sync();
  launches = lfb_launches;
  for (int r = 0; r < runs; r++) {
    lfb_restore(s);
    LFB_CHECK(cudaEventRecord(e0, 0));
    lfb_call(s.work.data());
    LFB_CHECK(cudaEventRecord(e1, 0));
    LFB_CHECK(cudaEventSynchronize(e1));
    LFB_CHECK(cudaGetLastError());
    float ms = 0;
    LFB_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    times.push_back(ms);
  }
  std::vector<double> ks, cs;
  std::vector<std::vector<double>> per_launch; /* [launch index][instrumented call] */
  lfb_instrument = 1;
  for (int r = 0; r < kruns; r++) {
    lfb_restore(s);
    lfb_nev = 0;
    LFB_CHECK(cudaEventRecord(e0, 0));
    lfb_call(s.work.data());
    LFB_CHECK(cudaEventRecord(e1, 0));
    LFB_CHECK(cudaEventSynchronize(e1));
    double k = 0, c = 0;
    size_t li = 0;
    cudaEvent_t prev = e0;
    for (size_t i = 0; i < lfb_nev; i++) {
      float ms = 0;
      LFB_CHECK(cudaEventElapsedTime(&ms, prev, lfb_events[i]));
      if (lfb_kinds[i] == LFB_K_KERNEL) {
        k += ms;
        if (per_launch.size() <= li) per_launch.resize(li + 1);
        per_launch[li++].push_back(ms);
      }
      if (lfb_kinds[i] == LFB_K_COPY) c += ms;
      prev = lfb_events[i];
    }
    ks.push_back(k);
    cs.push_back(c);
  }
  lfb_instrument = 0;
  kernel_ms = lfb_median(ks);
  copy_ms = lfb_median(cs);
#endif
  double med = lfb_median(times);
  double mn = *std::min_element(times.begin(), times.end());
  double gflops = lfb_flops / (med * 1e6);
  printf("PB|%s|%s|%.4f|%.4f|%.4f|%.4f|%ld|%zu|%.2f|%s|%s\n", LFB_NAME, variant, med, mn, kernel_ms, copy_ms,
         launches, times.size(), gflops, checks.c_str(), ok ? "PASS" : "FAIL");
#ifndef LFB_CPU
  {
    std::string meds, mins;
    for (auto &v : per_launch) {
      char buf[64];
      snprintf(buf, sizeof buf, "%s%.4f", meds.empty() ? "" : ",", lfb_median(v));
      meds += buf;
      snprintf(buf, sizeof buf, "%s%.4f", mins.empty() ? "" : ",", *std::min_element(v.begin(), v.end()));
      mins += buf;
    }
    printf("PBL|%s|%s|%s|%s\n", LFB_NAME, variant, meds.empty() ? "-" : meds.c_str(), mins.empty() ? "-" : mins.c_str());
  }
#endif
  fflush(stdout);
  return ok ? 0 : 1;
}
