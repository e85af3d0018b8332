// Same program as print_shapes.lfir, for mlir-runner.
// Host-only program: the runner-utils printer of the emitted code must print
// exactly what mlir-runner prints (ranks 0 to 4, sizes of 1, long rows, and
// values from -0.5 to 1.5e5 in %g form). print_shapes.cpu.mlir is the same
// program for mlir-runner; targets/tests/programs.rs compares the outputs.
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %k = arith.constant 1.37 : f32
  %m = arith.constant -0.5 : f32
  %a0 = memref.alloc() : memref<2x2x3xf32>
  %n0_0 = arith.constant 2 : index
  %n0_1 = arith.constant 2 : index
  %n0_2 = arith.constant 3 : index
  %z0 = arith.constant 0 : index
  %o0 = arith.constant 1 : index
  scf.for %i0_0 = %z0 to %n0_0 step %o0 {
    scf.for %i0_1 = %z0 to %n0_1 step %o0 {
      scf.for %i0_2 = %z0 to %n0_2 step %o0 {
        %l0 = affine.apply affine_map<(d0, d1, d2) -> (d0 * 6 + d1 * 3 + d2 * 1 + 0)>(%i0_0, %i0_1, %i0_2)
        %li0 = arith.index_cast %l0 : index to i32
        %f0 = arith.sitofp %li0 : i32 to f32
        %p0 = arith.mulf %f0, %k : f32
        %q0 = arith.mulf %p0, %p0 : f32
        %r0 = arith.mulf %q0, %p0 : f32
        %s0 = arith.addf %r0, %m : f32
        memref.store %s0, %a0[%i0_0, %i0_1, %i0_2] : memref<2x2x3xf32>
      }
    }
  }
  %u0 = memref.cast %a0 : memref<2x2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  memref.dealloc %a0 : memref<2x2x3xf32>
  %a1 = memref.alloc() : memref<5xf32>
  %n1_0 = arith.constant 5 : index
  %z1 = arith.constant 0 : index
  %o1 = arith.constant 1 : index
  scf.for %i1_0 = %z1 to %n1_0 step %o1 {
    %l1 = affine.apply affine_map<(d0) -> (d0 * 1 + 1)>(%i1_0)
    %li1 = arith.index_cast %l1 : index to i32
    %f1 = arith.sitofp %li1 : i32 to f32
    %p1 = arith.mulf %f1, %k : f32
    %q1 = arith.mulf %p1, %p1 : f32
    %r1 = arith.mulf %q1, %p1 : f32
    %s1 = arith.addf %r1, %m : f32
    memref.store %s1, %a1[%i1_0] : memref<5xf32>
  }
  %u1 = memref.cast %a1 : memref<5xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  memref.dealloc %a1 : memref<5xf32>
  %a2 = memref.alloc() : memref<1x3xf32>
  %n2_0 = arith.constant 1 : index
  %n2_1 = arith.constant 3 : index
  %z2 = arith.constant 0 : index
  %o2 = arith.constant 1 : index
  scf.for %i2_0 = %z2 to %n2_0 step %o2 {
    scf.for %i2_1 = %z2 to %n2_1 step %o2 {
      %l2 = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1 * 1 + 2)>(%i2_0, %i2_1)
      %li2 = arith.index_cast %l2 : index to i32
      %f2 = arith.sitofp %li2 : i32 to f32
      %p2 = arith.mulf %f2, %k : f32
      %q2 = arith.mulf %p2, %p2 : f32
      %r2 = arith.mulf %q2, %p2 : f32
      %s2 = arith.addf %r2, %m : f32
      memref.store %s2, %a2[%i2_0, %i2_1] : memref<1x3xf32>
    }
  }
  %u2 = memref.cast %a2 : memref<1x3xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  memref.dealloc %a2 : memref<1x3xf32>
  %a3 = memref.alloc() : memref<3x1xf32>
  %n3_0 = arith.constant 3 : index
  %n3_1 = arith.constant 1 : index
  %z3 = arith.constant 0 : index
  %o3 = arith.constant 1 : index
  scf.for %i3_0 = %z3 to %n3_0 step %o3 {
    scf.for %i3_1 = %z3 to %n3_1 step %o3 {
      %l3 = affine.apply affine_map<(d0, d1) -> (d0 * 1 + d1 * 1 + 3)>(%i3_0, %i3_1)
      %li3 = arith.index_cast %l3 : index to i32
      %f3 = arith.sitofp %li3 : i32 to f32
      %p3 = arith.mulf %f3, %k : f32
      %q3 = arith.mulf %p3, %p3 : f32
      %r3 = arith.mulf %q3, %p3 : f32
      %s3 = arith.addf %r3, %m : f32
      memref.store %s3, %a3[%i3_0, %i3_1] : memref<3x1xf32>
    }
  }
  %u3 = memref.cast %a3 : memref<3x1xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  memref.dealloc %a3 : memref<3x1xf32>
  %a4 = memref.alloc() : memref<f32>
  %z4 = arith.constant 0 : index
  %o4 = arith.constant 1 : index
  %l4 = arith.constant 4 : index
  %li4 = arith.index_cast %l4 : index to i32
  %f4 = arith.sitofp %li4 : i32 to f32
  %p4 = arith.mulf %f4, %k : f32
  %q4 = arith.mulf %p4, %p4 : f32
  %r4 = arith.mulf %q4, %p4 : f32
  %s4 = arith.addf %r4, %m : f32
  memref.store %s4, %a4[] : memref<f32>
  %u4 = memref.cast %a4 : memref<f32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  memref.dealloc %a4 : memref<f32>
  %a5 = memref.alloc() : memref<1xf32>
  %n5_0 = arith.constant 1 : index
  %z5 = arith.constant 0 : index
  %o5 = arith.constant 1 : index
  scf.for %i5_0 = %z5 to %n5_0 step %o5 {
    %l5 = affine.apply affine_map<(d0) -> (d0 * 1 + 5)>(%i5_0)
    %li5 = arith.index_cast %l5 : index to i32
    %f5 = arith.sitofp %li5 : i32 to f32
    %p5 = arith.mulf %f5, %k : f32
    %q5 = arith.mulf %p5, %p5 : f32
    %r5 = arith.mulf %q5, %p5 : f32
    %s5 = arith.addf %r5, %m : f32
    memref.store %s5, %a5[%i5_0] : memref<1xf32>
  }
  %u5 = memref.cast %a5 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  memref.dealloc %a5 : memref<1xf32>
  %a6 = memref.alloc() : memref<40xf32>
  %n6_0 = arith.constant 40 : index
  %z6 = arith.constant 0 : index
  %o6 = arith.constant 1 : index
  scf.for %i6_0 = %z6 to %n6_0 step %o6 {
    %l6 = affine.apply affine_map<(d0) -> (d0 * 1 + 6)>(%i6_0)
    %li6 = arith.index_cast %l6 : index to i32
    %f6 = arith.sitofp %li6 : i32 to f32
    %p6 = arith.mulf %f6, %k : f32
    %q6 = arith.mulf %p6, %p6 : f32
    %r6 = arith.mulf %q6, %p6 : f32
    %s6 = arith.addf %r6, %m : f32
    memref.store %s6, %a6[%i6_0] : memref<40xf32>
  }
  %u6 = memref.cast %a6 : memref<40xf32> to memref<*xf32>
  call @printMemrefF32(%u6) : (memref<*xf32>) -> ()
  memref.dealloc %a6 : memref<40xf32>
  %a7 = memref.alloc() : memref<2x1x2x1xf32>
  %n7_0 = arith.constant 2 : index
  %n7_1 = arith.constant 1 : index
  %n7_2 = arith.constant 2 : index
  %n7_3 = arith.constant 1 : index
  %z7 = arith.constant 0 : index
  %o7 = arith.constant 1 : index
  scf.for %i7_0 = %z7 to %n7_0 step %o7 {
    scf.for %i7_1 = %z7 to %n7_1 step %o7 {
      scf.for %i7_2 = %z7 to %n7_2 step %o7 {
        scf.for %i7_3 = %z7 to %n7_3 step %o7 {
          %l7 = affine.apply affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d1 * 2 + d2 * 1 + d3 * 1 + 7)>(%i7_0, %i7_1, %i7_2, %i7_3)
          %li7 = arith.index_cast %l7 : index to i32
          %f7 = arith.sitofp %li7 : i32 to f32
          %p7 = arith.mulf %f7, %k : f32
          %q7 = arith.mulf %p7, %p7 : f32
          %r7 = arith.mulf %q7, %p7 : f32
          %s7 = arith.addf %r7, %m : f32
          memref.store %s7, %a7[%i7_0, %i7_1, %i7_2, %i7_3] : memref<2x1x2x1xf32>
        }
      }
    }
  }
  %u7 = memref.cast %a7 : memref<2x1x2x1xf32> to memref<*xf32>
  call @printMemrefF32(%u7) : (memref<*xf32>) -> ()
  memref.dealloc %a7 : memref<2x1x2x1xf32>
  return
}
