"test.op"() : () -> ()
// -----"test.op"() : () -> (
// ------
"test.op"() : () -> ()
// ----- trailing

"test.op"() : () -> (
