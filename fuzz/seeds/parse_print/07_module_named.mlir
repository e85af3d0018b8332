module @outer {
  module @inner attributes {t.a = 1} {
    "t.y"() : () -> ()
  }
  module {
    "t.x"() : () -> ()
  }
}
