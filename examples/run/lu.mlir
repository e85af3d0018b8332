// Driver for ../lu.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @lu(%A: memref<8x8xf32>) {
  affine.for %k = 0 to 8 {
    // for j in [k+1, N): A[k][j] = A[k][j] / A[k][k]
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 8 {
      %x = affine.load %A[%k, %j] : memref<8x8xf32>
      %p = affine.load %A[%k, %k] : memref<8x8xf32>
      %d = arith.divf %x, %p : f32
      affine.store %d, %A[%k, %j] : memref<8x8xf32>
    }
    // for i, j in [k+1, N): A[i][j] = A[i][j] - A[i][k] * A[k][j]
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%k) to 8 {
      affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 8 {
        %x = affine.load %A[%i, %j] : memref<8x8xf32>
        %l = affine.load %A[%i, %k] : memref<8x8xf32>
        %u = affine.load %A[%k, %j] : memref<8x8xf32>
        %p = arith.mulf %l, %u : f32
        %s = arith.subf %x, %p : f32
        affine.store %s, %A[%i, %j] : memref<8x8xf32>
      }
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %four = arith.constant 4.000000e+00 : f32
  %A = memref.alloc() : memref<8x8xf32>
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A[%i0, %i1] : memref<8x8xf32>
    }
  }
  %diag = arith.constant 1.600000e+01 : f32
  affine.for %i = 0 to 8 {
    %x = affine.load %A[%i, %i] : memref<8x8xf32>
    %y = arith.addf %x, %diag : f32
    affine.store %y, %A[%i, %i] : memref<8x8xf32>
  }
  call @lu(%A) : (memref<8x8xf32>) -> ()
  %p_A = memref.cast %A : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_A) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<8x8xf32>
  return
}
