// Driver for ../ll18.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @ll18(%za: memref<8x8xf32>, %zb: memref<8x8xf32>, %zp: memref<8x8xf32>, %zq: memref<8x8xf32>, %zr: memref<8x8xf32>, %zm: memref<8x8xf32>, %zu: memref<8x8xf32>, %zv: memref<8x8xf32>, %zz: memref<8x8xf32>) {
  %t = arith.constant 3.700000e-03 : f32
  %s = arith.constant 4.100000e-03 : f32
  // nest 1: za, zb
  affine.for %k = 1 to 7 {
    affine.for %j = 1 to 7 {
      // za[k][j] = (zp[k+1][j-1] + zq[k+1][j-1] - zp[k][j-1] - zq[k][j-1])
      //          * (zr[k][j] + zr[k][j-1]) / (zm[k][j-1] + zm[k+1][j-1])
      %a0 = affine.load %zp[%k + 1, %j - 1] : memref<8x8xf32>
      %a1 = affine.load %zq[%k + 1, %j - 1] : memref<8x8xf32>
      %a2 = arith.addf %a0, %a1 : f32
      %a3 = affine.load %zp[%k, %j - 1] : memref<8x8xf32>
      %a4 = arith.subf %a2, %a3 : f32
      %a5 = affine.load %zq[%k, %j - 1] : memref<8x8xf32>
      %a6 = arith.subf %a4, %a5 : f32
      %a7 = affine.load %zr[%k, %j] : memref<8x8xf32>
      %a8 = affine.load %zr[%k, %j - 1] : memref<8x8xf32>
      %a9 = arith.addf %a7, %a8 : f32
      %a10 = arith.mulf %a6, %a9 : f32
      %a11 = affine.load %zm[%k, %j - 1] : memref<8x8xf32>
      %a12 = affine.load %zm[%k + 1, %j - 1] : memref<8x8xf32>
      %a13 = arith.addf %a11, %a12 : f32
      %a14 = arith.divf %a10, %a13 : f32
      affine.store %a14, %za[%k, %j] : memref<8x8xf32>
      // zb[k][j] = (zp[k][j-1] + zq[k][j-1] - zp[k][j] - zq[k][j])
      //          * (zr[k][j] + zr[k-1][j]) / (zm[k][j] + zm[k][j-1])
      %b0 = affine.load %zp[%k, %j - 1] : memref<8x8xf32>
      %b1 = affine.load %zq[%k, %j - 1] : memref<8x8xf32>
      %b2 = arith.addf %b0, %b1 : f32
      %b3 = affine.load %zp[%k, %j] : memref<8x8xf32>
      %b4 = arith.subf %b2, %b3 : f32
      %b5 = affine.load %zq[%k, %j] : memref<8x8xf32>
      %b6 = arith.subf %b4, %b5 : f32
      %b7 = affine.load %zr[%k, %j] : memref<8x8xf32>
      %b8 = affine.load %zr[%k - 1, %j] : memref<8x8xf32>
      %b9 = arith.addf %b7, %b8 : f32
      %b10 = arith.mulf %b6, %b9 : f32
      %b11 = affine.load %zm[%k, %j] : memref<8x8xf32>
      %b12 = affine.load %zm[%k, %j - 1] : memref<8x8xf32>
      %b13 = arith.addf %b11, %b12 : f32
      %b14 = arith.divf %b10, %b13 : f32
      affine.store %b14, %zb[%k, %j] : memref<8x8xf32>
    }
  }
  // nest 2: zu, zv
  affine.for %k = 1 to 7 {
    affine.for %j = 1 to 7 {
      // zu[k][j] += s * (za[k][j] * (zz[k][j] - zz[k][j+1]) - za[k][j-1] * (zz[k][j] - zz[k][j-1])
      //                 - zb[k][j] * (zz[k][j] - zz[k-1][j]) + zb[k+1][j] * (zz[k][j] - zz[k+1][j]))
      %c0 = affine.load %za[%k, %j] : memref<8x8xf32>
      %c1 = affine.load %zz[%k, %j] : memref<8x8xf32>
      %c2 = affine.load %zz[%k, %j + 1] : memref<8x8xf32>
      %c3 = arith.subf %c1, %c2 : f32
      %c4 = arith.mulf %c0, %c3 : f32
      %c5 = affine.load %za[%k, %j - 1] : memref<8x8xf32>
      %c6 = affine.load %zz[%k, %j] : memref<8x8xf32>
      %c7 = affine.load %zz[%k, %j - 1] : memref<8x8xf32>
      %c8 = arith.subf %c6, %c7 : f32
      %c9 = arith.mulf %c5, %c8 : f32
      %c10 = arith.subf %c4, %c9 : f32
      %c11 = affine.load %zb[%k, %j] : memref<8x8xf32>
      %c12 = affine.load %zz[%k, %j] : memref<8x8xf32>
      %c13 = affine.load %zz[%k - 1, %j] : memref<8x8xf32>
      %c14 = arith.subf %c12, %c13 : f32
      %c15 = arith.mulf %c11, %c14 : f32
      %c16 = arith.subf %c10, %c15 : f32
      %c17 = affine.load %zb[%k + 1, %j] : memref<8x8xf32>
      %c18 = affine.load %zz[%k, %j] : memref<8x8xf32>
      %c19 = affine.load %zz[%k + 1, %j] : memref<8x8xf32>
      %c20 = arith.subf %c18, %c19 : f32
      %c21 = arith.mulf %c17, %c20 : f32
      %c22 = arith.addf %c16, %c21 : f32
      %c23 = arith.mulf %s, %c22 : f32
      %c24 = affine.load %zu[%k, %j] : memref<8x8xf32>
      %c25 = arith.addf %c24, %c23 : f32
      affine.store %c25, %zu[%k, %j] : memref<8x8xf32>
      // zv[k][j] += s * (za[k][j] * (zr[k][j] - zr[k][j+1]) - za[k][j-1] * (zr[k][j] - zr[k][j-1])
      //                 - zb[k][j] * (zr[k][j] - zr[k-1][j]) + zb[k+1][j] * (zr[k][j] - zr[k+1][j]))
      %d0 = affine.load %za[%k, %j] : memref<8x8xf32>
      %d1 = affine.load %zr[%k, %j] : memref<8x8xf32>
      %d2 = affine.load %zr[%k, %j + 1] : memref<8x8xf32>
      %d3 = arith.subf %d1, %d2 : f32
      %d4 = arith.mulf %d0, %d3 : f32
      %d5 = affine.load %za[%k, %j - 1] : memref<8x8xf32>
      %d6 = affine.load %zr[%k, %j] : memref<8x8xf32>
      %d7 = affine.load %zr[%k, %j - 1] : memref<8x8xf32>
      %d8 = arith.subf %d6, %d7 : f32
      %d9 = arith.mulf %d5, %d8 : f32
      %d10 = arith.subf %d4, %d9 : f32
      %d11 = affine.load %zb[%k, %j] : memref<8x8xf32>
      %d12 = affine.load %zr[%k, %j] : memref<8x8xf32>
      %d13 = affine.load %zr[%k - 1, %j] : memref<8x8xf32>
      %d14 = arith.subf %d12, %d13 : f32
      %d15 = arith.mulf %d11, %d14 : f32
      %d16 = arith.subf %d10, %d15 : f32
      %d17 = affine.load %zb[%k + 1, %j] : memref<8x8xf32>
      %d18 = affine.load %zr[%k, %j] : memref<8x8xf32>
      %d19 = affine.load %zr[%k + 1, %j] : memref<8x8xf32>
      %d20 = arith.subf %d18, %d19 : f32
      %d21 = arith.mulf %d17, %d20 : f32
      %d22 = arith.addf %d16, %d21 : f32
      %d23 = arith.mulf %s, %d22 : f32
      %d24 = affine.load %zv[%k, %j] : memref<8x8xf32>
      %d25 = arith.addf %d24, %d23 : f32
      affine.store %d25, %zv[%k, %j] : memref<8x8xf32>
    }
  }
  // nest 3: zr, zz
  affine.for %k = 1 to 7 {
    affine.for %j = 1 to 7 {
      // zr[k][j] = zr[k][j] + t * zu[k][j]
      %e0 = affine.load %zr[%k, %j] : memref<8x8xf32>
      %e1 = affine.load %zu[%k, %j] : memref<8x8xf32>
      %e2 = arith.mulf %t, %e1 : f32
      %e3 = arith.addf %e0, %e2 : f32
      affine.store %e3, %zr[%k, %j] : memref<8x8xf32>
      // zz[k][j] = zz[k][j] + t * zv[k][j]
      %f0 = affine.load %zz[%k, %j] : memref<8x8xf32>
      %f1 = affine.load %zv[%k, %j] : memref<8x8xf32>
      %f2 = arith.mulf %t, %f1 : f32
      %f3 = arith.addf %f0, %f2 : f32
      affine.store %f3, %zz[%k, %j] : memref<8x8xf32>
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %four = arith.constant 4.000000e+00 : f32
  %za = memref.alloc() : memref<8x8xf32>
  %zb = memref.alloc() : memref<8x8xf32>
  %zp = memref.alloc() : memref<8x8xf32>
  %zq = memref.alloc() : memref<8x8xf32>
  %zr = memref.alloc() : memref<8x8xf32>
  %zm = memref.alloc() : memref<8x8xf32>
  %zu = memref.alloc() : memref<8x8xf32>
  %zv = memref.alloc() : memref<8x8xf32>
  %zz = memref.alloc() : memref<8x8xf32>
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 1) mod 11)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %za[%i0, %i1] : memref<8x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 3 + 2) mod 11)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %zb[%i0, %i1] : memref<8x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %zp[%i0, %i1] : memref<8x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 9 + 4) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %zq[%i0, %i1] : memref<8x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 4 + d1 * 7 + 1) mod 17)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %zr[%i0, %i1] : memref<8x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> (((d0 * 3 + d1 * 2) mod 7) + 1)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %zm[%i0, %i1] : memref<8x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 + d1) mod 5)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %zu[%i0, %i1] : memref<8x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 + 1) mod 5)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %zv[%i0, %i1] : memref<8x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 6 + d1 * 5 + 3) mod 19)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %zz[%i0, %i1] : memref<8x8xf32>
    }
  }
  call @ll18(%za, %zb, %zp, %zq, %zr, %zm, %zu, %zv, %zz) : (memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>) -> ()
  %p_za = memref.cast %za : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_za) : (memref<*xf32>) -> ()
  %p_zb = memref.cast %zb : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_zb) : (memref<*xf32>) -> ()
  %p_zu = memref.cast %zu : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_zu) : (memref<*xf32>) -> ()
  %p_zv = memref.cast %zv : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_zv) : (memref<*xf32>) -> ()
  %p_zr = memref.cast %zr : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_zr) : (memref<*xf32>) -> ()
  %p_zz = memref.cast %zz : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_zz) : (memref<*xf32>) -> ()
  memref.dealloc %za : memref<8x8xf32>
  memref.dealloc %zb : memref<8x8xf32>
  memref.dealloc %zp : memref<8x8xf32>
  memref.dealloc %zq : memref<8x8xf32>
  memref.dealloc %zr : memref<8x8xf32>
  memref.dealloc %zm : memref<8x8xf32>
  memref.dealloc %zu : memref<8x8xf32>
  memref.dealloc %zv : memref<8x8xf32>
  memref.dealloc %zz : memref<8x8xf32>
  return
}
