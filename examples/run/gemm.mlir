// Driver for ../gemm.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @gemm(%alpha: f32, %beta: f32, %C: memref<6x8xf32>, %A: memref<6x5xf32>, %B: memref<5x8xf32>) {
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 8 {
      // C[i][j] *= beta
      %c0 = affine.load %C[%i, %j] : memref<6x8xf32>
      %c1 = arith.mulf %c0, %beta : f32
      affine.store %c1, %C[%i, %j] : memref<6x8xf32>
      // for k: C[i][j] += alpha * A[i][k] * B[k][j]
      affine.for %k = 0 to 5 {
        %x = affine.load %A[%i, %k] : memref<6x5xf32>
        %ax = arith.mulf %alpha, %x : f32
        %y = affine.load %B[%k, %j] : memref<5x8xf32>
        %p = arith.mulf %ax, %y : f32
        %c2 = affine.load %C[%i, %j] : memref<6x8xf32>
        %c3 = arith.addf %c2, %p : f32
        affine.store %c3, %C[%i, %j] : memref<6x8xf32>
      }
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %four = arith.constant 4.000000e+00 : f32
  %alpha = arith.constant 1.500000e+00 : f32
  %beta = arith.constant 1.250000e+00 : f32
  %C = memref.alloc() : memref<6x8xf32>
  %A = memref.alloc() : memref<6x5xf32>
  %B = memref.alloc() : memref<5x8xf32>
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 2) mod 7)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %C[%i0, %i1] : memref<6x8xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 5 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A[%i0, %i1] : memref<6x5xf32>
    }
  }
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 11 + 2) mod 17)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %B[%i0, %i1] : memref<5x8xf32>
    }
  }
  call @gemm(%alpha, %beta, %C, %A, %B) : (f32, f32, memref<6x8xf32>, memref<6x5xf32>, memref<5x8xf32>) -> ()
  %p_C = memref.cast %C : memref<6x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_C) : (memref<*xf32>) -> ()
  memref.dealloc %C : memref<6x8xf32>
  memref.dealloc %A : memref<6x5xf32>
  memref.dealloc %B : memref<5x8xf32>
  return
}
