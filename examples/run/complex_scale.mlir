// Driver for ../complex_scale.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @complex_scale(%x: memref<12xf32>, %y: memref<12xf32>) {
  // (re, im) = (0.6, 0.8): y = (re + i im) * x for each of the N complex numbers
  %re = arith.constant 6.000000e-01 : f32
  %im = arith.constant 8.000000e-01 : f32
  affine.for %i = 0 to 6 {
    %xr = affine.load %x[2 * %i] : memref<12xf32>
    %xi = affine.load %x[2 * %i + 1] : memref<12xf32>
    %a = arith.mulf %re, %xr : f32
    %b = arith.mulf %im, %xi : f32
    %yr = arith.subf %a, %b : f32
    %c = arith.mulf %re, %xi : f32
    %d = arith.mulf %im, %xr : f32
    %yi = arith.addf %c, %d : f32
    affine.store %yr, %y[2 * %i] : memref<12xf32>
    affine.store %yi, %y[2 * %i + 1] : memref<12xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %x = memref.alloc() : memref<12xf32>
  %y = memref.alloc() : memref<12xf32>
  affine.for %i0 = 0 to 12 {
    %h = affine.apply affine_map<(d0) -> ((d0 * 7 + 3) mod 13)>(%i0)
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %v = arith.divf %hf, %four : f32
    affine.store %v, %x[%i0] : memref<12xf32>
  }
  affine.for %i0 = 0 to 12 {
    affine.store %zero, %y[%i0] : memref<12xf32>
  }
  call @complex_scale(%x, %y) : (memref<12xf32>, memref<12xf32>) -> ()
  %p_y = memref.cast %y : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%p_y) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<12xf32>
  memref.dealloc %y : memref<12xf32>
  return
}
