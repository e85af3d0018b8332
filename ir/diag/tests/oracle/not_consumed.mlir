// expected-error @+2 {{has 1 operands}}
// expected-error @+1 {{@a}}
func.func @a() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () } func.func @b() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }
