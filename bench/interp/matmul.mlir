// lf-run speed benchmark (CPU level): a 256x256x256 f32 matmul in affine loops,
// about 84M interpreter instructions (loads, mulf, addf, loop steps).
func.func private @printF32(f32)
func.func private @printNewline()

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %A = memref.alloc() : memref<256x256xf32>
  %B = memref.alloc() : memref<256x256xf32>
  %C = memref.alloc() : memref<256x256xf32>
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 256 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i, %j)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A[%i, %j] : memref<256x256xf32>
      affine.store %v, %B[%j, %i] : memref<256x256xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 256 {
      %s = affine.for %k = 0 to 256 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %A[%i, %k] : memref<256x256xf32>
        %y = affine.load %B[%k, %j] : memref<256x256xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %C[%i, %j] : memref<256x256xf32>
    }
  }
  %c7 = arith.constant 7 : index
  %r = memref.load %C[%c7, %c7] : memref<256x256xf32>
  call @printF32(%r) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}
