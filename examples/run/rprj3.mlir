// Driver for ../rprj3.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @rprj3(%r: memref<10x10x10xf64>, %s: memref<6x6x6xf64>) {
  %w0 = arith.constant 5.000000e-01 : f64
  %w1 = arith.constant 2.500000e-01 : f64
  %w2 = arith.constant 1.250000e-01 : f64
  %w3 = arith.constant 6.250000e-02 : f64
  // s[j3][j2][j1] = 0.5 * r[c] + 0.25 * sum(6 faces) + 0.125 * sum(12 edges)
  //               + 0.0625 * sum(8 corners),   c = (2*j3, 2*j2, 2*j1)
  affine.for %j3 = 1 to 5 {
    affine.for %j2 = 1 to 5 {
      affine.for %j1 = 1 to 5 {
        // center (1 point)
        %g0_0 = affine.load %r[%j3 * 2, %j2 * 2, %j1 * 2] : memref<10x10x10xf64>
        %t0 = arith.mulf %w0, %g0_0 : f64
        // faces (6 points)
        %g1_0 = affine.load %r[%j3 * 2 - 1, %j2 * 2, %j1 * 2] : memref<10x10x10xf64>
        %g1_1 = affine.load %r[%j3 * 2, %j2 * 2 - 1, %j1 * 2] : memref<10x10x10xf64>
        %g1_s1 = arith.addf %g1_0, %g1_1 : f64
        %g1_2 = affine.load %r[%j3 * 2, %j2 * 2, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g1_s2 = arith.addf %g1_s1, %g1_2 : f64
        %g1_3 = affine.load %r[%j3 * 2, %j2 * 2, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g1_s3 = arith.addf %g1_s2, %g1_3 : f64
        %g1_4 = affine.load %r[%j3 * 2, %j2 * 2 + 1, %j1 * 2] : memref<10x10x10xf64>
        %g1_s4 = arith.addf %g1_s3, %g1_4 : f64
        %g1_5 = affine.load %r[%j3 * 2 + 1, %j2 * 2, %j1 * 2] : memref<10x10x10xf64>
        %g1_s5 = arith.addf %g1_s4, %g1_5 : f64
        %t1 = arith.mulf %w1, %g1_s5 : f64
        // edges (12 points)
        %g2_0 = affine.load %r[%j3 * 2 - 1, %j2 * 2 - 1, %j1 * 2] : memref<10x10x10xf64>
        %g2_1 = affine.load %r[%j3 * 2 - 1, %j2 * 2, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g2_s1 = arith.addf %g2_0, %g2_1 : f64
        %g2_2 = affine.load %r[%j3 * 2 - 1, %j2 * 2, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g2_s2 = arith.addf %g2_s1, %g2_2 : f64
        %g2_3 = affine.load %r[%j3 * 2 - 1, %j2 * 2 + 1, %j1 * 2] : memref<10x10x10xf64>
        %g2_s3 = arith.addf %g2_s2, %g2_3 : f64
        %g2_4 = affine.load %r[%j3 * 2, %j2 * 2 - 1, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g2_s4 = arith.addf %g2_s3, %g2_4 : f64
        %g2_5 = affine.load %r[%j3 * 2, %j2 * 2 - 1, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g2_s5 = arith.addf %g2_s4, %g2_5 : f64
        %g2_6 = affine.load %r[%j3 * 2, %j2 * 2 + 1, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g2_s6 = arith.addf %g2_s5, %g2_6 : f64
        %g2_7 = affine.load %r[%j3 * 2, %j2 * 2 + 1, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g2_s7 = arith.addf %g2_s6, %g2_7 : f64
        %g2_8 = affine.load %r[%j3 * 2 + 1, %j2 * 2 - 1, %j1 * 2] : memref<10x10x10xf64>
        %g2_s8 = arith.addf %g2_s7, %g2_8 : f64
        %g2_9 = affine.load %r[%j3 * 2 + 1, %j2 * 2, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g2_s9 = arith.addf %g2_s8, %g2_9 : f64
        %g2_10 = affine.load %r[%j3 * 2 + 1, %j2 * 2, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g2_s10 = arith.addf %g2_s9, %g2_10 : f64
        %g2_11 = affine.load %r[%j3 * 2 + 1, %j2 * 2 + 1, %j1 * 2] : memref<10x10x10xf64>
        %g2_s11 = arith.addf %g2_s10, %g2_11 : f64
        %t2 = arith.mulf %w2, %g2_s11 : f64
        // corners (8 points)
        %g3_0 = affine.load %r[%j3 * 2 - 1, %j2 * 2 - 1, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g3_1 = affine.load %r[%j3 * 2 - 1, %j2 * 2 - 1, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g3_s1 = arith.addf %g3_0, %g3_1 : f64
        %g3_2 = affine.load %r[%j3 * 2 - 1, %j2 * 2 + 1, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g3_s2 = arith.addf %g3_s1, %g3_2 : f64
        %g3_3 = affine.load %r[%j3 * 2 - 1, %j2 * 2 + 1, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g3_s3 = arith.addf %g3_s2, %g3_3 : f64
        %g3_4 = affine.load %r[%j3 * 2 + 1, %j2 * 2 - 1, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g3_s4 = arith.addf %g3_s3, %g3_4 : f64
        %g3_5 = affine.load %r[%j3 * 2 + 1, %j2 * 2 - 1, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g3_s5 = arith.addf %g3_s4, %g3_5 : f64
        %g3_6 = affine.load %r[%j3 * 2 + 1, %j2 * 2 + 1, %j1 * 2 - 1] : memref<10x10x10xf64>
        %g3_s6 = arith.addf %g3_s5, %g3_6 : f64
        %g3_7 = affine.load %r[%j3 * 2 + 1, %j2 * 2 + 1, %j1 * 2 + 1] : memref<10x10x10xf64>
        %g3_s7 = arith.addf %g3_s6, %g3_7 : f64
        %t3 = arith.mulf %w3, %g3_s7 : f64
        %u1 = arith.addf %t0, %t1 : f64
        %u2 = arith.addf %u1, %t2 : f64
        %u3 = arith.addf %u2, %t3 : f64
        affine.store %u3, %s[%j3, %j2, %j1] : memref<6x6x6xf64>
      }
    }
  }
  return
}

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero64 = arith.constant 0.000000e+00 : f64
  %four64 = arith.constant 4.000000e+00 : f64
  %r = memref.alloc() : memref<10x10x10xf64>
  %s = memref.alloc() : memref<6x6x6xf64>
  affine.for %i0 = 0 to 10 {
    affine.for %i1 = 0 to 10 {
      affine.for %i2 = 0 to 10 {
        %h = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 7 + 1) mod 13)>(%i0, %i1, %i2)
        %hi = arith.index_cast %h : index to i32
        %hf = arith.sitofp %hi : i32 to f64
        %v = arith.divf %hf, %four64 : f64
        affine.store %v, %r[%i0, %i1, %i2] : memref<10x10x10xf64>
      }
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.for %i2 = 0 to 6 {
        affine.store %zero64, %s[%i0, %i1, %i2] : memref<6x6x6xf64>
      }
    }
  }
  call @rprj3(%r, %s) : (memref<10x10x10xf64>, memref<6x6x6xf64>) -> ()
  %p_s = memref.cast %s : memref<6x6x6xf64> to memref<*xf64>
  call @printMemrefF64(%p_s) : (memref<*xf64>) -> ()
  memref.dealloc %r : memref<10x10x10xf64>
  memref.dealloc %s : memref<6x6x6xf64>
  return
}
