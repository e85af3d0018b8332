"t.outer"() ({
  %c = "t.c"() : () -> i64
  "t.mid"() ({
    ^bb0(%i: index):
      "t.inner"(%c, %i) ({
        "t.leaf"(%c) : (i64) -> ()
      }) : (i64, index) -> ()
  }) : () -> ()
}) : () -> ()
"t.isolated"() ({
  ^bb0:
    %x = "t.x"() : () -> f32
}) {t.isolated_from_above} : () -> ()
