// CPU reference of matmul_tiled.lfir (same inputs, plain loops) for mlir-runner.
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %four = arith.constant 4.0 : f32
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<32x32xf32>
  %B = memref.alloc() : memref<32x32xf32>
  %C = memref.alloc() : memref<32x32xf32>
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i, %j)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A[%i, %j] : memref<32x32xf32>
      %g = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 11 + 2) mod 17)>(%i, %j)
      %gi = arith.index_cast %g : index to i32
      %gf = arith.sitofp %gi : i32 to f32
      %w = arith.divf %gf, %four : f32
      affine.store %w, %B[%i, %j] : memref<32x32xf32>
    }
  }
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %s = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %A[%i, %k] : memref<32x32xf32>
        %y = affine.load %B[%k, %j] : memref<32x32xf32>
        %m = arith.mulf %x, %y : f32
        %a = arith.addf %acc, %m : f32
        affine.yield %a : f32
      }
      affine.store %s, %C[%i, %j] : memref<32x32xf32>
    }
  }
  %u = memref.cast %C : memref<32x32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
