//! Differential tests against mlir-opt itself, on random maps and sets.
//!
//! Needs `mlir-opt-22` (or `mlir-opt`, or the path in `MLIR_OPT`). Without
//! it the tests say so loudly and pass, unless `LF_REQUIRE_TOOLS=1`, which
//! turns the skip into a failure.

use std::io::Write;
use std::process::{Command, Stdio};

use lf_affine::{parse_affine_map, parse_affine_map_or_set, AffineMapOrSet};

fn mlir_opt() -> Option<String> {
    let candidates = std::env::var("MLIR_OPT")
        .ok()
        .into_iter()
        .chain(["mlir-opt-22".to_string(), "mlir-opt".to_string()]);
    for c in candidates {
        if let Ok(out) = Command::new(&c).arg("--version").output() {
            if out.status.success() && String::from_utf8_lossy(&out.stdout).contains("LLVM version 22") {
                return Some(c);
            }
        }
    }
    if std::env::var("LF_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("mlir-opt 22 not found and LF_REQUIRE_TOOLS=1");
    }
    eprintln!("SKIPPED: mlir-opt 22 not found (set MLIR_OPT or install mlir-22-tools)");
    None
}

/// Runs mlir-opt on `input` and returns the texts inside every
/// `affine_map<...>`/`affine_set<...>` it prints, in order.
fn run_mlir_opt(tool: &str, extra: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(tool)
        .args(["--allow-unregistered-dialect", "--mlir-print-local-scope"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mlir-opt");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "mlir-opt failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut found = Vec::new();
    for line in text.lines() {
        for prefix in ["affine_map<", "affine_set<"] {
            if let Some(start) = line.find(prefix) {
                let rest = &line[start + prefix.len()..];
                let end = rest.rfind(">}").expect("attribute end");
                found.push(rest[..end].to_string());
            }
        }
    }
    found
}

/// A small deterministic generator of affine map and set text.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn constant(&mut self) -> i64 {
        match self.below(10) {
            0..=5 => self.below(10) as i64,
            6..=8 => [16, 32, 64, 12, 24, 6, 128][self.below(7) as usize],
            _ => self.below(1000) as i64,
        }
    }
    /// An expression over `nd` dims and `ns` symbols; `sym` asks for a
    /// symbolic one. Returns the text and whether it mentions a dimension.
    fn expr(&mut self, depth: u32, nd: u32, ns: u32, sym: bool, pure: bool) -> (String, bool) {
        if depth == 0 || self.below(4) == 0 {
            let r = self.below(10);
            if (sym || r < 3) && ns > 0 && self.below(10) < 6 {
                return (format!("s{}", self.below(ns as u64)), false);
            }
            if sym || r < 5 || nd == 0 {
                return (self.constant().to_string(), false);
            }
            return (format!("d{}", self.below(nd as u64)), true);
        }
        let op = self.pick(&["+", "-", "*", "floordiv", "ceildiv", "mod", "neg", "+", "*"]);
        let wrap = |t: String| {
            if t.chars().all(|c| c.is_ascii_alphanumeric()) {
                t
            } else {
                format!("({t})")
            }
        };
        match op {
            "neg" => {
                let (t, h) = self.expr(depth - 1, nd, ns, sym, pure);
                (format!("-{}", wrap(t)), h)
            }
            "+" | "-" => {
                let (a, ha) = self.expr(depth - 1, nd, ns, sym, pure);
                let (b, hb) = self.expr(depth - 1, nd, ns, sym, pure);
                let b = if self.below(2) == 0 { format!("({b})") } else { b };
                (format!("{a} {op} {b}"), ha || hb)
            }
            "*" => {
                let (a, ha) = self.expr(depth - 1, nd, ns, sym, pure);
                // In pure affine mode one factor is a constant.
                let (b, hb) = if pure {
                    (self.constant().to_string(), false)
                } else {
                    self.expr(depth - 1, nd, ns, sym || ha, pure)
                };
                if self.below(2) == 0 {
                    (format!("{} * {}", wrap(b), wrap(a)), ha || hb)
                } else {
                    (format!("{} * {}", wrap(a), wrap(b)), ha || hb)
                }
            }
            _ => {
                let (a, ha) = self.expr(depth - 1, nd, ns, sym, pure);
                let b = if pure || self.below(4) != 0 {
                    let c = [1i64, 2, 3, 4, 8, 16, 5, 6, 7, 32, 64, -2, -3, 0][self.below(14) as usize];
                    if c < 0 {
                        format!("({c})")
                    } else {
                        c.to_string()
                    }
                } else {
                    wrap(self.expr(depth.saturating_sub(2), nd, ns, true, pure).0)
                };
                (format!("{} {op} {b}", wrap(a)), ha)
            }
        }
    }
    fn map_or_set(&mut self, set: bool, pure: bool) -> String {
        let nd = self.below(4) as u32;
        let ns = self.below(3) as u32;
        let nd = if nd + ns == 0 { 1 } else { nd };
        let dims: Vec<String> = (0..nd).map(|i| format!("d{i}")).collect();
        let syms: Vec<String> = (0..ns).map(|i| format!("s{i}")).collect();
        let head = if ns > 0 {
            format!("({})[{}]", dims.join(", "), syms.join(", "))
        } else {
            format!("({})", dims.join(", "))
        };
        let n = if set { 1 + self.below(3) } else { self.below(4) };
        let mut items = Vec::new();
        for _ in 0..n {
            let depth = 1 + self.below(5) as u32;
            let (e, _) = self.expr(depth, nd, ns, false, pure);
            if set {
                let depth = self.below(3) as u32;
                let (f, _) = self.expr(depth, nd, ns, false, pure);
                let rel = self.pick(&[">=", "<=", "=="]);
                items.push(format!("{e} {rel} {f}"));
            } else {
                items.push(e);
            }
        }
        format!("{head} {} ({})", if set { ":" } else { "->" }, items.join(", "))
    }
}

fn op_line(text: &str) -> String {
    let kind = if text.contains(" : (") {
        "affine_set"
    } else {
        "affine_map"
    };
    format!("\"test.op\"() {{m = {kind}<{text}>}} : () -> ()\n")
}

#[test]
fn random_maps_and_sets_print_like_mlir_opt() {
    let Some(tool) = mlir_opt() else { return };
    let mut g = Gen(0x2545_f491_4f6c_dd1d);
    let inputs: Vec<String> = (0..1500).map(|i| g.map_or_set(i % 3 == 0, i % 5 == 0)).collect();
    let file: String = inputs.iter().map(|t| op_line(t)).collect();
    let expected = run_mlir_opt(&tool, &[], &file);
    assert_eq!(expected.len(), inputs.len());
    for (input, want) in inputs.iter().zip(&expected) {
        let got = match parse_affine_map_or_set(input).unwrap_or_else(|e| panic!("{input}: {e}")) {
            AffineMapOrSet::Map(m) => m.to_string(),
            AffineMapOrSet::Set(s) => s.to_string(),
        };
        assert_eq!(&got, want, "input: {input}");
    }
}

#[test]
fn random_pure_affine_maps_simplify_like_mlir_opt() {
    let Some(tool) = mlir_opt() else { return };
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let inputs: Vec<String> = (0..1500).map(|_| g.map_or_set(false, true)).collect();
    let mut file = String::from("func.func @f() {\n");
    for t in &inputs {
        file.push_str(&op_line(t));
    }
    file.push_str("return\n}\n");
    let expected = run_mlir_opt(&tool, &["-affine-simplify-structures"], &file);
    assert_eq!(expected.len(), inputs.len());
    for (input, want) in inputs.iter().zip(&expected) {
        let got = parse_affine_map(input).unwrap().simplify().to_string();
        assert_eq!(&got, want, "input: {input}");
    }
}
