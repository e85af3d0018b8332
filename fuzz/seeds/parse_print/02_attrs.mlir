#alias = {inner = [1 : i8, 2.5 : f64, "s"]}
!alias = memref<4x4xf32>
"t.attrs"() {
  ints = [0, -1, 127 : i8, 255 : ui8, -128 : si8, 0x7f : i32, 18446744073709551615 : ui64],
  floats = [0.0, -0.0, 1.0e10 : f32, 0x7FC00000 : f32, 1.5 : bf16, 3.25 : f16, 2.0 : f64],
  strs = ["", "a\"b", "\t\n\\", "\00\7F"],
  dense = dense<1.0> : tensor<2x2xf32>,
  dense2 = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>,
  dense3 = dense<"0x01020304"> : tensor<4xi8>,
  darr = array<i32: 1, 2, 3>,
  darr2 = array<f64>,
  bools = array<i1: true, false>,
  t = !alias,
  a = #alias,
  sym = @a::@b::@"c d",
  unit,
  "quoted key" = 1,
  dialect_attr = #t.attr<"opaque" : i32>,
  typed = 5 : index,
  empty_dict = {},
  empty_arr = [],
  map = affine_map<(d0, d1)[s0] -> (d0 floordiv 4, d1 mod s0, d0 ceildiv 2, -d1 + 3)>,
  map0 = affine_map<() -> ()>,
  set = affine_set<(d0)[s0] : (d0 - s0 == 0, d0 >= 0)>,
  str2 = "unicode é"
} : () -> ()
