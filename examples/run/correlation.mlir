// Driver for ../correlation.lfir: the same kernel at small sizes, plus a @main that fills the
// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;
// compare against the Python reference: ./check.py.
func.func @correlation(%float_n: f32, %data: memref<12x6xf32>, %symmat: memref<6x6xf32>, %mean: memref<6xf32>, %stddev: memref<6xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %eps = arith.constant 1.000000e-01 : f32
  // mean of the column vectors
  affine.for %j = 0 to 6 {
    affine.store %zero, %mean[%j] : memref<6xf32>
    affine.for %i = 0 to 12 {
      %m = affine.load %mean[%j] : memref<6xf32>
      %x = affine.load %data[%i, %j] : memref<12x6xf32>
      %s = arith.addf %m, %x : f32
      affine.store %s, %mean[%j] : memref<6xf32>
    }
    %m = affine.load %mean[%j] : memref<6xf32>
    %q = arith.divf %m, %float_n : f32
    affine.store %q, %mean[%j] : memref<6xf32>
  }
  // standard deviations of the column vectors
  affine.for %j = 0 to 6 {
    affine.store %zero, %stddev[%j] : memref<6xf32>
    affine.for %i = 0 to 12 {
      %x = affine.load %data[%i, %j] : memref<12x6xf32>
      %m = affine.load %mean[%j] : memref<6xf32>
      %c = arith.subf %x, %m : f32
      %c2 = arith.mulf %c, %c : f32
      %s = affine.load %stddev[%j] : memref<6xf32>
      %a = arith.addf %s, %c2 : f32
      affine.store %a, %stddev[%j] : memref<6xf32>
    }
    %s0 = affine.load %stddev[%j] : memref<6xf32>
    %q = arith.divf %s0, %float_n : f32
    affine.store %q, %stddev[%j] : memref<6xf32>
    %s1 = affine.load %stddev[%j] : memref<6xf32>
    %r = math.sqrt %s1 : f32
    affine.store %r, %stddev[%j] : memref<6xf32>
    // stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j]
    %s2 = affine.load %stddev[%j] : memref<6xf32>
    %le = arith.cmpf ole, %s2, %eps : f32
    %sel = arith.select %le, %one, %s2 : f32
    affine.store %sel, %stddev[%j] : memref<6xf32>
  }
  // center and reduce the column vectors
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 6 {
      %x = affine.load %data[%i, %j] : memref<12x6xf32>
      %m = affine.load %mean[%j] : memref<6xf32>
      %c = arith.subf %x, %m : f32
      affine.store %c, %data[%i, %j] : memref<12x6xf32>
      %y = affine.load %data[%i, %j] : memref<12x6xf32>
      %sn = math.sqrt %float_n : f32
      %sd = affine.load %stddev[%j] : memref<6xf32>
      %den = arith.mulf %sn, %sd : f32
      %r = arith.divf %y, %den : f32
      affine.store %r, %data[%i, %j] : memref<12x6xf32>
    }
  }
  // the M x M correlation matrix
  affine.for %j1 = 0 to 5 {
    affine.store %one, %symmat[%j1, %j1] : memref<6x6xf32>
    affine.for %j2 = affine_map<(d0) -> (d0 + 1)>(%j1) to 6 {
      affine.store %zero, %symmat[%j1, %j2] : memref<6x6xf32>
      affine.for %i = 0 to 12 {
        %a = affine.load %data[%i, %j1] : memref<12x6xf32>
        %b = affine.load %data[%i, %j2] : memref<12x6xf32>
        %p = arith.mulf %a, %b : f32
        %c = affine.load %symmat[%j1, %j2] : memref<6x6xf32>
        %q = arith.addf %c, %p : f32
        affine.store %q, %symmat[%j1, %j2] : memref<6x6xf32>
      }
      %x = affine.load %symmat[%j1, %j2] : memref<6x6xf32>
      affine.store %x, %symmat[%j2, %j1] : memref<6x6xf32>
    }
  }
  affine.store %one, %symmat[5, 5] : memref<6x6xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %float_n = arith.constant 1.200000e+01 : f32
  %data = memref.alloc() : memref<12x6xf32>
  %symmat = memref.alloc() : memref<6x6xf32>
  %mean = memref.alloc() : memref<6xf32>
  %stddev = memref.alloc() : memref<6xf32>
  affine.for %i0 = 0 to 12 {
    affine.for %i1 = 0 to 6 {
      %h = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 13)>(%i0, %i1)
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %v = arith.divf %hf, %four : f32
      affine.store %v, %data[%i0, %i1] : memref<12x6xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.store %zero, %symmat[%i0, %i1] : memref<6x6xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.store %zero, %mean[%i0] : memref<6xf32>
  }
  affine.for %i0 = 0 to 6 {
    affine.store %zero, %stddev[%i0] : memref<6xf32>
  }
  call @correlation(%float_n, %data, %symmat, %mean, %stddev) : (f32, memref<12x6xf32>, memref<6x6xf32>, memref<6xf32>, memref<6xf32>) -> ()
  %p_symmat = memref.cast %symmat : memref<6x6xf32> to memref<*xf32>
  call @printMemrefF32(%p_symmat) : (memref<*xf32>) -> ()
  %p_mean = memref.cast %mean : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%p_mean) : (memref<*xf32>) -> ()
  %p_stddev = memref.cast %stddev : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%p_stddev) : (memref<*xf32>) -> ()
  memref.dealloc %data : memref<12x6xf32>
  memref.dealloc %symmat : memref<6x6xf32>
  memref.dealloc %mean : memref<6xf32>
  memref.dealloc %stddev : memref<6xf32>
  return
}
