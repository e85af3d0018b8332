//! The greedy pattern driver: applies patterns and folders to a worklist of
//! ops until nothing changes, as MLIR's `applyPatternsGreedily`.
//!
//! Each iteration walks the regions (top-down by default) and puts every op
//! on a worklist; constants are not put there but uniqued and hoisted to the
//! start of the entry block of their body's region (MLIR's `OperationFolder`).
//! Popping an op, the driver erases it if it is trivially dead, else folds
//! it ([`lf_ir::FoldFn`]; constant results are made by the folded op's
//! dialect, [`lf_ir::constants::materialize_constant`]), else
//! tries the patterns rooted at its name, best first. Every change pushes
//! the ops it touched back on the worklist, and, as MLIR's driver does for
//! the operands of an erased op, the definitions of values an op changed in
//! place stopped using, when one use or none is left (a dead definition
//! then goes in the same iteration, not the next). Iterations repeat until one
//! changes nothing (converged) or `max_iterations` is reached; hitting the
//! bound is reported in [`GreedyResult::converged`] and turned into a
//! diagnostic by [`GreedyResult::non_convergence`].

use super::effects::is_trivially_dead;
use super::rewriter::{PatternRewriter, RewriteListener};
use super::FrozenPatternSet;
use lf_ir::constants::materialize_constant;
use lf_ir::diag::Diagnostic;
use lf_ir::{Attribute, BlockId, Body, Context, FoldResult, Location, OpId, RegionId, Traits, Type, Value};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Settings of [`apply_patterns_greedily`].
#[derive(Clone, Debug)]
pub struct GreedyConfig {
    /// Walk regions in program order (`true`, MLIR's canonicalizer default)
    /// or post-order.
    pub top_down: bool,
    /// Most iterations over the whole IR (MLIR's `max-iterations`, 10);
    /// [`GreedyConfig::NO_LIMIT`] for none (MLIR's -1); 0 runs none and
    /// changes nothing (as MLIR's driver for 0 or a negative bound other
    /// than -1).
    pub max_iterations: u32,
    /// Most pattern applications and folds in all (`None`: no bound).
    pub max_rewrites: Option<u64>,
    /// Whether to call op folders.
    pub fold: bool,
    /// Whether to unique and hoist constants.
    pub cse_constants: bool,
    /// Whether to also process the bodies of nested isolated ops
    /// (functions in a module), in parallel.
    pub recurse_into_nested: bool,
}

impl GreedyConfig {
    /// [`GreedyConfig::max_iterations`] without a limit: iterate until
    /// nothing changes.
    pub const NO_LIMIT: u32 = u32::MAX;
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            top_down: true,
            max_iterations: 10,
            max_rewrites: None,
            fold: true,
            cse_constants: true,
            recurse_into_nested: true,
        }
    }
}

/// What [`apply_patterns_greedily`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GreedyResult {
    /// Whether the IR reached a fixed point within the bounds.
    pub converged: bool,
    /// Whether anything changed.
    pub changed: bool,
    /// Iterations run (the most over all bodies).
    pub iterations: u32,
    /// Pattern applications.
    pub num_rewrites: u64,
    /// Ops folded.
    pub num_folds: u64,
    /// Trivially dead ops erased.
    pub num_dead: u64,
    /// The location of an op changed in the last iteration of a body that
    /// did not converge (where the non-convergence diagnostic points).
    pub last_change: Option<Location>,
}

impl GreedyResult {
    fn merge(&mut self, o: &GreedyResult) {
        if !o.converged && self.last_change.is_none() {
            self.last_change = o.last_change;
        }
        self.converged &= o.converged;
        self.changed |= o.changed;
        self.iterations = self.iterations.max(o.iterations);
        self.num_rewrites += o.num_rewrites;
        self.num_folds += o.num_folds;
        self.num_dead += o.num_dead;
    }

    /// The diagnostic for a run that did not converge (`None` if it did):
    /// `what failed to converge within N iterations`, at `loc`.
    pub fn non_convergence(
        &self,
        ctx: &Context,
        loc: Location,
        what: &str,
        config: &GreedyConfig,
    ) -> Option<Diagnostic> {
        if self.converged {
            return None;
        }
        let bound = match config.max_rewrites {
            Some(n) if self.num_rewrites + self.num_folds >= n => format!("{n} rewrites"),
            _ => format!("{} iterations", config.max_iterations),
        };
        let pos = self
            .last_change
            .and_then(|l| l.source_pos(ctx))
            .or_else(|| loc.source_pos(ctx));
        Some(Diagnostic::error(
            pos,
            format!("{what} failed to converge within {bound}"),
        ))
    }
}

/// Applies `patterns` (and folders) to the ops in `regions` of `body` until
/// a fixed point or a bound; see the module docs.
pub fn apply_patterns_greedily(
    ctx: &Context,
    body: &mut Body,
    regions: &[RegionId],
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
) -> GreedyResult {
    let mut result = run_body(ctx, body, regions, patterns, config);
    if config.recurse_into_nested {
        let nested = nested_bodies(body, regions);
        let results: Vec<GreedyResult> = nested
            .into_par_iter()
            .with_max_len(1)
            .map(|(_, regions, b)| apply_patterns_greedily(ctx, b, &regions, patterns, config))
            .collect();
        for r in &results {
            result.merge(r);
        }
    }
    result
}

/// The nested bodies of the isolated ops in `regions` of `body`, with the
/// ids of their regions (for processing them in parallel).
pub fn nested_bodies<'b>(body: &'b mut Body, regions: &[RegionId]) -> Vec<(OpId, Vec<RegionId>, &'b mut Body)> {
    let mut all = Vec::new();
    for &r in regions {
        collect_ops(body, r, true, &mut all);
    }
    let mut regions_of: FxHashMap<OpId, Vec<RegionId>> = all
        .into_iter()
        .filter(|&op| body.nested_body(op).is_some())
        .map(|op| (op, body.regions(op).to_vec()))
        .collect();
    body.nested_bodies_mut()
        .filter_map(|(op, b)| regions_of.remove(&op).map(|r| (op, r, b)))
        .collect()
}

/// A function run on each body by [`for_each_body_par`].
pub type BodyFn<'f, T, E> = dyn Fn(&mut Body, &[RegionId]) -> Result<T, E> + Sync + 'f;

/// Runs `f` on `body` (with its root `regions`) and then, in parallel, on
/// every nested body of an isolated op in it, recursively. Returns the
/// results in program order (the first body's first); stops descending
/// where `f` fails.
pub fn for_each_body_par<T: Send, E: Send>(
    body: &mut Body,
    regions: &[RegionId],
    f: &BodyFn<'_, T, E>,
) -> Result<Vec<T>, E> {
    let mut out = vec![f(body, regions)?];
    let nested = nested_bodies(body, regions);
    let results: Vec<Result<Vec<T>, E>> = nested
        .into_par_iter()
        .with_max_len(1)
        .map(|(_, r, b)| for_each_body_par(b, &r, f))
        .collect();
    for r in results {
        out.extend(r?);
    }
    Ok(out)
}

pub use lf_ir::constants::constant_value;

/// The driver's listener: the worklist and the table of uniqued constants.
struct State {
    list: Vec<OpId>,
    in_list: Vec<bool>,
    /// Uniqued constants per (entry block, value, type).
    constants: FxHashMap<(BlockId, Attribute, Type), OpId>,
    /// Reverse of `constants`.
    constant_keys: FxHashMap<OpId, (BlockId, Attribute, Type)>,
}

impl State {
    fn push(&mut self, op: OpId) {
        let i = op.index();
        if i >= self.in_list.len() {
            self.in_list.resize(i + 1, false);
        }
        if !self.in_list[i] {
            self.in_list[i] = true;
            self.list.push(op);
        }
    }
    fn pop(&mut self) -> Option<OpId> {
        while let Some(op) = self.list.pop() {
            if self.in_list[op.index()] {
                self.in_list[op.index()] = false;
                return Some(op);
            }
        }
        None
    }
    fn remove(&mut self, op: OpId) {
        if let Some(f) = self.in_list.get_mut(op.index()) {
            *f = false;
        }
    }
}

impl RewriteListener for State {
    fn op_inserted(&mut self, _body: &Body, op: OpId) {
        self.push(op);
    }
    fn op_erased(&mut self, body: &Body, op: OpId) {
        self.remove(op);
        if let Some(k) = self.constant_keys.remove(&op) {
            self.constants.remove(&k);
        }
        // Their operands' definitions may have become dead.
        for v in body.operands(op) {
            if let Some(d) = body.defining_op(v) {
                if !body.is_erased(d) && d != op {
                    self.push(d);
                }
            }
        }
    }
    fn op_modified(&mut self, _body: &Body, op: OpId) {
        self.push(op);
    }
    fn use_dropped(&mut self, body: &Body, value: Value) {
        // As MLIR's driver: a definition left with at most one use may now
        // be dead or simplify with its last user.
        if let Some(d) = body.defining_op(value) {
            if body.uses(value).nth(1).is_none() {
                self.push(d);
            }
        }
    }
    fn op_replaced(&mut self, body: &Body, op: OpId, _with: &[Value]) {
        for r in body.results(op) {
            for u in body.uses(r) {
                let user = body.use_owner(u);
                self.push(user);
            }
        }
    }
}

/// The entry block of the root region (in this body) holding `op`.
fn root_entry_block(body: &Body, op: OpId) -> Option<BlockId> {
    let mut cur = op;
    loop {
        let b = body.op_block(cur)?;
        let r = body.block_region(b)?;
        match body.region_parent(r) {
            Some(p) => cur = p,
            None => return body.entry_block(r),
        }
    }
}

fn run_body(
    ctx: &Context,
    body: &mut Body,
    regions: &[RegionId],
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
) -> GreedyResult {
    let mut st = State {
        list: Vec::new(),
        in_list: Vec::new(),
        constants: FxHashMap::default(),
        constant_keys: FxHashMap::default(),
    };
    let mut res = GreedyResult {
        converged: false,
        ..GreedyResult::default()
    };
    if config.max_iterations == 0 {
        // As MLIR: no iteration runs, and what did not run did not diverge.
        res.converged = true;
        return res;
    }
    let mut budget = config.max_rewrites;
    while res.iterations < config.max_iterations {
        res.iterations += 1;
        st.constants.clear();
        st.constant_keys.clear();
        let mut changed = false;
        // Populate the worklist.
        let mut order = Vec::with_capacity(body.op_slots());
        for &r in regions {
            collect_ops(body, r, config.top_down, &mut order);
        }
        st.list.reserve(order.len());
        for op in order {
            if body.is_erased(op) {
                continue;
            }
            if config.cse_constants && is_constant(ctx, body, op) && insert_known_constant(ctx, body, &mut st, op) {
                // A duplicate, replaced by the uniqued constant.
                changed = true;
                continue;
            }
            st.push(op);
        }
        if config.top_down {
            st.list.reverse();
        }
        // Process it.
        let mut out_of_budget = false;
        while let Some(op) = st.pop() {
            if body.is_erased(op) || body.op_block(op).is_none() {
                continue;
            }
            if budget == Some(0) {
                out_of_budget = true;
                break;
            }
            let loc = body.op_loc(op);
            let what = process_op(ctx, body, &mut st, op, patterns, config);
            match what {
                Outcome::None => continue,
                Outcome::Dead => res.num_dead += 1,
                Outcome::Folded => res.num_folds += 1,
                Outcome::Rewritten => res.num_rewrites += 1,
            }
            if what != Outcome::Dead {
                if let Some(b) = budget.as_mut() {
                    *b -= 1;
                }
            }
            changed = true;
            res.last_change = Some(loc);
        }
        res.changed |= changed;
        if out_of_budget {
            return res;
        }
        if !changed {
            res.converged = true;
            return res;
        }
    }
    res
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Outcome {
    None,
    Dead,
    Folded,
    Rewritten,
}

fn collect_ops(body: &Body, region: RegionId, pre: bool, out: &mut Vec<OpId>) {
    for b in body.region_blocks(region) {
        for op in body.block_ops(b) {
            if pre {
                out.push(op);
            }
            if body.nested_body(op).is_none() {
                for &r in body.regions(op) {
                    collect_ops(body, r, pre, out);
                }
            }
            if !pre {
                out.push(op);
            }
        }
    }
}

fn is_constant(ctx: &Context, body: &Body, op: OpId) -> bool {
    ctx.op_def(body.op_name(op))
        .is_some_and(|d| d.has(Traits::CONSTANT_LIKE))
        && body.num_results(op) == 1
        && constant_value(ctx, body, body.result(op, 0)).is_some()
}

/// Uniques and hoists a constant op; returns whether it was erased as a duplicate.
fn insert_known_constant(ctx: &Context, body: &mut Body, st: &mut State, op: OpId) -> bool {
    let Some(entry) = root_entry_block(body, op) else {
        return false;
    };
    let value = constant_value(ctx, body, body.result(op, 0)).expect("checked by is_constant");
    let ty = body.value_type(body.result(op, 0));
    let key = (entry, value, ty);
    if let Some(&existing) = st.constants.get(&key) {
        if existing != op {
            let to = body.result(existing, 0);
            let mut rw = PatternRewriter::with_listener(ctx, body, st);
            rw.replace_op(op, &[to]);
            return true;
        }
        return false;
    }
    // Keep it where it is if it is at the front of the entry block or right
    // after a constant already uniqued; else move it to the front.
    let in_place = body.op_block(op) == Some(entry)
        && match body.prev_op(op) {
            None => true,
            Some(p) => st.constant_keys.contains_key(&p),
        };
    if !in_place {
        if let Some(first) = body.first_op(entry) {
            if first != op {
                body.move_op_before(op, first);
            }
        }
    }
    st.constants.insert(key, op);
    st.constant_keys.insert(op, key);
    false
}

fn process_op(
    ctx: &Context,
    body: &mut Body,
    st: &mut State,
    op: OpId,
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
) -> Outcome {
    if is_trivially_dead(ctx, body, op) {
        let mut rw = PatternRewriter::with_listener(ctx, body, st);
        rw.erase_op(op);
        return Outcome::Dead;
    }
    if config.fold && !is_constant(ctx, body, op) && try_fold(ctx, body, st, op, config) {
        return Outcome::Folded;
    }
    let name = body.op_name(op);
    let mut rw = PatternRewriter::with_listener(ctx, body, st);
    for p in patterns.for_op(name) {
        rw.set_insertion_point_before(op);
        rw.set_loc_of(op);
        if p.match_and_rewrite(op, &mut rw) {
            return Outcome::Rewritten;
        }
    }
    Outcome::None
}

fn try_fold(ctx: &Context, body: &mut Body, st: &mut State, op: OpId, config: &GreedyConfig) -> bool {
    let Some(def) = ctx.op_def(body.op_name(op)) else {
        return false;
    };
    let Some(fold) = def.fold else {
        return false;
    };
    let dialect = def.dialect();
    let operands: Vec<Option<Attribute>> = body.operands(op).map(|v| constant_value(ctx, body, v)).collect();
    let Some(results) = fold(ctx, body, op, &operands) else {
        return false;
    };
    let own: Vec<Value> = body.results(op).collect();
    if results.len() != own.len() || own.is_empty() {
        return false;
    }
    // An in-place fold (results unchanged) is not a change we can see.
    if results.iter().zip(&own).all(|(r, o)| *r == FoldResult::Value(*o)) {
        return false;
    }
    for (r, o) in results.iter().zip(&own) {
        match r {
            FoldResult::Attr(a)
                if materialize_constant(ctx, dialect, *a, body.value_type(*o), body.op_loc(op)).is_none() =>
            {
                return false
            }
            FoldResult::Value(v) if body.value_type(*v) != body.value_type(*o) => return false,
            _ => {}
        }
    }
    let Some(entry) = root_entry_block(body, op) else {
        return false;
    };
    let loc = body.op_loc(op);
    let mut values = Vec::with_capacity(own.len());
    for r in &results {
        let v = match r {
            FoldResult::Value(v) => *v,
            FoldResult::Attr(a) => {
                let ty = body.value_type(own[values.len()]);
                get_or_create_constant(ctx, body, st, entry, (dialect, *a, ty), loc, config)
            }
        };
        values.push(v);
    }
    let mut rw = PatternRewriter::with_listener(ctx, body, st);
    rw.replace_op(op, &values);
    true
}

/// The constant `(dialect that materializes it, value, type)` at the start
/// of `entry`: an existing uniqued one, or a new one.
fn get_or_create_constant(
    ctx: &Context,
    body: &mut Body,
    st: &mut State,
    entry: BlockId,
    (dialect, a, ty): (&str, Attribute, Type),
    loc: Location,
    config: &GreedyConfig,
) -> Value {
    let key = (entry, a, ty);
    if config.cse_constants {
        if let Some(&c) = st.constants.get(&key) {
            if !body.is_erased(c) {
                return body.result(c, 0);
            }
        }
    }
    let state = materialize_constant(ctx, dialect, a, ty, loc).expect("checked by try_fold");
    let mut rw = PatternRewriter::with_listener(ctx, body, st);
    rw.set_insertion_point_to_start(entry);
    let c = rw.create(state);
    let v = body.result(c, 0);
    if config.cse_constants {
        st.constants.insert(key, c);
        st.constant_keys.insert(c, key);
    }
    v
}
