func.func @d() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () loc(unknown) }
// expected-error @unknown {{never}}
// expected-remark @unknown {{never2}}
