//! `inline`: inlines `func.call`s of small single-block functions, then
//! simplifies the functions with `canonicalize` and erases private
//! functions that are no longer referenced, as MLIR's inliner.

use lf_dialects::affine::utils::inlining;
use lf_dialects::affine::utils::validity::affine_scope_region;
use lf_dialects::builtin::BuiltinUnrealizedConversionCastOp;
use lf_dialects::func::{FuncCallOp, FuncFuncOp, FuncReturnOp};
use lf_ir::attrs::{AttrData, LocationData};
use lf_ir::builder::Builder;
use lf_ir::clone::{clone_op_into, ValueMap};
use lf_ir::diag::Diagnostic;
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Attribute, Body, Context, Location, OpId, RegionId, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::rewrite::{apply_patterns_greedily, for_each_body_par, GreedyConfig};
use lf_pass::AnalysisManager;
use rustc_hash::{FxHashMap, FxHashSet};

/// The registration record of `inline`.
pub static INFO: PassInfo = PassInfo {
    name: "inline",
    summary: "Inline function calls",
    description: "Replaces each `func.call` of a function of the same module whose body is a \
single block ending in `func.return` and has at most `max-callee-ops` ops by a copy of that \
body (arguments replaced by the call's operands, results by the returned values; the copied \
ops get the location `callsite(callee at caller)`). As MLIR's inliner, every function is \
first simplified with the `default-pipeline` (`canonicalize`, or nothing if `none`), so a \
callee is inlined as it simplifies; calls that appear in inlined code are inlined too, \
simplifying again between rounds, up to `max-iterations` rounds; a function is never inlined \
into itself. Private functions that are no longer referenced are then erased.\n\n\
A call is inlined only where MLIR's inliner interfaces allow it: into a function, the \
`scf` and `memref` ops' regions, and an `affine.for`, `affine.parallel` or `affine.if` \
when the callee's ops are effect-free or `affine.load`/`affine.store` whose operands stay \
valid dimensions and symbols at the call (so a callee with a call, a loop or a \
`memref.store` is not inlined into an affine loop); never into a `gpu.launch`; a callee \
with affine ops only into a function or an affine construct (not into `scf.for` or \
`scf.if`); a callee with an op of a dialect that has no inliner interface in MLIR (an \
unregistered op) nowhere. A loop variable passed where the callee has a symbol becomes a \
dimension of the inlined load or store (MLIR leaves that to `canonicalize`).\n\n\
Differences from `mlir-opt --inline`: callees with several blocks (which would need `cf` \
branches) and indirect calls are not inlined; the rounds inline in every function at once \
rather than callees first. mlir-opt checks a replaced operand of an affine access against \
the affine loop's region, where every value defined in it counts as a symbol, and so \
inlines `affine.load %M[%k + 1]` with `%k` loaded in the loop, which its verifier then \
rejects; lf checks it where the call is, as the affine verifier does, and refuses.",
    anchor: Anchor::Op("builtin.module"),
    options: &[
        PassOption {
            name: "max-callee-ops",
            kind: OptionKind::Int,
            default: "64",
            help: "Inline only callees with at most this many ops (nested ops included)",
        },
        PassOption {
            name: "max-iterations",
            kind: OptionKind::Int,
            default: "4",
            help: "Maximum number of rounds of inlining (for calls inside inlined code)",
        },
        PassOption {
            name: "default-pipeline",
            kind: OptionKind::Enum(&["canonicalize", "none"]),
            default: "canonicalize",
            help: "The simplification run on each function after inlining",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let max_ops = opts.int("max-callee-ops");
    let max_iter = opts.int("max-iterations");
    if max_ops < 0 || max_iter < 1 {
        return Err("max-callee-ops must be >= 0 and max-iterations >= 1".into());
    }
    Ok(Box::new(Inline {
        max_callee_ops: max_ops as usize,
        max_iterations: max_iter as usize,
        canonicalize: opts.str("default-pipeline") == "canonicalize",
    }))
}

/// The `inline` pass.
pub struct Inline {
    max_callee_ops: usize,
    max_iterations: usize,
    canonicalize: bool,
}

/// A function that may be inlined: a copy of its body, its entry block.
struct Callee {
    body: Body,
    block: lf_ir::BlockId,
}

/// The symbol name of `op`, if it defines a symbol.
fn sym_name<'c>(ctx: &'c Context, body: &Body, op: OpId) -> Option<&'c str> {
    lf_ir::symbols::symbol_name(ctx, body, op).map(|s| ctx.ident_str(s))
}

fn callee_name<'c>(ctx: &'c Context, body: &Body, call: OpId) -> Option<&'c str> {
    Some(FuncCallOp::cast(&(ctx, body), call)?.callee(&(ctx, body)))
}

/// The module's functions that can be inlined, by name.
fn inlinable(ctx: &Context, module: &Body, regions: &[RegionId], max_ops: usize) -> FxHashMap<String, Callee> {
    let mut out = FxHashMap::default();
    for &r in regions {
        for b in module.region_blocks(r) {
            for f in module.block_ops(b) {
                if !FuncFuncOp::isa(&(ctx, module), f) {
                    continue;
                }
                let (Some(name), Some(fb)) = (sym_name(ctx, module, f), module.nested_body(f)) else {
                    continue;
                };
                let Some(&fr) = module.regions(f).first() else {
                    continue;
                };
                let blocks: Vec<_> = fb.region_blocks(fr).collect();
                if blocks.len() != 1 {
                    continue;
                }
                let block = blocks[0];
                let Some(term) = fb.last_op(block) else {
                    continue;
                };
                if !FuncReturnOp::isa(&(ctx, fb), term) {
                    continue;
                }
                let size: usize = fb.block_ops(block).map(|o| lf_ir::walk::count_ops(fb, o)).sum();
                if size > max_ops {
                    continue;
                }
                out.insert(
                    name.to_string(),
                    Callee {
                        body: fb.clone(),
                        block,
                    },
                );
            }
        }
    }
    out
}

fn callsite(ctx: &Context, callee: Location, caller: Location) -> Location {
    Location::Attr(ctx.get_attr(AttrData::Location(LocationData::CallSite {
        callee: callee.to_attr(ctx),
        caller: caller.to_attr(ctx),
    })))
}

/// Inlines the calls in one function body; returns how many.
fn inline_calls(
    ctx: &Context,
    body: &mut Body,
    roots: &[RegionId],
    self_name: &str,
    callees: &FxHashMap<String, Callee>,
) -> usize {
    let mut calls = Vec::new();
    collect_calls(ctx, body, roots, &mut calls);
    let mut n = 0;
    for call in calls {
        let Some(name) = callee_name(ctx, body, call) else {
            continue;
        };
        if name == self_name {
            continue;
        }
        let Some(c) = callees.get(name) else {
            continue;
        };
        let args = c.body.block_args(c.block);
        if args.len() != body.num_operands(call) {
            continue;
        }
        let operands: Vec<Value> = body.operands(call).collect();
        if !legal_to_inline(ctx, body, call, c, &operands) {
            continue;
        }
        let ops: Vec<OpId> = c.body.block_ops(c.block).collect();
        let Some((term, rest)) = ops.split_last() else {
            continue;
        };
        if c.body.num_operands(*term) != body.num_results(call) {
            continue;
        }
        let call_loc = body.op_loc(call);
        let mut map = ValueMap::default();
        for (a, v) in args.iter().zip(operands) {
            map.map(*a, v);
        }
        let mut inlined = Vec::with_capacity(rest.len());
        for &o in rest {
            let new = clone_op_into(&c.body, o, body, &mut map);
            body.insert_op_before(call, new);
            inlined.push(new);
            let mut locs = Vec::new();
            walk(body, new, WalkOrder::PreOrder, &mut |b, x| {
                if std::ptr::eq(b, &*body) {
                    locs.push(x);
                    WalkControl::Advance
                } else {
                    WalkControl::Skip
                }
            });
            for x in locs {
                let l = callsite(ctx, body.op_loc(x), call_loc);
                body.set_op_loc(x, l);
            }
        }
        // A loop variable the call passes where the callee has a symbol
        // (an argument is a symbol in the callee) becomes a dimension.
        let scope = affine_scope_region(ctx, body, call);
        let mut b = Builder::new(ctx, body);
        for op in inlined {
            inlining::legalize_demoted_dims(&mut b, op, scope);
        }
        let returned: Vec<Value> = c.body.operands(*term).map(|v| map.lookup(v)).collect();
        let results: Vec<Value> = body.results(call).collect();
        for (r, v) in results.into_iter().zip(returned) {
            body.replace_all_uses(r, v);
        }
        body.erase_op(call);
        n += 1;
    }
    n
}

/// Whether `ops` (an op registry list of a dialect) declares `op`.
fn of_dialect(ctx: &Context, body: &Body, op: OpId, ops: &[&lf_ir::OpDef]) -> bool {
    ctx.op_def(body.op_name(op))
        .is_some_and(|d| ops.iter().any(|x| std::ptr::eq(*x, d)))
}

/// Whether `op` may be inlined anywhere its dialect's inliner interface
/// allows: the ops of the dialects that have one in MLIR (`arith`, `math`,
/// `memref`, `scf`, `func`, `gpu`; `affine` has rules of its own) and
/// `builtin.unrealized_conversion_cast`; not an unregistered op nor a
/// `builtin.module`, which MLIR never inlines.
fn has_inliner_interface(ctx: &Context, body: &Body, op: OpId) -> bool {
    use lf_dialects::{arith, func, gpu, math, memref, scf};
    [arith::OPS, math::OPS, memref::OPS, scf::OPS, func::OPS, gpu::OPS]
        .into_iter()
        .any(|ops| of_dialect(ctx, body, op, ops))
        || BuiltinUnrealizedConversionCastOp::isa(&(ctx, body), op)
}

/// Whether the callee `c` may be inlined at `call` (operands `args`), as
/// MLIR's inliner asks the dialects' inliner interfaces:
///
/// - the op whose region holds the call must accept the callee's body: a
///   function always does, the `scf` and `memref` ops (`scf.for`,
///   `scf.if`, `scf.execute_region`, ...) do, an `affine.for`,
///   `affine.parallel` or `affine.if` does when the affine rules still hold
///   ([`inlining::callee_fits_affine_region`]: effect-free ops, and affine
///   loads and stores whose operands stay valid), and no other op does
///   (`gpu.launch`, unregistered ops);
/// - each op of the callee, nested ones included, must accept that region:
///   the affine dialect's ops go only into an affine scope (a function) or
///   an affine construct ([`inlining::affine_op_may_go_into`]), not into
///   `scf.for` or `scf.if`; the ops of the other dialects with an inliner
///   interface go anywhere ([`has_inliner_interface`]), other ops nowhere.
fn legal_to_inline(ctx: &Context, body: &Body, call: OpId, c: &Callee, args: &[Value]) -> bool {
    let parent = body.parent_op(call);
    if let Some(p) = parent {
        let region_ok = if inlining::is_affine_construct(ctx, body, p) {
            inlining::callee_fits_affine_region(ctx, &c.body, c.block, body, call, args)
        } else {
            of_dialect(ctx, body, p, lf_dialects::scf::OPS) || of_dialect(ctx, body, p, lf_dialects::memref::OPS)
        };
        if !region_ok {
            return false;
        }
    }
    let affine_ok = inlining::affine_op_may_go_into(ctx, body, parent);
    let mut ok = true;
    for op in c.body.block_ops(c.block) {
        walk(&c.body, op, WalkOrder::PreOrder, &mut |b, o| {
            let legal = if inlining::is_affine_op(ctx, b, o) {
                affine_ok
            } else {
                has_inliner_interface(ctx, b, o)
            };
            if legal {
                WalkControl::Advance
            } else {
                ok = false;
                WalkControl::Interrupt
            }
        });
        if !ok {
            break;
        }
    }
    ok
}

fn collect_calls(ctx: &Context, body: &Body, roots: &[RegionId], out: &mut Vec<OpId>) {
    for &r in roots {
        for b in body.region_blocks(r) {
            for op in body.block_ops(b) {
                walk(body, op, WalkOrder::PreOrder, &mut |wb, o| {
                    if !std::ptr::eq(wb, body) {
                        return WalkControl::Skip;
                    }
                    if FuncCallOp::isa(&(ctx, wb), o) {
                        out.push(o);
                    }
                    WalkControl::Advance
                });
            }
        }
    }
}

/// Adds every symbol name referenced by an attribute.
fn symbol_refs(ctx: &Context, a: Attribute, out: &mut FxHashSet<String>) {
    match ctx.attr_data(a) {
        AttrData::SymbolRef { root, .. } => {
            out.insert(ctx.ident_str(*root).to_string());
        }
        AttrData::Array(items) => items.iter().for_each(|x| symbol_refs(ctx, *x, out)),
        AttrData::Dictionary(entries) => entries.iter().for_each(|(_, x)| symbol_refs(ctx, *x, out)),
        _ => {}
    }
}

impl Pass for Inline {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let patterns = self
            .canonicalize
            .then(|| lf_pass::rewrite::canonicalization_patterns(ctx).freeze(ctx));
        // Simplifies every function, as MLIR's inliner runs its default
        // pipeline on each callable before trying to inline the calls in it
        // (so a callee is inlined as canonicalize leaves it: an
        // `affine.apply` folded into the `affine.load` that uses it, which
        // the affine legality rules see).
        let simplify = |op: &mut PassTarget<'_>| {
            let Some(patterns) = &patterns else {
                return;
            };
            let config = GreedyConfig {
                recurse_into_nested: false,
                ..GreedyConfig::default()
            };
            let module = op.body_mut();
            let nested = lf_pass::rewrite::nested_bodies(module, &regions);
            use rayon::prelude::*;
            nested.into_par_iter().for_each(|(_, r, b)| {
                let _ = for_each_body_par(b, &r, &|b, r| {
                    apply_patterns_greedily(ctx, b, r, patterns, &config);
                    Ok::<(), Diagnostic>(())
                });
            });
        };
        let mut total = 0;
        let mut last_round = 0;
        for _ in 0..self.max_iterations {
            simplify(op);
            let callees = inlinable(ctx, op.body(), &regions, self.max_callee_ops);
            let module = op.body_mut();
            let mut names: FxHashMap<OpId, String> = FxHashMap::default();
            for &r in &regions {
                for b in module.region_blocks(r) {
                    for f in module.block_ops(b) {
                        if let Some(n) = sym_name(ctx, module, f) {
                            names.insert(f, n.to_string());
                        }
                    }
                }
            }
            let mut round = 0;
            for (f, roots, fb) in lf_pass::rewrite::nested_bodies(module, &regions) {
                let name = names.get(&f).map_or("", |n| n.as_str());
                round += inline_calls(ctx, fb, &roots, name, &callees);
            }
            total += round;
            last_round = round;
            if round == 0 {
                break;
            }
        }
        op.add_statistic("num-inlined", "Calls inlined", total as u64);
        if last_round > 0 {
            // The last round inlined calls: simplify what it made.
            simplify(op);
        }
        // Erase private functions nothing refers to any more.
        let module = op.body_mut();
        let mut refs = FxHashSet::default();
        let sym_name_key = ctx.intern(FuncFuncOp::sym_name_attr_def().name);
        let mut scan = |b: &Body, o: OpId| {
            for a in [b.op_props(o), b.op_attrs(o)].into_iter().flatten() {
                let skip_name = FuncFuncOp::isa(&(ctx, b), o);
                if skip_name {
                    // `sym_name` is a definition, not a reference.
                    for (k, v) in ctx.attr_data(a).dict_entries() {
                        if *k != sym_name_key {
                            symbol_refs(ctx, *v, &mut refs);
                        }
                    }
                } else {
                    symbol_refs(ctx, a, &mut refs);
                }
            }
        };
        let mut funcs = Vec::new();
        for &r in &regions {
            for b in module.region_blocks(r) {
                for f in module.block_ops(b) {
                    funcs.push(f);
                    walk(module, f, WalkOrder::PreOrder, &mut |b, o| {
                        scan(b, o);
                        WalkControl::Advance
                    });
                }
            }
        }
        for f in funcs {
            let module = op.body_mut();
            let Some(func) = FuncFuncOp::cast(&(ctx, &*module), f) else {
                continue;
            };
            if func.sym_visibility(&(ctx, &*module)) != Some("private") {
                continue;
            }
            let name = func.sym_name(&(ctx, &*module));
            // Declarations (no body) stay, as in MLIR.
            let has_body = module
                .regions(f)
                .first()
                .and_then(|r| module.nested_body(f).map(|b| !b.region_is_empty(*r)))
                .unwrap_or(false);
            if has_body && !refs.contains(name) {
                module.erase_op(f);
            }
        }
        Ok(())
    }
}
