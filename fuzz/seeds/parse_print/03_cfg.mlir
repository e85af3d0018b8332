module {
  "t.func"() <{sym_name = "f", function_type = (i32) -> i32}> ({
  ^entry(%a: i32, %b: i1):
    "t.cond_br"(%b, %a)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
  ^bb1(%x: i32):
    "t.br"()[^bb3] : () -> ()
  ^bb2:
    "t.br"(%a)[^bb1] : (i32) -> ()
  ^bb3:
    %r:3 = "t.multi"() : () -> (i32, f32, index)
    "t.return"(%r#2, %r#0) : (index, i32) -> ()
  }, {
  }, {
    "t.inner"() : () -> ()
  }) : () -> ()
  "t.use_before_def"() ({
    %later = "t.def"() : () -> i32
    "t.use"(%later) : (i32) -> ()
  }) : () -> ()
}
