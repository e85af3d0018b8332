// Driver for ../matvec.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @matvec(%A: memref<6x10xf32>, %b: memref<10xf32>, %c: memref<6xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  affine.for %i = 0 to 6 {
    // sum = 0; for j: sum += A[i][j] * b[j]; c[i] = sum
    %sum = affine.for %j = 0 to 10 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %A[%i, %j] : memref<6x10xf32>
      %y = affine.load %b[%j] : memref<10xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %sum, %c[%i] : memref<6xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %A = memref.alloc() : memref<6x10xf32>
  %b = memref.alloc() : memref<10xf32>
  %c = memref.alloc() : memref<6xf32>
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
    %h = affine.apply affine_map<(d0) -> ((d0 * 5 + 1) mod 11)>(%i0)
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %v = arith.divf %hf, %four : f32
    affine.store %v, %b[%i0] : memref<10xf32>
  }
  affine.for %i0 = 0 to 6 {
    affine.store %zero, %c[%i0] : memref<6xf32>
  }
  call @matvec(%A, %b, %c) : (memref<6x10xf32>, memref<10xf32>, memref<6xf32>) -> ()
  %p_c = memref.cast %c : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%p_c) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<6x10xf32>
  memref.dealloc %b : memref<10xf32>
  memref.dealloc %c : memref<6xf32>
  return
}
