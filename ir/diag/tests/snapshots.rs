//! Whole-output snapshots: a `--verify-diagnostics --split-input-file` run
//! rendered as a tool prints it, and a diagnostic with notes in several
//! files.

use lf_diag::*;

#[test]
fn verify_split_file_rendered() {
    let text = "\
// expected-error @+1 {{expected valid '@'-identifier}}
func.func @f() { %0 = \"test.a\"() : () -> i32 \"func.return\"(%0) : (i32) -> () }

// -----

func.func @g() {
  %0 = \"test.a\"() : () -> i32
  \"func.return\"(%0) : (i32) -> ()
}
// -----
// expected-warning @+1 {{has 1 operands}}
\"func.return\"(%0) : (i32) -> ()
";
    let mut sm = SourceMgr::new();
    let file = sm.add("split.mlir", text);
    let chunks = split_input_file(text, DEFAULT_SPLIT_MARKER);
    assert_eq!(chunks.len(), 3);
    // What a parser/verifier working on the chunks would emit, in file
    // coordinates (computed from chunk-relative ones).
    let engine = DiagEngine::new();
    let (l, c) = chunks[0].file_pos(2, 46);
    engine.emit(Diagnostic::error(
        SourcePos::new("split.mlir", l, c),
        "'func.return' op has 1 operands, but enclosing function (@f) returns 0",
    ));
    let (l, c) = chunks[1].file_pos(5, 3);
    assert_eq!((l, c), (8, 3));
    engine.emit(Diagnostic::error(
        sm.pos(file, sm.offset(file, l, c).unwrap()),
        "'func.return' op has 1 operands, but enclosing function (@g) returns 0",
    ));
    let (l, c) = chunks[2].file_pos(3, 1);
    engine.emit(Diagnostic::error(
        SourcePos::new("split.mlir", l, c),
        "'func.return' op has 1 operands",
    ));

    let mut v = Verifier::new(VerifyMode::All);
    v.add_all(&sm);
    v.check_all(&engine.take());
    let out = render_all(&v.finish(), &sm);
    assert_eq!(
        out,
        r#"split.mlir:2:46: error: unexpected error: 'func.return' op has 1 operands, but enclosing function (@f) returns 0
  --> split.mlir:2:46
  |
2 | func.func @f() { %0 = "test.a"() : () -> i32 "func.return"(%0) : (i32) -> () }
  |                                              ^

split.mlir:8:3: error: unexpected error: 'func.return' op has 1 operands, but enclosing function (@g) returns 0
  --> split.mlir:8:3
  |
8 |   "func.return"(%0) : (i32) -> ()
  |   ^

split.mlir:11:4: error: 'error' diagnostic emitted when expecting a 'warning'
   --> split.mlir:11:4
   |
11 | // expected-warning @+1 {{has 1 operands}}
   |    ^

split.mlir:1:4: error: expected error "expected valid '@'-identifier" was not produced
  --> split.mlir:1:4
  |
1 | // expected-error @+1 {{expected valid '@'-identifier}}
  |    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

split.mlir:11:4: error: expected warning "has 1 operands" was not produced
   --> split.mlir:11:4
   |
11 | // expected-warning @+1 {{has 1 operands}}
   |    ^^^^^^^^^^^^^^

"#
    );
}

#[test]
fn notes_in_several_files_rendered() {
    let mut sm = SourceMgr::new();
    sm.add("main.mlir", "module {\r\n  func.call @callee() : () -> ()\r\n}\r\n");
    sm.add("lib.mlir", "// library\nfunc.func private @callee(%arg0: i32)\n");
    let d = Diagnostic::error(
        SourcePos::new("main.mlir", 2, 3),
        "incorrect number of operands for callee",
    )
    .with_width(9)
    .with_note(SourcePos::new("lib.mlir", 2, 27), "callee takes 1 operand")
    .with_note(SourcePos::new("gen.mlir", 7, 1), "generated from here")
    .with_note(None, "while verifying 'func.call'");
    assert_eq!(
        render(&d, &sm),
        r#"main.mlir:2:3: error: incorrect number of operands for callee
  --> main.mlir:2:3
  |
2 |   func.call @callee() : () -> ()
  |   ^^^^^^^^^

lib.mlir:2:27: note: callee takes 1 operand
  --> lib.mlir:2:27
  |
2 | func.func private @callee(%arg0: i32)
  |                           ^

gen.mlir:7:1: note: generated from here
<unknown>:0: note: while verifying 'func.call'
"#
    );
    // The short form is the header lines only.
    assert_eq!(
        render_with(
            &[d],
            &sm,
            &RenderOptions {
                color: false,
                short: true
            }
        ),
        "main.mlir:2:3: error: incorrect number of operands for callee\n\
         lib.mlir:2:27: note: callee takes 1 operand\n\
         gen.mlir:7:1: note: generated from here\n\
         <unknown>:0: note: while verifying 'func.call'\n"
    );
}
