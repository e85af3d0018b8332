//! Memory accesses and their access relations (MLIR's `MemRefAccess`,
//! `getAccessMap`, `getRelationFromMap`, `getAccessRelation`): the relation
//! from the iteration domain of an `affine.load`/`affine.store` to the
//! elements it touches, with MLIR's order of columns and rows.

use super::cst::{BuildError, ValueCst};
use super::domain::{enclosing_affine_ops, index_set};
use super::flatten::flatten_exprs;
use super::subscript_test::{subscript_forms, Side, SubscriptForm};
use crate::affine::utils::canonicalize_map_and_operands;
use crate::affine::utils::map_composition::apply_producer;
use crate::affine::{AffineLoadOp, AffineStoreOp};
use lf_ir::affine::AffineMap;
use lf_ir::view::{IrRef, OpView};
use lf_ir::{Body, Context, OpId, Value};
use lf_presburger::{IntegerRelation, LocalRepr, VarKind};

/// An access relation: domain columns (the loop variables around the
/// access, outermost first), range columns (the subscripts), symbols (with
/// their values), locals.
#[derive(Clone, Debug)]
pub(crate) struct AccessRelation {
    pub rel: IntegerRelation,
    pub symbols: Vec<Option<Value>>,
    /// The division representations of `rel`'s locals, found on first use
    /// (every dependence check of a pair with locals merges them).
    reprs: std::sync::OnceLock<Vec<Option<LocalRepr>>>,
    /// The subscripts as affine forms, found on first use (the quick test
    /// of [`super::subscript_test`]).
    forms: std::sync::OnceLock<Vec<Option<SubscriptForm>>>,
}

impl AccessRelation {
    /// An access relation over `rel`, its symbols' values `symbols`.
    pub fn new(rel: IntegerRelation, symbols: Vec<Option<Value>>) -> Self {
        AccessRelation {
            rel,
            symbols,
            reprs: std::sync::OnceLock::new(),
            forms: std::sync::OnceLock::new(),
        }
    }

    /// [`IntegerRelation::local_reprs_fm`] of the relation, found once.
    pub fn local_reprs(&self) -> &[Option<LocalRepr>] {
        self.reprs.get_or_init(|| self.rel.local_reprs_fm())
    }

    /// The relation's subscripts as the quick test of
    /// [`super::subscript_test`] needs them ([`subscript_forms`], found
    /// once).
    pub fn subscript_side(&self) -> Side<'_> {
        Side {
            forms: self.forms.get_or_init(|| subscript_forms(self)),
            symbols: &self.symbols,
            dims: self.rel.num_domain_vars(),
        }
    }
}

/// What the analysis knows of one affine access.
#[derive(Clone, Debug)]
pub(crate) struct AccessInfo {
    pub op: OpId,
    pub memref: Value,
    pub is_write: bool,
    /// The loop variables of the iteration domain (its dimensions).
    pub dims: Vec<Value>,
    /// The access relation, or why it could not be built.
    pub relation: Result<AccessRelation, BuildError>,
}

/// The memref, map and map operands of an `affine.load` or `affine.store`.
pub(crate) fn affine_access(ctx: &Context, body: &Body, op: OpId) -> Option<(Value, bool, AffineMap, Vec<Value>)> {
    let ir = IrRef { ctx, body };
    if let Some(l) = AffineLoadOp::cast(&ir, op) {
        return Some((l.memref(&ir), false, l.map(&ir).clone(), l.indices(&ir).to_vec()));
    }
    if let Some(s) = AffineStoreOp::cast(&ir, op) {
        return Some((s.memref(&ir), true, s.map(&ir).clone(), s.indices(&ir).to_vec()));
    }
    None
}

/// The iteration domain of the ops inside `parent` (the `affine.for`,
/// `affine.if` or `affine.parallel` around them, `None` for none), as
/// [`index_set`] builds it; the same for every access there, so
/// [`access_info`] asks `domain_of` (a cache) rather than rebuilding it.
pub(crate) type Domain = Result<ValueCst, BuildError>;

/// The iteration domain of the accesses in the block of `first_child`
/// (`sound_else`: see [`index_set`]).
pub(crate) fn domain_inside(ctx: &Context, body: &Body, first_child: OpId, sound_else: bool) -> Domain {
    index_set(
        ctx,
        body,
        &enclosing_affine_ops(ctx, body, first_child),
        first_child,
        sound_else,
    )
}

/// The analysis of an affine access (`None` for other ops). `domain_of`
/// gives the iteration domain of an op ([`domain_inside`], cached).
pub(crate) fn access_info(
    ctx: &Context,
    body: &Body,
    op: OpId,
    domain_of: impl FnOnce(OpId) -> Domain,
) -> Option<AccessInfo> {
    let (memref, is_write, map, indices) = affine_access(ctx, body, op)?;
    let (dims, relation) = match domain_of(op) {
        Ok(domain) => {
            let dims: Vec<Value> = domain.ids[..domain.num_dims()]
                .iter()
                .map(|v| v.expect("loop variable"))
                .collect();
            let rel = access_relation(ctx, body, domain, &map, &indices);
            (dims, rel)
        }
        Err(e) => (
            super::domain::loop_ivs(ctx, body, &enclosing_affine_ops(ctx, body, op)),
            Err(e),
        ),
    };
    Some(AccessInfo {
        op,
        memref,
        is_write,
        dims,
        relation,
    })
}

/// The access map of an affine access with its operands, as MLIR's
/// `MemRefAccess::getAccessMap` makes it: `map` over `indices` composed
/// with the `affine.apply` ops that produce them, canonicalized and
/// simplified (`indices` must be as many as the map's inputs).
pub(crate) fn access_map(ctx: &Context, body: &Body, map: &AffineMap, indices: &[Value]) -> (AffineMap, Vec<Value>) {
    // getAccessMap: composed with affine.apply producers and canonicalized.
    let (map, operands) = match canonicalize_map_and_operands(ctx, body, map, indices) {
        Some((m, o)) => (m, o),
        None => (map.clone(), indices.to_vec()),
    };
    // After composing `affine.apply` producers (which ends with its own
    // canonicalization and simplification), getAccessMap simplifies and
    // canonicalizes once more. Simplification is not idempotent (a `mod`
    // of an expression holding a `mod` comes out expanded the first time
    // and folded back the second), so the second round changes the system.
    if indices.iter().any(|&v| apply_producer(ctx, body, v).is_some()) {
        let simplified = map.simplify();
        canonicalize_map_and_operands(ctx, body, &simplified, &operands).unwrap_or((simplified, operands))
    } else {
        (map, operands)
    }
}

fn access_relation(
    ctx: &Context,
    body: &Body,
    domain: ValueCst,
    map: &AffineMap,
    indices: &[Value],
) -> Result<AccessRelation, BuildError> {
    if indices.len() != map.num_inputs() as usize {
        return Err(BuildError::Unsupported(
            "an access map with the wrong number of operands",
        ));
    }
    let (map, operands) = access_map(ctx, body, map, indices);
    let nd = map.num_dims() as usize;
    let ns = map.num_symbols() as usize;
    let nr = map.num_results();
    // getRelationFromMap: a set [map dims, results, symbols, locals].
    let f = flatten_exprs(map.results(), nd, ns)?;
    let nl = f.local_cst.num_local_vars();
    let mut rel = IntegerRelation::new(nd + nr, ns);
    rel.append_vars(VarKind::Local, nl);
    let widen = |r: &[i64]| -> Vec<i64> {
        let mut row = Vec::with_capacity(r.len() + nr);
        row.extend_from_slice(&r[..nd]);
        row.extend(std::iter::repeat_n(0, nr));
        row.extend_from_slice(&r[nd..]);
        row
    };
    for r in f.local_cst.inequalities() {
        rel.add_inequality(&widen(r));
    }
    for (i, flat) in f.rows.iter().enumerate() {
        let mut row = widen(flat);
        row[nd + i] = -1;
        rel.add_equality(&row);
    }
    let mut ids: Vec<Option<Value>> = operands[..nd].iter().map(|&v| Some(v)).collect();
    ids.extend(std::iter::repeat_n(None, nr));
    ids.extend(operands[nd..].iter().map(|&v| Some(v)));
    let mut rel = ValueCst { rel, ids };
    // Align the map's dimensions with the domain's.
    let d = domain.num_dims();
    let mut inserts = 0;
    for i in 0..d {
        let id = domain.ids[i];
        let found = (i..rel.num_dims()).find(|&k| rel.ids[k].is_some() && rel.ids[k] == id);
        match found {
            Some(k) => rel.swap_var(i, k),
            None => {
                rel.insert_var(VarKind::Range, i, &[id]);
                inserts += 1;
            }
        }
    }
    if nd + inserts != d {
        return Err(BuildError::Unsupported(
            "a subscript dimension that is not a surrounding loop variable",
        ));
    }
    let mut drel = domain;
    let n = drel.num_dims();
    drel.insert_var(VarKind::Range, n, &vec![None; nr]);
    drel.merge_symbols(&mut rel);
    drel.rel.merge_local_vars_fm(&mut rel.rel)?;
    rel.append(&drel.rel);
    super::check_size(&rel.rel)?;
    rel.rel.move_vars_fm(VarKind::Range, 0, d, VarKind::Domain, 0);
    let symbols = rel.ids[d + nr..].to_vec();
    Ok(AccessRelation::new(rel.rel, symbols))
}
