//! Loops in "while form": the three loop kinds `loop-merge` handles
//! (`scf.for`, `affine.for`, `scf.while`), each seen as a state carried
//! from trip to trip, a condition on it that forwards the body's
//! arguments, a body, and the next state. The merged loop runs any of
//! them one trip at a time through these pieces (DIGEST §001.3).

use crate::affine::{AffineApplyOp, AffineBound, AffineForOp, AffineMaxOp, AffineMinOp};
use crate::arith::{ArithAddiOp, ArithCmpiOp, ArithConstantOp, ArithSubiOp, CmpIPredicate};
use crate::scf::{ScfConditionOp, ScfForOp, ScfWhileOp};
use lf_ir::builder::Builder;
use lf_ir::clone::ValueMap;
use lf_ir::view::{Ir, OpView};
use lf_ir::{BlockId, OpId, Type, Value};

/// One of the loops `loop-merge` merges.
#[derive(Copy, Clone, Debug)]
pub enum LoopForm {
    /// `scf.for`: state (iv, iter_args...).
    ScfFor(ScfForOp),
    /// `affine.for`: state (iv, iter_args...).
    AffineFor(AffineForOp),
    /// `scf.while`: state = the `before` block's arguments.
    While(ScfWhileOp),
}

impl LoopForm {
    /// The loop `op` if it is one of the three kinds.
    pub fn of<'c>(ir: &impl Ir<'c>, op: OpId) -> Option<LoopForm> {
        if let Some(f) = ScfForOp::cast(ir, op) {
            Some(LoopForm::ScfFor(f))
        } else if let Some(f) = AffineForOp::cast(ir, op) {
            Some(LoopForm::AffineFor(f))
        } else {
            ScfWhileOp::cast(ir, op).map(LoopForm::While)
        }
    }

    /// The loop op.
    pub fn op(self) -> OpId {
        match self {
            LoopForm::ScfFor(f) => f.op(),
            LoopForm::AffineFor(f) => f.op(),
            LoopForm::While(w) => w.op(),
        }
    }

    /// The block that runs one iteration (the `after` block of a while);
    /// its arguments are what the condition forwards.
    pub fn body_block<'c>(self, ir: &impl Ir<'c>) -> Option<BlockId> {
        let body = ir.body();
        let region = match self {
            LoopForm::ScfFor(f) => f.region(ir),
            LoopForm::AffineFor(f) => f.region(ir),
            LoopForm::While(w) => w.after(ir),
        };
        let mut blocks = body.region_blocks(region);
        let first = blocks.next();
        if blocks.next().is_some() {
            return None;
        }
        first
    }

    /// The types of the state carried from trip to trip.
    pub fn state_types<'c>(self, ir: &impl Ir<'c>) -> Vec<Type> {
        let body = ir.body();
        match self {
            LoopForm::While(w) => w.inits(ir).iter().map(|&v| body.value_type(v)).collect(),
            _ => self
                .body_block(ir)
                .map(|blk| body.block_args(blk).iter().map(|&a| body.value_type(a)).collect())
                .unwrap_or_default(),
        }
    }

    /// The values the loop uses on every trip (bounds and steps), which
    /// must stay available inside a merged loop; the initial values and
    /// lower bounds are used only on entry.
    pub fn trip_operands<'c>(self, ir: &impl Ir<'c>) -> Vec<Value> {
        match self {
            LoopForm::ScfFor(f) => vec![f.upper_bound(ir), f.step(ir)],
            LoopForm::AffineFor(f) => f.upper_bound(ir).operands.to_vec(),
            LoopForm::While(_) => Vec::new(),
        }
    }

    /// The values used only to enter the loop (lower bounds, initial values).
    pub fn entry_operands<'c>(self, ir: &impl Ir<'c>) -> Vec<Value> {
        match self {
            LoopForm::ScfFor(f) => {
                let mut v = vec![f.lower_bound(ir)];
                v.extend(f.init_args(ir));
                v
            }
            LoopForm::AffineFor(f) => {
                let mut v = f.lower_bound(ir).operands.to_vec();
                v.extend(f.inits(ir));
                v
            }
            LoopForm::While(w) => w.inits(ir).to_vec(),
        }
    }

    /// Whether the loop provably runs at least once (its constant trip
    /// count is at least 1), so a merged loop needs no entry test for it.
    pub fn runs_at_least_once<'c>(self, ir: &impl Ir<'c>) -> bool {
        self.constant_trip_count(ir).is_some_and(|t| t >= 1)
    }

    /// The constant trip count when the bounds are constants (`for` loops).
    pub fn constant_trip_count<'c>(self, ir: &impl Ir<'c>) -> Option<i64> {
        match self {
            LoopForm::AffineFor(f) => f.constant_trip_count(ir),
            LoopForm::ScfFor(f) => {
                let c = |v| lf_ir::constants::constant_int(ir.ctx(), ir.body(), v);
                let (lb, ub, step) = (c(f.lower_bound(ir))?, c(f.upper_bound(ir))?, c(f.step(ir))?);
                (step > 0)
                    .then(|| if ub > lb { (ub - lb + step - 1) / step } else { 0 })
                    .and_then(|t| i64::try_from(t).ok())
            }
            LoopForm::While(_) => None,
        }
    }

    /// Emits the initial state at the insertion point, reading the loop's
    /// operands through `map` (a cloned prologue).
    pub fn emit_init(self, b: &mut Builder<'_>, map: &ValueMap) -> Vec<Value> {
        let m = |vs: &[Value]| -> Vec<Value> { vs.iter().map(|&v| map.lookup(v)).collect() };
        match self {
            LoopForm::ScfFor(f) => {
                let mut s = vec![map.lookup(f.lower_bound(b))];
                s.extend(m(&f.init_args(b)));
                s
            }
            LoopForm::AffineFor(f) => {
                let lb = f.lower_bound(b);
                let mut s = vec![bound(b, &lb, &m(&lb.operands), false)];
                s.extend(m(&f.inits(b)));
                s
            }
            LoopForm::While(w) => m(&w.inits(b)),
        }
    }

    /// Emits the loop condition on `state` at the insertion point (the
    /// `before` block of a while is cloned, reading through `map`);
    /// returns the condition and the forwarded values (the body block's
    /// arguments).
    pub fn emit_cond(self, b: &mut Builder<'_>, state: &[Value], map: &mut ValueMap) -> (Value, Vec<Value>) {
        match self {
            LoopForm::ScfFor(_) | LoopForm::AffineFor(_) => {
                let pred = match self {
                    LoopForm::ScfFor(f) if f.unsigned_cmp(b) => CmpIPredicate::Ult,
                    _ => CmpIPredicate::Slt,
                };
                let ub = self.emit_upper_bound(b, map);
                let c = ArithCmpiOp::build(b, state[0], ub, pred).result(b);
                (c, state.to_vec())
            }
            LoopForm::While(w) => {
                let before = b.body().entry_block(w.before(b)).expect("scf.while has a before block");
                let args: Vec<Value> = b.body().block_args(before).to_vec();
                for (a, s) in args.into_iter().zip(state) {
                    map.map(a, *s);
                }
                b.clone_block_ops(before, map, true);
                let term = b.body().terminator(before).expect("a terminator");
                let cond = ScfConditionOp::cast(b, term).expect("scf.condition ends the before block");
                let c = map.lookup(cond.condition(b));
                let fwd = cond.args(b).iter().map(|&v| map.lookup(v)).collect();
                (c, fwd)
            }
        }
    }

    /// Emits the next state after one trip whose body ran with arguments
    /// `fwd` and yielded `yielded`.
    pub fn emit_next(self, b: &mut Builder<'_>, fwd: &[Value], yielded: &[Value], map: &ValueMap) -> Vec<Value> {
        let step = match self {
            LoopForm::ScfFor(f) => map.lookup(f.step(b)),
            LoopForm::AffineFor(f) => {
                let s = f.step(b);
                ArithConstantOp::index(b, s)
            }
            LoopForm::While(_) => return yielded.to_vec(),
        };
        let mut s = vec![ArithAddiOp::build(b, fwd[0], step).result(b)];
        s.extend_from_slice(yielded);
        s
    }

    /// For a `for` loop whose step `s` is a positive constant with
    /// `ahead * s` below 2^30 (and below the half range of its type: the
    /// kernels' `index` is 32 bits in the CUDA and OpenCL emitters): emits
    /// `ub - iv` and returns it with `s`. While `iv` is before
    /// the upper bound, "`iv + k * s` is before it" is then
    /// `k * s <u ub - iv` for every `0 < k <= ahead` (the difference is
    /// positive and below 2^width, so exact as an unsigned number; no add
    /// that could wrap) — one compare against a constant per `k`
    /// ([`LoopForm::emit_ahead_test`]). `None` for `while` loops and other
    /// steps.
    pub fn emit_distance_to_end(
        self,
        b: &mut Builder<'_>,
        iv: Value,
        map: &ValueMap,
        ahead: usize,
    ) -> Option<(Value, i128)> {
        let step = match self {
            LoopForm::ScfFor(f) => lf_ir::constants::constant_int(b.ctx(), b.body(), map.lookup(f.step(b)))?,
            LoopForm::AffineFor(f) => i128::from(f.step(b)),
            LoopForm::While(_) => return None,
        };
        let limit = 1i128 << 30;
        let ty = b.body().value_type(iv);
        let width = crate::fold::int_width(b.ctx(), ty)?;
        let fits = step > 0
            && (ahead as i128)
                .checked_mul(step)
                .is_some_and(|m| m < limit.min(1 << (width - 1)));
        if !fits {
            return None;
        }
        let ub = self.emit_upper_bound(b, map);
        Some((ArithSubiOp::build(b, ub, iv).result(b), step))
    }

    /// The upper bound of a `for` loop at the insertion point, its operands
    /// read through `map` (an `affine.for`'s bound map applied).
    fn emit_upper_bound(self, b: &mut Builder<'_>, map: &ValueMap) -> Value {
        match self {
            LoopForm::ScfFor(f) => map.lookup(f.upper_bound(b)),
            LoopForm::AffineFor(f) => {
                let ub = f.upper_bound(b);
                let operands: Vec<Value> = ub.operands.iter().map(|&v| map.lookup(v)).collect();
                bound(b, &ub, &operands, true)
            }
            LoopForm::While(_) => unreachable!("a while loop has no upper bound"),
        }
    }

    /// Whether `k` steps after the induction variable is still before the
    /// upper bound, given the distance `(to_end, step)` that
    /// [`LoopForm::emit_distance_to_end`] emitted (for `0 < k <= ahead`).
    pub fn emit_ahead_test(b: &mut Builder<'_>, (to_end, step): (Value, i128), k: usize) -> Value {
        let ty = b.body().value_type(to_end);
        let k_steps = ArithConstantOp::int(b, k as i128 * step, ty);
        ArithCmpiOp::build(b, k_steps, to_end, CmpIPredicate::Ult).result(b)
    }

    /// The loop's results among the forwarded values `fwd` at exit.
    pub fn results_of(self, fwd: &[Value]) -> Vec<Value> {
        match self {
            LoopForm::While(_) => fwd.to_vec(),
            _ => fwd[1..].to_vec(),
        }
    }

    /// The induction variable of an `affine.for` (a valid affine dimension
    /// that the merged loop's block argument will not be).
    pub fn affine_iv<'c>(self, ir: &impl Ir<'c>) -> Option<Value> {
        match self {
            LoopForm::AffineFor(f) => Some(f.iv(ir)),
            _ => None,
        }
    }
}

/// The value of an affine bound: a constant, an `affine.apply` of a
/// single result, or `affine.max` (lower) / `affine.min` (upper) of several.
fn bound(b: &mut Builder<'_>, bound: &AffineBound, operands: &[Value], upper: bool) -> Value {
    let map = bound.map.clone();
    if map.num_results() == 1 {
        if let Some(c) = map.single_constant_result() {
            return ArithConstantOp::index(b, c);
        }
        return AffineApplyOp::build(b, operands, map).result(b);
    }
    if upper {
        AffineMinOp::build(b, operands, map).result(b)
    } else {
        AffineMaxOp::build(b, operands, map).result(b)
    }
}
