// CPU reference of stencil_fused_halo.lfir for mlir-runner: the two stencils unfused.
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %quarter = arith.constant 0.25 : f32
  %half = arith.constant 0.5 : f32
  %A = memref.alloc() : memref<260xf32>
  %B = memref.alloc() : memref<260xf32>
  %C = memref.alloc() : memref<260xf32>
  affine.for %i = 0 to 260 {
    %h = affine.apply affine_map<(d0) -> ((d0 * 7) mod 13)>(%i)
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %v = arith.divf %hf, %four : f32
    affine.store %v, %A[%i] : memref<260xf32>
    affine.store %zero, %C[%i] : memref<260xf32>
  }
  affine.for %i = 1 to 259 {
    %x0 = affine.load %A[%i - 1] : memref<260xf32>
    %x1 = affine.load %A[%i] : memref<260xf32>
    %x2 = affine.load %A[%i + 1] : memref<260xf32>
    %p = arith.mulf %x0, %quarter : f32
    %q = arith.mulf %x1, %half : f32
    %r = arith.mulf %x2, %quarter : f32
    %s = arith.addf %p, %q : f32
    %t = arith.addf %s, %r : f32
    affine.store %t, %B[%i] : memref<260xf32>
  }
  affine.for %i = 2 to 258 {
    %x0 = affine.load %B[%i - 1] : memref<260xf32>
    %x1 = affine.load %B[%i] : memref<260xf32>
    %x2 = affine.load %B[%i + 1] : memref<260xf32>
    %p = arith.mulf %x0, %quarter : f32
    %q = arith.mulf %x1, %half : f32
    %r = arith.mulf %x2, %quarter : f32
    %s = arith.addf %p, %q : f32
    %t = arith.addf %s, %r : f32
    affine.store %t, %C[%i] : memref<260xf32>
  }
  %u = memref.cast %C : memref<260xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
