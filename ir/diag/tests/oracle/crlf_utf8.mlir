func.func @f() {
  // expected-error @+1 {{has 1 operands}}
  "func.return"(%0) : (i32) -> ()
}
// -----
func.func @g() {
  %0 = "test.é€"() : () -> i32 "func.return"(%0) : (i32) -> ()
}
