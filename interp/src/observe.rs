//! Running a module that lives in the caller's [`Context`] and recording what
//! it computes, for lf-opt's `--verify-semantics`: what an entry function
//! prints, its memref arguments after the call (when it is called on random
//! inputs, as `lf-run --random-inputs` does) and its results. The module is
//! decoded straight from the IR in memory (no printing and parsing again),
//! and faults come back as diagnostics at the positions of the IR's
//! locations. [`first_difference`] compares two runs of one entry.
//!
//! GPU kernels run in the simulator, with race, bounds and barrier checks,
//! as in `lf-run`.

use crate::exec::{ExecOptions, Fault, Machine};
use crate::kernel;
use crate::print::elem_name;
use crate::program::{Program, Scalar};
use lf_diag::{Diagnostic, SourcePos};
use lf_dialects::builtin::BuiltinModuleOp;
use lf_dialects::func::FuncFuncOp;
use lf_ir::view::OpView;
use lf_ir::{Body, Context, Location, OpId, Type, TypeData};
use std::fmt;

/// A function of the module that the host can call (a `func.func`), as its
/// declaration describes it.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    /// Symbol name (`outer::inner` in a nested named module).
    pub name: String,
    /// Not `private` (nor `nested`).
    pub public: bool,
    /// Has a body (not a declaration).
    pub has_body: bool,
    /// Number of arguments.
    pub num_args: usize,
    /// Whether every argument can be given a random value, as by
    /// `lf-run --random-inputs`; the error says which argument cannot.
    pub random_inputs: Result<(), String>,
    /// Scalar kind of each result, and whether it is a memref.
    pub results: Vec<(Scalar, bool)>,
    /// The function's location.
    pub loc: Location,
}

/// How to call an entry function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The function's name.
    pub name: String,
    /// `None`: call it with no arguments; `Some(seed)`: fill its arguments
    /// from the seed, as `lf-run --random-inputs=SEED` does.
    pub seed: Option<u64>,
}

/// A value a run left behind: a memref's elements (row-major) or a scalar.
#[derive(Clone, Debug, PartialEq)]
pub enum Produced {
    /// A scalar, as its bits (see [`crate::program`]).
    Scalar {
        /// Its kind.
        kind: Scalar,
        /// Its bits.
        bits: u64,
    },
    /// A memref.
    Memref {
        /// Element kind.
        kind: Scalar,
        /// Sizes.
        sizes: Vec<i64>,
        /// Elements, row-major, as bits.
        data: Vec<u64>,
    },
}

impl Produced {
    /// `memref<4x8xf32>` or `f32`.
    pub fn type_str(&self) -> String {
        match self {
            Produced::Scalar { kind, .. } => elem_name(*kind),
            Produced::Memref { kind, sizes, .. } => {
                let dims: String = sizes.iter().map(|s| format!("{s}x")).collect();
                format!("memref<{dims}{}>", elem_name(*kind))
            }
        }
    }
}

/// What one call of an entry function did.
#[derive(Clone, Debug)]
pub struct EntryRun {
    /// The call.
    pub entry: Entry,
    /// What it printed.
    pub stdout: Vec<u8>,
    /// Its arguments after the call (`None` for scalar arguments, which a
    /// call cannot change).
    pub args: Vec<Option<Produced>>,
    /// Its results.
    pub results: Vec<Produced>,
    /// Instructions executed.
    pub steps: u64,
}

/// Why a run has nothing to compare.
#[derive(Clone, Debug)]
pub enum RunError {
    /// The program faulted: a data race, an out-of-bounds access, a divergent
    /// barrier, undefined behaviour, an op or external function the
    /// interpreter lacks, or the step or memory limit.
    Fault {
        /// The fault as a diagnostic at the op, with its notes.
        diag: Diagnostic,
        /// The fault is the step limit (`ExecOptions::max_steps`).
        step_limit: bool,
    },
    /// The entry cannot be called as asked: no such function, a
    /// declaration, or arguments that cannot be given.
    Setup(String),
}

/// A module decoded for the interpreter, with the context its locations
/// belong to.
pub struct Module<'c> {
    ctx: &'c Context,
    prog: Program,
    funcs: Vec<FuncInfo>,
}

impl<'c> Module<'c> {
    /// Decodes the module `op` of `body` (verified IR).
    pub fn decode(ctx: &'c Context, body: &Body, op: OpId) -> Module<'c> {
        let prog = crate::decode::decode_module(ctx, body, op);
        let mut funcs = Vec::new();
        collect_funcs(ctx, body, op, "", &mut funcs);
        Module { ctx, prog, funcs }
    }

    /// The host functions (`func.func`) of the module, in program order.
    pub fn functions(&self) -> &[FuncInfo] {
        &self.funcs
    }

    /// The host function named `name`.
    pub fn function(&self, name: &str) -> Option<&FuncInfo> {
        self.funcs.iter().find(|f| f.name == name)
    }

    /// The source position of a location of this module's context.
    pub fn position(&self, loc: Location) -> Option<SourcePos> {
        loc.source_pos(self.ctx)
    }

    /// Calls `entry` in a fresh machine and records what it did.
    pub fn run(&self, entry: &Entry, exec: &ExecOptions) -> Result<EntryRun, RunError> {
        let name = &entry.name;
        let info = self
            .function(name)
            .ok_or_else(|| RunError::Setup(format!("the module has no function @{name}")))?;
        let idx = self
            .prog
            .find(name)
            .ok_or_else(|| RunError::Setup(format!("the module has no function @{name}")))?;
        let func = &self.prog.funcs[idx as usize];
        if !info.has_body || func.external.is_some() {
            return Err(RunError::Setup(format!("@{name} is a declaration without a body")));
        }
        let mut m = Machine::new(&self.prog, exec.clone());
        let args = match entry.seed {
            Some(seed) => {
                info.random_inputs
                    .clone()
                    .map_err(|e| RunError::Setup(format!("@{name} cannot be run on random inputs: {e}")))?;
                kernel::make_inputs(&mut m, idx, seed, &[]).map_err(|f| RunError::Setup(f.msg))?
            }
            None if info.num_args > 0 => {
                return Err(RunError::Setup(format!(
                    "@{name} takes {} argument(s); it can only be run on random inputs",
                    info.num_args
                )))
            }
            None => Vec::new(),
        };
        let result = m.call(idx, &args);
        let steps = exec.max_steps - m.fuel;
        let values = match result {
            Ok(v) => v,
            Err(f) => {
                return Err(RunError::Fault {
                    diag: diagnostic(self.ctx, &self.prog, &f),
                    step_limit: m.fuel == 0,
                })
            }
        };
        let arg_values = args
            .iter()
            .enumerate()
            .map(|(k, &v)| {
                func.param_types[k].as_ref().map(|_| Produced::Memref {
                    kind: func.param_kinds[k],
                    sizes: m.mem.descs[v as usize].sizes.to_vec(),
                    data: kernel::elements(&m, v),
                })
            })
            .collect();
        let results = values
            .iter()
            .zip(&info.results)
            .map(|(&v, &(kind, memref))| match memref {
                true if (v as usize) < m.mem.descs.len() => Produced::Memref {
                    kind,
                    sizes: m.mem.descs[v as usize].sizes.to_vec(),
                    data: kernel::elements(&m, v),
                },
                _ => Produced::Scalar { kind, bits: v },
            })
            .collect();
        Ok(EntryRun {
            entry: entry.clone(),
            stdout: std::mem::take(&mut m.out),
            args: arg_values,
            results,
            steps,
        })
    }
}

/// The diagnostic of a fault of `prog`, decoded in `ctx`: at the faulting
/// op, with the fault's notes.
pub fn diagnostic(ctx: &Context, prog: &Program, f: &Fault) -> Diagnostic {
    let pos = |at: Option<(u32, u32)>| {
        at.and_then(|(func, pc)| {
            let func = prog.funcs.get(func as usize)?;
            func.locs
                .get(pc as usize)
                .copied()
                .or(Some(func.loc))
                .and_then(|l| l.source_pos(ctx))
        })
    };
    let mut d = Diagnostic::error(pos(f.at), f.msg.clone());
    for (at, m) in &f.notes {
        d = d.with_note(pos(*at), m.clone());
    }
    d
}

/// The `func.func`s of a module, recursing into nested `builtin.module`s
/// (as the decoder names them).
fn collect_funcs(ctx: &Context, body: &Body, op: OpId, prefix: &str, out: &mut Vec<FuncInfo>) {
    let rb = body.regions_body(op);
    for &r in body.regions(op) {
        for b in rb.region_blocks(r) {
            for inner in rb.block_ops(b) {
                let Some(sym) = lf_ir::symbols::symbol_name(ctx, rb, inner) else {
                    continue;
                };
                let sym = format!("{prefix}{}", ctx.ident_str(sym));
                let ir = (ctx, rb);
                if let Some(f) = FuncFuncOp::cast(&ir, inner) {
                    out.push(func_info(ctx, rb, f, sym));
                } else if BuiltinModuleOp::isa(&ir, inner) {
                    collect_funcs(ctx, rb, inner, &format!("{sym}::"), out);
                }
            }
        }
    }
}

fn func_info(ctx: &Context, body: &Body, func: FuncFuncOp, name: String) -> FuncInfo {
    let ir = (ctx, body);
    let visibility = func.sym_visibility(&ir);
    let has_body = !func.is_external(&ir);
    let (inputs, results) = (func.input_types(&ir), func.result_types(&ir));
    let random_inputs = inputs
        .iter()
        .enumerate()
        .try_for_each(|(k, &t)| random_input_ok(ctx, t).map_err(|e| format!("argument {k}: {e}")));
    let results = results
        .iter()
        .map(|&t| {
            let memref = matches!(ctx.type_data(t), TypeData::MemRef { .. });
            (crate::decode::scalar(ctx, t).unwrap_or(Scalar::Int(64)), memref)
        })
        .collect();
    FuncInfo {
        name,
        public: !matches!(visibility, Some("private") | Some("nested")),
        has_body,
        num_args: inputs.len(),
        random_inputs,
        results,
        loc: body.op_loc(func.op()),
    }
}

/// Whether kernel mode can make a value of type `t`: a scalar, or a memref
/// of static shape with the identity layout in global memory.
fn random_input_ok(ctx: &Context, t: Type) -> Result<(), String> {
    match ctx.type_data(t) {
        TypeData::MemRef { .. } => {
            let m = crate::decode::mem_type(ctx, t)?;
            if m.shape.iter().any(Option::is_none) || m.strided.is_some() {
                return Err("a memref with a dynamic shape or a layout".into());
            }
            if m.space != crate::program::Space::Global {
                return Err("a memref outside global memory".into());
            }
            Ok(())
        }
        TypeData::UnrankedMemRef { .. } => Err("an unranked memref".into()),
        _ => crate::decode::scalar(ctx, t).map(|_| ()),
    }
}

/// Where two runs first differ, and the two values there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// What differs: `memref argument 2 (memref<16xf32>), element [3]`.
    pub what: String,
    /// The value in the first run.
    pub before: String,
    /// The value in the second run.
    pub after: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} before, {} after", self.what, self.before, self.after)
    }
}

/// Float tolerance of a comparison: `|a - b| <= atol + rtol * |b|`, exact
/// when both are 0 (NaN equals NaN).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
}

impl Tolerance {
    fn exact(self) -> bool {
        self.rtol == 0.0 && self.atol == 0.0
    }

    fn close(self, a: f64, b: f64) -> bool {
        if a.is_nan() || b.is_nan() {
            return a.is_nan() && b.is_nan();
        }
        a == b || (a - b).abs() <= self.atol + self.rtol * b.abs()
    }
}

/// The first difference between two runs of the same entry: the memref
/// arguments after the call (in order, element by element), then the
/// results, then what was printed. `None` when they agree (within `tol`
/// for floats).
pub fn first_difference(before: &EntryRun, after: &EntryRun, tol: Tolerance) -> Option<Difference> {
    if before.args.len() != after.args.len() {
        return Some(Difference {
            what: "the number of arguments".into(),
            before: before.args.len().to_string(),
            after: after.args.len().to_string(),
        });
    }
    for (k, (a, b)) in before.args.iter().zip(&after.args).enumerate() {
        if let (Some(a), Some(b)) = (a, b) {
            if let Some(d) = value_difference(a, b, tol) {
                return Some(Difference {
                    what: format!("memref argument {k} ({}) after the call{}", a.type_str(), d.what),
                    ..d
                });
            }
        }
    }
    if before.results.len() != after.results.len() {
        return Some(Difference {
            what: "the number of results".into(),
            before: before.results.len().to_string(),
            after: after.results.len().to_string(),
        });
    }
    for (k, (a, b)) in before.results.iter().zip(&after.results).enumerate() {
        if let Some(d) = value_difference(a, b, tol) {
            return Some(Difference {
                what: format!("result {k} ({}){}", a.type_str(), d.what),
                ..d
            });
        }
    }
    first_output_difference(&before.stdout, &after.stdout, tol)
}

/// The first difference between two values of the same kind; `what` is the
/// suffix naming the element (`, element [3]`), empty for a scalar.
fn value_difference(a: &Produced, b: &Produced, tol: Tolerance) -> Option<Difference> {
    match (a, b) {
        (Produced::Scalar { kind, bits: x }, Produced::Scalar { bits: y, .. }) => {
            kernel::first_difference(&[*x], &[*y], *kind, tol.rtol, tol.atol).map(|_| Difference {
                what: String::new(),
                before: kernel::show(*x, *kind),
                after: kernel::show(*y, *kind),
            })
        }
        (
            Produced::Memref { kind, sizes, data: x },
            Produced::Memref {
                sizes: sizes_b,
                data: y,
                ..
            },
        ) if sizes == sizes_b => kernel::first_difference(x, y, *kind, tol.rtol, tol.atol).map(|i| {
            let idx: Vec<String> = kernel::unflatten(i, sizes).iter().map(|v| v.to_string()).collect();
            Difference {
                what: format!(", element [{}]", idx.join(", ")),
                before: kernel::show(x[i], *kind),
                after: kernel::show(y[i], *kind),
            }
        }),
        _ if a == b => None,
        _ => Some(Difference {
            what: " type".into(),
            before: a.type_str(),
            after: b.type_str(),
        }),
    }
}

/// One item of printed output: a word, a number, a bracket or comma, or
/// the end of a line.
struct Item<'a> {
    /// Output line, from 1.
    line: usize,
    text: &'a str,
    number: Option<f64>,
    /// Inside a `printMemref` print: which print (from 1) and which element (row-major).
    element: Option<(usize, usize)>,
}

/// Splits printed output into items, numbering the elements of each
/// `printMemref` print; also returns the sizes of each such print.
fn items(out: &str) -> (Vec<Item<'_>>, Vec<Vec<i64>>) {
    let mut items = Vec::new();
    let mut prints: Vec<Vec<i64>> = Vec::new();
    // The print being read: its number, the next element, its element count.
    let mut cur: Option<(usize, usize, usize)> = None;
    for (n, full) in out.split_inclusive('\n').enumerate() {
        let line = n + 1;
        let text = full.strip_suffix('\n').unwrap_or(full);
        if text.starts_with("Unranked Memref ") || text.starts_with("Memref ") {
            let sizes = header_sizes(text);
            let count = sizes.iter().map(|&s| s.max(1) as usize).product::<usize>().max(1);
            prints.push(sizes);
            cur = Some((prints.len(), 0, count));
            items.push(Item {
                line,
                text,
                number: None,
                element: None,
            });
        } else {
            let mut start = None;
            for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
                let sep = c.is_whitespace() || matches!(c, '[' | ']' | '(' | ')' | ',');
                if !sep {
                    start.get_or_insert(i);
                    continue;
                }
                if let Some(s) = start.take() {
                    let word = &text[s..i];
                    let number = word.parse::<f64>().ok();
                    let element = match (number, cur.as_mut()) {
                        (Some(_), Some((print, next, count))) => {
                            let e = (*print, *next);
                            *next += 1;
                            if *next == *count {
                                cur = None;
                            }
                            Some(e)
                        }
                        _ => None,
                    };
                    items.push(Item {
                        line,
                        text: word,
                        number,
                        element,
                    });
                }
                if !c.is_whitespace() {
                    items.push(Item {
                        line,
                        text: &text[i..i + c.len_utf8()],
                        number: None,
                        element: None,
                    });
                }
            }
        }
        if full.ends_with('\n') {
            items.push(Item {
                line,
                text: "\n",
                number: None,
                element: None,
            });
        }
    }
    (items, prints)
}

/// The `sizes = [a, b]` of a `printMemref` header line.
fn header_sizes(header: &str) -> Vec<i64> {
    let Some(rest) = header.split("sizes = [").nth(1) else {
        return Vec::new();
    };
    let list = rest.split(']').next().unwrap_or("");
    list.split(',').filter_map(|s| s.trim().parse().ok()).collect()
}

/// Line `n` (from 1) of `out`, for a report.
fn line_of(out: &str, n: usize) -> String {
    match out.split('\n').nth(n - 1) {
        Some(l) => format!("'{l}'"),
        None => "the end of the output".into(),
    }
}

/// The first difference between two printed outputs. Numbers are compared
/// within `tol` (as printed: `printMemref` prints 6 significant digits);
/// everything else, and with an exact tolerance every byte, must be equal.
pub fn first_output_difference(before: &[u8], after: &[u8], tol: Tolerance) -> Option<Difference> {
    if before == after {
        return None;
    }
    let (a_text, b_text) = (String::from_utf8_lossy(before), String::from_utf8_lossy(after));
    let (a, prints) = items(&a_text);
    let (b, _) = items(&b_text);
    for (k, x) in a.iter().enumerate() {
        let Some(y) = b.get(k) else {
            return Some(Difference {
                what: format!("output line {}", x.line),
                before: line_of(&a_text, x.line),
                after: "the end of the output".into(),
            });
        };
        let same = match (x.number, y.number) {
            (Some(p), Some(q)) => x.text == y.text || (!tol.exact() && tol.close(p, q)),
            _ => x.text == y.text,
        };
        if same {
            continue;
        }
        if let (Some((print, e)), Some(_), Some(_)) = (x.element, x.number, y.number) {
            let sizes = &prints[print - 1];
            let idx: Vec<String> = kernel::unflatten(e, sizes).iter().map(|v| v.to_string()).collect();
            let dims: Vec<String> = sizes.iter().map(|v| v.to_string()).collect();
            return Some(Difference {
                what: format!(
                    "memref printed #{print} (sizes [{}]), element [{}] (output line {})",
                    dims.join(", "),
                    idx.join(", "),
                    x.line
                ),
                before: x.text.to_string(),
                after: y.text.to_string(),
            });
        }
        if x.number.is_some() && y.number.is_some() {
            return Some(Difference {
                what: format!("output line {}, value {}", x.line, value_number(&a, k)),
                before: x.text.to_string(),
                after: y.text.to_string(),
            });
        }
        return Some(Difference {
            what: format!("output line {}", x.line),
            before: line_of(&a_text, x.line),
            after: line_of(&b_text, y.line),
        });
    }
    if let Some(y) = b.get(a.len()) {
        return Some(Difference {
            what: format!("output line {}", y.line),
            before: "the end of the output".into(),
            after: line_of(&b_text, y.line),
        });
    }
    if !tol.exact() {
        return None;
    }
    // Only spacing differs.
    let n = a_text
        .split('\n')
        .zip(b_text.split('\n'))
        .position(|(x, y)| x != y)
        .map_or(1, |i| i + 1);
    Some(Difference {
        what: format!("output line {n}"),
        before: line_of(&a_text, n),
        after: line_of(&b_text, n),
    })
}

/// Which number of its line item `k` is, from 1.
fn value_number(items: &[Item<'_>], k: usize) -> usize {
    let line = items[k].line;
    items[..=k]
        .iter()
        .filter(|i| i.line == line && i.number.is_some())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXACT: Tolerance = Tolerance { rtol: 0.0, atol: 0.0 };

    #[test]
    fn printed_memref_elements_are_located() {
        let a = "Unranked Memref base@ = 0x0 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = \n\
                 [[1,   2,   3], \n [4,   5,   6]]\n";
        let b = a.replace("5", "7");
        let d = first_output_difference(a.as_bytes(), b.as_bytes(), EXACT).unwrap();
        assert_eq!(
            d.what,
            "memref printed #1 (sizes [2, 3]), element [1, 1] (output line 3)"
        );
        assert_eq!((d.before.as_str(), d.after.as_str()), ("5", "7"));
    }

    #[test]
    fn second_print_and_plain_values() {
        let h = "Unranked Memref base@ = 0x0 rank = 1 offset = 0 sizes = [2] strides = [1] data = \n";
        let a = format!("{h}[1,  2]\n{h}[3,  4]\n( 1.5, 2 )\n");
        let b = format!("{h}[1,  2]\n{h}[3,  4.5]\n( 1.5, 2 )\n");
        let d = first_output_difference(a.as_bytes(), b.as_bytes(), EXACT).unwrap();
        assert_eq!(d.what, "memref printed #2 (sizes [2]), element [1] (output line 4)");
        let c = format!("{h}[1,  2]\n{h}[3,  4]\n( 1.5, 3 )\n");
        let d = first_output_difference(a.as_bytes(), c.as_bytes(), EXACT).unwrap();
        assert_eq!(d.what, "output line 5, value 2");
        assert_eq!((d.before.as_str(), d.after.as_str()), ("2", "3"));
    }

    #[test]
    fn tolerance_and_lengths() {
        let tol = Tolerance { rtol: 1e-3, atol: 0.0 };
        assert_eq!(first_output_difference(b"1.0001\n", b"1.00011\n", tol), None);
        assert!(first_output_difference(b"1.0001\n", b"1.00011\n", EXACT).is_some());
        assert!(first_output_difference(b"1\n", b"2\n", tol).is_some());
        let d = first_output_difference(b"1\n2\n", b"1\n", EXACT).unwrap();
        assert_eq!(d.what, "output line 2");
        assert_eq!(d.after, "the end of the output");
        let d = first_output_difference(b"a  b\n", b"a b\n", EXACT).unwrap();
        assert_eq!(d.what, "output line 1");
        assert_eq!(first_output_difference(b"a  b\n", b"a b\n", tol), None);
        let d = first_output_difference(b"nan\n", b"-nan\n", EXACT).unwrap();
        assert_eq!(d.what, "output line 1, value 1");
    }

    #[test]
    fn values() {
        let m = |data: Vec<u64>| Produced::Memref {
            kind: Scalar::Int(32),
            sizes: vec![2, 2],
            data,
        };
        let run = |v: Produced| EntryRun {
            entry: Entry {
                name: "f".into(),
                seed: Some(1),
            },
            stdout: Vec::new(),
            args: vec![None, Some(v)],
            results: vec![Produced::Scalar {
                kind: Scalar::F32,
                bits: 1.5f32.to_bits() as u64,
            }],
            steps: 0,
        };
        let d = first_difference(&run(m(vec![1, 2, 3, 4])), &run(m(vec![1, 2, 5, 4])), EXACT).unwrap();
        assert_eq!(
            d.what,
            "memref argument 1 (memref<2x2xi32>) after the call, element [1, 0]"
        );
        assert_eq!((d.before.as_str(), d.after.as_str()), ("3", "5"));
        let mut r2 = run(m(vec![1, 2, 3, 4]));
        r2.results[0] = Produced::Scalar {
            kind: Scalar::F32,
            bits: 2.5f32.to_bits() as u64,
        };
        let d = first_difference(&run(m(vec![1, 2, 3, 4])), &r2, EXACT).unwrap();
        assert_eq!(d.what, "result 0 (f32)");
        assert!(first_difference(&r2, &r2, EXACT).is_none());
    }
}
