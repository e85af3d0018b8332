// Driver for `examples/gen.py syn_lm_f32_var0 large` (bench/gpu/loopmerge.sh): the same kernel at
// small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
// Source: seed 001 (Han & Abdelrahman, GPGPU-6 2013), the synthetic benchmark
// SYN-LM as the hand-written reference measures it (../shared/anchors-gpu/synlm.cu);
// ../shared/seeds/DIGEST.md §001.3 and §001.8. Benchmark: BENCHMARKS.md §2, row
// "divergent nest, SYN-LM" (1M threads, outer 1000 there; 64 threads, outer 8 here),
// bench/gpu/loopmerge.sh. examples/syn_lm.lfir is the same nest with the trip
// counts an argument; here they are made inside the function, as the reference's
// lm_gen does, so that the benchmark needs no 1 GB input:
//
//   trips[o][t] = 20 - VAR + hash(t, o) mod (2 VAR + 1)    (i8; uniform, mean 20)
//   for t (one GPU thread each):
//     x = X[t]; y = 0.2; z = 0.3; w = 0.4; acc = 0
//     for o in [0, OUTER):                  // uniform outer loop
//       for i in [0, trips[o][t]):          // divergent inner loop
//         FMAS / 4 times: x = fma(x, 0.5, y); y = fma(y, 1.0, 0.25);
//                         z = fma(z, 0.5, x); w = fma(w, 0.25, z)
//       acc += w                            // inner epilogue
//     Y[t] = acc
//
// The reference's y is fma(y, 0.75, 0.25): there x, y, z, w reach a fixed point
// within a few outer iterations and Y hardly depends on the trip counts; here y
// counts the bodies run (0.25 each), so Y depends on every trip count and a
// merged loop that runs one body too many or too few gives another Y. Same
// operations and dependences otherwise (nvcc may make y's FMA an add).
func.func @syn_lm_f32_var0(%X: memref<64xf32>, %Y: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %k025 = arith.constant 2.500000e-01 : f32
  %y00 = arith.constant 2.000000e-01 : f32
  %z00 = arith.constant 3.000000e-01 : f32
  %w00 = arith.constant 4.000000e-01 : f32
  %h0 = arith.constant -1640531535 : i64
  %h1 = arith.constant 2135587861 : i64
  %h2 = arith.constant -2048144777 : i64
  %h3 = arith.constant 739982445 : i64
  %h4 = arith.constant 695872825 : i64
  %mask = arith.constant 4294967295 : i64
  %s12 = arith.constant 12 : i64
  %s15 = arith.constant 15 : i64
  %lo = arith.constant 20 : i64
  %span = arith.constant 1 : i64
  // the inner trip counts: trips[o][t] = 20 - VAR + hash(t, o) mod (2 VAR + 1),
  // hash the reference's 32-bit hash2(t, o), computed in i64 with each product
  // masked to 32 bits (no product overflows i64: |constant| < 2^31)
  %trips = memref.alloc() : memref<8x64xi8>
  affine.for %o = 0 to 8 {
    affine.for %t = 0 to 64 {
      %ti = arith.index_cast %t : index to i64
      %oi = arith.index_cast %o : index to i64
      %a0 = arith.muli %ti, %h0 : i64
      %a1 = arith.andi %a0, %mask : i64
      %b0 = arith.addi %oi, %h1 : i64
      %b1 = arith.muli %b0, %h2 : i64
      %b2 = arith.andi %b1, %mask : i64
      %g0 = arith.xori %a1, %b2 : i64
      %g1 = arith.shrui %g0, %s15 : i64
      %g2 = arith.xori %g0, %g1 : i64
      %g3 = arith.muli %g2, %h3 : i64
      %g4 = arith.andi %g3, %mask : i64
      %g5 = arith.shrui %g4, %s12 : i64
      %g6 = arith.xori %g4, %g5 : i64
      %g7 = arith.muli %g6, %h4 : i64
      %g8 = arith.andi %g7, %mask : i64
      %g9 = arith.shrui %g8, %s15 : i64
      %g10 = arith.xori %g8, %g9 : i64
      %m = arith.remui %g10, %span : i64
      %n = arith.addi %m, %lo : i64
      %n8 = arith.trunci %n : i64 to i8
      affine.store %n8, %trips[%o, %t] : memref<8x64xi8>
    }
  }
  // one GPU thread per t
  affine.for %t = 0 to 64 {
    %x00 = affine.load %X[%t] : memref<64xf32>
    // outer loop: uniform trip count
    %r:5 = affine.for %o = 0 to 8 iter_args(%x = %x00, %y = %y00, %z = %z00, %w = %w00, %acc0 = %zero)
        -> (f32, f32, f32, f32, f32) {
      // inner prologue: the trip count is data dependent (differs between threads)
      %n8 = affine.load %trips[%o, %t] : memref<8x64xi8>
      %n32 = arith.extui %n8 : i8 to i32
      %n = arith.index_cast %n32 : i32 to index
      // divergent inner loop, body of 32 FMAs
      %b:4 = scf.for %i = %c0 to %n step %c1 iter_args(%x0 = %x, %y0 = %y, %z0 = %z, %w0 = %w)
          -> (f32, f32, f32, f32) {
        %x1 = math.fma %x0, %half, %y0 : f32
        %y1 = math.fma %y0, %one, %k025 : f32
        %z1 = math.fma %z0, %half, %x1 : f32
        %w1 = math.fma %w0, %k025, %z1 : f32
        %x2 = math.fma %x1, %half, %y1 : f32
        %y2 = math.fma %y1, %one, %k025 : f32
        %z2 = math.fma %z1, %half, %x2 : f32
        %w2 = math.fma %w1, %k025, %z2 : f32
        %x3 = math.fma %x2, %half, %y2 : f32
        %y3 = math.fma %y2, %one, %k025 : f32
        %z3 = math.fma %z2, %half, %x3 : f32
        %w3 = math.fma %w2, %k025, %z3 : f32
        %x4 = math.fma %x3, %half, %y3 : f32
        %y4 = math.fma %y3, %one, %k025 : f32
        %z4 = math.fma %z3, %half, %x4 : f32
        %w4 = math.fma %w3, %k025, %z4 : f32
        %x5 = math.fma %x4, %half, %y4 : f32
        %y5 = math.fma %y4, %one, %k025 : f32
        %z5 = math.fma %z4, %half, %x5 : f32
        %w5 = math.fma %w4, %k025, %z5 : f32
        %x6 = math.fma %x5, %half, %y5 : f32
        %y6 = math.fma %y5, %one, %k025 : f32
        %z6 = math.fma %z5, %half, %x6 : f32
        %w6 = math.fma %w5, %k025, %z6 : f32
        %x7 = math.fma %x6, %half, %y6 : f32
        %y7 = math.fma %y6, %one, %k025 : f32
        %z7 = math.fma %z6, %half, %x7 : f32
        %w7 = math.fma %w6, %k025, %z7 : f32
        %x8 = math.fma %x7, %half, %y7 : f32
        %y8 = math.fma %y7, %one, %k025 : f32
        %z8 = math.fma %z7, %half, %x8 : f32
        %w8 = math.fma %w7, %k025, %z8 : f32
        scf.yield %x8, %y8, %z8, %w8 : f32, f32, f32, f32
      }
      // inner epilogue
      %acc = arith.addf %acc0, %b#3 : f32
      affine.yield %b#0, %b#1, %b#2, %b#3, %acc : f32, f32, f32, f32, f32
    }
    affine.store %r#4, %Y[%t] : memref<64xf32>
  }
  memref.dealloc %trips : memref<8x64xi8>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %X = memref.alloc() : memref<64xf32>
  %Y = memref.alloc() : memref<64xf32>
  affine.for %i0 = 0 to 64 {
    %h = affine.apply affine_map<(d0) -> ((d0 * 5 + 1) mod 7)>(%i0)
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %v = arith.divf %hf, %four : f32
    affine.store %v, %X[%i0] : memref<64xf32>
  }
  affine.for %i0 = 0 to 64 {
    affine.store %zero, %Y[%i0] : memref<64xf32>
  }
  call @syn_lm_f32_var0(%X, %Y) : (memref<64xf32>, memref<64xf32>) -> ()
  %p_Y = memref.cast %Y : memref<64xf32> to memref<*xf32>
  call @printMemrefF32(%p_Y) : (memref<*xf32>) -> ()
  memref.dealloc %X : memref<64xf32>
  memref.dealloc %Y : memref<64xf32>
  return
}
