//! Analyses of affine loops.
//!
//! TEMPORARY: `Precision`, `MemRefAccesses` and `DependenceAnalysis` below
//! stand in for the dependence analysis of branch `dependence` (same API)
//! until it is merged; the stand-in calls a loop memory-parallel only when
//! nothing in it touches memory.

pub mod loop_parallel;
pub mod reductions;

use lf_ir::interfaces::is_memory_effect_free;
use lf_ir::types::TypeData;
use lf_ir::{Body, Context, OpId};
use lf_pass::analysis::Analysis;
use lf_pass::pass::PassTarget;

/// How dependence questions are answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    /// MLIR's answers.
    MlirCompatible,
    /// Exact integer answers.
    #[default]
    Exact,
}

/// A per-function cache of the dependence checks.
#[derive(Default)]
pub struct MemRefAccesses;

impl MemRefAccesses {
    /// An empty cache.
    pub fn new() -> MemRefAccesses {
        MemRefAccesses
    }

    /// Whether the iterations of `for_op` are independent as far as memory goes.
    pub fn is_loop_memory_parallel(&self, ctx: &Context, body: &Body, for_op: OpId, _precision: Precision) -> bool {
        let memref_result = body.results(for_op).any(|r| {
            matches!(
                ctx.type_data(body.value_type(r)),
                TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. }
            )
        });
        !memref_result && is_memory_effect_free(ctx, body, for_op)
    }
}

/// Whether the iterations of `for_op` are independent as far as memory goes.
pub fn is_loop_memory_parallel(ctx: &Context, body: &Body, for_op: OpId, precision: Precision) -> bool {
    MemRefAccesses::new().is_loop_memory_parallel(ctx, body, for_op, precision)
}

/// [`MemRefAccesses`] for the analysis manager.
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
