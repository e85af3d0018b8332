//! 50 MB inputs: the expected-comment parser, the splitter and the verifier
//! are linear and fast (generous bounds, so debug builds on a loaded machine
//! pass).

use std::time::Instant;

use lf_diag::*;

const SIZE: usize = 50_000_000;

#[test]
fn fifty_megabytes() {
    // One chunk: a function of 100 ops with one expected error.
    let mut chunk = String::from("func.func @f() {\n");
    for i in 0..100 {
        chunk.push_str(&format!(
            "  %{i} = \"test.op\"(%a, %b) {{attr = \"expected-nothing\"}} : (i32, i32) -> i32\n"
        ));
    }
    chunk.push_str("  // expected-error @+1 {{has 1 operands}}\n  \"func.return\"(%0) : (i32) -> ()\n}\n// -----\n");
    let lines_per_chunk = 105;
    let n = SIZE / chunk.len();
    let text = chunk.repeat(n);

    let t = Instant::now();
    let exp = parse_expected("big.mlir", &text);
    let parse_time = t.elapsed();
    assert_eq!(exp.diags.len(), n);
    assert!(exp.errors.is_empty());
    assert_eq!(exp.diags.last().unwrap().line, Some((n * lines_per_chunk - 2) as u32));

    let t = Instant::now();
    let split = split_input_file_checked(&text, DEFAULT_SPLIT_MARKER);
    let split_time = t.elapsed();
    // The last marker is followed by "\n": one more (almost empty) chunk.
    assert_eq!(split.chunks.len(), n + 1);
    assert!(split.near_misses.is_empty());
    assert_eq!(split.chunks[1].line, lines_per_chunk as u32);

    let mut sm = SourceMgr::new();
    sm.add("big.mlir", text.as_str());
    let emitted: Vec<Diagnostic> = exp
        .diags
        .iter()
        .map(|e| {
            Diagnostic::error(
                SourcePos::new("big.mlir", e.line.unwrap(), 3),
                "'func.return' op has 1 operands",
            )
        })
        .collect();
    let t = Instant::now();
    let mut v = Verifier::new(VerifyMode::All);
    v.add_all(&sm);
    v.check_all(&emitted);
    let failures = v.finish();
    let verify_time = t.elapsed();
    assert!(failures.is_empty());

    for (what, d) in [
        ("parse_expected", parse_time),
        ("split", split_time),
        ("verify", verify_time),
    ] {
        eprintln!("{what}: {d:?}");
        assert!(d.as_secs() < 20, "{what} took {d:?}");
    }
}
