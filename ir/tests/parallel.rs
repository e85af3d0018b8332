//! Function-parallel parsing and printing give the same result, errors
//! included, whatever the number of threads.

use lf_ir::{Context, OpDef, ParseOptions, PrintOptions, Traits};

/// An isolated-from-above op standing for a function.
static TEST_FUNC: OpDef = OpDef {
    traits: Traits::ISOLATED_FROM_ABOVE,
    ..OpDef::new("testfn.func")
};

fn context() -> Context {
    let ctx = Context::new();
    ctx.register_op(&TEST_FUNC);
    ctx.set_allow_unregistered_dialects(true);
    ctx
}

/// A module of `n` functions in the generic form, with aliases, nested
/// regions, several blocks, a forward block reference and location aliases.
fn module(n: usize, bad: &[(usize, &str)]) -> String {
    let mut s = String::from("#map = affine_map<(d0) -> (d0 + 1)>\n!t = memref<4xf32>\n\"builtin.module\"() ({\n");
    for i in 0..n {
        s.push_str(&format!(
            "  \"testfn.func\"() <{{sym_name = \"f{i}\"}}> ({{\n  ^bb0(%arg0: index, %arg1: !t):\n    \
             %0 = \"test.apply\"(%arg0) <{{map = #map}}> : (index) -> index loc(#loc{l})\n    \
             \"test.for\"(%0) ({{\n    ^bb0(%arg2: index):\n      \
             %2 = \"test.def\"() <{{value = {i} : index}}> : () -> index\n      \
             %1 = \"test.use\"(%2, %arg2) : (index, index) -> index\n      \
             \"test.yield\"() : () -> ()\n    }}) : (index) -> ()\n    \
             \"test.br\"(%0)[^bb1] : (index) -> ()\n  \
             ^bb1(%3: index):\n    \"test.ret\"(%3) : (index) -> ()\n  }}) : () -> ()\n",
            l = i % 3
        ));
        for (at, text) in bad {
            if *at == i {
                s.push_str(text);
            }
        }
    }
    s.push_str(
        "}) : () -> ()\n#loc0 = loc(\"a.mlir\":1:2)\n#loc1 = loc(\"b.mlir\":3:4)\n#loc2 = loc(\"c.mlir\":5:6)\n",
    );
    s
}

fn run(src: &str, threads: usize) -> Result<String, String> {
    let ctx = context();
    let opts = ParseOptions {
        threads,
        ..ParseOptions::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(|| {
        let owned = lf_ir::parse_source_with(&ctx, src, "in.mlir", &opts).map_err(|d| format!("{d:?}"))?;
        lf_ir::verify(&ctx, &owned.body, owned.op).map_err(|d| format!("{d:?}"))?;
        let mut out = String::new();
        for debuginfo in [false, true] {
            let p = PrintOptions {
                generic: true,
                debuginfo,
                ..PrintOptions::default()
            };
            out.push_str(&lf_ir::op_to_string(&ctx, &owned.body, owned.op, &p));
        }
        Ok(out)
    })
}

#[test]
fn same_output_for_any_thread_count() {
    let src = module(600, &[]);
    let one = run(&src, 1).expect("parses");
    assert!(one.contains("\"testfn.func\""));
    assert!(one.contains("loc(\"b.mlir\":3:4)") || one.contains("#loc1"));
    for threads in [2, 3, 8] {
        assert_eq!(run(&src, threads).expect("parses"), one, "{threads} threads");
    }
}

#[test]
fn first_error_in_program_order_wins() {
    // An undefined value in function 100, a type mismatch in function 400,
    // and a syntax error at the module level after function 500.
    let bad_fn = |name: &str| {
        format!(
            "  \"testfn.func\"() <{{sym_name = \"{name}\"}}> ({{\n    \"test.ret\"(%nope) : (index) -> ()\n  }}) : () -> ()\n"
        )
    };
    let cases = [
        (
            vec![(100, bad_fn("bad1")), (400, bad_fn("bad2")), (500, "  \"test.x\"(\n".to_string())],
            "bad1",
        ),
        (vec![(400, bad_fn("bad2")), (500, "  \"test.x\"(\n".to_string())], "bad2"),
        (vec![(500, "  \"test.x\"(\n".to_string())], "expected"),
        (
            vec![(
                300,
                "  \"testfn.func\"() ({\n    %0 = \"test.a\"() : () -> i32\n    \"test.b\"(%0) : (index) -> ()\n  }) : () -> ()\n"
                    .to_string(),
            )],
            "expects different type",
        ),
    ];
    for (bad, expected) in cases {
        let bad: Vec<(usize, &str)> = bad.iter().map(|(i, t)| (*i, t.as_str())).collect();
        let src = module(600, &bad);
        let one = run(&src, 1).expect_err("fails");
        // `badN`: the undefined value on the line after that function's name.
        let expected = match src.find(&format!("\"{expected}\"")) {
            Some(at) if expected.starts_with("bad") => format!("line: {},", src[..at].lines().count() + 1),
            _ => expected.to_string(),
        };
        assert!(one.contains(&expected), "{one}");
        for threads in [2, 4] {
            assert_eq!(run(&src, threads).expect_err("fails"), one, "{threads} threads");
        }
    }
}

#[test]
fn unbalanced_text_is_parsed_as_sequentially() {
    // A function whose region list never closes: the scan finds no match,
    // the op is parsed on the main thread and fails as it would anyway.
    let mut src = module(50, &[]);
    let cut = src.rfind("\"testfn.func\"").expect("a function");
    src.truncate(cut + 60);
    let one = run(&src, 1).expect_err("fails");
    assert_eq!(run(&src, 4).expect_err("fails"), one);
}

/// Op names first seen by several threads at once can be looked up at once
/// by the thread that interned them (an op name's registration slot must be
/// written before any thread can see the name's id: this used to panic with
/// "index N is uninitialized" when two threads added names together).
#[test]
fn new_op_names_from_racing_threads_are_usable_at_once() {
    let ctx = context();
    let threads = 4;
    let names_per_thread = 20_000;
    std::thread::scope(|scope| {
        for t in 0..threads {
            let ctx = &ctx;
            scope.spawn(move || {
                for i in 0..names_per_thread {
                    let name = ctx.op_name(&format!("race.t{t}_op{i}"));
                    assert!(ctx.op_def(name).is_none());
                    assert!(ctx.op_format(name).is_none());
                }
            });
        }
    });
    let registered = ctx.op_def(ctx.op_name("testfn.func")).map(|d| d.name);
    assert_eq!(registered, Some("testfn.func"));
}

/// A module of 100 functions under a run of `n` alias definitions (long
/// enough to be parsed in parts by the threads), with `extra` lines put
/// into the run after definition `at`.
fn module_with_alias_run(n: usize, extra: &[(usize, &str)]) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "#m{i} = affine_map<(d0)[s0] -> (d0 * {i} + s0, d0 floordiv {})>\n",
            i + 1
        ));
        for (at, text) in extra {
            if *at == i {
                s.push_str(text);
            }
        }
    }
    s.push_str(&module(100, &[]).replace("<{map = #map}>", &format!("<{{map = #m{}}}>", n - 1)));
    s
}

#[test]
fn alias_runs_parse_alike_on_any_thread_count() {
    let n = 4000;
    let cases: Vec<Vec<(usize, String)>> = vec![
        vec![],
        // Aliases that use aliases of other parts (the part is parsed again
        // on the main thread) and a type alias.
        vec![
            (3000, "#use0 = #m0\n".to_string()),
            (3900, "!vec = memref<8xf32, #m2>\n".to_string()),
            (10, "#own = #m5\n".to_string()),
        ],
        // A value over two lines: the run of `#` lines ends there.
        vec![(2500, "#two = affine_map<(d0) ->\n  (d0 + 2)>\n".to_string())],
        // A comment inside the run.
        vec![(1500, "// a comment\n".to_string())],
    ];
    for extra in cases {
        let extra: Vec<(usize, &str)> = extra.iter().map(|(i, t)| (*i, t.as_str())).collect();
        let src = module_with_alias_run(n, &extra);
        let one = run(&src, 1).expect("parses");
        assert!(one.contains(&format!("d0 * {} + s0", n - 1)), "{one:.200}");
        for threads in [2, 3, 4, 8] {
            assert_eq!(run(&src, threads).expect("parses"), one, "{threads} threads, {extra:?}");
        }
    }
}

#[test]
fn alias_run_errors_are_the_sequential_parse_errors() {
    let n = 4000;
    let deep = format!("#deep = {}1{}\n", "[".repeat(2000), "]".repeat(2000));
    // (extra lines, the error's message and line).
    let cases = [
        // A syntax error late in the run, then one early (the early one wins).
        (
            vec![(3500, "#bad = affine_map<(d0) -> (d0 +)>\n")],
            "missing right operand of binary operator",
            3502,
        ),
        (
            vec![(3500, "#bad = affine_map<(d0) -> (d0 +)>\n"), (200, "#bad2 = 12 12\n")],
            "expected operation name in quotes",
            202,
        ),
        // A redefinition across parts and inside one.
        (
            vec![(3600, "#m1 = affine_map<(d0) -> (d0)>\n")],
            "redefinition of attribute alias id 'm1'",
            3602,
        ),
        (
            vec![(12, "#m3 = affine_map<(d0) -> (d0)>\n")],
            "redefinition of attribute alias id 'm3'",
            14,
        ),
        // An alias used before its definition (the error points just after
        // it, on its line).
        (
            vec![(100, "#early = #m3000\n")],
            "undefined symbol alias id 'm3000'",
            102,
        ),
        // Nesting too deep in one definition.
        (vec![(2800, deep.as_str())], "nesting too deep", 2802),
    ];
    for (extra, message, line) in cases {
        let src = module_with_alias_run(n, &extra);
        let one = run(&src, 1).expect_err("fails");
        assert!(
            one.contains(message) && one.contains(&format!("line: {line},")),
            "{one}"
        );
        for threads in [2, 4] {
            assert_eq!(
                run(&src, threads).expect_err("fails"),
                one,
                "{threads} threads, {message}"
            );
        }
    }
}

/// Thousands of alias definitions (a generic-form print defines every map
/// it uses) are printed in pieces on the threads, in order.
#[test]
fn many_alias_definitions_print_alike_on_any_thread_count() {
    let mut src = String::from("\"builtin.module\"() ({\n");
    for i in 0..3000 {
        src.push_str(&format!(
            "  \"test.op\"() {{map = affine_map<(d0)[s0] -> (d0 * {i} + s0)>}} : () -> ()\n"
        ));
    }
    src.push_str("}) : () -> ()\n");
    let one = run(&src, 1).expect("parses");
    assert!(
        one.starts_with("#map = affine_map<(d0)[s0] -> (s0)>\n#map1 = affine_map<(d0)[s0] -> (d0 + s0)>\n"),
        "{one:.300}"
    );
    assert!(one.contains("\n#map2999 = affine_map<(d0)[s0] -> (d0 * 2999 + s0)>\n\"builtin.module\""));
    for threads in [2, 4, 8] {
        assert_eq!(run(&src, threads).expect("parses"), one, "{threads} threads");
    }
}

/// Functions whose text is longer than what the printer holds before
/// writing (64 KB) go to the writer without being copied into its buffer;
/// the output is the same as printed on one thread, in order.
#[test]
fn long_functions_print_alike_on_any_thread_count() {
    let mut src = String::from("\"builtin.module\"() ({\n");
    for f in 0..6 {
        // Every other function is long: about 2,500 ops, 150 KB of text.
        let ops = if f % 2 == 0 { 2500 } else { 3 };
        src.push_str(&format!(
            "  \"testfn.func\"() <{{sym_name = \"f{f}\"}}> ({{\n  ^bb0(%arg0: index):\n"
        ));
        for i in 0..ops {
            src.push_str(&format!(
                "    %{i} = \"test.apply\"(%arg0) <{{map = affine_map<(d0) -> (d0 + {})>}}> : (index) -> index\n",
                i % 7
            ));
        }
        src.push_str("    \"test.ret\"(%arg0) : (index) -> ()\n  }) : () -> ()\n");
    }
    src.push_str("}) : () -> ()\n");
    let one = run(&src, 1).expect("parses");
    assert!(one.len() > 2 * 3 * 150_000, "{}", one.len());
    assert!(one.contains("sym_name = \"f5\""));
    for threads in [2, 4] {
        assert_eq!(run(&src, threads).expect("parses"), one, "{threads} threads");
    }
}
