// CPU reference of transpose_diagonal.lfir for mlir-runner.
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %A = memref.alloc() : memref<32x32xf32>
  %B = memref.alloc() : memref<32x32xf32>
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %h = affine.apply affine_map<(d0, d1) -> (d0 * 100 + d1)>(%i, %j)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      affine.store %hf, %A[%i, %j] : memref<32x32xf32>
    }
  }
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %v = affine.load %A[%j, %i] : memref<32x32xf32>
      affine.store %v, %B[%i, %j] : memref<32x32xf32>
    }
  }
  %u = memref.cast %B : memref<32x32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
