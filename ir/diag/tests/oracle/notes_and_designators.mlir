func.func @g() {
  // expected-warning @+1 {{has 1 operands}}
  %0 = "test.a"() : () -> i32
  "func.return"(%0) : (i32) -> ()
}

// -----

func.func @h() {
  %0 = "test.a"() : () -> i32
  // expected-error @+1 {{redefinition of SSA value}}
  %0 = "test.a"() : () -> i32
  "func.return"() : () -> ()
}

// -----

func.func @h() {
  // expected-note @+1 {{previously defined here}}
  %0 = "test.a"() : () -> i32
  // expected-error @+1 {{redefinition of SSA value}}
  %0 = "test.a"() : () -> i32
  "func.return"() : () -> ()
}

// -----

func.func @k() {
  %0 = "test.a"() : () -> i32
  "func.return"(%0) : (i32) -> ()
  // expected-error @above {{has 1 operands}}
  // expected-error @-2 {{has 1 operands}}
}
