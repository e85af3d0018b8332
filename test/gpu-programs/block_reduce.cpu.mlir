// CPU reference of block_reduce.lfir for mlir-runner.
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<1024xf32>
  %Out = memref.alloc() : memref<4xf32>
  %Part = memref.alloc() : memref<4x64xf32>
  affine.for %i = 0 to 1024 {
    %m = affine.apply affine_map<(d0) -> (d0 mod 13)>(%i)
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    affine.store %mf, %A[%i] : memref<1024xf32>
  }
  affine.for %b = 0 to 4 {
    affine.for %t = 0 to 64 {
      %s = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
        %v = affine.load %A[%b * 256 + %k * 64 + %t] : memref<1024xf32>
        %k1 = affine.apply affine_map<(d0) -> (d0 + 1)>(%k)
        %ki = arith.index_cast %k1 : index to i32
        %w = arith.sitofp %ki : i32 to f32
        %vw = arith.mulf %v, %w : f32
        %acc2 = arith.addf %acc, %vw : f32
        affine.yield %acc2 : f32
      }
      affine.store %s, %Part[%b, %t] : memref<4x64xf32>
    }
    %total = affine.for %t = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %Part[%b, %t] : memref<4x64xf32>
      %acc2 = arith.addf %acc, %v : f32
      affine.yield %acc2 : f32
    }
    affine.store %total, %Out[%b] : memref<4xf32>
  }
  %uo = memref.cast %Out : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
  %up = memref.cast %Part : memref<4x64xf32> to memref<*xf32>
  call @printMemrefF32(%up) : (memref<*xf32>) -> ()
  return
}
