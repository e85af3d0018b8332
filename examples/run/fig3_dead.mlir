// Driver for ../fig3_dead.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @fig3_dead(%X: memref<16xf32>, %A: memref<16xf32>) {
  %two = arith.constant 2.000000e+00 : f32
  // B is local: dead after the chain
  %B = memref.alloc() : memref<16xf32>
  // L1: B[i] = f(X[i])
  affine.for %i = 0 to 16 {
    %x = affine.load %X[%i] : memref<16xf32>
    %f = arith.mulf %x, %two : f32
    affine.store %f, %B[%i] : memref<16xf32>
  }
  // L2: A[i] = B[i-1] + B[i+1]
  affine.for %i = 1 to 15 {
    %l = affine.load %B[%i - 1] : memref<16xf32>
    %r = affine.load %B[%i + 1] : memref<16xf32>
    %s = arith.addf %l, %r : f32
    affine.store %s, %A[%i] : memref<16xf32>
  }
  memref.dealloc %B : memref<16xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %X = memref.alloc() : memref<16xf32>
  %A = memref.alloc() : memref<16xf32>
  affine.for %i0 = 0 to 16 {
    %h = affine.apply affine_map<(d0) -> ((d0 * 7 + 3) mod 13)>(%i0)
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %v = arith.divf %hf, %four : f32
    affine.store %v, %X[%i0] : memref<16xf32>
  }
  affine.for %i0 = 0 to 16 {
    affine.store %zero, %A[%i0] : memref<16xf32>
  }
  call @fig3_dead(%X, %A) : (memref<16xf32>, memref<16xf32>) -> ()
  %p_A = memref.cast %A : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%p_A) : (memref<*xf32>) -> ()
  memref.dealloc %X : memref<16xf32>
  memref.dealloc %A : memref<16xf32>
  return
}
