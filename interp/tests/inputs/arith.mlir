// Integer wrap-around per width, signed/unsigned division and comparison,
// f32 arithmetic in f32, conversions, math functions, scf.while/if and
// affine.min/max/if; arith.out is what mlir-runner (MLIR 22) printed.
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printNewline()
func.func private @printComma()

func.func @pi(%x: i64) {
  call @printI64(%x) : (i64) -> ()
  call @printComma() : () -> ()
  return
}
func.func @pf(%x: f32) {
  call @printF32(%x) : (f32) -> ()
  call @printComma() : () -> ()
  return
}

func.func @ints(%a8: i8, %b8: i8, %a32: i32, %b32: i32) {
  %s = arith.addi %a8, %b8 : i8
  %m = arith.muli %a8, %b8 : i8
  %se = arith.extsi %s : i8 to i64
  %ue = arith.extui %s : i8 to i64
  %me = arith.extsi %m : i8 to i64
  call @pi(%se) : (i64) -> ()
  call @pi(%ue) : (i64) -> ()
  call @pi(%me) : (i64) -> ()
  %q = arith.divsi %a32, %b32 : i32
  %r = arith.remsi %a32, %b32 : i32
  %qu = arith.divui %a32, %b32 : i32
  %fd = arith.floordivsi %a32, %b32 : i32
  %cd = arith.ceildivsi %a32, %b32 : i32
  %sh = arith.shrsi %a32, %b32 : i32
  %shu = arith.shrui %a32, %b32 : i32
  %shl = arith.shli %a32, %b32 : i32
  %mx = arith.maxui %a32, %b32 : i32
  %mn = arith.minsi %a32, %b32 : i32
  %x = arith.xori %a32, %b32 : i32
  %lt = arith.cmpi slt, %a32, %b32 : i32
  %ult = arith.cmpi ult, %a32, %b32 : i32
  %sel = arith.select %ult, %q, %r : i32
  %lte = arith.extui %lt : i1 to i64
  %ulte = arith.extui %ult : i1 to i64
  call @pi(%lte) : (i64) -> ()
  call @pi(%ulte) : (i64) -> ()
  %vals = memref.alloc() : memref<11xi32>
  %c0 = arith.constant 0 : index
  memref.store %q, %vals[%c0] : memref<11xi32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  memref.store %r, %vals[%c1] : memref<11xi32>
  memref.store %qu, %vals[%c2] : memref<11xi32>
  memref.store %fd, %vals[%c3] : memref<11xi32>
  memref.store %cd, %vals[%c4] : memref<11xi32>
  memref.store %sh, %vals[%c5] : memref<11xi32>
  memref.store %shu, %vals[%c6] : memref<11xi32>
  memref.store %shl, %vals[%c7] : memref<11xi32>
  memref.store %mx, %vals[%c8] : memref<11xi32>
  memref.store %mn, %vals[%c9] : memref<11xi32>
  memref.store %sel, %vals[%c10] : memref<11xi32>
  %c11 = arith.constant 11 : index
  scf.for %i = %c0 to %c11 step %c1 {
    %v = memref.load %vals[%i] : memref<11xi32>
    %w = arith.extsi %v : i32 to i64
    func.call @pi(%w) : (i64) -> ()
  }
  %xe = arith.extsi %x : i32 to i64
  call @pi(%xe) : (i64) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %vals : memref<11xi32>
  return
}

func.func @floats(%a: f32, %b: f32) {
  %s = arith.addf %a, %b : f32
  %d = arith.divf %a, %b : f32
  %r = arith.remf %a, %b : f32
  %mx = arith.maximumf %a, %b : f32
  %n = arith.negf %d : f32
  %sq = math.sqrt %s : f32
  %e = math.exp %a : f32
  %l = math.log %s : f32
  %sn = math.sin %a : f32
  %fl = math.floor %n : f32
  %fm = math.fma %a, %b, %s : f32
  %ab = math.absf %n : f32
  %i = arith.fptosi %d : f32 to i32
  %ie = arith.extsi %i : i32 to i64
  %ext = arith.extf %d : f32 to f64
  %tr = arith.truncf %ext : f64 to f32
  %c = arith.cmpf ogt, %a, %b : f32
  %sel = arith.select %c, %a, %b : f32
  call @pf(%s) : (f32) -> ()
  call @pf(%d) : (f32) -> ()
  call @pf(%r) : (f32) -> ()
  call @pf(%mx) : (f32) -> ()
  call @pf(%n) : (f32) -> ()
  call @pf(%sq) : (f32) -> ()
  call @pf(%e) : (f32) -> ()
  call @pf(%l) : (f32) -> ()
  call @pf(%sn) : (f32) -> ()
  call @pf(%fl) : (f32) -> ()
  call @pf(%fm) : (f32) -> ()
  call @pf(%ab) : (f32) -> ()
  call @pf(%tr) : (f32) -> ()
  call @pf(%sel) : (f32) -> ()
  call @pi(%ie) : (i64) -> ()
  call @printF64(%ext) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @control(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // Collatz steps of n with scf.while.
  %r:2 = scf.while (%x = %n, %k = %c0) : (index, index) -> (index, index) {
    %true = arith.constant true
    %done = arith.cmpi eq, %x, %c1 : index
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %x, %k : index, index
  } do {
  ^bb0(%x: index, %k: index):
    %c2 = arith.constant 2 : index
    %rem = arith.remui %x, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %nx = scf.if %even -> (index) {
      %h = arith.divui %x, %c2 : index
      scf.yield %h : index
    } else {
      %c3 = arith.constant 3 : index
      %t = arith.muli %x, %c3 : index
      %t1 = arith.addi %t, %c1 : index
      scf.yield %t1 : index
    }
    %k1 = arith.addi %k, %c1 : index
    scf.yield %nx, %k1 : index, index
  }
  %s = affine.for %i = 0 to 10 step 3 iter_args(%acc = %c0) -> (index) {
    %mn = affine.min affine_map<(d0)[s0] -> (d0 * 2, s0)>(%i)[%n]
    %mx = affine.max affine_map<(d0) -> (d0 - 5, 1)>(%i)
    %fdv = affine.apply affine_map<(d0) -> ((d0 - 7) floordiv 2 + (d0 - 7) mod 3)>(%i)
    %t = arith.addi %mn, %mx : index
    %t2 = arith.addi %t, %fdv : index
    %a = arith.addi %acc, %t2 : index
    %b = affine.if affine_set<(d0) : (d0 - 4 >= 0)>(%i) -> index {
      %c100 = arith.constant 100 : index
      %y = arith.addi %a, %c100 : index
      affine.yield %y : index
    } else {
      affine.yield %a : index
    }
    affine.yield %b : index
  }
  %out = arith.addi %r#1, %s : index
  return %out : index
}

func.func @main() {
  %a8 = arith.constant 100 : i8
  %b8 = arith.constant 77 : i8
  %a32 = arith.constant -17 : i32
  %b32 = arith.constant 5 : i32
  call @ints(%a8, %b8, %a32, %b32) : (i8, i8, i32, i32) -> ()
  %p = arith.constant -100 : i32
  %m3 = arith.constant 3 : i32
  call @ints(%b8, %b8, %p, %m3) : (i8, i8, i32, i32) -> ()
  %fa = arith.constant 0.1 : f32
  %fb = arith.constant 0.2 : f32
  call @floats(%fa, %fb) : (f32, f32) -> ()
  %fc = arith.constant 7.5 : f32
  %fd = arith.constant -2.25 : f32
  call @floats(%fc, %fd) : (f32, f32) -> ()
  %n = arith.constant 27 : index
  %r = call @control(%n) : (index) -> index
  %ri = arith.index_cast %r : index to i64
  call @printI64(%ri) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
