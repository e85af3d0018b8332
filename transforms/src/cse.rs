//! `cse`: common subexpression elimination.
//!
//! Walks each region along its dominator tree with a scoped table of the ops
//! seen so far; an op equal to one that dominates it (same name, operands,
//! result types, attributes and properties) is replaced by it. Ops nested in
//! a region see the ops of the enclosing blocks (they dominate them); ops of
//! isolated-from-above ops (functions inside a module) start with an empty
//! table. Side effects: ops with the `PURE` trait are candidates; ops known
//! to only read memory (`memref.load`, `affine.load`) are candidates too when
//! no op that may write memory lies between the two in the same block;
//! operands of commutative ops (`arith.addi`, ...) are compared in any order;
//! everything else is left alone. Trivially dead ops found on the way are
//! erased, as MLIR's CSE does. Ops with regions and terminators are not
//! merged; graph regions (a module's body) are not simplified.

use lf_ir::{Attribute, BlockId, Body, Context, OpId, OpName, RegionId, Traits, Type, Value};
use lf_pass::analysis::{AnalysisManager, DominanceInfo};
use lf_pass::pass::{Anchor, Pass, PassInfo, PassResult, PassTarget};
use lf_pass::rewrite::effects;
use rustc_hash::FxHashMap;

/// Registration of `cse`.
pub static INFO: PassInfo = PassInfo {
    name: "cse",
    summary: "Eliminate common sub-expressions",
    description: "Replaces an operation by an equal one (same name, operands, result types, attributes and \
properties) that dominates it, walking each region along its dominator tree, and erases trivially dead \
operations. Pure operations are merged; operations that only read memory (`memref.load`, `affine.load`) \
are merged when no operation that may write memory lies between the two in the same block. Nested \
regions see the operations of the enclosing blocks; isolated operations (functions in a module) are \
processed on their own. Matches `mlir-opt --cse` on lf's dialects.\n\nStatistics: `num-cse'd`, `num-dce'd`.",
    anchor: Anchor::Any,
    options: &[],
    create: |_| Ok(Box::new(Cse)),
};

/// The `cse` pass.
pub struct Cse;

impl Pass for Cse {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn class_name(&self) -> std::borrow::Cow<'static, str> {
        // MLIR's name of the pass, in IR dump headers.
        "CSE".into()
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let dom = am.get::<DominanceInfo>(op);
        let graph = op_is_graph(op.ctx(), op.op_name());
        let regions = op.regions().to_vec();
        let (ctx, body) = op.parts();
        let mut counts = Counts::default();
        cse_body(ctx, body, &regions, graph, &dom, &mut counts);
        op.add_statistic("num-cse'd", "Number of operations CSE'd", counts.cse);
        op.add_statistic("num-dce'd", "Number of operations DCE'd", counts.dce);
        if counts.cse + counts.dce == 0 {
            am.preserve_all();
        } else {
            // Only ops were erased: the blocks and their dominance stay.
            am.preserve::<DominanceInfo>();
        }
        Ok(())
    }
}

#[derive(Default)]
struct Counts {
    cse: u64,
    dce: u64,
}

fn op_is_graph(ctx: &Context, name: OpName) -> bool {
    ctx.op_def(name).is_some_and(|d| d.has(Traits::GRAPH_REGION))
}

/// What makes two ops equal.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    name: OpName,
    operands: Box<[Value]>,
    types: Box<[Type]>,
    attrs: Option<Attribute>,
    props: Option<Attribute>,
}

/// A hash table whose insertions are undone when a scope ends.
#[derive(Default)]
struct ScopedTable {
    map: FxHashMap<Key, OpId>,
    log: Vec<(Key, Option<OpId>)>,
}

impl ScopedTable {
    fn mark(&self) -> usize {
        self.log.len()
    }
    fn insert(&mut self, k: Key, op: OpId) {
        let old = self.map.insert(k.clone(), op);
        self.log.push((k, old));
    }
    fn pop_to(&mut self, mark: usize) {
        while self.log.len() > mark {
            let (k, old) = self.log.pop().expect("log entry");
            match old {
                Some(o) => self.map.insert(k, o),
                None => self.map.remove(&k),
            };
        }
    }
}

struct Cx<'a> {
    ctx: &'a Context,
    table: ScopedTable,
    erase: Vec<OpId>,
    counts: &'a mut Counts,
}

fn cse_body(ctx: &Context, body: &mut Body, roots: &[RegionId], graph: bool, dom: &DominanceInfo, counts: &mut Counts) {
    let mut cx = Cx {
        ctx,
        table: ScopedTable::default(),
        erase: Vec::new(),
        counts,
    };
    let mut isolated = Vec::new();
    for &r in roots {
        cx.region(body, r, !graph, dom, &mut isolated);
    }
    for &op in cx.erase.iter().rev() {
        // An op nested in an erased dead op went with it.
        if !body.is_erased(op) {
            body.erase_op(op);
        }
    }
    // Isolated ops nested here (functions, when running on a module): each
    // with a table of its own.
    for op in isolated {
        if body.is_erased(op) {
            continue;
        }
        let regions = body.regions(op).to_vec();
        let graph = op_is_graph(ctx, body.op_name(op));
        if let Some(nb) = body.nested_body_mut(op) {
            let d = DominanceInfo::compute_for(nb, &regions);
            cse_body(ctx, nb, &regions, graph, &d, cx.counts);
        }
    }
}

impl Cx<'_> {
    fn region(&mut self, body: &mut Body, r: RegionId, ssa: bool, dom: &DominanceInfo, isolated: &mut Vec<OpId>) {
        let Some(entry) = body.entry_block(r) else { return };
        if body.next_block(entry).is_none() {
            let m = self.table.mark();
            self.block(body, entry, ssa, dom, isolated);
            self.table.pop_to(m);
            return;
        }
        if !ssa {
            return;
        }
        // Dominator tree children of each block.
        let mut children: FxHashMap<BlockId, Vec<BlockId>> = FxHashMap::default();
        let blocks: Vec<BlockId> = body.region_blocks(r).collect();
        for &b in &blocks {
            if let Some(p) = dom.idom(body, b) {
                children.entry(p).or_default().push(b);
            }
        }
        // Pre-order walk of the tree with a scope per block (iterative).
        let mut stack: Vec<(BlockId, usize, usize)> = vec![(entry, 0, self.table.mark())];
        self.block(body, entry, ssa, dom, isolated);
        while let Some(top) = stack.last_mut() {
            let (b, i, mark) = *top;
            let kids = children.get(&b).map_or(&[][..], |v| v.as_slice());
            if i < kids.len() {
                top.1 += 1;
                let c = kids[i];
                let m = self.table.mark();
                self.block(body, c, ssa, dom, isolated);
                stack.push((c, 0, m));
            } else {
                self.table.pop_to(mark);
                stack.pop();
            }
        }
    }

    fn block(&mut self, body: &mut Body, b: BlockId, ssa: bool, dom: &DominanceInfo, isolated: &mut Vec<OpId>) {
        let ops: Vec<OpId> = body.block_ops(b).collect();
        for op in ops {
            if body.num_regions(op) > 0 {
                if body.nested_body(op).is_some() {
                    isolated.push(op);
                } else {
                    let graph = op_is_graph(self.ctx, body.op_name(op));
                    for r in body.regions(op).to_vec() {
                        self.region(body, r, ssa && !graph, dom, isolated);
                    }
                }
            }
            self.op(body, op, ssa);
        }
    }

    fn op(&mut self, body: &mut Body, op: OpId, ssa: bool) {
        let ctx = self.ctx;
        if body.nested_body(op).is_none() && effects::is_trivially_dead(ctx, body, op) {
            self.erase.push(op);
            self.counts.dce += 1;
            return;
        }
        if !ssa || body.num_regions(op) > 0 || body.num_results(op) == 0 {
            return;
        }
        let def = ctx.op_def(body.op_name(op));
        if def.is_none_or(|d| d.has(Traits::TERMINATOR)) {
            return;
        }
        let read_only = effects::is_read_only(ctx, body, op);
        if !read_only && !effects::is_effect_free(ctx, body, op) {
            return;
        }
        let mut operands: Box<[Value]> = body.operands(op).collect();
        if ctx.op_def(body.op_name(op)).is_some_and(|d| d.has(Traits::COMMUTATIVE)) {
            // `a + b` equals `b + a`: compare operands as a set (sorted).
            operands.sort_unstable();
        }
        let key = Key {
            name: body.op_name(op),
            operands,
            types: body.results(op).map(|v| body.value_type(v)).collect(),
            attrs: body.op_attrs(op),
            props: body.op_props(op),
        };
        match self.table.map.get(&key).copied() {
            Some(existing) if !read_only || !writes_between(ctx, body, existing, op) => {
                let olds: Vec<Value> = body.results(op).collect();
                for (i, v) in olds.into_iter().enumerate() {
                    let to = body.result(existing, i);
                    body.replace_all_uses(v, to);
                }
                self.erase.push(op);
                self.counts.cse += 1;
            }
            _ => self.table.insert(key, op),
        }
    }
}

/// Whether an op that may write memory lies between `from` and `to` (or
/// they are in different blocks).
fn writes_between(ctx: &Context, body: &Body, from: OpId, to: OpId) -> bool {
    if body.op_block(from) != body.op_block(to) {
        return true;
    }
    let mut cur = body.next_op(from);
    while let Some(o) = cur {
        if o == to {
            return false;
        }
        if !effects::is_effect_free(ctx, body, o) && !effects::is_read_only(ctx, body, o) {
            return true;
        }
        cur = body.next_op(o);
    }
    true
}
