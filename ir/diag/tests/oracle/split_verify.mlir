// expected-error @+1 {{custom op 'func.func' expected valid '@'-identifier}}
func.func @f() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }

// -----

func.func @g() {
  %0 = "test.a"() : () -> i32
  "func.return"(%0) : (i32) -> ()
}

// -----

// expected-error @+1 {{this will not be produced}}
"test.op"() : () -> ()

// -----
"test.op"() : () -> (
