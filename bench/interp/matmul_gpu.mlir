// lf-run speed benchmark (GPU level): the same 256x256x256 matmul as a gpu.launch
// of 16x16 blocks of 16x16 threads with workgroup tiles, race checking on.
func.func @matmul(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.000000e+00 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c16, %gy = %c16, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1)
             workgroup(%As : memref<16x16xf32, #gpu.address_space<workgroup>>,
                       %Bs : memref<16x16xf32, #gpu.address_space<workgroup>>) {
    %row = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%by, %ty)
    %col = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%bx, %tx)
    %acc = scf.for %kt = %c0 to %c16 step %c1 iter_args(%a = %zero) -> (f32) {
      %ka = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%kt, %tx)
      %kb = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%kt, %ty)
      %va = memref.load %A[%row, %ka] : memref<256x256xf32>
      memref.store %va, %As[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %vb = memref.load %B[%kb, %col] : memref<256x256xf32>
      memref.store %vb, %Bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %s = scf.for %kk = %c0 to %c16 step %c1 iter_args(%a2 = %a) -> (f32) {
        %x = memref.load %As[%ty, %kk] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %y = memref.load %Bs[%kk, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %a2, %p : f32
        scf.yield %n : f32
      }
      gpu.barrier
      scf.yield %s : f32
    }
    memref.store %acc, %C[%row, %col] : memref<256x256xf32>
    gpu.terminator
  }
  return
}
