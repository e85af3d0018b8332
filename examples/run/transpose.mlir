// Driver for ../transpose.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @transpose(%in: memref<6x10xf32>, %out: memref<10x6xf32>) {
  // out[j][i] = in[i][j]
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 10 {
      %v = affine.load %in[%i, %j] : memref<6x10xf32>
      affine.store %v, %out[%j, %i] : memref<10x6xf32>
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %in = memref.alloc() : memref<6x10xf32>
  %out = memref.alloc() : memref<10x6xf32>
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 10 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 10 + d1) mod 61)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %in[%i0, %i1] : memref<6x10xf32>
    }
  }
  affine.for %i0 = 0 to 10 {
    affine.for %i1 = 0 to 6 {
      affine.store %zero, %out[%i0, %i1] : memref<10x6xf32>
    }
  }
  call @transpose(%in, %out) : (memref<6x10xf32>, memref<10x6xf32>) -> ()
  %p_out = memref.cast %out : memref<10x6xf32> to memref<*xf32>
  call @printMemrefF32(%p_out) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<6x10xf32>
  memref.dealloc %out : memref<10x6xf32>
  return
}
