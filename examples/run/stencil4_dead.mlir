// Driver for ../stencil4_dead.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @stencil4_dead(%A0: memref<12x12xf32>, %A4: memref<12x12xf32>) {
  %fifth = arith.constant 2.000000e-01 : f32
  // the intermediates are local: dead after the chain
  %A1 = memref.alloc() : memref<12x12xf32>
  %A2 = memref.alloc() : memref<12x12xf32>
  %A3 = memref.alloc() : memref<12x12xf32>
  // stage 1: A1[i][j] = 0.2 * (A0[i][j] + A0[i-1][j] + A0[i+1][j] + A0[i][j-1] + A0[i][j+1]),
  //          i, j in [1, 11)
  affine.for %i = 1 to 11 {
    affine.for %j = 1 to 11 {
      %c = affine.load %A0[%i, %j] : memref<12x12xf32>
      %n = affine.load %A0[%i - 1, %j] : memref<12x12xf32>
      %s0 = arith.addf %c, %n : f32
      %so = affine.load %A0[%i + 1, %j] : memref<12x12xf32>
      %s1 = arith.addf %s0, %so : f32
      %w = affine.load %A0[%i, %j - 1] : memref<12x12xf32>
      %s2 = arith.addf %s1, %w : f32
      %e = affine.load %A0[%i, %j + 1] : memref<12x12xf32>
      %s3 = arith.addf %s2, %e : f32
      %v = arith.mulf %fifth, %s3 : f32
      affine.store %v, %A1[%i, %j] : memref<12x12xf32>
    }
  }
  // stage 2: A2[i][j] = 0.2 * (A1[i][j] + A1[i-1][j] + A1[i+1][j] + A1[i][j-1] + A1[i][j+1]),
  //          i, j in [2, 10)
  affine.for %i = 2 to 10 {
    affine.for %j = 2 to 10 {
      %c = affine.load %A1[%i, %j] : memref<12x12xf32>
      %n = affine.load %A1[%i - 1, %j] : memref<12x12xf32>
      %s0 = arith.addf %c, %n : f32
      %so = affine.load %A1[%i + 1, %j] : memref<12x12xf32>
      %s1 = arith.addf %s0, %so : f32
      %w = affine.load %A1[%i, %j - 1] : memref<12x12xf32>
      %s2 = arith.addf %s1, %w : f32
      %e = affine.load %A1[%i, %j + 1] : memref<12x12xf32>
      %s3 = arith.addf %s2, %e : f32
      %v = arith.mulf %fifth, %s3 : f32
      affine.store %v, %A2[%i, %j] : memref<12x12xf32>
    }
  }
  // stage 3: A3[i][j] = 0.2 * (A2[i][j] + A2[i-1][j] + A2[i+1][j] + A2[i][j-1] + A2[i][j+1]),
  //          i, j in [3, 9)
  affine.for %i = 3 to 9 {
    affine.for %j = 3 to 9 {
      %c = affine.load %A2[%i, %j] : memref<12x12xf32>
      %n = affine.load %A2[%i - 1, %j] : memref<12x12xf32>
      %s0 = arith.addf %c, %n : f32
      %so = affine.load %A2[%i + 1, %j] : memref<12x12xf32>
      %s1 = arith.addf %s0, %so : f32
      %w = affine.load %A2[%i, %j - 1] : memref<12x12xf32>
      %s2 = arith.addf %s1, %w : f32
      %e = affine.load %A2[%i, %j + 1] : memref<12x12xf32>
      %s3 = arith.addf %s2, %e : f32
      %v = arith.mulf %fifth, %s3 : f32
      affine.store %v, %A3[%i, %j] : memref<12x12xf32>
    }
  }
  // stage 4: A4[i][j] = 0.2 * (A3[i][j] + A3[i-1][j] + A3[i+1][j] + A3[i][j-1] + A3[i][j+1]),
  //          i, j in [4, 8)
  affine.for %i = 4 to 8 {
    affine.for %j = 4 to 8 {
      %c = affine.load %A3[%i, %j] : memref<12x12xf32>
      %n = affine.load %A3[%i - 1, %j] : memref<12x12xf32>
      %s0 = arith.addf %c, %n : f32
      %so = affine.load %A3[%i + 1, %j] : memref<12x12xf32>
      %s1 = arith.addf %s0, %so : f32
      %w = affine.load %A3[%i, %j - 1] : memref<12x12xf32>
      %s2 = arith.addf %s1, %w : f32
      %e = affine.load %A3[%i, %j + 1] : memref<12x12xf32>
      %s3 = arith.addf %s2, %e : f32
      %v = arith.mulf %fifth, %s3 : f32
      affine.store %v, %A4[%i, %j] : memref<12x12xf32>
    }
  }
  memref.dealloc %A1 : memref<12x12xf32>
  memref.dealloc %A2 : memref<12x12xf32>
  memref.dealloc %A3 : memref<12x12xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %A0 = memref.alloc() : memref<12x12xf32>
  %A4 = memref.alloc() : memref<12x12xf32>
  affine.for %i0 = 0 to 12 {
    affine.for %i1 = 0 to 12 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A0[%i0, %i1] : memref<12x12xf32>
    }
  }
  affine.for %i0 = 0 to 12 {
    affine.for %i1 = 0 to 12 {
      affine.store %zero, %A4[%i0, %i1] : memref<12x12xf32>
    }
  }
  call @stencil4_dead(%A0, %A4) : (memref<12x12xf32>, memref<12x12xf32>) -> ()
  %p_A4 = memref.cast %A4 : memref<12x12xf32> to memref<*xf32>
  call @printMemrefF32(%p_A4) : (memref<*xf32>) -> ()
  memref.dealloc %A0 : memref<12x12xf32>
  memref.dealloc %A4 : memref<12x12xf32>
  return
}
