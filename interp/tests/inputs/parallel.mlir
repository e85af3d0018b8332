// scf.parallel and affine.parallel (bound groups, steps, reductions);
// parallel.out is what mlir-runner (MLIR 22) printed for it.
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %m = memref.alloc() : memref<5x3xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c5, %c3) step (%c1, %c1) {
    %k = arith.muli %i, %c3 : index
    %l = arith.addi %k, %j : index
    %li = arith.index_cast %l : index to i32
    %f = arith.sitofp %li : i32 to f32
    %h = arith.constant 0.5 : f32
    %g = arith.mulf %f, %h : f32
    memref.store %g, %m[%i, %j] : memref<5x3xf32>
  }
  %zero = arith.constant 0.0 : f32
  %s = scf.parallel (%i) = (%c0) to (%c5) step (%c2) init (%zero) -> f32 {
    %v = memref.load %m[%i, %c1] : memref<5x3xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  call @printF32(%s) : (f32) -> ()
  call @printNewline() : () -> ()
  %r:2 = affine.parallel (%i, %j) = (0, max(0, %c1 - 1)) to (5, min(3, %c5)) step (1, 2) reduce ("addf", "addi") -> (f32, i64) {
    %v = affine.load %m[%i, %j] : memref<5x3xf32>
    %p = affine.apply affine_map<(d0, d1) -> (d0 * 10 + d1)>(%i, %j)
    %pi = arith.index_cast %p : index to i64
    affine.yield %v, %pi : f32, i64
  }
  call @printF32(%r#0) : (f32) -> ()
  call @printNewline() : () -> ()
  call @printI64(%r#1) : (i64) -> ()
  call @printNewline() : () -> ()
  affine.parallel (%i) = (1) to (4) {
    %v = affine.load %m[%i, 0] : memref<5x3xf32>
    %w = arith.addf %v, %v : f32
    affine.store %w, %m[%i, 2] : memref<5x3xf32>
  }
  %u = memref.cast %m : memref<5x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<5x3xf32>
  return
}
