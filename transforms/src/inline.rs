//! `inline`: inlines `func.call`s of small single-block functions, then
//! simplifies the functions with `canonicalize` and erases private
//! functions that are no longer referenced, as MLIR's inliner.

use lf_dialects::func::{FuncCallOp, FuncFuncOp, FuncReturnOp};
use lf_ir::attrs::{AttrData, LocationData};
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
ops get the location `callsite(callee at caller)`). Calls that appear in inlined code are \
inlined too, up to `max-iterations` rounds; a function is never inlined into itself. Then, as \
MLIR's inliner, every function is simplified with the `default-pipeline` (`canonicalize`, or \
nothing if empty) and private functions that are no longer referenced are erased.\n\n\
`--dump-pass-pipeline` leaves `max-callee-ops`, lf's own option, out while it is at its \
default, so that the printed pipeline pastes into `mlir-opt`.\n\n\
Differences from `mlir-opt --inline`: callees with several blocks (which would need `cf` \
branches) and indirect calls are not inlined.",
    anchor: Anchor::Op("builtin.module"),
    options: &[
        PassOption {
            name: "max-callee-ops",
            kind: OptionKind::Int,
            default: "64",
            help: "Inline only callees with at most this many ops (nested ops included; lf's own option, not MLIR's)",
        },
        PassOption {
            name: "max-iterations",
            kind: OptionKind::Int,
            default: "4",
            help: "Maximum number of rounds of inlining (for calls inside inlined code)",
        },
        PassOption {
            name: "default-pipeline",
            kind: OptionKind::Enum(&["canonicalize", "", "none"]),
            default: "canonicalize",
            help: "The simplification run on each function after inlining (empty or none: nothing)",
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
        let call_loc = body.op_loc(call);
        let mut map = ValueMap::default();
        for (a, v) in args.iter().zip(body.operands(call).collect::<Vec<_>>()) {
            map.map(*a, v);
        }
        let ops: Vec<OpId> = c.body.block_ops(c.block).collect();
        let (term, rest) = ops.split_last().expect("a terminator");
        for &o in rest {
            let new = clone_op_into(&c.body, o, body, &mut map);
            body.insert_op_before(call, new);
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
        let returned: Vec<Value> = c.body.operands(*term).map(|v| map.lookup(v)).collect();
        let results: Vec<Value> = body.results(call).collect();
        if returned.len() != results.len() {
            continue;
        }
        for (r, v) in results.into_iter().zip(returned) {
            body.replace_all_uses(r, v);
        }
        body.erase_op(call);
        n += 1;
    }
    n
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

    fn class_name(&self) -> std::borrow::Cow<'static, str> {
        // MLIR's name of the pass, in IR dump headers.
        "Inliner".into()
    }

    fn lf_options(&self) -> &'static [&'static str] {
        &["max-callee-ops"]
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut total = 0;
        for _ in 0..self.max_iterations {
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
            if round == 0 {
                break;
            }
        }
        op.add_statistic("num-inlined", "Calls inlined", total as u64);
        if self.canonicalize {
            let patterns = lf_pass::rewrite::canonicalization_patterns(ctx).freeze(ctx);
            let config = GreedyConfig {
                recurse_into_nested: false,
                ..GreedyConfig::default()
            };
            let module = op.body_mut();
            let nested = lf_pass::rewrite::nested_bodies(module, &regions);
            use rayon::prelude::*;
            nested.into_par_iter().for_each(|(_, r, b)| {
                let _ = for_each_body_par(b, &r, &|b, r| {
                    apply_patterns_greedily(ctx, b, r, &patterns, &config);
                    Ok::<(), Diagnostic>(())
                });
            });
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
