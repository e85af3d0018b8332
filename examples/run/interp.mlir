// Driver for ../interp.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @interp(%z: memref<4x4x4xf64>, %u: memref<6x6x6xf64>) {
  %half = arith.constant 5.000000e-01 : f64
  %quarter = arith.constant 2.500000e-01 : f64
  %eighth = arith.constant 1.250000e-01 : f64
  affine.for %i3 = 0 to 3 {
    affine.for %i2 = 0 to 3 {
      affine.for %i1 = 0 to 3 {
        // the 2x2x2 corner values of coarse cell (i3, i2, i1); zABC = z[i3+A][i2+B][i1+C]
        %z000 = affine.load %z[%i3, %i2, %i1] : memref<4x4x4xf64>
        %z001 = affine.load %z[%i3, %i2, %i1 + 1] : memref<4x4x4xf64>
        %z010 = affine.load %z[%i3, %i2 + 1, %i1] : memref<4x4x4xf64>
        %z011 = affine.load %z[%i3, %i2 + 1, %i1 + 1] : memref<4x4x4xf64>
        %z100 = affine.load %z[%i3 + 1, %i2, %i1] : memref<4x4x4xf64>
        %z101 = affine.load %z[%i3 + 1, %i2, %i1 + 1] : memref<4x4x4xf64>
        %z110 = affine.load %z[%i3 + 1, %i2 + 1, %i1] : memref<4x4x4xf64>
        %z111 = affine.load %z[%i3 + 1, %i2 + 1, %i1 + 1] : memref<4x4x4xf64>
        // mgrid's z1, z2, z3 at i1 (suffix a) and i1 + 1 (suffix b)
        %z1a = arith.addf %z010, %z000 : f64
        %z1b = arith.addf %z011, %z001 : f64
        %z2a = arith.addf %z100, %z000 : f64
        %z2b = arith.addf %z101, %z001 : f64
        %z3t = arith.addf %z110, %z100 : f64
        %z3a = arith.addf %z3t, %z1a : f64
        %z3u = arith.addf %z111, %z101 : f64
        %z3b = arith.addf %z3u, %z1b : f64
        // u[2i3][2i2][2i1] += z000
        %u0 = affine.load %u[%i3 * 2, %i2 * 2, %i1 * 2] : memref<6x6x6xf64>
        %n0 = arith.addf %u0, %z000 : f64
        affine.store %n0, %u[%i3 * 2, %i2 * 2, %i1 * 2] : memref<6x6x6xf64>
        // u[2i3][2i2][2i1+1] += 0.5 * (z001 + z000)
        %v1 = arith.addf %z001, %z000 : f64
        %h1 = arith.mulf %half, %v1 : f64
        %u1 = affine.load %u[%i3 * 2, %i2 * 2, %i1 * 2 + 1] : memref<6x6x6xf64>
        %n1 = arith.addf %u1, %h1 : f64
        affine.store %n1, %u[%i3 * 2, %i2 * 2, %i1 * 2 + 1] : memref<6x6x6xf64>
        // u[2i3][2i2+1][2i1] += 0.5 * z1a
        %h2 = arith.mulf %half, %z1a : f64
        %u2 = affine.load %u[%i3 * 2, %i2 * 2 + 1, %i1 * 2] : memref<6x6x6xf64>
        %n2 = arith.addf %u2, %h2 : f64
        affine.store %n2, %u[%i3 * 2, %i2 * 2 + 1, %i1 * 2] : memref<6x6x6xf64>
        // u[2i3][2i2+1][2i1+1] += 0.25 * (z1a + z1b)
        %v3 = arith.addf %z1a, %z1b : f64
        %h3 = arith.mulf %quarter, %v3 : f64
        %u3 = affine.load %u[%i3 * 2, %i2 * 2 + 1, %i1 * 2 + 1] : memref<6x6x6xf64>
        %n3 = arith.addf %u3, %h3 : f64
        affine.store %n3, %u[%i3 * 2, %i2 * 2 + 1, %i1 * 2 + 1] : memref<6x6x6xf64>
        // u[2i3+1][2i2][2i1] += 0.5 * z2a
        %h4 = arith.mulf %half, %z2a : f64
        %u4 = affine.load %u[%i3 * 2 + 1, %i2 * 2, %i1 * 2] : memref<6x6x6xf64>
        %n4 = arith.addf %u4, %h4 : f64
        affine.store %n4, %u[%i3 * 2 + 1, %i2 * 2, %i1 * 2] : memref<6x6x6xf64>
        // u[2i3+1][2i2][2i1+1] += 0.25 * (z2a + z2b)
        %v5 = arith.addf %z2a, %z2b : f64
        %h5 = arith.mulf %quarter, %v5 : f64
        %u5 = affine.load %u[%i3 * 2 + 1, %i2 * 2, %i1 * 2 + 1] : memref<6x6x6xf64>
        %n5 = arith.addf %u5, %h5 : f64
        affine.store %n5, %u[%i3 * 2 + 1, %i2 * 2, %i1 * 2 + 1] : memref<6x6x6xf64>
        // u[2i3+1][2i2+1][2i1] += 0.25 * z3a
        %h6 = arith.mulf %quarter, %z3a : f64
        %u6 = affine.load %u[%i3 * 2 + 1, %i2 * 2 + 1, %i1 * 2] : memref<6x6x6xf64>
        %n6 = arith.addf %u6, %h6 : f64
        affine.store %n6, %u[%i3 * 2 + 1, %i2 * 2 + 1, %i1 * 2] : memref<6x6x6xf64>
        // u[2i3+1][2i2+1][2i1+1] += 0.125 * (z3a + z3b)
        %v7 = arith.addf %z3a, %z3b : f64
        %h7 = arith.mulf %eighth, %v7 : f64
        %u7 = affine.load %u[%i3 * 2 + 1, %i2 * 2 + 1, %i1 * 2 + 1] : memref<6x6x6xf64>
        %n7 = arith.addf %u7, %h7 : f64
        affine.store %n7, %u[%i3 * 2 + 1, %i2 * 2 + 1, %i1 * 2 + 1] : memref<6x6x6xf64>
      }
    }
  }
  return
}

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

func.func @main() {
  %four64 = arith.constant 4.000000e+00 : f64
  %z = memref.alloc() : memref<4x4x4xf64>
  %u = memref.alloc() : memref<6x6x6xf64>
  affine.for %i0 = 0 to 4 {
    affine.for %i1 = 0 to 4 {
      affine.for %i2 = 0 to 4 {
        %h = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 7 + 1) mod 13)>(%i0, %i1, %i2)
        %hi = arith.index_cast %h : index to i32
        %hf = arith.sitofp %hi : i32 to f64
        %v = arith.divf %hf, %four64 : f64
        affine.store %v, %z[%i0, %i1, %i2] : memref<4x4x4xf64>
      }
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.for %i2 = 0 to 6 {
        %h = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 2 + d1 + d2 * 3) mod 5)>(%i0, %i1, %i2)
        %hi = arith.index_cast %h : index to i32
        %hf = arith.sitofp %hi : i32 to f64
        %v = arith.divf %hf, %four64 : f64
        affine.store %v, %u[%i0, %i1, %i2] : memref<6x6x6xf64>
      }
    }
  }
  call @interp(%z, %u) : (memref<4x4x4xf64>, memref<6x6x6xf64>) -> ()
  %p_u = memref.cast %u : memref<6x6x6xf64> to memref<*xf64>
  call @printMemrefF64(%p_u) : (memref<*xf64>) -> ()
  memref.dealloc %z : memref<4x4x4xf64>
  memref.dealloc %u : memref<6x6x6xf64>
  return
}
