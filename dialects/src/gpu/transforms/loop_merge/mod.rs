//! `loop-merge`: an inner loop whose trip count differs between the threads
//! of a warp merged with its N enclosing loops into one `scf.while`, so
//! that a thread done with its inner iterations goes straight on to the
//! next outer iteration instead of waiting for the warp (seed 001, Han and
//! Abdelrahman, GPGPU-6 2013; DIGEST §001; `docs/design/loop-merge.md`).

pub mod constants;
pub mod deaffine;
pub mod legality;
pub mod merge;
pub mod prefetch;
pub mod profit;
pub mod prune;
pub mod rotated;
pub mod select;
pub mod shape;

use crate::gpu::{GpuFuncOp, GpuLaunchOp};
use crate::scf::ScfIfOp;
use lf_ir::builder::Builder;
use lf_ir::view::{collect_ops, OpView};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{AttrData, OpId, RegionId};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use shape::LoopForm;

/// The discardable attribute that asks for a merge: `lf.merge_loop = N` on
/// an inner loop merges it with its N enclosing loops (the seed's
/// `#pragma merge loop(N)`).
pub const MERGE_LOOP_ATTR: &str = "lf.merge_loop";

/// The registration record of `loop-merge`.
pub static INFO: PassInfo = PassInfo {
    name: "loop-merge",
    summary: "Merge divergent inner loops of GPU kernels with their enclosing loops into one scf.while (seed 001)",
    description: "Inside inline `gpu.launch` bodies (and `gpu.func` kernels when the pass runs on them), merges an \
inner `scf.for`, `affine.for` or `scf.while` with its N enclosing loops (each of these three kinds) into one `scf.while` \
(DIGEST §001.3): each trip runs one inner iteration and, when the inner loop has ended, the *transition* (the \
inner epilogue, the outer increment and condition, and the next inner prologue), so a thread whose inner loop \
ends goes on with the next outer iteration instead of waiting for the longest lane of its warp. Zero-trip inner loops take the transition at \
once; a `while` inner loop's exit is its condition; N >= 2 merges repeatedly from the inside out. The work of each \
thread runs in the same order as before.\n\n\
Which loops: with `depth=N`, every innermost loop of a kernel with at least N enclosing loops in it; loops \
carrying `lf.merge_loop = N` (the seed's `#pragma merge loop(N)`) use their own N, and are the only ones merged \
without `depth`. Of two loops of the same nest, the first is merged and the second declined (with a remark).\n\n\
The merged loop is written in the *rotated form* by default (`form=rotated`): each trip runs one inner \
iteration (its pure ops computed on every trip, the results kept by `arith.select` where an iteration was left) \
and then, in the same trip, the transition when the inner loop has ended; the loop's `before` region ends with the \
exit test, its `after` region holds the next inner prologue; `unroll=N` (default 4) runs up to N inner \
iterations per trip before the transition (the innermost level only), so the trip's control is shared by N \
bodies; each copy's kept values are selected right after their definitions (the copy's later ops read the \
selects, so the GPU compiler can write them under a predicate), and a `for` inner loop with a constant step \
tests copy k as `(k+1)*step <u ub - iv`. Every integer value of the state (counters, trip \
counts, flags) is updated through `arith.select` on the per-thread condition; loads, stores and the epilogue's \
floating-point work stay under branches. ptxas (nvcc 13.0, 13.5) miscompiles the hand-written textbook merged \
loop, keeping the per-thread outer counter in a warp-uniform register; no integer state is assigned in a \
divergent branch here. `form=select` runs either an inner iteration or a transition per trip (integer state \
through selects), `form=speculate` also computes the inner body's pure ops on every trip, `form=branch` writes \
the textbook form (every value assigned in the branches). In these three forms carried values that only feed \
themselves (the outer loop's copies of the inner loop's values) are removed (the rotated form keeps them; they are \
dead only along the paths its selects rule out, which the GPU compiler folds). Constants from outside the kernel that the merged loop \
reads are cloned into the kernel. `prefetch=true` loads the next outer iteration's prologue values one \
transition ahead when the nest writes no memory.\n\n\
With `auto=true` a static check declines (with a remark giving the estimate) when the inner trip count is \
provably the same for every lane of a warp (DIGEST §001.5 factor 1) or when the transition's weighted size, per \
inner iteration of a trip, is more than `max-ratio` (0.1) times the inner body's (factor 3; calibrated on an \
H200, `docs/design/loop-merge.md`). Declined with a remark, the program unchanged: a `gpu.barrier` \
in the nest, a call (the callee may synchronize), unstructured regions or terminators that leave the loops, a \
loop not directly in its enclosing loop's body, an affine op other than a load or store reading a merged \
induction variable as a dimension or symbol (loads and stores become `memref` accesses), and a value without a \
zero constant live across the transition when the outer loop may run zero times.",
    anchor: Anchor::Any,
    options: &[
        PassOption {
            name: "depth",
            kind: OptionKind::UInt,
            default: "0",
            help: "Merge every innermost kernel loop with this many enclosing loops (0: only loops with lf.merge_loop)",
        },
        PassOption {
            name: "auto",
            kind: OptionKind::Bool,
            default: "false",
            help: "Decline merges the static profitability check finds unprofitable (uniform trip count, large transition)",
        },
        PassOption {
            name: "form",
            kind: OptionKind::Enum(&["rotated", "select", "branch", "speculate"]),
            default: "rotated",
            help: "rotated: an inner iteration then the transition in one trip, integer state through arith.select; select: an inner iteration or a transition per trip, integer state through selects; speculate: select with the inner body on every trip; branch: the textbook form (what ptxas may miscompile)",
        },
        PassOption {
            name: "max-ratio",
            kind: OptionKind::String,
            default: profit::MAX_RATIO,
            help: "auto=true declines when the transition's weighted size exceeds this fraction of the inner body's",
        },
        PassOption {
            name: "unroll",
            kind: OptionKind::UInt,
            default: "4",
            help: "form=rotated: inner iterations per trip before the transition (each kept by selects where one was left; the innermost level only)",
        },
        PassOption {
            name: "prefetch",
            kind: OptionKind::Bool,
            default: "false",
            help: "Load the next outer iteration's prologue values one transition ahead when the nest writes no memory",
        },
    ],
    create: |opts| {
        let depth = opts.int("depth");
        if !(0..=64).contains(&depth) {
            return Err(format!("depth: between 0 and 64, got {depth}"));
        }
        let max_ratio: f64 = opts
            .str("max-ratio")
            .parse()
            .ok()
            .filter(|r: &f64| r.is_finite() && *r >= 0.0)
            .ok_or_else(|| format!("max-ratio: a non-negative number, got '{}'", opts.str("max-ratio")))?;
        let unroll = opts.int("unroll");
        if !(1..=16).contains(&unroll) {
            return Err(format!("unroll: between 1 and 16, got {unroll}"));
        }
        // Only the rotated form unrolls: the other forms keep one inner
        // iteration per trip, and an explicit unroll with them is an error.
        let rotated = opts.str("form") == "rotated";
        if !rotated && opts.is_explicit("unroll") && unroll != 1 {
            return Err(format!("unroll={unroll}: only with form=rotated, got form={}", opts.str("form")));
        }
        let unroll = if rotated { unroll } else { 1 };
        Ok(Box::new(LoopMerge {
            unroll: unroll as usize,
            max_ratio,
            depth: depth as usize,
            auto: opts.bool("auto"),
            select_form: opts.str("form") != "branch",
            speculate_body: opts.str("form") == "speculate",
            rotated: opts.str("form") == "rotated",
            prefetch: opts.bool("prefetch"),
        }))
    },
};

/// The `loop-merge` pass.
pub struct LoopMerge {
    /// Enclosing loops to merge innermost loops with (0: attribute only).
    pub depth: usize,
    /// Run the profitability check.
    pub auto: bool,
    /// The largest transition-to-body size ratio `auto` merges at.
    pub max_ratio: f64,
    /// Write the merged loop in the select form.
    pub select_form: bool,
    /// Compute the inner body's pure ops on every trip too (no branch
    /// around the body).
    pub speculate_body: bool,
    /// Build the rotated form ([`rotated`]).
    pub rotated: bool,
    /// Issue the prologue's loads one outer iteration ahead.
    pub prefetch: bool,
    /// Inner iterations per trip of the rotated form.
    pub unroll: usize,
}

/// A loop to merge and with how many enclosing loops.
struct Candidate {
    inner: OpId,
    levels: usize,
    launch: Option<GpuLaunchOp>,
}

impl Pass for LoopMerge {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let is_gpu_func = op.op_name_str() == GpuFuncOp::def().name;
        let mut b = op.builder();
        let mut kernels: Vec<(Option<GpuLaunchOp>, Vec<RegionId>)> =
            collect_ops::<GpuLaunchOp>(b.ctx(), b.body(), &regions)
                .into_iter()
                .map(|l| (Some(l), vec![b.body().region(l.op(), 0)]))
                .collect();
        if is_gpu_func {
            kernels.push((None, regions.clone()));
        }
        let mut candidates = Vec::new();
        for (launch, rs) in kernels {
            self.candidates(&b, launch, &rs, &mut candidates)?;
        }
        // Choose first (merging erases the nest's ops, the later loops of
        // a merged nest among them), then merge the disjoint nests.
        let mut chosen: Vec<(Candidate, Vec<OpId>)> = Vec::new();
        for c in candidates {
            let chain = match enclosing(&b, c.inner, c.levels) {
                Ok(chain) => chain,
                Err(why) => {
                    b.remark(c.inner, format!("not merged: {why}"));
                    continue;
                }
            };
            let root = *chain.last().expect("at least one level");
            let body = b.body();
            if chosen.iter().any(|(_, ch)| {
                let r = *ch.last().expect("a level");
                body.is_ancestor(r, root) || body.is_ancestor(root, r)
            }) {
                b.remark(c.inner, "not merged: another loop of the same nest is merged");
                continue;
            }
            chosen.push((c, chain));
        }
        for (c, chain) in chosen {
            if let Err(why) = self.merge_candidate(&mut b, &c, &chain) {
                b.remark(c.inner, format!("not merged: {why}"));
            }
        }
        Ok(())
    }
}

impl LoopMerge {
    /// The loops of the kernel regions `rs` to merge, in program order.
    fn candidates(
        &self,
        b: &Builder<'_>,
        launch: Option<GpuLaunchOp>,
        rs: &[RegionId],
        out: &mut Vec<Candidate>,
    ) -> PassResult {
        let body = b.body();
        for &r in rs {
            for block in body.region_blocks(r).collect::<Vec<_>>() {
                for top in body.block_ops(block).collect::<Vec<_>>() {
                    let mut err = None;
                    walk(body, top, WalkOrder::PreOrder, &mut |body, op| {
                        let ir = (b.ctx(), body);
                        if GpuLaunchOp::isa(&ir, op) && Some(op) != launch.map(|l| l.op()) {
                            return WalkControl::Skip;
                        }
                        if LoopForm::of(&ir, op).is_none() {
                            return WalkControl::Advance;
                        }
                        let levels = match lf_ir::ods::discardable_attr(b.ctx(), body, op, MERGE_LOOP_ATTR) {
                            Some(a) => match b.ctx().attr_data(a) {
                                AttrData::Integer { value, .. } if (1..=64).contains(value) => Some(*value as usize),
                                _ => {
                                    err = Some(crate::support::op_error(
                                        b.ctx(),
                                        body,
                                        op,
                                        format!("'{MERGE_LOOP_ATTR}' must be an integer between 1 and 64"),
                                    ));
                                    return WalkControl::Interrupt;
                                }
                            },
                            None if self.depth > 0 && is_innermost(&ir, op) && has_enclosing_loop(&ir, op) => {
                                Some(self.depth)
                            }
                            None => None,
                        };
                        if let Some(levels) = levels {
                            out.push(Candidate {
                                inner: op,
                                levels,
                                launch,
                            });
                        }
                        WalkControl::Advance
                    });
                    if let Some(e) = err {
                        return Err(Box::new(e));
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks and merges one candidate with its enclosing loops `chain`
    /// (innermost first).
    fn merge_candidate(&self, b: &mut Builder<'_>, c: &Candidate, chain: &[OpId]) -> Result<(), String> {
        let root = *chain.last().expect("a level");
        legality::check_nest(b, root)?;
        let inner = LoopForm::of(b, c.inner).ok_or("not a loop")?;
        let first_outer = LoopForm::of(b, chain[0]).ok_or("not a loop")?;
        let est = profit::estimate(b, first_outer, inner);
        // The rotated form runs the transition's code once per trip of up
        // to `unroll` inner iterations.
        let per_trip = if self.rotated { self.unroll } else { 1 };
        let ratio = est.ratio() / per_trip as f64;
        let per_trip_ratio = if per_trip > 1 {
            format!("; {ratio:.2} with {per_trip} inner iterations per trip")
        } else {
            String::new()
        };
        let estimate = format!(
            "inner body ~{} ops, transition ~{} ops (ratio {:.2}{per_trip_ratio})",
            est.body,
            est.transition,
            est.ratio()
        );
        if self.auto {
            if let Some(why) = profit::uniform_trip_count(b, c.launch, inner) {
                return Err(format!(
                    "the inner trip count is the same for every lane of a warp ({why}): merging cannot help and \
costs about 9% (DIGEST §001.5, factor 1); {estimate}"
                ));
            }
            if ratio > self.max_ratio {
                return Err(format!(
                    "the transition is too large next to the inner body: {estimate} > max-ratio={} (DIGEST §001.5, factor 3)",
                    self.max_ratio
                ));
            }
        }
        let mut ivs: Vec<lf_ir::Value> = inner.affine_iv(b).into_iter().collect();
        for &l in chain {
            ivs.extend(LoopForm::of(b, l).and_then(|f| f.affine_iv(b)));
        }
        let rewrite = legality::affine_users(b, root, &ivs)?;
        merge::check_entry(b, first_outer, inner)?;
        let at_inner = crate::support::at(b.ctx(), b.body(), c.inner);
        b.set_discardable_attr(c.inner, MERGE_LOOP_ATTR, None);
        for op in rewrite {
            deaffine::to_memref_access(b, op);
        }
        let mut cur = inner;
        let mut merged_levels = 0;
        let mut prefetched = 0;
        let mut last = None;
        for (k, &l) in chain.iter().enumerate() {
            let outer = LoopForm::of(b, l).ok_or("not a loop")?;
            if k > 0 {
                if let Err(why) = merge::check_entry(b, outer, cur) {
                    b.remark(
                        cur.op(),
                        format!("merged with {k} of {} enclosing loops only: {why}", chain.len()),
                    );
                    break;
                }
            }
            let m = if self.rotated {
                rotated::merge_rotated(b, outer, cur, if k == 0 { self.unroll } else { 1 }, self.prefetch)?
            } else {
                merge::merge(b, outer, cur, self.prefetch)?
            };
            prefetched += m.prefetched;
            if self.rotated {
                rotated_select_form(b, &m);
            } else if self.select_form {
                if let Some(p) = ScfIfOp::cast(b, m.prologue_if) {
                    select::to_select_form(b, p, select::any_op, select::any_op, select::any_type);
                }
                if let Some(p) = m.prefetch_if.and_then(|p| ScfIfOp::cast(b, p)) {
                    select::to_select_form(b, p, select::any_op, select::any_op, select::any_type);
                }
                if let Some(t) = ScfIfOp::cast(b, m.trip_if) {
                    if self.speculate_body {
                        select::to_select_form(b, t, select::any_op, select::any_op, select::any_type);
                    } else {
                        select::to_select_form(b, t, select::integer_only, select::integer_only, select::is_integer);
                    }
                }
            }
            let w = crate::scf::ScfWhileOp::cast(b, m.while_op).ok_or("merged loop")?;
            let (w, _) = prune::prune_dead_state(b, w);
            cur = LoopForm::While(w);
            merged_levels += 1;
            last = Some(w.op());
        }
        if let (Some(w), Some(launch)) = (last, c.launch) {
            constants::sink_into_kernel(b, launch, w);
        }
        if let Some(w) = last {
            b.remark(
                w,
                format!(
                    "merged the loop{at_inner} with {merged_levels} enclosing loop(s) into one scf.while ({} form{}); {estimate}",
                    if self.rotated {
                        "rotated"
                    } else if self.speculate_body {
                        "speculate"
                    } else if self.select_form {
                        "select"
                    } else {
                        "branch"
                    },
                    if prefetched > 0 { format!(", {prefetched} prologue load(s) prefetched") } else { String::new() }
                ),
            );
        }
        Ok(())
    }
}

/// The select form of a rotated merged loop: the prefetch's guard and the
/// inner body's pure ops (floating point too) computed on every trip, the
/// integer ops of the outer step and of the next prologue too; every
/// result both branches take from above becomes an `arith.select`. Left
/// under branches: loads, stores, and the epilogue's and prologue's
/// floating-point work.
fn rotated_select_form(b: &mut Builder<'_>, m: &merge::Merged) {
    use select::{any_op, any_type, integer_only, read_kept_values, to_select_form};
    if let Some(p) = m.prefetch_if.and_then(|p| ScfIfOp::cast(b, p)) {
        to_select_form(b, p, any_op, any_op, any_type);
    }
    for op in [m.prologue_if, m.trip_if] {
        if let Some(i) = ScfIfOp::cast(b, op) {
            to_select_form(b, i, integer_only, integer_only, any_type);
        }
    }
    for &i in &m.body_ifs {
        if let Some(i) = ScfIfOp::cast(b, i) {
            let then_ops: Vec<OpId> = b.body().block_ops(i.then_region_block(b)).collect();
            let selects = to_select_form(b, i, any_op, any_op, any_type);
            read_kept_values(b, &then_ops, &selects);
            // What nothing reads now (a copy's own induction step when its
            // test reads the distance to the bound).
            for &op in then_ops.iter().rev() {
                if !b.body().is_erased(op) && lf_pass::rewrite::effects::is_trivially_dead(b.ctx(), b.body(), op) {
                    b.erase_op(op);
                }
            }
        }
    }
}

/// The `levels` loops enclosing `inner`, innermost first, each holding
/// the previous one directly in its body.
fn enclosing(b: &Builder<'_>, inner: OpId, levels: usize) -> Result<Vec<OpId>, String> {
    let mut chain = Vec::new();
    let mut cur = inner;
    for k in 0..levels {
        let parent = b.body().parent_op(cur);
        match parent.filter(|&p| LoopForm::of(b, p).is_some()) {
            Some(p) => {
                chain.push(p);
                cur = p;
            }
            None => {
                return Err(if k == 0 && parent.is_some_and(|p| enclosing_loop(b, p)) {
                    "the loop is not directly in the body of its enclosing loop (it is nested in another op)".into()
                } else {
                    format!("{levels} enclosing loop(s) asked for, the kernel has {k} around this loop")
                });
            }
        }
    }
    Ok(chain)
}

/// Whether `op` is, or is inside, a loop of the three kinds (in its kernel).
fn enclosing_loop<'c>(b: &impl lf_ir::view::Ir<'c>, op: OpId) -> bool {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if LoopForm::of(b, o).is_some() {
            return true;
        }
        if GpuLaunchOp::isa(b, o) {
            return false;
        }
        cur = b.body().parent_op(o);
    }
    false
}

/// Whether no loop is nested in `op`.
fn is_innermost<'c>(ir: &impl lf_ir::view::Ir<'c>, op: OpId) -> bool {
    let mut nested = false;
    walk(ir.body(), op, WalkOrder::PreOrder, &mut |body, o| {
        if o != op && LoopForm::of(&(ir.ctx(), body), o).is_some() {
            nested = true;
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    !nested
}

/// Whether a loop of the three kinds encloses `op` inside its kernel.
fn has_enclosing_loop<'c>(ir: &impl lf_ir::view::Ir<'c>, op: OpId) -> bool {
    ir.body().parent_op(op).is_some_and(|p| enclosing_loop(ir, p))
}
