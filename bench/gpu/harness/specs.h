/* The workloads of the PolyBench subset, as the timing harness sees them: the
 * arrays of the emitted host function (in its argument order), which of them
 * the kernel writes (compared between variants), and the call. Sizes come
 * from -D flags (LFB_NI, LFB_N, ...) that bench/gpu/polybench.sh takes from the same table it
 * passes to examples/gen.py, so the harness and the emitted code agree.
 *
 * Each spec defines:
 *   LFB_NAME               the workload's name
 *   lfb_arrays[]           {name, element count, role}: LFB_IN (read only),
 *                          LFB_INOUT (random start, compared), LFB_OUT (poisoned
 *                          with NaN before every call, compared: an element the
 *                          kernel does not write fails the check)
 *   lfb_call(p)            calls the emitted function with the arrays p[i]
 *   lfb_fixup(p)           (optional) makes the inputs valid (LU: pivots)
 *   lfb_flops              floating-point operations of one call (for GFLOP/s)
 *   LFB_ELEM_TOL           (optional) every compared element must be within this
 *                          of the reference's (relative to max(1, |ref|)), on top of
 *                          the relative L2 error
 *   LFB_ELEM_TOL_CPU       (optional, with LFB_ELEM_TOL) the same against the CPU
 *                          build's result (reference "cpu") instead
 *   LFB_ELEM               (optional) the arrays' element type, the type of the
 *                          emitted function's pointer arguments (lfb_call's p):
 *                          float unless the spec defines it (double for fp64)
 * Below the specs: lfb_elem, the element type the harness allocates and compares.
 */
#pragma once
#include <stdint.h>

struct lfb_array {
  const char *name;
  int64_t count;
  int role;
};

enum { LFB_IN = 0, LFB_INOUT = 1, LFB_OUT = 2 };

#define LFB_ALPHA 1.5f
#define LFB_BETA 1.2f

#if defined(LFB_GEMM)
#define LFB_NAME "gemm"
static const lfb_array lfb_arrays[] = {{"C", (int64_t)LFB_NI * LFB_NJ, LFB_INOUT}, {"A", (int64_t)LFB_NI * LFB_NK, LFB_IN}, {"B", (int64_t)LFB_NK * LFB_NJ, LFB_IN}};
static void lfb_call(float **p) { gemm(LFB_ALPHA, LFB_BETA, p[0], p[1], p[2]); }
static const double lfb_flops = 3.0 * LFB_NI * LFB_NJ * LFB_NK + LFB_NI * LFB_NJ;

#elif defined(LFB_2MM)
#define LFB_NAME "2mm"
static const lfb_array lfb_arrays[] = {{"tmp", (int64_t)LFB_NI * LFB_NJ, LFB_OUT}, {"A", (int64_t)LFB_NI * LFB_NK, LFB_IN}, {"B", (int64_t)LFB_NK * LFB_NJ, LFB_IN},
                                       {"C", (int64_t)LFB_NJ * LFB_NL, LFB_IN}, {"D", (int64_t)LFB_NI * LFB_NL, LFB_INOUT}};
static void lfb_call(float **p) { kernel_2mm(LFB_ALPHA, LFB_BETA, p[0], p[1], p[2], p[3], p[4]); }
static const double lfb_flops = 3.0 * LFB_NI * LFB_NJ * LFB_NK + 2.0 * LFB_NI * LFB_NL * LFB_NJ + LFB_NI * LFB_NL;

#elif defined(LFB_JACOBI_2D)
#define LFB_NAME "jacobi_2d"
static const lfb_array lfb_arrays[] = {{"A", (int64_t)LFB_N * LFB_N, LFB_INOUT}, {"B", (int64_t)LFB_N * LFB_N, LFB_INOUT}};
static void lfb_call(float **p) { jacobi_2d(p[0], p[1]); }
static const double lfb_flops = 5.0 * LFB_TS * (LFB_N - 2.0) * (LFB_N - 2.0);

#elif defined(LFB_FDTD_2D)
#define LFB_NAME "fdtd_2d"
static const lfb_array lfb_arrays[] = {{"ex", (int64_t)LFB_NX * LFB_NY, LFB_INOUT}, {"ey", (int64_t)LFB_NX * LFB_NY, LFB_INOUT},
                                       {"hz", (int64_t)LFB_NX * LFB_NY, LFB_INOUT}, {"fict", (int64_t)LFB_TM, LFB_IN}};
static void lfb_call(float **p) { fdtd_2d(p[0], p[1], p[2], p[3]); }
static const double lfb_flops = (double)LFB_TM * (3.0 * LFB_NX * LFB_NY + 3.0 * LFB_NX * LFB_NY + 5.0 * LFB_NX * LFB_NY);

#elif defined(LFB_LU)
#define LFB_NAME "lu"
static const lfb_array lfb_arrays[] = {{"A", (int64_t)LFB_N * LFB_N, LFB_INOUT}};
static void lfb_call(float **p) { lu(p[0]); }
/* no zero pivot: a diagonally dominant matrix */
#define LFB_HAVE_FIXUP 1
static void lfb_fixup(float **p) {
  for (int64_t i = 0; i < LFB_N; i++) p[0][i * LFB_N + i] += (float)LFB_N;
}
static const double lfb_flops = 2.0 / 3.0 * LFB_N * (double)LFB_N * LFB_N;

#elif defined(LFB_CORRELATION)
#define LFB_NAME "correlation"
/* data is centred and reduced in place: it is an output too */
static const lfb_array lfb_arrays[] = {{"data", (int64_t)LFB_N * LFB_M, LFB_INOUT}, {"symmat", (int64_t)LFB_M * LFB_M, LFB_OUT},
                                       {"mean", (int64_t)LFB_M, LFB_OUT}, {"stddev", (int64_t)LFB_M, LFB_OUT}};
static void lfb_call(float **p) { correlation((float)LFB_N, p[0], p[1], p[2], p[3]); }
static const double lfb_flops = 2.0 * LFB_N * LFB_M + 3.0 * LFB_N * LFB_M + 2.0 * LFB_N * LFB_M + LFB_N * (double)LFB_M * (LFB_M - 1.0);

#elif defined(LFB_DOITGEN)
#define LFB_NAME "doitgen"
static const lfb_array lfb_arrays[] = {{"A", (int64_t)LFB_NR * LFB_NQ * LFB_NP, LFB_INOUT}, {"C4", (int64_t)LFB_NP * LFB_NP, LFB_IN}, {"sum", (int64_t)LFB_NR * LFB_NQ * LFB_NP, LFB_OUT}};
static void lfb_call(float **p) { doitgen(p[0], p[1], p[2]); }
static const double lfb_flops = 2.0 * LFB_NR * LFB_NQ * (double)LFB_NP * LFB_NP;

/* the seed-000 fusion rows (bench/gpu/fusion.sh). Arrays written only on an
 * interior (A of fig3, the stencil stages, LL18's nests) are LFB_INOUT: their
 * borders keep the start values, so NaN there would fail the check. */
#elif defined(LFB_FIG3_CHAIN)
#define LFB_NAME "fig3_chain"
/* B is an argument, live after the call: written everywhere, poisoned */
static const lfb_array lfb_arrays[] = {{"X", (int64_t)LFB_N, LFB_IN}, {"B", (int64_t)LFB_N, LFB_OUT}, {"A", (int64_t)LFB_N, LFB_INOUT}};
static void lfb_call(float **p) { fig3_chain(p[0], p[1], p[2]); }
static const double lfb_flops = 1.0 * LFB_N + (LFB_N - 2.0);

#elif defined(LFB_FIG3_DEAD)
#define LFB_NAME "fig3_dead"
/* B is a local allocation of the function, dead after the chain */
static const lfb_array lfb_arrays[] = {{"X", (int64_t)LFB_N, LFB_IN}, {"A", (int64_t)LFB_N, LFB_INOUT}};
static void lfb_call(float **p) { fig3_dead(p[0], p[1]); }
static const double lfb_flops = 1.0 * LFB_N + (LFB_N - 2.0);

#elif defined(LFB_LL18)
#define LFB_NAME "ll18"
/* zm divides: the start values are in [0.5, 1.5), never zero */
static const lfb_array lfb_arrays[] = {
    {"za", (int64_t)LFB_N * LFB_N, LFB_INOUT}, {"zb", (int64_t)LFB_N * LFB_N, LFB_INOUT}, {"zp", (int64_t)LFB_N * LFB_N, LFB_IN},
    {"zq", (int64_t)LFB_N * LFB_N, LFB_IN},    {"zr", (int64_t)LFB_N * LFB_N, LFB_INOUT}, {"zm", (int64_t)LFB_N * LFB_N, LFB_IN},
    {"zu", (int64_t)LFB_N * LFB_N, LFB_INOUT}, {"zv", (int64_t)LFB_N * LFB_N, LFB_INOUT}, {"zz", (int64_t)LFB_N * LFB_N, LFB_INOUT}};
static void lfb_call(float **p) { ll18(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8]); }
/* per interior point: za, zb 8 each; zu, zv 13 each; zr, zz 2 each */
static const double lfb_flops = 46.0 * (LFB_N - 2.0) * (LFB_N - 2.0);

#elif defined(LFB_STENCIL4_CHAIN)
#define LFB_NAME "stencil4_chain"
static const lfb_array lfb_arrays[] = {{"A0", (int64_t)LFB_N * LFB_N, LFB_IN},    {"A1", (int64_t)LFB_N * LFB_N, LFB_INOUT},
                                       {"A2", (int64_t)LFB_N * LFB_N, LFB_INOUT}, {"A3", (int64_t)LFB_N * LFB_N, LFB_INOUT},
                                       {"A4", (int64_t)LFB_N * LFB_N, LFB_INOUT}};
static void lfb_call(float **p) { stencil4_chain(p[0], p[1], p[2], p[3], p[4]); }
static const double lfb_flops = 5.0 * ((LFB_N - 2.0) * (LFB_N - 2.0) + (LFB_N - 4.0) * (LFB_N - 4.0) + (LFB_N - 6.0) * (LFB_N - 6.0) +
                                       (LFB_N - 8.0) * (LFB_N - 8.0));

#elif defined(LFB_STENCIL4_DEAD)
#define LFB_NAME "stencil4_dead"
/* A1..A3 are local allocations of the function, dead after the chain */
static const lfb_array lfb_arrays[] = {{"A0", (int64_t)LFB_N * LFB_N, LFB_IN}, {"A4", (int64_t)LFB_N * LFB_N, LFB_INOUT}};
static void lfb_call(float **p) { stencil4_dead(p[0], p[1]); }
static const double lfb_flops = 5.0 * ((LFB_N - 2.0) * (LFB_N - 2.0) + (LFB_N - 4.0) * (LFB_N - 4.0) + (LFB_N - 6.0) * (LFB_N - 6.0) +
                                       (LFB_N - 8.0) * (LFB_N - 8.0));

/* the seed-004 kernel-optimizer rows (bench/gpu/kernels.sh) */
#elif defined(LFB_MATMUL)
#define LFB_NAME "matmul"
static const lfb_array lfb_arrays[] = {{"A", (int64_t)LFB_M * LFB_K, LFB_IN}, {"B", (int64_t)LFB_K * LFB_N, LFB_IN}, {"C", (int64_t)LFB_M * LFB_N, LFB_OUT}};
static void lfb_call(float **p) { matmul(p[0], p[1], p[2]); }
static const double lfb_flops = 2.0 * LFB_M * (double)LFB_N * LFB_K;

#elif defined(LFB_MATVEC)
#define LFB_NAME "matvec"
static const lfb_array lfb_arrays[] = {{"A", (int64_t)LFB_M * LFB_N, LFB_IN}, {"b", (int64_t)LFB_N, LFB_IN}, {"c", (int64_t)LFB_M, LFB_OUT}};
static void lfb_call(float **p) { matvec(p[0], p[1], p[2]); }
static const double lfb_flops = 2.0 * LFB_M * (double)LFB_N;

#elif defined(LFB_TRANSPOSE)
#define LFB_NAME "transpose"
static const lfb_array lfb_arrays[] = {{"in", (int64_t)LFB_M * LFB_N, LFB_IN}, {"out", (int64_t)LFB_N * LFB_M, LFB_OUT}};
/* lf-translate emits the host function as lf_transpose: `transpose` is a Brook+ keyword, one of the
   names targets/src/names.rs reserves for every target (renamed lf_<function>). */
static void lfb_call(float **p) { lf_transpose(p[0], p[1]); }
static const double lfb_flops = 0.0;

#elif defined(LFB_COMPLEX_SCALE)
#define LFB_NAME "complex_scale"
static const lfb_array lfb_arrays[] = {{"x", 2 * (int64_t)LFB_N, LFB_IN}, {"y", 2 * (int64_t)LFB_N, LFB_OUT}};
static void lfb_call(float **p) { complex_scale(p[0], p[1]); }
static const double lfb_flops = 6.0 * LFB_N;

/* the SYN-LM rows (bench/gpu/loopmerge.sh): the trip-count table is a local
 * allocation, filled by the function's first nest (kernel); X is the input, Y
 * the output. Every variant runs the same f32 operations per thread in the
 * same order (loop merging only changes which thread runs what when), so the
 * results must be bit-identical: one element off fails the check. */
#elif defined(LFB_SYN_LM_F4_VAR0) || defined(LFB_SYN_LM_F4_VAR5) || defined(LFB_SYN_LM_F4_VAR10) || \
    defined(LFB_SYN_LM_F32_VAR0) || defined(LFB_SYN_LM_F32_VAR5) || defined(LFB_SYN_LM_F32_VAR10)
#if defined(LFB_SYN_LM_F4_VAR0)
#define LFB_NAME "syn_lm_f4_var0"
#define LFB_SYN_LM_FN syn_lm_f4_var0
#define LFB_SYN_LM_FMAS 4
#elif defined(LFB_SYN_LM_F4_VAR5)
#define LFB_NAME "syn_lm_f4_var5"
#define LFB_SYN_LM_FN syn_lm_f4_var5
#define LFB_SYN_LM_FMAS 4
#elif defined(LFB_SYN_LM_F4_VAR10)
#define LFB_NAME "syn_lm_f4_var10"
#define LFB_SYN_LM_FN syn_lm_f4_var10
#define LFB_SYN_LM_FMAS 4
#elif defined(LFB_SYN_LM_F32_VAR0)
#define LFB_NAME "syn_lm_f32_var0"
#define LFB_SYN_LM_FN syn_lm_f32_var0
#define LFB_SYN_LM_FMAS 32
#elif defined(LFB_SYN_LM_F32_VAR5)
#define LFB_NAME "syn_lm_f32_var5"
#define LFB_SYN_LM_FN syn_lm_f32_var5
#define LFB_SYN_LM_FMAS 32
#else
#define LFB_NAME "syn_lm_f32_var10"
#define LFB_SYN_LM_FN syn_lm_f32_var10
#define LFB_SYN_LM_FMAS 32
#endif
#define LFB_ELEM_TOL 0.0
static const lfb_array lfb_arrays[] = {{"X", (int64_t)LFB_TH, LFB_IN}, {"Y", (int64_t)LFB_TH, LFB_OUT}};
static void lfb_call(float **p) { LFB_SYN_LM_FN(p[0], p[1]); }
/* FMAS FMAs (2 flops each) per inner iteration, 20 inner iterations per outer
 * one on average (the trip counts' mean; exactly 20 for VAR = 0) */
static const double lfb_flops = 2.0 * LFB_SYN_LM_FMAS * 20.0 * LFB_O * (double)LFB_TH;

/* the seed-002 mgrid rows (bench/gpu/mgrid.sh), fp64 as in the paper. Every
 * variant computes each output point with the same f64 operations in the same
 * order (thread granularity changes which thread computes which points), so
 * the GPU variants must agree bit for bit; against the CPU build a few ulps
 * are allowed (nvcc contracts a * b + c into FMAs, g++ -O3 for x86-64 does not). */
#elif defined(LFB_RPRJ3)
#define LFB_NAME "rprj3"
#define LFB_ELEM double
#define LFB_ELEM_TOL 0.0
#define LFB_ELEM_TOL_CPU 1e-12
/* r the fine grid (MK^3), s the coarse grid (MJ^3), written on its interior only:
 * its ghost layer keeps the start values (so not NaN) */
static const lfb_array lfb_arrays[] = {{"r", (int64_t)LFB_MK * LFB_MK * LFB_MK, LFB_IN}, {"s", (int64_t)LFB_MJ * LFB_MJ * LFB_MJ, LFB_INOUT}};
static void lfb_call(double **p) { rprj3(p[0], p[1]); }
/* per coarse interior point: 23 adds within the four groups, 4 multiplies, 3 adds */
static const double lfb_flops = 30.0 * (LFB_MJ - 2.0) * (LFB_MJ - 2.0) * (LFB_MJ - 2.0);

#elif defined(LFB_INTERP)
#define LFB_NAME "interp"
#define LFB_ELEM double
#define LFB_ELEM_TOL 0.0
#define LFB_ELEM_TOL_CPU 1e-12
/* z the coarse grid (MM^3), u the fine grid (MU^3), u += the interpolation (every point) */
static const lfb_array lfb_arrays[] = {{"z", (int64_t)LFB_MM * LFB_MM * LFB_MM, LFB_IN}, {"u", (int64_t)LFB_MU * LFB_MU * LFB_MU, LFB_INOUT}};
static void lfb_call(double **p) { interp(p[0], p[1]); }
/* per coarse cell: 8 adds for mgrid's z1/z2/z3, then 4 adds, 7 multiplies and 8 adds into u */
static const double lfb_flops = 27.0 * (LFB_MM - 1.0) * (LFB_MM - 1.0) * (LFB_MM - 1.0);

#else
#error "define one of LFB_GEMM, LFB_2MM, LFB_JACOBI_2D, LFB_FDTD_2D, LFB_LU, LFB_CORRELATION, LFB_DOITGEN, LFB_FIG3_CHAIN, LFB_FIG3_DEAD, LFB_LL18, LFB_STENCIL4_CHAIN, LFB_STENCIL4_DEAD, LFB_MATMUL, LFB_MATVEC, LFB_TRANSPOSE, LFB_COMPLEX_SCALE, LFB_SYN_LM_F<4|32>_VAR<0|5|10>, LFB_RPRJ3, LFB_INTERP"
#endif

#ifndef LFB_ELEM
#define LFB_ELEM float
#endif
/** the arrays' element type (LFB_ELEM) */
typedef LFB_ELEM lfb_elem;

#ifndef LFB_HAVE_FIXUP
static void lfb_fixup(lfb_elem **) {}
#endif

static const int lfb_narrays = (int)(sizeof lfb_arrays / sizeof lfb_arrays[0]);
