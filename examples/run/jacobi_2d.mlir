// Driver for ../jacobi_2d.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @jacobi_2d(%A: memref<10x10xf32>, %B: memref<10x10xf32>) {
  %fifth = arith.constant 2.000000e-01 : f32
  affine.for %t = 0 to 3 {
    // B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %a0 = affine.load %A[%i, %j] : memref<10x10xf32>
        %a1 = affine.load %A[%i, %j - 1] : memref<10x10xf32>
        %s1 = arith.addf %a0, %a1 : f32
        %a2 = affine.load %A[%i, %j + 1] : memref<10x10xf32>
        %s2 = arith.addf %s1, %a2 : f32
        %a3 = affine.load %A[%i + 1, %j] : memref<10x10xf32>
        %s3 = arith.addf %s2, %a3 : f32
        %a4 = affine.load %A[%i - 1, %j] : memref<10x10xf32>
        %s4 = arith.addf %s3, %a4 : f32
        %v = arith.mulf %fifth, %s4 : f32
        affine.store %v, %B[%i, %j] : memref<10x10xf32>
      }
    }
    // A[i][j] = B[i][j]
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %b = affine.load %B[%i, %j] : memref<10x10xf32>
        affine.store %b, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %A = memref.alloc() : memref<10x10xf32>
  %B = memref.alloc() : memref<10x10xf32>
  affine.for %i0 = 0 to 10 {
    affine.for %i1 = 0 to 10 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A[%i0, %i1] : memref<10x10xf32>
    }
  }
  affine.for %i0 = 0 to 10 {
    affine.for %i1 = 0 to 10 {
      affine.store %zero, %B[%i0, %i1] : memref<10x10xf32>
    }
  }
  call @jacobi_2d(%A, %B) : (memref<10x10xf32>, memref<10x10xf32>) -> ()
  %p_A = memref.cast %A : memref<10x10xf32> to memref<*xf32>
  call @printMemrefF32(%p_A) : (memref<*xf32>) -> ()
  %p_B = memref.cast %B : memref<10x10xf32> to memref<*xf32>
  call @printMemrefF32(%p_B) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<10x10xf32>
  memref.dealloc %B : memref<10x10xf32>
  return
}
