// expected-error @below {{op has 1}}
// expected-note @below {{foo}}
// some comment
func.func @b() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
// expected-error @+1 {{op has 1}}
func.func @c() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () loc("other.mlir":3:4) }

// -----
func.func @d() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () loc(unknown) }

// -----
// expected-error @unknown {{op has 1}}
func.func @e() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () loc(unknown) }
// expected-error @unknown {{never}}
// expected-warning @below {{dangling}}
