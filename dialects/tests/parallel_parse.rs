//! The custom form is parsed function-parallel too (`func.func` and
//! `gpu.func` bodies go to worker threads): the result, errors included, is
//! the same whatever the number of threads.

use lf_ir::{Context, ParseOptions, PrintOptions};

/// A module of `n` functions in the custom form: aliases used inside the
/// bodies, nested loops, several blocks, declarations, empty-looking bodies
/// with a comment, a GPU module; `bad` text is appended after function `i`.
fn module(n: usize, bad: &[(usize, String)]) -> String {
    let mut s = String::from(
        "#map = affine_map<(d0) -> (d0 + 1)>\n!t = memref<8xf32>\nmodule attributes {gpu.container_module} {\n",
    );
    for i in 0..n {
        match i % 5 {
            0 => s.push_str(&format!("  func.func private @decl{i}(index) -> index\n")),
            1 => s.push_str(&format!(
                "  func.func @g{i}(%a: index) -> index {{ // {{ not a brace\n    \"test.note\"() {{s = \"}})\"}} : () -> ()\n    return %a : index\n  }}\n"
            )),
            _ => s.push_str(&format!(
                "  func.func @f{i}(%arg0: index, %m: !t) -> index {{\n    \
                 %c = arith.constant {i} : index\n    \
                 %0 = affine.apply #map(%arg0)\n    \
                 affine.for %j = 0 to 8 {{\n      \
                 %v = affine.load %m[%j] : !t\n      \
                 affine.store %v, %m[(%j + 1) mod 8] : !t\n    }}\n    \
                 \"test.br\"(%0)[^bb1] : (index) -> ()\n  \
                 ^bb1(%x: index):\n    \
                 %s = arith.addi %x, %c : index loc(#loc{l})\n    \
                 return %s : index\n  }}\n",
                l = i % 3
            )),
        }
        for (at, text) in bad {
            if *at == i {
                s.push_str(text);
            }
        }
    }
    s.push_str(
        "  gpu.module @kernels {\n    gpu.func @k(%p: !t) kernel {\n      %t = gpu.thread_id x\n      gpu.return\n    }\n  }\n}\n\
         #loc0 = loc(\"a.mlir\":1:2)\n#loc1 = loc(\"b.mlir\":3:4)\n#loc2 = loc(\"c.mlir\":5:6)\n",
    );
    s
}

fn run(src: &str, threads: usize) -> Result<String, String> {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    ctx.set_allow_unregistered_dialects(true);
    let opts = ParseOptions {
        threads,
        ..ParseOptions::default()
    };
    let owned = lf_ir::parse_source_with(&ctx, src, "in.mlir", &opts).map_err(|d| format!("{d:?}"))?;
    lf_ir::verify(&ctx, &owned.body, owned.op).map_err(|d| format!("{d:?}"))?;
    let mut out = String::new();
    for (generic, debuginfo) in [(false, false), (true, true)] {
        let p = PrintOptions {
            generic,
            debuginfo,
            ..PrintOptions::default()
        };
        out.push_str(&lf_ir::op_to_string(&ctx, &owned.body, owned.op, &p));
    }
    Ok(out)
}

#[test]
fn same_output_for_any_thread_count() {
    let src = module(400, &[]);
    let one = run(&src, 1).expect("parses");
    assert!(
        one.contains("func.func @f2(%arg0: index, %arg1: memref<8xf32>) -> index {"),
        "{}",
        &one[..2000]
    );
    assert!(one.contains("gpu.func @k"));
    assert!(one.contains("loc(\"b.mlir\":3:4)"));
    for threads in [2, 3, 8] {
        assert_eq!(run(&src, threads).expect("parses"), one, "{threads} threads");
    }
}

#[test]
fn first_error_in_program_order_wins() {
    let undefined =
        |name: &str| format!("  func.func @{name}() {{\n    \"test.use\"(%nope) : (index) -> ()\n    return\n  }}\n");
    let cases = [
        (vec![(100, undefined("bad1")), (300, undefined("bad2")), (350, "  func.func @x(\n".to_string())], "bad1"),
        (vec![(300, undefined("bad2")), (350, "  func.func @x(\n".to_string())], "bad2"),
        (vec![(350, "  func.func @x(\n".to_string())], "unknown type"),
        // A body with nothing in it is an error of the custom parser itself.
        (vec![(200, "  func.func @e() { // only a comment\n  }\n".to_string())], "expected non-empty function body"),
        (
            vec![(250, "  func.func @t() {\n    %0 = arith.constant 1 : i32\n    \"test.b\"(%0) : (index) -> ()\n    return\n  }\n".to_string())],
            "expects different type",
        ),
    ];
    for (bad, expected) in cases {
        let src = module(400, &bad);
        let one = run(&src, 1).expect_err("fails");
        let expected = match src.find(&format!("@{expected}(")) {
            // The undefined value is on the line after the function's name.
            Some(at) if expected.starts_with("bad") => format!("line: {},", src[..at].lines().count() + 1),
            _ => expected.to_string(),
        };
        assert!(one.contains(&expected), "{expected} not in {one}");
        for threads in [2, 4] {
            assert_eq!(run(&src, threads).expect_err("fails"), one, "{threads} threads");
        }
    }
}

#[test]
fn unbalanced_body_is_parsed_as_sequentially() {
    let mut src = module(60, &[]);
    let cut = src.rfind("func.func @f").expect("a function");
    src.truncate(cut + 120);
    let one = run(&src, 1).expect_err("fails");
    assert_eq!(run(&src, 2).expect_err("fails"), one);
}

/// Function bodies are delimited by their braces alone (parentheses and
/// square brackets are not matched): a stray bracket, or a brace where a
/// bracket should close, still gives the sequential parse's first error.
#[test]
fn stray_brackets_give_the_sequential_error() {
    let body = |name: &str, line: &str| {
        format!(
            "  func.func @{name}(%m: !t) {{\n    affine.for %j = 0 to 8 {{\n      {line}\n    }}\n    return\n  }}\n"
        )
    };
    let lines = [
        "%v = affine.load %m[(%j + 1] : !t",
        "%v = affine.load %m[%j + 1]) : !t",
        "%v = affine.load %m[%j + 1 } ] : !t",
        "%v = affine.load %m[%j + 1 : !t",
        "\"test.x\"() ({ ) : () -> ()",
        "\"test.x\"() ({ ]) : () -> ()",
        "%v = affine.load %m[%j] : !t }",
    ];
    for line in lines {
        for at in [3, 150, 299] {
            let src = module(300, &[(at, body("stray", line))]);
            let one = run(&src, 1).expect_err("fails");
            for threads in [2, 4] {
                assert_eq!(
                    run(&src, threads).expect_err("fails"),
                    one,
                    "{line:?} after function {at}, {threads} threads"
                );
            }
        }
    }
}
