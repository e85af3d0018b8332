//! The verifier: structure, terminators, SSA dominance, symbol uniqueness and
//! each op's own verifier.
//!
//! Each body is checked on its own; the nested bodies of isolated ops
//! (functions) are verified in parallel with rayon. The error reported is the
//! first one in program order, whatever the number of threads.

use crate::dominance::RegionDominance;
use crate::registry::{OpDef, Traits};
use crate::{Body, Context, Location, OpId, RegionId, Value};
use lf_diag::Diagnostic;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

type VResult = Result<(), Box<Diagnostic>>;

/// Verifies `op` of `body` and everything nested in it.
pub fn verify(ctx: &Context, body: &Body, op: OpId) -> VResult {
    let def = ctx.op_def(body.op_name(op));
    let mut v = Verifier::new(ctx, body, None);
    v.verify_op(op)?;
    if let Some(nested) = body.nested_body(op) {
        verify_body(ctx, nested, def, body.op_loc(op))?;
    } else {
        for r in body.regions(op).to_vec() {
            v.verify_region(r, def)?;
        }
        v.verify_isolated_children()?;
    }
    // The op's checks of its regions, once they verified (the top-level
    // module's check of its symbol users).
    match def.and_then(|d| d.verify_regions) {
        Some(f) => f(ctx, body, op).map_err(Box::new),
        None => Ok(()),
    }
}

/// Verifies `nested`, the body nested in an isolated op (a function) named
/// `owner` at `owner_loc`: its blocks, ops and dominance, and everything
/// below. The op's own checks are [`verify_isolated_op`]'s; together the two
/// are what must hold after a pass ran on the op. The pass manager calls
/// this one in the task that ran the pass, while the body is still in cache
/// (the op's parent body is not at hand there).
pub fn verify_nested_body(ctx: &Context, owner: crate::OpName, owner_loc: Location, nested: &Body) -> VResult {
    verify_body(ctx, nested, ctx.op_def(owner), owner_loc)
}

/// Verifies the isolated op `op` of `body` itself: its traits, attributes,
/// properties, its own verifier and its checks of its regions
/// (`verify_regions`), but not its operands' dominance (its parent's
/// concern) nor the ops nested in it ([`verify_nested_body`]). Its cost does
/// not grow with the size of `body`.
pub fn verify_isolated_op(ctx: &Context, body: &Body, op: OpId) -> VResult {
    let mut v = Verifier::new(ctx, body, None);
    v.verify_op(op)?;
    match ctx.op_def(body.op_name(op)).and_then(|d| d.verify_regions) {
        Some(f) => f(ctx, body, op).map_err(Box::new),
        None => Ok(()),
    }
}

/// Verifies a nested body whose root regions belong to an op with `owner`.
fn verify_body(ctx: &Context, body: &Body, owner: Option<&'static OpDef>, owner_loc: Location) -> VResult {
    let mut v = Verifier::new(ctx, body, owner);
    v.root_loc = Some(owner_loc);
    let roots: Vec<RegionId> = (0..body.regions.len() as u32)
        .map(RegionId)
        .filter(|r| body.region_parent(*r).is_none())
        .collect();
    for r in roots {
        v.verify_region(r, owner)?;
    }
    v.verify_isolated_children()
}

struct Verifier<'a> {
    ctx: &'a Context,
    body: &'a Body,
    /// The op owning the body's root regions.
    root_owner: Option<&'static OpDef>,
    /// The location of the op owning this body's root regions.
    root_loc: Option<Location>,
    /// Position of each op visited so far in program order (pre-order,
    /// from 1), numbered as the walk reaches it; 0 for ops not reached yet.
    order: Vec<u32>,
    /// Ops numbered so far.
    visited: u32,
    doms: FxHashMap<RegionId, RegionDominance>,
}

impl<'a> Verifier<'a> {
    fn new(ctx: &'a Context, body: &'a Body, root_owner: Option<&'static OpDef>) -> Self {
        Verifier {
            ctx,
            body,
            root_owner,
            root_loc: None,
            // Sized on first use: checking one op alone needs no order.
            order: Vec::new(),
            visited: 0,
            doms: FxHashMap::default(),
        }
    }

    fn err(&self, op: OpId, msg: String) -> Box<Diagnostic> {
        let name = self.ctx.op_name_str(self.body.op_name(op));
        Box::new(Diagnostic::error(
            self.body.op_loc(op).source_pos(self.ctx),
            format!("'{name}' op {msg}"),
        ))
    }

    fn err_with_op_note(&self, op: OpId, msg: String) -> Box<Diagnostic> {
        let summary = crate::printer::op_summary(self.ctx, self.body, op);
        let d = *self.err(op, msg);
        Box::new(d.with_note(
            self.body.op_loc(op).source_pos(self.ctx),
            format!("see current operation: {summary}"),
        ))
    }

    fn region_owner(&self, r: RegionId) -> (Option<OpId>, Option<&'static OpDef>) {
        match self.body.region_parent(r) {
            Some(p) => (Some(p), self.ctx.op_def(self.body.op_name(p))),
            None => (None, self.root_owner),
        }
    }

    /// Checks of the op itself (not its regions).
    fn verify_op(&mut self, op: OpId) -> VResult {
        self.verify_op_of(op, self.ctx.op_def(self.body.op_name(op)))
    }

    /// [`Self::verify_op`] given the op's definition (`None` for an
    /// unregistered op), which the region walk has looked up already.
    fn verify_op_of(&mut self, op: OpId, def: Option<&'static OpDef>) -> VResult {
        let ctx = self.ctx;
        let body = self.body;
        match def {
            None => {
                let name = ctx.op_name_str(body.op_name(op));
                let dialect = name.split_once('.').map_or(name, |(d, _)| d);
                if ctx.is_dialect_registered(dialect) {
                    let msg = format!(
                        "unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
                    );
                    return Err(Box::new(Diagnostic::error(body.op_loc(op).source_pos(ctx), msg)));
                }
            }
            Some(def) => {
                if !def.parents.is_empty() {
                    let parent = match body.op_block(op).and_then(|b| body.block_region(b)) {
                        Some(r) => self.region_owner(r).1.map(|d| d.name),
                        None => None,
                    };
                    if parent.is_some_and(|p| !def.parents.contains(&p)) {
                        // MLIR quotes the list once: 'a' or 'a, b, c'.
                        let list = def.parents.join(", ");
                        let one_of = if def.parents.len() > 1 { "to be one of " } else { "" };
                        return Err(self.err(op, format!("expects parent op {one_of}'{list}'")));
                    }
                }
                if def.declared {
                    crate::ods::verify::verify_declared(ctx, body, op, def).map_err(Box::new)?;
                } else if let Some(f) = def.verify_local {
                    f(ctx, body, op).map_err(Box::new)?;
                }
                if let Some(f) = def.verify {
                    f(ctx, body, op).map_err(Box::new)?;
                }
                if def.has(Traits::SYMBOL_TABLE) {
                    self.verify_symbol_table(op)?;
                }
            }
        }
        // As MLIR, on entering the op: no branch may target the entry block of one of its
        // regions (successors are on the last op of a block, checked below).
        let rb = body.regions_body(op);
        for &r in body.regions(op) {
            if let Some(entry) = rb.entry_block(r) {
                let branches_to_entry = rb
                    .region_blocks(r)
                    .any(|b| rb.last_op(b).is_some_and(|t| rb.successors(t).contains(&entry)));
                if branches_to_entry {
                    let msg = "entry block of region may not have predecessors".to_string();
                    return Err(Box::new(Diagnostic::error(body.op_loc(op).source_pos(ctx), msg)));
                }
            }
        }
        let region = body.op_block(op).and_then(|b| body.block_region(b));
        for s in body.successors(op) {
            if body.block_region(*s) != region {
                return Err(self.err(op, "reference to block defined in another region".into()));
            }
        }
        Ok(())
    }

    fn verify_symbol_table(&self, op: OpId) -> VResult {
        let ctx = self.ctx;
        let rb = self.body.regions_body(op);
        for &r in self.body.regions(op) {
            let mut seen: FxHashMap<crate::Ident, OpId> = FxHashMap::default();
            for (name, sym_op) in crate::symbols::symbols_in(ctx, rb, r) {
                if let Some(prev) = seen.insert(name, sym_op) {
                    let msg = format!("redefinition of symbol named '{}'", ctx.ident_str(name));
                    let d = Diagnostic::error(rb.op_loc(sym_op).source_pos(ctx), msg).with_note(
                        rb.op_loc(prev).source_pos(ctx),
                        "see existing symbol definition here".to_string(),
                    );
                    return Err(Box::new(d));
                }
            }
        }
        Ok(())
    }

    /// An error about a region, at its op (without the op's name, as MLIR).
    fn region_error(&self, r: RegionId, msg: &str) -> Box<Diagnostic> {
        let loc = match self.body.region_parent(r) {
            Some(p) => Some(self.body.op_loc(p)),
            None => self.root_loc,
        };
        Box::new(Diagnostic::error(
            loc.and_then(|l| l.source_pos(self.ctx)),
            msg.to_string(),
        ))
    }

    /// Verifies the blocks and ops of a region of this body, not descending
    /// into nested bodies.
    fn verify_region(&mut self, r: RegionId, owner: Option<&'static OpDef>) -> VResult {
        let body = self.body;
        let needs_terminator = owner.is_some_and(|d| !d.has(Traits::NO_TERMINATOR));
        // As MLIR's `mayBeGraphRegion`: the regions of unregistered ops may be graph regions.
        let graph = owner.is_none_or(|d| d.has(Traits::GRAPH_REGION));
        if owner.is_some_and(|d| d.has(Traits::SINGLE_BLOCK)) && body.region_blocks(r).nth(1).is_some() {
            // MLIR's SingleBlock trait: an op error naming the region.
            let name = owner.map_or("", |d| d.name);
            let msg = format!(
                "'{name}' op expects region #{} to have 0 or 1 blocks",
                body.region_index(r)
            );
            return Err(self.region_error(r, &msg));
        }
        for b in body.region_blocks(r) {
            match body.last_op(b) {
                None if needs_terminator => {
                    return Err(self.region_error(r, "empty block: expect at least a terminator"))
                }
                Some(last) if needs_terminator => {
                    let is_term = self
                        .ctx
                        .op_def(body.op_name(last))
                        .is_none_or(|d| d.has(Traits::TERMINATOR));
                    if !is_term {
                        return Err(self.err_with_op_note(last, "block with no terminator".to_string()));
                    }
                }
                _ => {}
            }
            let last = body.last_op(b);
            for op in body.block_ops(b) {
                let def = self.ctx.op_def(body.op_name(op));
                if Some(op) != last && def.is_some_and(|d| d.has(Traits::TERMINATOR)) {
                    return Err(self.err(op, "must be the last operation in the parent block".into()));
                }
                if Some(op) != last && !body.successors(op).is_empty() {
                    let msg = "operation with block successors must terminate its parent block";
                    return Err(Box::new(Diagnostic::error(body.op_loc(op).source_pos(self.ctx), msg)));
                }
                self.visited += 1;
                if self.order.is_empty() {
                    self.order = vec![0u32; body.ops.len()];
                }
                self.order[op.index()] = self.visited;
                self.verify_op_of(op, def)?;
                for (i, v) in body.operands(op).enumerate() {
                    if !self.dominates(v, op, graph) {
                        return Err(self.dominance_error(op, i, v));
                    }
                }
                if body.nested_body(op).is_none() {
                    for &inner in body.regions(op) {
                        self.verify_region(inner, def)?;
                    }
                    if let Some(f) = def.and_then(|d| d.verify_regions) {
                        f(self.ctx, body, op).map_err(Box::new)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn dominance_error(&self, op: OpId, i: usize, v: Value) -> Box<Diagnostic> {
        let mut d = *self.err(op, format!("operand #{i} does not dominate this use"));
        if let Some(def) = self.body.defining_op(v) {
            d = d.with_note(
                self.body.op_loc(def).source_pos(self.ctx),
                "operand defined here".to_string(),
            );
        }
        Box::new(d)
    }

    /// Whether `v` properly dominates its use by `user` (both in this body).
    fn dominates(&mut self, v: Value, user: OpId, user_region_is_graph: bool) -> bool {
        let body = self.body;
        let Some(def_block) = body.value_block(v) else {
            return false;
        };
        let Some(def_region) = body.block_region(def_block) else {
            return false;
        };
        // The ancestor of `user` that sits in `def_region`.
        let mut a = user;
        let mut nested = false;
        loop {
            let Some(ab) = body.op_block(a) else { return false };
            if body.block_region(ab) == Some(def_region) {
                break;
            }
            match body.parent_op(a) {
                Some(p) => {
                    a = p;
                    nested = true;
                }
                None => return false,
            }
        }
        let graph = if nested {
            self.region_owner(def_region)
                .1
                .is_none_or(|d| d.has(Traits::GRAPH_REGION))
        } else {
            user_region_is_graph
        };
        // As MLIR, a graph region only lets uses and definitions of one block come in any
        // order; across blocks the dominator tree decides.
        let a_block = body.op_block(a).expect("ancestor is in a block");
        if a_block == def_block {
            if graph {
                return true;
            }
            return match body.defining_op(v) {
                None => true,
                // `a` is being verified: a definition before it in its block has been reached.
                Some(d) => {
                    let pos = |o: OpId| self.order.get(o.index()).copied().unwrap_or(0);
                    d != a && pos(d) != 0 && pos(d) < pos(a)
                }
            };
        }
        let dom = self
            .doms
            .entry(def_region)
            .or_insert_with(|| RegionDominance::compute(body, def_region));
        dom.dominates(def_block, a_block)
    }

    /// Verifies the nested bodies of the isolated ops of this body, in parallel.
    fn verify_isolated_children(&self) -> VResult {
        let ctx = self.ctx;
        let body = self.body;
        let children: Vec<(OpId, &Body)> = body
            .nested
            .iter()
            .filter(|n| body.ops[n.op as usize].parent != crate::entity::NONE)
            .filter_map(|n| n.body.as_deref().map(|b| (OpId(n.op), b)))
            .collect();
        let mut failures: Vec<(u32, Box<Diagnostic>)> = children
            .par_iter()
            .with_max_len(1)
            .filter_map(|(op, n)| {
                let def = ctx.op_def(body.op_name(*op));
                verify_body(ctx, n, def, body.op_loc(*op))
                    .and_then(|()| match def.and_then(|d| d.verify_regions) {
                        Some(f) => f(ctx, body, *op).map_err(Box::new),
                        None => Ok(()),
                    })
                    .err()
                    .map(|e| (self.path_key(*op), e))
            })
            .collect();
        failures.sort_by_key(|f| f.0);
        match failures.into_iter().next() {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }

    /// A key that orders ops of this body in program order (called once
    /// every op of the body has been reached).
    fn path_key(&self, op: OpId) -> u32 {
        self.order.get(op.index()).copied().unwrap_or(0)
    }
}
