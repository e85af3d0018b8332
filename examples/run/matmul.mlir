// Driver for ../matmul.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @matmul(%A: memref<6x10xf32>, %B: memref<10x8xf32>, %C: memref<6x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 8 {
      // sum = 0; for k: sum += A[i][k] * B[k][j]; C[i][j] = sum
      %sum = affine.for %k = 0 to 10 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %A[%i, %k] : memref<6x10xf32>
        %y = affine.load %B[%k, %j] : memref<10x8xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%i, %j] : memref<6x8xf32>
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %A = memref.alloc() : memref<6x10xf32>
  %B = memref.alloc() : memref<10x8xf32>
  %C = memref.alloc() : memref<6x8xf32>
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 10 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A[%i0, %i1] : memref<6x10xf32>
    }
  }
  affine.for %i0 = 0 to 10 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 11 + 2) mod 17)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %B[%i0, %i1] : memref<10x8xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 8 {
      affine.store %zero, %C[%i0, %i1] : memref<6x8xf32>
    }
  }
  call @matmul(%A, %B, %C) : (memref<6x10xf32>, memref<10x8xf32>, memref<6x8xf32>) -> ()
  %p_C = memref.cast %C : memref<6x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_C) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<6x10xf32>
  memref.dealloc %B : memref<10x8xf32>
  memref.dealloc %C : memref<6x8xf32>
  return
}
