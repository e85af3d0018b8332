// expected-error-re @+1 {{'func.return' op has {{[0-9]+}} operands}}
func.func @a() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
// expected-error-re @+1 {{op has {{[0-9+ operands}}
func.func @b() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
// expected-error @+1 {{op has {{[0-9]+}} operands}}
func.func @d() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
// expected-warning @+1 {{op has 1 operands}}
func.func @e() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
// expected-error @+1 {{}}
func.func @g() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
// expected-error@+1{{op has 1}}
func.func @h() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
func.func @i() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () } // expected-error {{op has 1}}   

// -----
// expected-error-re @+1 {{^'func.return' op has 1 operands{{.*}}$}}
func.func @j() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
// expected-error-re@+1{{{{.*}}operands}}
func.func @k() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----
// expected-error {{op has 1}} expected-error {{nothing}}
func.func @l() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }
