//! Brook+ checking and execution (docs/design/brook.md):
//!
//! - the rule checker: every rule has a hand-written violation under
//!   `test/Target/brook/rules/` whose expected diagnostics are its `//! L:C
//!   [rule]` lines (and `valid.br`, with none, uses the whole subset), plus
//!   inline cases;
//! - the C++ translation: the programs of `test/Target/brook/run/` are
//!   translated with `to_cpp`, built with `g++ -std=c++11 -O1
//!   -ffp-contract=off -Wall -Werror` against `brook/Stream.h` and run; their
//!   output is compared with values computed here, in Rust; an out-of-bounds
//!   gather aborts.
//!
//! Without g++ the execution tests print a loud `SKIPPED` line and pass,
//! unless `LF_REQUIRE_TOOLS=1`.

use lf_targets::brook::{check::check, cpp};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `line:col [rule]` of each diagnostic of `src`.
fn found(src: &str) -> Vec<String> {
    check(src, "t.br")
        .iter()
        .map(|d| {
            let p = d.pos.as_ref().expect("diagnostics have positions");
            let rule = d.message.split(']').next().unwrap_or("");
            format!("{}:{} {rule}]", p.line, p.col)
        })
        .collect()
}

#[test]
fn rule_samples() {
    let dir = root().join("test/Target/brook/rules");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "br"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "rule samples missing in {}", dir.display());
    let mut rules_seen = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let expected: Vec<String> = src
            .lines()
            .filter_map(|l| l.strip_prefix("//! "))
            .map(str::to_string)
            .collect();
        assert_eq!(found(&src), expected, "{}", f.display());
        for d in check(&src, "t.br") {
            assert!(d.message.starts_with('['), "{}", d.message);
        }
        rules_seen.extend(expected.iter().map(|e| e.split(' ').nth(1).unwrap().to_string()));
    }
    for rule in [
        "out-streams",
        "scatter",
        "double-vector",
        "strict-float",
        "vector-condition",
        "double-select",
        "c89-declarations",
        "no-pointers",
        "no-goto",
        "no-switch",
        "const-param",
        "reserved-name",
        "indexof",
        "read-only",
        "unknown-name",
        "unknown-function",
        "define",
    ] {
        assert!(rules_seen.contains(&format!("[{rule}]")), "no sample for rule {rule}");
    }
}

#[test]
fn inputs_rule() {
    let params: Vec<String> = (0..129).map(|i| format!("float a{i}<>")).collect();
    let src = format!("kernel void k({}, out float o<>) {{ o = a0; }}", params.join(", "));
    let col = src.find("float a128").unwrap() + 1;
    assert_eq!(found(&src), [format!("1:{col} [inputs]")]);
    let d = check(&src, "t.br");
    assert!(
        d[0].message.contains("129 input streams and gather arrays"),
        "{}",
        d[0].message
    );
    // 128 are fine.
    let src = format!(
        "kernel void k({}, out float o<>) {{ o = a0; }}",
        params[..128].join(", ")
    );
    assert!(found(&src).is_empty());
}

#[test]
fn out_streams_message() {
    let outs: Vec<String> = (0..9).map(|i| format!("out float o{i}<>")).collect();
    let src = format!("kernel void k({}) {{ }}", outs.join(", "));
    let d = check(&src, "t.br");
    assert_eq!(
        d[0].message,
        "[out-streams] kernel 'k' has 9 output streams; Brook+ allows at most 8 (brcc splits more into two passes)"
    );
}

#[test]
fn typing_cases() {
    let k = |body: &str| {
        found(&format!(
            "kernel void k(float f<>, double d<>, int i, uint u, float4 v<>, int4 w<>, double2 e<>, out float o<>) {{\n{body}\n}}"
        ))
    };
    // Literals: int literals convert to integer types only.
    assert!(k("int j; uint x; j = 2; x = 3; x = u + 1; j = i * -4; o = f * 2.0f;").is_empty());
    assert_eq!(k("o = f * 2.5;"), ["2:9 [strict-float]"]);
    assert_eq!(k("o = 1;"), ["2:5 [strict-float]"]);
    assert_eq!(k("o = (float)i + f;"), Vec::<String>::new());
    assert_eq!(k("o = i + f;"), ["2:7 [strict-float]"]);
    // Vectors: componentwise, with scalars of their element type.
    assert!(k("float4 t; int4 s; t = v * f + v; s = w * 2 + w; t = v / 3.0f; o = t.x;").is_empty());
    assert_eq!(k("float4 t; t = v * 2;"), ["2:19 [strict-float]"]);
    assert_eq!(k("float4 t; t = v * d;"), ["2:17 [strict-float]"]);
    assert_eq!(k("float2 t; t = v;"), ["2:15 [type]"]);
    assert_eq!(k("o = v.q;"), ["2:7 [type]"]);
    assert_eq!(k("o = f.x;"), ["2:7 [type]"]);
    // Comparisons are int; conditions are scalars.
    assert!(k("int c; c = f < 1.0f; if (c) o = 1.0f; while (i > 0 && f > 0.0f) break;").is_empty());
    assert_eq!(k("if (w) o = 1.0f;"), ["2:5 [vector-condition]"]);
    assert_eq!(k("if (!v) o = 1.0f;"), ["2:6 [vector-condition]"]);
    assert_eq!(k("o = (f < 1.0f) ? f : 2.0f;"), Vec::<String>::new());
    assert_eq!(k("double2 t; t = i > 0 ? e : e;"), ["2:22 [double-select]"]);
    // Built-ins.
    assert_eq!(k("o = sqrt(2.0f) + min(f, 1.0f) + abs(f);"), Vec::<String>::new());
    assert_eq!(k("o = pow(f, 2);"), ["2:12 [strict-float]"]);
    assert_eq!(k("o = sqrt(f, f);"), ["2:5 [type]"]);
    assert_eq!(k("o = indexof(o).x;"), Vec::<String>::new());
    // `%` and bit operators need integers.
    assert_eq!(k("o = f % 2.0f;"), ["2:7 [type]"]);
    // Assignments of components; several components at once are refused.
    assert_eq!(k("float4 t; t.x = 1.0f; t.xy = t.zw;"), ["2:25 [type]"]);
    // Integer types mix as scalars; vectors keep their element type.
    assert!(k("uint x; int4 s; x = u + i; x = i; s = w * i + w * 2; s = (int4)v;").is_empty());
    assert_eq!(k("uint4 x; x = w;"), ["2:14 [type]"]);
    assert_eq!(k("int4 s; s = w * u;"), ["2:15 [type]"]);
    assert_eq!(k("o = i > 0 ? v : f;"), ["2:11 [type]"]);
    assert_eq!(
        k("int j; j = 2147483648; j = 2147483647; j = 4294967295u;"),
        ["2:12 [type]"]
    );
    // Names.
    assert_eq!(k("float t; float t;"), ["2:16 [redefinition]"]);
    assert_eq!(k("o = instance;"), ["2:5 [type]"]);
    assert_eq!(k("break;"), ["2:1 [syntax]"]);
    // Declarations at the start of nested blocks are C89.
    assert!(k("if (i > 0) { float t; t = 1.0f; o = t; }").is_empty());
    assert_eq!(k("o = 1.0f; { o = 2.0f; float t; }"), ["2:23 [c89-declarations]"]);
}

#[test]
fn kernels_are_defined_once() {
    let d = check(
        "kernel void k(out float b<>) { b = 1.0f; }\nkernel void k(out float b<>) { b = 2.0f; }",
        "t.br",
    );
    assert_eq!(
        d[0].to_string(),
        "t.br:2:13: error: [redefinition] kernel 'k' is defined twice\nt.br:1:13: note: first defined here"
    );
}

#[test]
fn syntax_errors_point_at_the_token() {
    let src = "#include <cstdio>\nkernel void k(float a<>, out float b<>)\n{\n    b = a +* 2.0f;\n}\n";
    let d = check(src, "s.br");
    assert_eq!(d.len(), 1);
    assert!(
        d[0].to_string().starts_with("s.br:4:12: error: [no-pointers]"),
        "{}",
        d[0]
    );
    let src = "kernel void k(float a<>, out float b<>)\n{\n    b = a\n}\n";
    assert_eq!(
        check(src, "s.br")[0].to_string(),
        "s.br:4:1: error: [syntax] expected ';' after the assignment, found '}'"
    );
    // Host code is never parsed: C++ there is fine.
    let src = "template <class T> struct S { T x; };\nint f(S<int> s) { return s.x >> 1; }\n\
               kernel void k(out float b<>) { b = 1.0f; }\nint main() { return f(S<int>()); }\n";
    assert!(check(src, "s.br").is_empty());
}

// ---------------------------------------------------------------------------
// Execution.

/// g++, or `None` after a `SKIPPED` line (a panic under `LF_REQUIRE_TOOLS=1`).
fn gxx(test: &str) -> Option<PathBuf> {
    lf_lit::tools::require(&["g++"], test)
}

/// Translates `test/Target/brook/run/NAME.br`, builds it and runs it.
fn build_and_run(gxx: &Path, name: &str) -> Output {
    let rel = format!("test/Target/brook/run/{name}.br");
    let code = cpp::to_cpp(&read(&rel), &rel).unwrap_or_else(|d| {
        panic!(
            "{rel}: {}",
            d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")
        )
    });
    let dir = tempfile::tempdir().unwrap();
    cpp::write_runtime(dir.path()).unwrap();
    let src = dir.path().join(format!("{name}.cpp"));
    std::fs::write(&src, &code).unwrap();
    let exe = dir.path().join(name);
    let out = Command::new(gxx)
        .args(["-std=c++11", "-O1", "-ffp-contract=off", "-Wall", "-Werror", "-I"])
        .arg(dir.path())
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "g++ failed on {rel}:\n{}\n--- C++:\n{code}",
        String::from_utf8_lossy(&out.stderr)
    );
    Command::new(&exe).output().unwrap()
}

/// The output's lines that start with `tag `, split into their fields.
fn lines<'a>(out: &'a str, tag: &str) -> Vec<Vec<&'a str>> {
    out.lines()
        .filter_map(|l| l.strip_prefix(tag).and_then(|r| r.strip_prefix(' ')))
        .map(|r| r.split(' ').collect())
        .collect()
}

fn f32s(out: &str, tag: &str, field: usize) -> Vec<f32> {
    lines(out, tag).iter().map(|l| l[field].parse().unwrap()).collect()
}

fn assert_f32(out: &str, tag: &str, field: usize, want: &[f32]) {
    let got = f32s(out, tag, field);
    assert_eq!(got.len(), want.len(), "{tag}: {out}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{tag}[{i}] field {field}: got {g}, want {w}");
    }
}

#[test]
fn run_streams() {
    let Some(g) = gxx("run_streams") else { return };
    let out = build_and_run(&g, "streams");
    assert!(out.status.success(), "{out:?}");
    let out = String::from_utf8(out.stdout).unwrap();
    let x: Vec<f32> = (0..10).map(|i| 0.37f32 * i as f32 - 1.5).collect();
    let y: Vec<f32> = (0..10).map(|i| 2.0f32 - 0.11 * (i * i) as f32).collect();
    let saxpy: Vec<f32> = (0..10).map(|i| 1.25f32 * x[i] + y[i]).collect();
    assert_f32(&out, "saxpy", 0, &saxpy);
    let t: Vec<f32> = x.iter().map(|a| a + 1.0).collect();
    assert_f32(&out, "split", 0, &t.iter().map(|t| t * t).collect::<Vec<_>>());
    assert_f32(
        &out,
        "split",
        1,
        &(0..10).map(|i| x[i] - t[i] / 3.0).collect::<Vec<_>>(),
    );
    let pair = lines(&out, "pair");
    assert_eq!(pair.len(), 10);
    for (i, l) in pair.iter().enumerate() {
        let a = 0.3f64 * i as f64;
        let (p, mut q) = (a * 1.5, a - 0.5);
        if a > 2.0 {
            q *= 2.0;
        }
        assert_eq!(l[0].parse::<f64>().unwrap().to_bits(), p.to_bits(), "pair[{i}].x");
        assert_eq!(l[1].parse::<f64>().unwrap().to_bits(), q.to_bits(), "pair[{i}].y");
    }
    // fill writes the box x in [1, 5), y in [1, 3) of a 6x4 stream;
    // instance() counts from the view's start.
    let fill: Vec<i32> = lines(&out, "fill").iter().map(|l| l[0].parse().unwrap()).collect();
    let want: Vec<i32> = (0..24)
        .map(|i| {
            let (x, y) = (i % 6, i / 6);
            if (1..5).contains(&x) && (1..3).contains(&y) {
                7000 + (y - 1) * 100 + (x - 1)
            } else {
                -1
            }
        })
        .collect();
    assert_eq!(fill, want);
    assert!(!out.contains("error"), "{out}");
    // vec: float4 and int4 streams of 3x2.
    let v: Vec<f32> = (0..24).map(|i| (i * 3 % 7) as f32 + 0.5 * i as f32).collect();
    let mut o = Vec::new();
    let mut q = Vec::new();
    for e in 0..6 {
        let a = &v[4 * e..4 * e + 4];
        let b: Vec<f32> = (0..4).map(|c| a[c].sqrt() * 2.0 + (c + 1) as f32).collect();
        o.extend([b[0].max(5.0) - (a[1] - 9.0).abs(), -b[2], -b[1], -b[0]]);
        let (ix, iy) = ((e % 3) as i32, (e / 3) as i32);
        q.extend([ix * 3 + 1, iy * 3 + 2, 3, 4]);
    }
    assert_f32(&out, "vec", 0, &o);
    let got_q: Vec<i32> = lines(&out, "vec").iter().map(|l| l[1].parse().unwrap()).collect();
    assert_eq!(got_q, q);
}

#[test]
fn run_stencil() {
    let Some(gx) = gxx("run_stencil") else { return };
    let out = build_and_run(&gx, "stencil");
    assert!(out.status.success(), "{out:?}");
    let out = String::from_utf8(out.stdout).unwrap();
    let g: Vec<f32> = (0..60).map(|i| ((i * 7 + 3) % 17) as f32 * 0.25 - 1.0).collect();
    let at = |x: usize, y: usize, z: usize| g[(z * 4 + y) * 5 + x];
    let mut st = Vec::new();
    for z in 0..3 {
        for y in 0..4 {
            for x in 0..5 {
                if x == 0 || y == 0 || z == 0 || x == 4 || y == 3 || z == 2 {
                    st.push(at(x, y, z));
                    continue;
                }
                let mut s = at(x - 1, y, z) + at(x + 1, y, z);
                s = s + at(x, y - 1, z) + at(x, y + 1, z);
                s = s + at(x, y, z - 1) + at(x, y, z + 1);
                st.push(0.5f32 * at(x, y, z) + s / 6.0);
            }
        }
    }
    assert_f32(&out, "stencil", 0, &st);
    let mut rs = Vec::new();
    for y in 0..3 {
        for x in 0..5 {
            let mut acc = 0.0f32;
            for i in 0..=x {
                acc += g[y * 5 + i];
            }
            rs.push(acc);
        }
    }
    assert_f32(&out, "rowsum", 0, &rs);
    // In place: the call reads the values from before it.
    let shift: Vec<f32> = (0..8).map(|i| g[i] + if i > 0 { g[i - 1] } else { 0.0 }).collect();
    assert_f32(&out, "shift", 0, &shift);
    // Outputs of different shapes: the call fails, both outputs carry the error.
    assert!(out.contains("both 0 1 1\n"), "{out}");
    assert!(
        out.contains("log kernel 'both': output stream 'o2' has a different shape from the first output (5 vs 4)"),
        "{out}"
    );
}

#[test]
fn out_of_bounds_gather_aborts() {
    let Some(g) = gxx("out_of_bounds_gather_aborts") else {
        return;
    };
    let out = build_and_run(&g, "oob");
    assert!(!out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stdout.contains("not reached"), "{stdout}");
    assert!(
        stderr.contains("brook: kernel 'past': gather 'g' index [0][3] is out of bounds"),
        "{stderr}"
    );
}

/// The rule samples without expected diagnostics (`valid*.br`) build as C++.
#[test]
fn valid_samples_compile() {
    let Some(gx) = gxx("valid_samples_compile") else { return };
    let dir = tempfile::tempdir().unwrap();
    cpp::write_runtime(dir.path()).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(root().join("test/Target/brook/rules")).unwrap() {
        let path = e.unwrap().path();
        let src = std::fs::read_to_string(&path).unwrap();
        if path.extension().is_none_or(|e| e != "br") || src.contains("\n//! ") {
            continue;
        }
        n += 1;
        let code = cpp::to_cpp(&src, "t.br").unwrap();
        let cpp_file = dir.path().join("t.cpp");
        std::fs::write(&cpp_file, &code).unwrap();
        let out = Command::new(&gx)
            .args([
                "-std=c++11",
                "-O1",
                "-ffp-contract=off",
                "-Wall",
                "-Werror",
                "-fsyntax-only",
                "-I",
            ])
            .arg(dir.path())
            .arg(&cpp_file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}\n{code}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(n >= 2, "valid samples missing");
}

#[test]
fn translation_refuses_errors_and_reductions() {
    let d = cpp::to_cpp("kernel void k(out float b<>) { b = 1; }", "t.br").unwrap_err();
    assert!(d[0].message.starts_with("[strict-float]"));
    let d = cpp::to_cpp("reduce void r(float a<>, reduce float b<>) { b += a; }", "t.br").unwrap_err();
    assert_eq!(d[0].to_string(), format!("t.br:1:1: error: {}", d[0].message));
    assert!(d[0].message.starts_with("[reduce]"));
    // brookgenfiles includes become comments; the kernels are declared first.
    let code = cpp::to_cpp(
        "#include \"brookgenfiles/k.h\"\nint main() { return 0; }\nkernel void k(out float b<>) { b = 1.0f; }\n",
        "t.br",
    )
    .unwrap();
    let decl = code.find("void k(::brook::Stream<float> lf_arg_b);").unwrap();
    let inc = code
        .find("// (lf: the kernels are declared at the top) #include \"brookgenfiles/k.h\"")
        .unwrap();
    assert!(decl < inc, "{code}");
}

/// The deepest nesting the parser accepts is checked and translated without
/// exhausting a test thread's stack; deeper nesting is a diagnostic.
#[test]
fn deep_nesting_is_bounded() {
    let accepted = |ifs: usize, parens: usize| {
        let e = format!("{}1.0f{}", "(".repeat(parens), " + 1.0f)".repeat(parens));
        let s = format!("{}b = {e};{}", "if (1) { ".repeat(ifs), " }".repeat(ifs));
        format!("kernel void k(out float b<>) {{ {s} }}\n")
    };
    let src = accepted(20, 29);
    assert!(check(&src, "t.br").is_empty());
    assert!(cpp::to_cpp(&src, "t.br").is_ok());
    for src in [accepted(20, 5000), accepted(5000, 1)] {
        let d = check(&src, "t.br");
        assert!(d[0].message.contains("nested more than"), "{}", d[0]);
    }
    // Left-deep chains inside parentheses: the tree is taller than the
    // nesting; its height is bounded too.
    let mut e = "1.0f".to_string();
    for _ in 0..20 {
        e = format!("({e}{})", " + 1.0f".repeat(40));
    }
    let d = check(&format!("kernel void k(out float b<>) {{ b = {e}; }}"), "t.br");
    assert!(
        d[0].message.contains("expression nested more than 200 deep"),
        "{}",
        d[0]
    );
}
