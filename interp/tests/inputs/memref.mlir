// memref ops on the host: dynamic sizes, dim, globals, copy, alloca, casts;
// memref.out is what mlir-runner (MLIR 22) printed for it.
memref.global "private" constant @table : memref<2x3xf32> = dense<[[1.5, -2.0, 3.25], [4.0, 5.5, -6.75]]>
memref.global "private" @splat : memref<4xi32> = dense<7>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printI64(i64)
func.func private @printNewline()

func.func @fill(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %k = arith.muli %i, %d1 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %f = arith.sitofp %li : i32 to f32
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc(%c2, %c3) : memref<?x?xf32>
  call @fill(%m) : (memref<?x?xf32>) -> ()
  %u = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %t = memref.get_global @table : memref<2x3xf32>
  %s = memref.alloca() : memref<2x3xf32>
  memref.copy %t, %s : memref<2x3xf32> to memref<2x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %s[%c1, %c2] : memref<2x3xf32>
  %y = arith.mulf %x, %x : f32
  memref.store %y, %s[%c0, %c0] : memref<2x3xf32>
  %su = memref.cast %s : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%su) : (memref<*xf32>) -> ()
  %g = memref.get_global @splat : memref<4xi32>
  %v = memref.load %g[%c3] : memref<4xi32>
  %w = arith.addi %v, %v : i32
  memref.store %w, %g[%c1] : memref<4xi32>
  %gu = memref.cast %g : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%gu) : (memref<*xi32>) -> ()
  %n = memref.dim %m, %c1 : memref<?x?xf32>
  %ni = arith.index_cast %n : index to i64
  call @printI64(%ni) : (i64) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %m : memref<?x?xf32>
  return
}
