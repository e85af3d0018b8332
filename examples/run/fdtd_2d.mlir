// Driver for ../fdtd_2d.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @fdtd_2d(%ex: memref<6x8xf32>, %ey: memref<6x8xf32>, %hz: memref<6x8xf32>, %fict: memref<3xf32>) {
  %half = arith.constant 5.000000e-01 : f32
  %c07 = arith.constant 0.699999988 : f32
  affine.for %t = 0 to 3 {
    // ey[0][j] = fict[t]
    affine.for %j = 0 to 8 {
      %f = affine.load %fict[%t] : memref<3xf32>
      affine.store %f, %ey[0, %j] : memref<6x8xf32>
    }
    // ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i-1][j])
    affine.for %i = 1 to 6 {
      affine.for %j = 0 to 8 {
        %e = affine.load %ey[%i, %j] : memref<6x8xf32>
        %h0 = affine.load %hz[%i, %j] : memref<6x8xf32>
        %h1 = affine.load %hz[%i - 1, %j] : memref<6x8xf32>
        %d = arith.subf %h0, %h1 : f32
        %p = arith.mulf %half, %d : f32
        %v = arith.subf %e, %p : f32
        affine.store %v, %ey[%i, %j] : memref<6x8xf32>
      }
    }
    // ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j-1])
    affine.for %i = 0 to 6 {
      affine.for %j = 1 to 8 {
        %e = affine.load %ex[%i, %j] : memref<6x8xf32>
        %h0 = affine.load %hz[%i, %j] : memref<6x8xf32>
        %h1 = affine.load %hz[%i, %j - 1] : memref<6x8xf32>
        %d = arith.subf %h0, %h1 : f32
        %p = arith.mulf %half, %d : f32
        %v = arith.subf %e, %p : f32
        affine.store %v, %ex[%i, %j] : memref<6x8xf32>
      }
    }
    // hz[i][j] = hz[i][j] - 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
    affine.for %i = 0 to 5 {
      affine.for %j = 0 to 7 {
        %h = affine.load %hz[%i, %j] : memref<6x8xf32>
        %x1 = affine.load %ex[%i, %j + 1] : memref<6x8xf32>
        %x0 = affine.load %ex[%i, %j] : memref<6x8xf32>
        %d0 = arith.subf %x1, %x0 : f32
        %y1 = affine.load %ey[%i + 1, %j] : memref<6x8xf32>
        %d1 = arith.addf %d0, %y1 : f32
        %y0 = affine.load %ey[%i, %j] : memref<6x8xf32>
        %d2 = arith.subf %d1, %y0 : f32
        %p = arith.mulf %c07, %d2 : f32
        %v = arith.subf %h, %p : f32
        affine.store %v, %hz[%i, %j] : memref<6x8xf32>
      }
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %four = arith.constant 4.000000e+00 : f32
  %ex = memref.alloc() : memref<6x8xf32>
  %ey = memref.alloc() : memref<6x8xf32>
  %hz = memref.alloc() : memref<6x8xf32>
  %fict = memref.alloc() : memref<3xf32>
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %ex[%i0, %i1] : memref<6x8xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 11 + 2) mod 17)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %ey[%i0, %i1] : memref<6x8xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 1) mod 11)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %hz[%i0, %i1] : memref<6x8xf32>
    }
  }
  affine.for %i0 = 0 to 3 {
    %h = affine.apply affine_map<(d0) -> ((d0) mod 100)>(%i0)
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %v = arith.divf %hf, %four : f32
    affine.store %v, %fict[%i0] : memref<3xf32>
  }
  call @fdtd_2d(%ex, %ey, %hz, %fict) : (memref<6x8xf32>, memref<6x8xf32>, memref<6x8xf32>, memref<3xf32>) -> ()
  %p_ex = memref.cast %ex : memref<6x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_ex) : (memref<*xf32>) -> ()
  %p_ey = memref.cast %ey : memref<6x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_ey) : (memref<*xf32>) -> ()
  %p_hz = memref.cast %hz : memref<6x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_hz) : (memref<*xf32>) -> ()
  memref.dealloc %ex : memref<6x8xf32>
  memref.dealloc %ey : memref<6x8xf32>
  memref.dealloc %hz : memref<6x8xf32>
  memref.dealloc %fict : memref<3xf32>
  return
}
