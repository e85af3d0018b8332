//! Conflicting instance pairs of two affine accesses, for transformations
//! that reorder whole nests (fusion): the set of pairs (source iteration,
//! destination iteration) at which the two accesses touch the same element,
//! without ordering constraints, over
//! `[src loop vars | dst loop vars | symbols | locals]`. A pass adds its own
//! constraints (a lexicographic order, a slice) and asks whether a point
//! remains, with exact integer answers.

use super::dependence::compose;
use super::MemRefAccesses;
use lf_ir::{Body, Context, OpId, Value};
use lf_presburger::IntegerRelation;

/// The pairs of iterations at which a source and a destination access touch
/// the same element.
#[derive(Clone, Debug)]
pub struct ConflictSystem {
    /// The polyhedron: `[src dims | dst dims | symbols | locals | const]`.
    pub poly: IntegerRelation,
    /// The source's dimensions (its loop variables, outermost first).
    pub src_dims: Vec<Value>,
    /// The destination's dimensions.
    pub dst_dims: Vec<Value>,
}

impl ConflictSystem {
    /// The column of the source dimension `v`.
    pub fn src_col(&self, v: Value) -> Option<usize> {
        self.src_dims.iter().position(|d| *d == v)
    }

    /// The column of the destination dimension `v`.
    pub fn dst_col(&self, v: Value) -> Option<usize> {
        self.dst_dims
            .iter()
            .position(|d| *d == v)
            .map(|p| p + self.src_dims.len())
    }

    /// The number of columns of a constraint row (the last is the constant).
    pub fn num_cols(&self) -> usize {
        self.poly.num_cols()
    }

    /// Whether some pair also satisfies `eqs` (`row . (vars, 1) == 0`) and
    /// `ineqs` (`>= 0`): exact. `Err` with a reason when undecided.
    pub fn feasible_with(&self, eqs: &[Vec<i64>], ineqs: &[Vec<i64>]) -> Result<bool, String> {
        let mut p = self.poly.clone();
        for r in eqs {
            p.add_equality(r);
        }
        for r in ineqs {
            p.add_inequality(r);
        }
        p.is_empty().map(|e| !e).map_err(|e| e.to_string())
    }
}

impl MemRefAccesses {
    /// The conflicting pairs of `src` and `dst` (affine loads or stores):
    /// `Ok(None)` when they cannot conflict (different memrefs, or both
    /// read); `Err` with a reason when the system cannot be built (a
    /// dependence must then be assumed).
    pub fn conflict_system(
        &self,
        ctx: &Context,
        body: &Body,
        src: OpId,
        dst: OpId,
    ) -> Result<Option<ConflictSystem>, String> {
        let (Some(s), Some(d)) = (self.info(ctx, body, src), self.info(ctx, body, dst)) else {
            return Err("an access is not an affine load or store".into());
        };
        if s.memref != d.memref || (!s.is_write && !d.is_write) {
            return Ok(None);
        }
        let (sr, dr) = match (&s.relation, &d.relation) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => return Err(super::describe(e)),
        };
        let mut poly = compose(sr, dr).map_err(|e| e.to_string())?;
        super::check_size(&poly).map_err(|e| super::describe(&e))?;
        // A loop around both runs them in the same iteration.
        let n_src = s.dims.len();
        for (i, v) in s.dims.iter().enumerate() {
            if let Some(j) = d.dims.iter().position(|w| w == v) {
                let mut row = vec![0; poly.num_cols()];
                row[i] = 1;
                row[n_src + j] = -1;
                poly.add_equality(&row);
            }
        }
        Ok(Some(ConflictSystem {
            poly,
            src_dims: s.dims.clone(),
            dst_dims: d.dims.clone(),
        }))
    }
}
