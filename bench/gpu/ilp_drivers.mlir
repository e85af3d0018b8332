// Straight-line kernels for gpu-merge-policy's rule 4 (a kernel without loops thread-merged by
// ilp-factor): an elementwise kernel (two loads, one store) and a 3-point stencil along the
// rows (bound guards: its extent is not a multiple of the block), 4096x4096 floats, each called
// 5 times; @main prints a checksum of both outputs.
func.func @ew(%A: memref<4096x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %a = affine.load %A[%i, %j] : memref<4096x4096xf32>
      %b = affine.load %B[%i, %j] : memref<4096x4096xf32>
      %c = arith.addf %a, %b : f32
      %d = arith.mulf %c, %a : f32
      affine.store %d, %C[%i, %j] : memref<4096x4096xf32>
    }
  }
  return
}
func.func @st(%A: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  affine.for %i = 0 to 4096 {
    affine.for %j = 1 to 4095 {
      %l = affine.load %A[%i, %j - 1] : memref<4096x4096xf32>
      %m = affine.load %A[%i, %j] : memref<4096x4096xf32>
      %r = affine.load %A[%i, %j + 1] : memref<4096x4096xf32>
      %s = arith.addf %l, %m : f32
      %t = arith.addf %s, %r : f32
      affine.store %t, %C[%i, %j] : memref<4096x4096xf32>
    }
  }
  return
}
func.func private @printF32(f32)
func.func private @printNewline()
func.func @main() {
  %four = arith.constant 4.000000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %A = memref.alloc() : memref<4096x4096xf32>
  %B = memref.alloc() : memref<4096x4096xf32>
  %C = memref.alloc() : memref<4096x4096xf32>
  %D = memref.alloc() : memref<4096x4096xf32>
  affine.for %i0 = 0 to 4096 {
    affine.for %i1 = 0 to 4096 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A[%i0, %i1] : memref<4096x4096xf32>
      affine.store %four, %B[%i0, %i1] : memref<4096x4096xf32>
      affine.store %zero, %D[%i0, %i1] : memref<4096x4096xf32>
    }
  }
  affine.for %k = 0 to 5 {
    func.call @ew(%A, %B, %C) : (memref<4096x4096xf32>, memref<4096x4096xf32>, memref<4096x4096xf32>) -> ()
    func.call @st(%A, %D) : (memref<4096x4096xf32>, memref<4096x4096xf32>) -> ()
  }
  %sum = affine.for %i0 = 0 to 4096 iter_args(%acc0 = %zero) -> f32 {
    %row = affine.for %i1 = 0 to 4096 step 64 iter_args(%acc1 = %acc0) -> f32 {
      %c = affine.load %C[%i0, %i1] : memref<4096x4096xf32>
      %d = affine.load %D[%i0, %i1 + 1] : memref<4096x4096xf32>
      %cd = arith.addf %c, %d : f32
      %n = arith.addf %acc1, %cd : f32
      affine.yield %n : f32
    }
    affine.yield %row : f32
  }
  func.call @printF32(%sum) : (f32) -> ()
  func.call @printNewline() : () -> ()
  return
}
