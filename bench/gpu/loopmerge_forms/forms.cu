// Shapes of the merged SYN-LM loop (32-FMA body, VAR 0/5/10), written by
// hand in CUDA to find what makes a merged loop fast on a GPU, timed in one
// program next to lf's own kernels for the same nest (lf_forms.cuh, made by
// ../loopmerge_forms.sh prepare). Not part of lf: an experiment whose
// numbers docs/design/loop-merge.md quotes ("What the merged loop costs").
//
// Every kernel runs, per thread t, the nest of examples/gen.py syn_lm_f32_*:
//   x = X[t]; y = .2; z = .3; w = .4; acc = 0
//   for o < OUTER: for i < trips[o][t]: 8 x {x = fma(x,.5,y); y = fma(y,1,.25);
//                                           z = fma(z,.5,x); w = fma(w,.25,z)}
//                  acc += w
//   Y[t] = acc
// and every result is compared bit for bit with lf's nested loop (lf_naive).
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <string>
#include <vector>
#include "lf_forms.cuh"
#define NT (1 << 20)
#define OUTER 1000
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define TID (blockIdx.x * 256 + threadIdx.x)
#define BODY1(H, ONE, Q) x = fmaf(x, H, y); y = fmaf(y, ONE, Q); z = fmaf(z, H, x); w = fmaf(w, Q, z);
#define BODY(H, ONE, Q) BODY1(H, ONE, Q) BODY1(H, ONE, Q) BODY1(H, ONE, Q) BODY1(H, ONE, Q) \
                        BODY1(H, ONE, Q) BODY1(H, ONE, Q) BODY1(H, ONE, Q) BODY1(H, ONE, Q)
#define BODYC BODY(0.5f, 1.0f, 0.25f)

// trips[o][t], uniform on [20 - var, 20 + var] (a 64-bit mix of o * NT + t)
__global__ void make_trips(int8_t* trips, int var, uint32_t seed) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < (size_t)OUTER * NT; k += (size_t)gridDim.x * blockDim.x) {
    uint64_t h = (k + seed) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
    trips[k] = (int8_t)(20 - var + (int)(h % (uint64_t)(2 * var + 1)));
  }
}

// The nested loops with every constant in the kernel: nvcc unrolls the inner loop.
__global__ void __launch_bounds__(256) nested_sunk(const float* X, const int8_t* trips, float* Y) {
  const int t = TID; float x = X[t], y = .2f, z = .3f, w = .4f, acc = 0.f;
  for (int o = 0; o < OUTER; o++) { int n = (uint8_t)trips[o * NT + t]; for (int i = 0; i < n; i++) { BODYC } acc += w; }
  Y[t] = acc;
}

// Rotated, branches: an inner iteration when one is left, then the transition in the same trip.
// (nvcc's jump threading turns `if (c0) body` back into the inner loop: the nest again.)
template <bool PF>
__device__ __forceinline__ void rotated_branch(const float* X, const int8_t* trips, float* Y) {
  const int t = TID; float x = X[t], y = .2f, z = .3f, w = .4f, acc = 0.f;
  int o = 0, n = (uint8_t)trips[t], i = 0, nn = (PF && 1 < OUTER) ? (uint8_t)trips[NT + t] : 0; bool c0 = 0 < n;
  while (1) {
    if (c0) { BODYC; i += 1; c0 = i < n; }
    if (!c0) {
      acc += w; o += 1; if (o >= OUTER) break;
      if (PF) { n = nn; if (o + 1 < OUTER) nn = (uint8_t)trips[(o + 1) * NT + t]; } else n = (uint8_t)trips[o * NT + t];
      i = 0; c0 = 0 < n;
    }
  }
  Y[t] = acc;
}
__global__ void __launch_bounds__(256) rot_branch(const float* X, const int8_t* T, float* Y) { rotated_branch<false>(X, T, Y); }
__global__ void __launch_bounds__(256) rot_branch_pf(const float* X, const int8_t* T, float* Y) { rotated_branch<true>(X, T, Y); }

// Transition first: the trip begins with a loop of transitions while the inner loop has ended (empty inner
// loops take several), then an inner iteration with no guard.
template <bool PF>
__device__ __forceinline__ void transition_first(const float* X, const int8_t* trips, float* Y, int lb, int step, float h, float one, float q) {
  const int t = TID; float x = X[t], y = .2f, z = .3f, w = .4f, acc = 0.f;
  int o = 0; bool c1 = o < OUTER; int n = 0, i = 0, nn = 0; bool c0 = false;
  if (c1) { n = (uint8_t)trips[t]; i = lb; c0 = i < n; if (PF && 1 < OUTER) nn = (uint8_t)trips[NT + t]; }
  while (1) {
    while (!c0 && c1) {
      acc += w; o += 1; c1 = o < OUTER;
      if (c1) { if (PF) { n = nn; if (o + 1 < OUTER) nn = (uint8_t)trips[(o + 1) * NT + t]; } else n = (uint8_t)trips[o * NT + t]; i = lb; c0 = i < n; }
    }
    if (!c1) break;
    BODY(h, one, q);
    i += step; c0 = i < n;
  }
  Y[t] = acc;
}
__global__ void __launch_bounds__(256) tfirst(const float* X, const int8_t* T, float* Y) { transition_first<false>(X, T, Y, 0, 1, .5f, 1.f, .25f); }
__global__ void __launch_bounds__(256) tfirst_pf(const float* X, const int8_t* T, float* Y) { transition_first<true>(X, T, Y, 0, 1, .5f, 1.f, .25f); }
__global__ void __launch_bounds__(256) tfirst_pf_args(const float* X, const int8_t* T, float* Y, int lb, int step, float h, float one, float q) { transition_first<true>(X, T, Y, lb, step, h, one, q); }

// Rotated, the body speculated (computed on every trip, its results kept by selects where an inner iteration was
// left), the transition by selects with the next trip count prefetched. MIDEXIT: the exit test right after the
// body, so the selects that read the prefetched value sit after the next body (without it, the compiler puts them
// at the top of the trip and the warp waits for the load there). GUARD=false: no speculation at all (correct only
// when every inner loop runs at least once, as here).
template <bool MIDEXIT, bool GUARD>
__device__ __forceinline__ void rotated_select(const float* X, const int8_t* trips, float* Y, int lb, int step) {
  const int t = TID; float x = X[t], y = .2f, z = .3f, w = .4f, acc = 0.f;
  int o = 0; int n = (uint8_t)trips[t]; int nn = 1 < OUTER ? (uint8_t)trips[NT + t] : 0;
  int i = lb; bool c0 = i < n; bool active = true;
  while (MIDEXIT || active) {
    if (GUARD) {
      float x0 = x, y0 = y, z0 = z, w0 = w;
      { float x = x0, y = y0, z = z0, w = w0; BODYC; x0 = x; y0 = y; z0 = z; w0 = w; }
      x = c0 ? x0 : x; y = c0 ? y0 : y; z = c0 ? z0 : z; w = c0 ? w0 : w;
    } else {
      BODYC;
    }
    int i1 = i + step;
    bool c0b = c0 && (i1 < n);
    i = c0 ? i1 : i;
    bool ended = !c0b;
    acc = ended ? acc + w : acc;
    int o1 = o + 1; bool c1 = o1 < OUTER;
    if (MIDEXIT && ended && !c1) break;
    n = ended ? nn : n;
    if (ended && c1 && o1 + 1 < OUTER) nn = (uint8_t)trips[(o1 + 1) * NT + t];
    i = ended ? lb : i;
    c0 = ended ? (lb < n) : c0b;
    o = ended ? o1 : o;
    active = ended ? c1 : true;
  }
  Y[t] = acc;
}
__global__ void __launch_bounds__(256) rot_sel(const float* X, const int8_t* T, float* Y) { rotated_select<false, true>(X, T, Y, 0, 1); }
__global__ void __launch_bounds__(256) rot_sel_midexit(const float* X, const int8_t* T, float* Y) { rotated_select<true, true>(X, T, Y, 0, 1); }
__global__ void __launch_bounds__(256) rot_sel_midexit_args(const float* X, const int8_t* T, float* Y, int lb, int step) { rotated_select<true, true>(X, T, Y, lb, step); }
__global__ void __launch_bounds__(256) rot_sel_midexit_noguard(const float* X, const int8_t* T, float* Y) { rotated_select<true, false>(X, T, Y, 0, 1); }

typedef void (*Launch)(const float*, const int8_t*, float*);
struct Form { const char* name; Launch launch; };
#define K(k, ...) [](const float* X, const int8_t* T, float* Y) { k<<<NT / 256, 256>>>(X, T, Y, ##__VA_ARGS__); }

int main(int argc, char** argv) {
  std::vector<Form> forms = {
#define LF_FORM(name) {#name, launch_##name},
      LF_FORMS
#undef LF_FORM
      {"nested_sunk", K(nested_sunk)},
      {"rot_branch", K(rot_branch)},
      {"rot_branch_pf", K(rot_branch_pf)},
      {"tfirst", K(tfirst)},
      {"tfirst_pf", K(tfirst_pf)},
      {"tfirst_pf_args", K(tfirst_pf_args, 0, 1, .5f, 1.f, .25f)},
      {"rot_sel", K(rot_sel)},
      {"rot_sel_midexit", K(rot_sel_midexit)},
      {"rot_sel_midexit_args", K(rot_sel_midexit_args, 0, 1)},
      {"rot_sel_midexit_noguard", K(rot_sel_midexit_noguard)},
  };
  // arguments: run only the forms whose name contains one of them (and lf_naive, the reference)
  if (argc > 1) {
    std::vector<Form> some = {forms[0]};
    for (size_t k = 1; k < forms.size(); k++)
      for (int a = 1; a < argc; a++)
        if (strstr(forms[k].name, argv[a])) { some.push_back(forms[k]); break; }
    forms = some;
  }
  float *X, *Y; int8_t* trips;
  CK(cudaMalloc(&X, NT * 4)); CK(cudaMalloc(&Y, NT * 4));
  CK(cudaMalloc(&trips, (size_t)OUTER * NT));
  std::vector<float> hx(NT), ref(NT), got(NT);
  for (int k = 0; k < NT; k++) hx[k] = 0.1f * (k % 7);
  CK(cudaMemcpy(X, hx.data(), NT * 4, cudaMemcpyHostToDevice));
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  printf("| VAR | form | ms | x lf_naive | check |\n|---|---|---|---|---|\n");
  for (int var : {0, 5, 10}) {
    make_trips<<<4096, 256>>>(trips, var, 12345u); CK(cudaDeviceSynchronize());
    float base = 0;
    for (const Form& f : forms) {
      CK(cudaMemset(Y, 0xff, NT * 4));
      f.launch(X, trips, Y); CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(got.data(), Y, NT * 4, cudaMemcpyDeviceToHost));
      if (f.launch == forms[0].launch) ref = got;
      int differ = 0;
      for (int k = 0; k < NT; k++) differ += memcmp(&got[k], &ref[k], 4) != 0;
      std::vector<float> ts;
      for (int r = 0; r < 5; r++) {
        cudaEventRecord(a); f.launch(X, trips, Y); cudaEventRecord(b); CK(cudaEventSynchronize(b));
        float ms; cudaEventElapsedTime(&ms, a, b); ts.push_back(ms);
      }
      std::sort(ts.begin(), ts.end());
      if (f.launch == forms[0].launch) base = ts[2];
      printf("| %d | %s | %.3f | %.3fx | %s |\n", var, f.name, ts[2], base / ts[2], differ ? "FAIL" : "PASS");
    }
  }
  return 0;
}
