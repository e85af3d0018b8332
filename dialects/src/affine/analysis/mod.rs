//! Memory dependence analysis between affine accesses (MLIR's
//! `Dialect/Affine/Analysis/AffineAnalysis`): iteration domains, access
//! relations, the dependence check with direction and distance vectors,
//! dependence kinds, and whether a loop is parallel as far as memory goes.
//!
//! Two precisions ([`Precision`]): [`Precision::MlirCompatible`] answers
//! with MLIR's Fourier–Motzkin elimination (an over-approximation whose
//! answers are exactly `mlir-opt`'s; the passes that carry MLIR's names use
//! it) and [`Precision::Exact`] with lf-presburger's exact integer
//! emptiness and bounds (lf's own passes). See `docs/design/dependence.md`.
//!
//! Ops that touch a memref without being an affine access (`memref.load`,
//! `memref.store`, calls, ops with unknown effects) are never analysed: a
//! dependence is assumed ([`DependenceResult::Failure`], with a reason a
//! pass can put in a remark).
//!
//! [`MemRefAccesses`] caches what each access needs (its iteration domain
//! and access relation) so that the O(n² · depth) checks of a function
//! build each system once; [`DependenceAnalysis`] puts it in the analysis
//! manager. Everything is plain data keyed by op ids: no global state, safe
//! to use from rayon workers (one cache per function).

mod access;
mod alias;
mod conflicts;
mod cst;
mod dependence;
pub mod domain;
mod flatten;
pub mod graph;
pub mod loop_parallel;
mod parallel;
pub use parallel::{parallel_blocker, ParallelBlocker};
pub mod reductions;
pub mod same_access;
pub mod sibling;
mod subscript_test;

use access::{access_info, AccessInfo};
use cst::BuildError;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::{Body, Context, OpId};
use lf_pass::analysis::Analysis;
use lf_pass::pass::PassTarget;
use lf_presburger::{IntegerRelation, MAX_CONSTRAINTS, MAX_VARS};
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::Arc;

pub use conflicts::ConflictSystem;
pub use domain::{enclosing_affine_ops, nesting_depth, surrounding_for_ops, surrounding_ivs};
pub use flatten::FlattenError;

/// How dependence questions are answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    /// MLIR's answers: Fourier–Motzkin with gcd tightening (may report a
    /// dependence that does not exist, and looser distance ranges), exactly
    /// as `mlir-opt` computes them. For the passes that carry MLIR's names.
    MlirCompatible,
    /// Exact integer answers (lf-presburger's emptiness and bounds).
    #[default]
    Exact,
}

/// The distance range of a dependence along one common loop: the
/// destination's iteration minus the source's lies in `[lb, ub]` (`None`:
/// unbounded that way). `lb == ub` is an exact constant distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DependenceComponent {
    /// The common loop (`None` for an `affine.parallel` dimension).
    pub loop_op: Option<OpId>,
    /// The smallest distance, if bounded below.
    pub lb: Option<i64>,
    /// The largest distance, if bounded above.
    pub ub: Option<i64>,
}

impl DependenceComponent {
    /// The constant distance, when the range is a single value.
    pub fn distance(&self) -> Option<i64> {
        match (self.lb, self.ub) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        }
    }
}

/// The answer of a dependence check.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DependenceResult {
    /// The two accesses never touch the same element in the order asked.
    NoDependence,
    /// They may (per the precision asked); one component per loop common to
    /// both, outermost first, when components were asked for and there are
    /// common loops.
    HasDependence {
        /// The distance ranges.
        components: Vec<DependenceComponent>,
    },
    /// The analysis cannot decide: a dependence must be assumed. `reason`
    /// says why (for a remark).
    Failure {
        /// Why.
        reason: String,
    },
}

impl DependenceResult {
    /// Whether a dependence must be assumed (found or undecided).
    pub fn may_depend(&self) -> bool {
        !matches!(self, DependenceResult::NoDependence)
    }

    /// Whether a dependence was found (MLIR's `hasDependence`).
    pub fn has_dependence(&self) -> bool {
        matches!(self, DependenceResult::HasDependence { .. })
    }
}

/// The kind of a dependence from a source access to a destination access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DependenceKind {
    /// Write then read (read after write, true dependence).
    Flow,
    /// Read then write (write after read).
    Anti,
    /// Write then write.
    Output,
    /// Read then read (no ordering constraint; reported only when asked).
    Input,
}

impl DependenceKind {
    /// The kind for a source and a destination that write or not.
    pub fn of(src_writes: bool, dst_writes: bool) -> DependenceKind {
        match (src_writes, dst_writes) {
            (true, false) => DependenceKind::Flow,
            (false, true) => DependenceKind::Anti,
            (true, true) => DependenceKind::Output,
            (false, false) => DependenceKind::Input,
        }
    }

    /// `flow`, `anti`, `output` or `input`.
    pub fn name(self) -> &'static str {
        match self {
            DependenceKind::Flow => "flow",
            DependenceKind::Anti => "anti",
            DependenceKind::Output => "output",
            DependenceKind::Input => "input",
        }
    }
}

/// The kind of dependence between two ops that access memory (`None` when
/// neither reads nor writes memory). Affine accesses and any op with
/// declared effects are classified; an op with unknown effects counts as
/// reading and writing.
pub fn dependence_kind(ctx: &Context, body: &Body, src: OpId, dst: OpId) -> Option<DependenceKind> {
    let writes = |op: OpId| -> Option<bool> {
        match memory_effects(ctx, body, op) {
            None => Some(true),
            Some(e) => {
                let w = e.iter().any(|e| matches!(e.effect, Effect::Write | Effect::Free));
                let r = e.iter().any(|e| e.effect == Effect::Read);
                (w || r).then_some(w)
            }
        }
    };
    Some(DependenceKind::of(writes(src)?, writes(dst)?))
}

/// The most variables and constraints a dependence system may have; a
/// larger one stops with a `Failure` whose reason names the limit (the
/// same limits as lf-presburger's exact queries:
/// [`lf_presburger::MAX_VARS`], [`lf_presburger::MAX_CONSTRAINTS`]).
pub const LIMITS: (usize, usize) = (MAX_VARS, MAX_CONSTRAINTS);

pub(crate) fn check_size(rel: &IntegerRelation) -> Result<(), BuildError> {
    if rel.num_vars() > MAX_VARS {
        return Err(BuildError::TooLarge(format!(
            "the dependence system has {} variables (limit {MAX_VARS})",
            rel.num_vars()
        )));
    }
    if rel.num_constraints() > MAX_CONSTRAINTS {
        return Err(BuildError::TooLarge(format!(
            "the dependence system has {} constraints (limit {MAX_CONSTRAINTS})",
            rel.num_constraints()
        )));
    }
    Ok(())
}

pub(crate) fn describe(e: &BuildError) -> String {
    match e {
        BuildError::Flatten(FlattenError::SemiAffine) => "a subscript or bound is not affine (semi-affine)".into(),
        BuildError::Flatten(FlattenError::BadDivisor) => "a division or modulo by a non-positive constant".into(),
        BuildError::Flatten(FlattenError::Overflow) => "a coefficient overflows 64 bits".into(),
        BuildError::TooLarge(s) => s.clone(),
        BuildError::Unsupported(s) => (*s).to_string(),
    }
}

/// Why a dependence with a non-affine op must be assumed, or `None` when
/// the op does not touch memory (or touches only other memrefs).
fn non_affine_reason(ctx: &Context, body: &Body, op: OpId, other: Option<lf_ir::Value>) -> Option<String> {
    let name = ctx.op_name_str(body.op_name(op));
    match memory_effects(ctx, body, op) {
        None => Some(format!("'{name}' has unknown memory effects")),
        Some(effects) => {
            let touches = effects.iter().any(|e| {
                matches!(e.effect, Effect::Read | Effect::Write | Effect::Free)
                    && (e.value.is_none() || other.is_none() || e.value == other)
            });
            touches.then(|| format!("'{name}' touches memory and is not an affine access"))
        }
    }
}

/// A per-function cache of what the dependence checks need for each
/// affine access (its iteration domain and access relation), computed on
/// first use. Keyed by op ids: valid until the IR changes.
#[derive(Default)]
pub struct MemRefAccesses {
    infos: Mutex<FxHashMap<OpId, Option<Arc<AccessInfo>>>>,
    /// Iteration domains by the block around the accesses (its region's
    /// op, when that op is an affine op: the then and else blocks of an
    /// `affine.if` have different domains; `None`: the
    /// function's top level).
    domains: Mutex<FxHashMap<Option<lf_ir::BlockId>, access::Domain>>,
    /// Dependence polyhedra without ordering constraints, by (source,
    /// destination): a pair is asked at several depths (the dependence
    /// check asks every depth in a row; `affine-parallelize` asks once per
    /// loop around both). Bounded: cleared when full.
    composed: Mutex<FxHashMap<(OpId, OpId), lf_presburger::Result<IntegerRelation>>>,
    /// Whether accesses in the else block of an `affine.if` get the then
    /// block's condition in their domain, as MLIR's `getIndexSet` gives it
    /// (wrong: it hides dependences; only for reproducing MLIR's remarks).
    else_as_then: bool,
}

/// The most pairs [`MemRefAccesses`] keeps composed polyhedra for.
const COMPOSED_CAPACITY: usize = 4096;

impl MemRefAccesses {
    /// An empty cache.
    pub fn new() -> MemRefAccesses {
        MemRefAccesses::default()
    }

    /// An empty cache whose domains reproduce MLIR's for accesses in the
    /// else block of an `affine.if` (the then block's condition, which
    /// hides real dependences): for `test-memref-dependence-check`, whose
    /// remarks must be mlir-opt's. Transformations use [`Self::new`].
    pub fn with_mlir_else_domains() -> MemRefAccesses {
        MemRefAccesses {
            else_as_then: true,
            ..MemRefAccesses::default()
        }
    }

    pub(crate) fn info(&self, ctx: &Context, body: &Body, op: OpId) -> Option<Arc<AccessInfo>> {
        if let Some(i) = self.infos.lock().get(&op) {
            return i.clone();
        }
        let info = access_info(ctx, body, op, |op| {
            let parent = body
                .parent_op(op)
                .filter(|&p| domain::is_affine_region_op(ctx, body, p))
                .and_then(|_| body.op_block(op));
            if let Some(d) = self.domains.lock().get(&parent) {
                return d.clone();
            }
            let d = access::domain_inside(ctx, body, op, !self.else_as_then);
            self.domains.lock().insert(parent, d.clone());
            d
        })
        .map(Arc::new);
        self.infos.lock().insert(op, info.clone());
        info
    }

    /// The composed polyhedron of a pair (see [`dependence::compose`]),
    /// from the cache or made by `make`.
    pub(crate) fn composed(
        &self,
        src: OpId,
        dst: OpId,
        make: impl FnOnce() -> lf_presburger::Result<IntegerRelation>,
    ) -> lf_presburger::Result<IntegerRelation> {
        if let Some(r) = self.composed.lock().get(&(src, dst)) {
            return r.clone();
        }
        let r = make();
        let mut cache = self.composed.lock();
        if cache.len() >= COMPOSED_CAPACITY {
            cache.clear();
        }
        cache.insert((src, dst), r.clone());
        r
    }

    /// [`check_memref_access_dependence`] with this cache.
    #[allow(clippy::too_many_arguments)]
    pub fn check(
        &self,
        ctx: &Context,
        body: &Body,
        src: OpId,
        dst: OpId,
        loop_depth: usize,
        precision: Precision,
        components: bool,
    ) -> DependenceResult {
        match (self.info(ctx, body, src), self.info(ctx, body, dst)) {
            (Some(s), Some(d)) => dependence::check(self, ctx, body, &s, &d, loop_depth, precision, components),
            (s, d) => {
                let memref_of = |i: &Option<Arc<AccessInfo>>| i.as_ref().map(|i| i.memref);
                let reason = if s.is_none() {
                    non_affine_reason(ctx, body, src, memref_of(&d))
                } else {
                    non_affine_reason(ctx, body, dst, memref_of(&s))
                };
                // The other side must touch memory too.
                let other_touches = match (&s, &d) {
                    (None, None) => non_affine_reason(ctx, body, dst, None).is_some(),
                    _ => true,
                };
                match reason {
                    Some(reason) if other_touches => DependenceResult::Failure { reason },
                    _ => DependenceResult::NoDependence,
                }
            }
        }
    }

    /// [`is_loop_memory_parallel`] with this cache.
    pub fn is_loop_memory_parallel(&self, ctx: &Context, body: &Body, for_op: OpId, precision: Precision) -> bool {
        parallel::is_loop_memory_parallel(self, ctx, body, for_op, precision)
    }
}

/// Checks for a dependence from `src` to `dst` (ops of `body`) at loop
/// depth `loop_depth` (1 = carried by the outermost common loop; one more
/// than the number of common loops = loop-independent, src before dst):
/// MLIR's `checkMemrefAccessDependence` with `allowRAR = false`. With
/// `components`, a found dependence carries the distance range along each
/// common loop. Either op may be any op: one that is not an affine access
/// but touches memory gives [`DependenceResult::Failure`] with the reason.
pub fn check_memref_access_dependence(
    ctx: &Context,
    body: &Body,
    src: OpId,
    dst: OpId,
    loop_depth: usize,
    precision: Precision,
    components: bool,
) -> DependenceResult {
    MemRefAccesses::new().check(ctx, body, src, dst, loop_depth, precision, components)
}

/// Whether the iterations of the `affine.for` `for_op` are independent as
/// far as memory goes (MLIR's `isLoopMemoryParallel`): no memref-typed
/// result, no op inside with effects other than affine accesses and
/// allocations, and no dependence at the loop's depth between two accesses
/// to memrefs not allocated inside it.
pub fn is_loop_memory_parallel(ctx: &Context, body: &Body, for_op: OpId, precision: Precision) -> bool {
    MemRefAccesses::new().is_loop_memory_parallel(ctx, body, for_op, precision)
}

/// [`MemRefAccesses`] for the analysis manager: one per anchored function,
/// dropped when a pass changes the IR.
#[derive(Default)]
pub struct DependenceAnalysis {
    /// The cache.
    pub accesses: MemRefAccesses,
}

impl Analysis for DependenceAnalysis {
    const NAME: &'static str = "affine-dependence";

    fn compute(_op: &PassTarget<'_>) -> Self {
        DependenceAnalysis::default()
    }
}
