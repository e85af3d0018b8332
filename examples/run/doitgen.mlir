// Driver for ../doitgen.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @doitgen(%A: memref<4x3x5xf32>, %C4: memref<5x5xf32>, %sum: memref<4x3x5xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  affine.for %r = 0 to 4 {
    affine.for %q = 0 to 3 {
      affine.for %p = 0 to 5 {
        // sum[r][q][p] = 0
        affine.store %zero, %sum[%r, %q, %p] : memref<4x3x5xf32>
        // for s: sum[r][q][p] += A[r][q][s] * C4[s][p]
        affine.for %s = 0 to 5 {
          %x = affine.load %A[%r, %q, %s] : memref<4x3x5xf32>
          %y = affine.load %C4[%s, %p] : memref<5x5xf32>
          %m = arith.mulf %x, %y : f32
          %s0 = affine.load %sum[%r, %q, %p] : memref<4x3x5xf32>
          %s1 = arith.addf %s0, %m : f32
          affine.store %s1, %sum[%r, %q, %p] : memref<4x3x5xf32>
        }
      }
      // A[r][q][p] = sum[r][q][p]
      affine.for %p = 0 to 5 {
        %v = affine.load %sum[%r, %q, %p] : memref<4x3x5xf32>
        affine.store %v, %A[%r, %q, %p] : memref<4x3x5xf32>
      }
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %A = memref.alloc() : memref<4x3x5xf32>
  %C4 = memref.alloc() : memref<5x5xf32>
  %sum = memref.alloc() : memref<4x3x5xf32>
  affine.for %i0 = 0 to 4 {
    affine.for %i1 = 0 to 3 {
      affine.for %i2 = 0 to 5 {
        %h = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 7 + 1) mod 13)>(%i0, %i1, %i2)
        %hi = arith.index_cast %h : index to i32
        %hf = arith.sitofp %hi : i32 to f32
        %v = arith.divf %hf, %four : f32
        affine.store %v, %A[%i0, %i1, %i2] : memref<4x3x5xf32>
      }
    }
  }
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 5 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 11 + 2) mod 17)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %C4[%i0, %i1] : memref<5x5xf32>
    }
  }
  affine.for %i0 = 0 to 4 {
    affine.for %i1 = 0 to 3 {
      affine.for %i2 = 0 to 5 {
        affine.store %zero, %sum[%i0, %i1, %i2] : memref<4x3x5xf32>
      }
    }
  }
  call @doitgen(%A, %C4, %sum) : (memref<4x3x5xf32>, memref<5x5xf32>, memref<4x3x5xf32>) -> ()
  %p_A = memref.cast %A : memref<4x3x5xf32> to memref<*xf32>
  call @printMemrefF32(%p_A) : (memref<*xf32>) -> ()
  %p_sum = memref.cast %sum : memref<4x3x5xf32> to memref<*xf32>
  call @printMemrefF32(%p_sum) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<4x3x5xf32>
  memref.dealloc %C4 : memref<5x5xf32>
  memref.dealloc %sum : memref<4x3x5xf32>
  return
}
