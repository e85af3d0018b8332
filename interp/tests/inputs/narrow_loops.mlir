// scf.for with induction variables narrower than 64 bits: MLIR's lowering
// (convert-scf-to-cf) adds the step with an arith.addi of the variable's
// type, so the sum wraps at that width and the loop goes on while the
// wrapped value is (signed) less than the upper bound. lf-run does the same;
// narrow_loops.out is what mlir-runner (MLIR 22) printed.
func.func private @printI64(i64)
func.func private @printNewline()
func.func private @printComma()

func.func @pi(%x: i64) {
  call @printI64(%x) : (i64) -> ()
  call @printComma() : () -> ()
  return
}

// i8 from 120 to 127 step 5: 120, 125, then 130 wraps to -126, ...; the loop
// ends when the variable reaches 127 exactly, after 155 iterations.
func.func @i8_wraps() {
  %lb = arith.constant 120 : i8
  %ub = arith.constant 127 : i8
  %st = arith.constant 5 : i8
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %n, %first_neg = scf.for %i = %lb to %ub step %st iter_args(%k = %c0, %f = %c0) -> (i64, i64) : i8 {
    %k1 = arith.addi %k, %c1 : i64
    %ie = arith.extsi %i : i8 to i64
    %neg = arith.cmpi slt, %ie, %c0 : i64
    %none = arith.cmpi eq, %f, %c0 : i64
    %take = arith.andi %neg, %none : i1
    %f1 = arith.select %take, %ie, %f : i64
    scf.yield %k1, %f1 : i64, i64
  }
  call @pi(%n) : (i64) -> ()
  call @pi(%first_neg) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// The first iterations, printed: 120, 125, -126, -121.
func.func @i8_first() {
  %lb = arith.constant 120 : i8
  %ub = arith.constant 127 : i8
  %st = arith.constant 5 : i8
  %c4 = arith.constant 4 : i64
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %n = scf.for %i = %lb to %ub step %st iter_args(%k = %c0) -> (i64) : i8 {
    %small = arith.cmpi slt, %k, %c4 : i64
    scf.if %small {
      %ie = arith.extsi %i : i8 to i64
      func.call @pi(%ie) : (i64) -> ()
    }
    %k1 = arith.addi %k, %c1 : i64
    scf.yield %k1 : i64
  }
  call @printNewline() : () -> ()
  return
}

// i16 from 32760 to 32767 step 3: 43693 iterations; the sum of the variable
// over them (in i64).
func.func @i16_wraps() {
  %lb = arith.constant 32760 : i16
  %ub = arith.constant 32767 : i16
  %st = arith.constant 3 : i16
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %n, %s = scf.for %i = %lb to %ub step %st iter_args(%k = %c0, %acc = %c0) -> (i64, i64) : i16 {
    %k1 = arith.addi %k, %c1 : i64
    %ie = arith.extsi %i : i16 to i64
    %a1 = arith.addi %acc, %ie : i64
    scf.yield %k1, %a1 : i64, i64
  }
  call @pi(%n) : (i64) -> ()
  call @pi(%s) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// No wrap: i8 from -128 to 100 step 50 (5 iterations), and an i32 loop.
func.func @no_wrap() {
  %lb = arith.constant -128 : i8
  %ub = arith.constant 100 : i8
  %st = arith.constant 50 : i8
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %n = scf.for %i = %lb to %ub step %st iter_args(%k = %c0) -> (i64) : i8 {
    %k1 = arith.addi %k, %c1 : i64
    scf.yield %k1 : i64
  }
  call @pi(%n) : (i64) -> ()
  %lb32 = arith.constant -5 : i32
  %ub32 = arith.constant 7 : i32
  %st32 = arith.constant 4 : i32
  %m = scf.for %i = %lb32 to %ub32 step %st32 iter_args(%k = %c0) -> (i64) : i32 {
    %ie = arith.extsi %i : i32 to i64
    %k1 = arith.addi %k, %ie : i64
    scf.yield %k1 : i64
  }
  call @pi(%m) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  call @i8_wraps() : () -> ()
  call @i8_first() : () -> ()
  call @i16_wraps() : () -> ()
  call @no_wrap() : () -> ()
  return
}
