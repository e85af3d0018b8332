// Driver for ../syn_lm.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @syn_lm(%trips: memref<8x4xi32>, %X: memref<8xf32>, %Y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %k0 = arith.constant 8.750000e-01 : f32
  %k1 = arith.constant 1.125000e+00 : f32
  %k2 = arith.constant -5.000000e-01 : f32
  %k3 = arith.constant 9.375000e-01 : f32
  %k4 = arith.constant 2.500000e-01 : f32
  %k5 = arith.constant 1.062500e+00 : f32
  // one GPU thread per t
  affine.for %t = 0 to 8 {
    %x = affine.load %X[%t] : memref<8xf32>
    %nx = arith.negf %x : f32
    // outer loop: uniform trip count
    %r:2 = affine.for %o = 0 to 4 iter_args(%v0 = %x, %sum0 = %zero) -> (f32, f32) {
      // inner prologue: the trip count is data dependent (differs between threads)
      %n32 = affine.load %trips[%t, %o] : memref<8x4xi32>
      %n = arith.index_cast %n32 : i32 to index
      // divergent inner loop, body of 4 FMAs
      %v = scf.for %i = %c0 to %n step %c1 iter_args(%w = %v0) -> (f32) {
        %w1 = math.fma %w, %k0, %x : f32
        %w2 = math.fma %w1, %k1, %k2 : f32
        %w3 = math.fma %w2, %k3, %k4 : f32
        %w4 = math.fma %w3, %k5, %nx : f32
        scf.yield %w4 : f32
      }
      // inner epilogue
      %sum = arith.addf %sum0, %v : f32
      affine.yield %v, %sum : f32, f32
    }
    affine.store %r#1, %Y[%t] : memref<8xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %trips = memref.alloc() : memref<8x4xi32>
  %X = memref.alloc() : memref<8xf32>
  %Y = memref.alloc() : memref<8xf32>
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 4 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 9)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      affine.store %hi, %trips[%i0, %i1] : memref<8x4xi32>
    }
  }
  affine.for %i0 = 0 to 8 {
    %h = affine.apply affine_map<(d0) -> ((d0 * 5 + 1) mod 7)>(%i0)
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %v = arith.divf %hf, %four : f32
    affine.store %v, %X[%i0] : memref<8xf32>
  }
  affine.for %i0 = 0 to 8 {
    affine.store %zero, %Y[%i0] : memref<8xf32>
  }
  call @syn_lm(%trips, %X, %Y) : (memref<8x4xi32>, memref<8xf32>, memref<8xf32>) -> ()
  %p_Y = memref.cast %Y : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%p_Y) : (memref<*xf32>) -> ()
  memref.dealloc %trips : memref<8x4xi32>
  memref.dealloc %X : memref<8xf32>
  memref.dealloc %Y : memref<8xf32>
  return
}
