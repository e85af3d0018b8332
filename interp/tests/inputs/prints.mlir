// The runner-utils print functions on special and ordinary values; prints.out is
// what mlir-runner (MLIR 22) printed for it.
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printNewline()
func.func private @printComma()
func.func private @printOpen()
func.func private @printClose()
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %a = arith.constant 1.0e+06 : f32
  %b = arith.constant 1.234567e+06 : f32
  %c = arith.constant 1.0e-05 : f32
  %d = arith.constant -0.0 : f32
  %e = arith.constant 0x7FC00000 : f32
  %f = arith.constant 0x7F800000 : f32
  %g = arith.constant 0.1 : f32
  %h = arith.constant 3.3333333333333335 : f64
  %i = arith.constant -42 : i64
  %j = arith.constant -1 : i64
  %k = arith.constant 123456.5 : f32
  %zero = arith.constant 0.0 : f32
  %nan = arith.divf %zero, %zero : f32
  call @printOpen() : () -> ()
  call @printF32(%a) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%b) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%c) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%d) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%e) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%f) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%g) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%k) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%nan) : (f32) -> ()
  call @printClose() : () -> ()
  call @printNewline() : () -> ()
  call @printF64(%h) : (f64) -> ()
  call @printNewline() : () -> ()
  call @printI64(%i) : (i64) -> ()
  call @printNewline() : () -> ()
  call @printU64(%j) : (i64) -> ()
  call @printNewline() : () -> ()
  %m = memref.alloc() : memref<2x3xi32>
  %n = memref.alloc() : memref<3xf64>
  %o = memref.alloc() : memref<i64>
  %p = memref.alloc() : memref<1x1xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v7 = arith.constant -7 : i32
  affine.for %x = 0 to 2 {
    affine.for %y = 0 to 3 {
      %s = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%x, %y)
      %si = arith.index_cast %s : index to i32
      %t = arith.muli %si, %v7 : i32
      affine.store %t, %m[%x, %y] : memref<2x3xi32>
    }
  }
  affine.store %h, %n[0] : memref<3xf64>
  affine.store %h, %n[1] : memref<3xf64>
  %hn = arith.negf %h : f64
  affine.store %hn, %n[2] : memref<3xf64>
  memref.store %i, %o[] : memref<i64>
  memref.store %b, %p[%c0, %c0] : memref<1x1xf32>
  %mc = memref.cast %m : memref<2x3xi32> to memref<*xi32>
  call @printMemrefI32(%mc) : (memref<*xi32>) -> ()
  %nc = memref.cast %n : memref<3xf64> to memref<*xf64>
  call @printMemrefF64(%nc) : (memref<*xf64>) -> ()
  %oc = memref.cast %o : memref<i64> to memref<*xi64>
  call @printMemrefI64(%oc) : (memref<*xi64>) -> ()
  %pc = memref.cast %p : memref<1x1xf32> to memref<*xf32>
  call @printMemrefF32(%pc) : (memref<*xf32>) -> ()
  return
}
