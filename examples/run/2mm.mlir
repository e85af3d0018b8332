// Driver for ../2mm.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @kernel_2mm(%alpha: f32, %beta: f32, %tmp: memref<6x8xf32>, %A: memref<6x5xf32>, %B: memref<5x8xf32>, %C: memref<8x7xf32>, %D: memref<6x7xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  // tmp = alpha * A * B
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 8 {
      // tmp[i][j] = 0
      affine.store %zero, %tmp[%i, %j] : memref<6x8xf32>
      // for k: tmp[i][j] += alpha * A[i][k] * B[k][j]
      affine.for %k = 0 to 5 {
        %x = affine.load %A[%i, %k] : memref<6x5xf32>
        %ax = arith.mulf %alpha, %x : f32
        %y = affine.load %B[%k, %j] : memref<5x8xf32>
        %p = arith.mulf %ax, %y : f32
        %t0 = affine.load %tmp[%i, %j] : memref<6x8xf32>
        %t1 = arith.addf %t0, %p : f32
        affine.store %t1, %tmp[%i, %j] : memref<6x8xf32>
      }
    }
  }
  // D = beta * D + tmp * C
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 7 {
      // D[i][j] *= beta
      %d0 = affine.load %D[%i, %j] : memref<6x7xf32>
      %d1 = arith.mulf %d0, %beta : f32
      affine.store %d1, %D[%i, %j] : memref<6x7xf32>
      // for k: D[i][j] += tmp[i][k] * C[k][j]
      affine.for %k = 0 to 8 {
        %x = affine.load %tmp[%i, %k] : memref<6x8xf32>
        %y = affine.load %C[%k, %j] : memref<8x7xf32>
        %p = arith.mulf %x, %y : f32
        %d2 = affine.load %D[%i, %j] : memref<6x7xf32>
        %d3 = arith.addf %d2, %p : f32
        affine.store %d3, %D[%i, %j] : memref<6x7xf32>
      }
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %alpha = arith.constant 1.500000e+00 : f32
  %beta = arith.constant 1.250000e+00 : f32
  %tmp = memref.alloc() : memref<6x8xf32>
  %A = memref.alloc() : memref<6x5xf32>
  %B = memref.alloc() : memref<5x8xf32>
  %C = memref.alloc() : memref<8x7xf32>
  %D = memref.alloc() : memref<6x7xf32>
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 8 {
      affine.store %zero, %tmp[%i0, %i1] : memref<6x8xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 5 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %A[%i0, %i1] : memref<6x5xf32>
    }
  }
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 8 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 11 + 2) mod 17)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %B[%i0, %i1] : memref<5x8xf32>
    }
  }
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 7 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 1) mod 11)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %C[%i0, %i1] : memref<8x7xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 7 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 2) mod 7)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %D[%i0, %i1] : memref<6x7xf32>
    }
  }
  call @kernel_2mm(%alpha, %beta, %tmp, %A, %B, %C, %D) : (f32, f32, memref<6x8xf32>, memref<6x5xf32>, memref<5x8xf32>, memref<8x7xf32>, memref<6x7xf32>) -> ()
  %p_tmp = memref.cast %tmp : memref<6x8xf32> to memref<*xf32>
  call @printMemrefF32(%p_tmp) : (memref<*xf32>) -> ()
  %p_D = memref.cast %D : memref<6x7xf32> to memref<*xf32>
  call @printMemrefF32(%p_D) : (memref<*xf32>) -> ()
  memref.dealloc %tmp : memref<6x8xf32>
  memref.dealloc %A : memref<6x5xf32>
  memref.dealloc %B : memref<5x8xf32>
  memref.dealloc %C : memref<8x7xf32>
  memref.dealloc %D : memref<6x7xf32>
  return
}
