//! Fuzz target `parse_print`: arbitrary bytes through lf's parser, verifier and printer.
//!
//! For every input that is valid UTF-8 and parses (with unregistered dialects allowed):
//! verify it, print it in the custom and in the generic form (with and without locations),
//! and re-parse every print, which must succeed and print the same text again. A panic,
//! a stack overflow, a hang (libFuzzer's `-timeout`) or a failed assertion is a finding.
//!
//! Run: `cargo +nightly fuzz run parse_print` in `fuzz/` (see docs/testing.md).

#![no_main]

use lf_ir::{parse_source, print_op, verify, Context, PrintOptions};
use libfuzzer_sys::fuzz_target;

/// The printed form of `text`, or `None` where it does not parse or verify.
fn parse_verify_print(text: &str, name: &str, opts: &PrintOptions) -> Option<Result<String, String>> {
    let ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    let owned = parse_source(&ctx, text, name).ok()?;
    if verify(&ctx, &owned.body, owned.op).is_err() {
        return None;
    }
    let mut out = Vec::new();
    if let Err(e) = print_op(&ctx, &owned.body, owned.op, opts, &mut out) {
        return Some(Err(format!("printing failed: {e}")));
    }
    Some(String::from_utf8(out).map_err(|e| format!("the printer wrote invalid UTF-8: {e}")))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (generic, debuginfo) in [(false, false), (true, false), (false, true), (true, true)] {
        let opts = PrintOptions { generic, debuginfo, ..PrintOptions::default() };
        let Some(first) = parse_verify_print(text, "fuzz.mlir", &opts) else {
            // Rejected input: nothing else to check (not panicking is the property).
            return;
        };
        let first = first.unwrap_or_else(|e| panic!("{e}"));
        let ctx = Context::new();
        ctx.set_allow_unregistered_dialects(true);
        let reparsed = match parse_source(&ctx, &first, "printed.mlir") {
            Ok(o) => o,
            Err(d) => {
                panic!("the print (generic={generic}, debuginfo={debuginfo}) does not parse: {d}\n--- print:\n{first}")
            }
        };
        if let Err(d) = verify(&ctx, &reparsed.body, reparsed.op) {
            panic!("the print (generic={generic}, debuginfo={debuginfo}) does not verify: {d}\n--- print:\n{first}");
        }
        let mut second = Vec::new();
        print_op(&ctx, &reparsed.body, reparsed.op, &opts, &mut second).expect("printing to a Vec");
        let second = String::from_utf8(second).expect("UTF-8 print");
        assert_eq!(
            first, second,
            "print(parse(print(x))) != print(x) (generic={generic}, debuginfo={debuginfo})"
        );
    }
});
