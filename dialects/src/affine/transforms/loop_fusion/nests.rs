//! The loop nests of one block, indexed by the memrefs they touch (MLIR's
//! `MemRefDependenceGraph`, without its all-pairs edges): which nests read
//! and write each memref, by position, so that the producers and siblings
//! of a nest, and whatever lies between two nests, are found with ordered
//! set lookups.

use super::{FusionMode, LoopFusion};
use crate::affine::{AffineForOp, AffineLoadOp, AffineStoreOp};
use crate::memref::{MemrefAllocOp, MemrefAllocaOp};
use lf_ir::builder::Builder;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::OpView;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{BlockId, Body, Context, OpId, Value, ValueDef};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;

/// The affine accesses of a nest to one memref.
#[derive(Clone, Debug, Default)]
pub(super) struct Accesses {
    pub reads: Vec<OpId>,
    pub writes: Vec<OpId>,
}

/// A top-level loop nest of the block.
#[derive(Clone, Debug)]
pub(super) struct Nest {
    pub root: AffineForOp,
    /// Its accesses, by memref (in the order first seen).
    pub by_memref: FxHashMap<Value, Accesses>,
    /// Why it cannot take part in a fusion, if it cannot.
    pub unfusable: Option<String>,
    pub alive: bool,
}

impl Nest {
    pub fn reads(&self, m: Value) -> bool {
        self.by_memref.get(&m).is_some_and(|a| !a.reads.is_empty())
    }

    pub fn writes(&self, m: Value) -> bool {
        self.by_memref.get(&m).is_some_and(|a| !a.writes.is_empty())
    }
}

/// Which positions read and write a memref.
#[derive(Clone, Debug, Default)]
pub(super) struct MemrefUsers {
    pub readers: BTreeSet<usize>,
    pub writers: BTreeSet<usize>,
}

/// The nests of a block and their index.
pub(super) struct BlockState {
    pub block: BlockId,
    /// Top-level ops of the block, by position.
    pub ops: Vec<OpId>,
    pub nests: FxHashMap<usize, Nest>,
    pub index: FxHashMap<Value, MemrefUsers>,
    /// Positions of ops with memory effects the index cannot describe.
    pub barriers: BTreeSet<usize>,
    pub position: FxHashMap<OpId, usize>,
}

/// Whether `v` is a memref the analysis can tell apart from every other:
/// an argument of the function's entry block or an allocation.
fn distinct_memref(ctx: &Context, body: &Body, v: Value) -> bool {
    match body.value_def(v) {
        // An argument of the function's own body (its root region has no
        // parent op in the body).
        ValueDef::BlockArg { block, .. } => match body.block_region(block).map(|r| body.region_parent(r)) {
            Some(None) => true,
            Some(Some(p)) => crate::func::FuncFuncOp::isa(&(ctx, body), p),
            None => false,
        },
        ValueDef::OpResult { op, .. } => {
            let ir = (ctx, body);
            MemrefAllocOp::isa(&ir, op) || MemrefAllocaOp::isa(&ir, op)
        }
    }
}

/// The accesses of the nest `root` by memref, and why it cannot be fused
/// if it cannot.
pub(super) fn nest_info(ctx: &Context, body: &Body, root: AffineForOp) -> Nest {
    let ir = (ctx, body);
    let mut by_memref: FxHashMap<Value, Accesses> = FxHashMap::default();
    let mut unfusable = None;
    if body.num_results(root.op()) > 0 {
        unfusable = Some("the nest has results".to_string());
    }
    walk(body, root.op(), WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        if let Some(l) = AffineLoadOp::cast(&ir, op) {
            let m = l.memref(&ir);
            if !distinct_memref(ctx, body, m) && unfusable.is_none() {
                unfusable = Some("an access is to a memref that is not an argument or an allocation".into());
            }
            by_memref.entry(m).or_default().reads.push(op);
            return WalkControl::Advance;
        }
        if let Some(s) = AffineStoreOp::cast(&ir, op) {
            let m = s.memref(&ir);
            if !distinct_memref(ctx, body, m) && unfusable.is_none() {
                unfusable = Some("an access is to a memref that is not an argument or an allocation".into());
            }
            by_memref.entry(m).or_default().writes.push(op);
            return WalkControl::Advance;
        }
        if !body.regions(op).is_empty() && !is_affine_structure(ctx, body, op) && unfusable.is_none() {
            let name = ctx.op_name_str(body.op_name(op));
            unfusable = Some(format!("'{name}' in the nest is not an affine loop or condition"));
        }
        if body.regions(op).is_empty() {
            let bad = match memory_effects(ctx, body, op) {
                None => true,
                Some(e) => e.iter().any(|e| e.effect != Effect::Alloc),
            };
            if bad && unfusable.is_none() {
                let name = ctx.op_name_str(body.op_name(op));
                unfusable = Some(format!(
                    "'{name}' in the nest touches memory and is not an affine access"
                ));
            }
        }
        WalkControl::Advance
    });
    Nest {
        root,
        by_memref,
        unfusable,
        alive: true,
    }
}

fn is_affine_structure(ctx: &Context, body: &Body, op: OpId) -> bool {
    let ir = (ctx, body);
    AffineForOp::isa(&ir, op) || crate::affine::AffineIfOp::isa(&ir, op)
}

impl BlockState {
    /// Indexes the nests of `block`.
    pub fn new(b: &Builder<'_>, block: BlockId) -> BlockState {
        let (ctx, body) = (b.ctx(), b.body());
        let ir = (ctx, body);
        let mut st = BlockState {
            block,
            ops: Vec::new(),
            nests: FxHashMap::default(),
            index: FxHashMap::default(),
            barriers: BTreeSet::new(),
            position: FxHashMap::default(),
        };
        for (pos, op) in body.block_ops(block).enumerate() {
            st.ops.push(op);
            st.position.insert(op, pos);
            if let Some(f) = AffineForOp::cast(&ir, op) {
                let nest = nest_info(ctx, body, f);
                st.register(pos, &nest);
                if nest.unfusable.is_some() {
                    st.barriers.insert(pos);
                }
                st.nests.insert(pos, nest);
                continue;
            }
            if !body.regions(op).is_empty() {
                st.barriers.insert(pos);
                continue;
            }
            match memory_effects(ctx, body, op) {
                None => {
                    st.barriers.insert(pos);
                }
                Some(effects) => {
                    for e in effects {
                        match (e.effect, e.value) {
                            (Effect::Alloc, _) => {}
                            (_, None) => {
                                st.barriers.insert(pos);
                            }
                            (Effect::Read, Some(v)) => {
                                st.index.entry(v).or_default().readers.insert(pos);
                            }
                            (_, Some(v)) => {
                                st.index.entry(v).or_default().writers.insert(pos);
                            }
                        }
                    }
                }
            }
        }
        st
    }

    /// Adds a nest's accesses to the index at `pos`.
    pub fn register(&mut self, pos: usize, nest: &Nest) {
        for (m, a) in &nest.by_memref {
            let u = self.index.entry(*m).or_default();
            if !a.reads.is_empty() {
                u.readers.insert(pos);
            }
            if !a.writes.is_empty() {
                u.writers.insert(pos);
            }
        }
    }

    /// Removes a nest's accesses from the index at `pos`.
    pub fn unregister(&mut self, pos: usize, nest: &Nest) {
        for m in nest.by_memref.keys() {
            if let Some(u) = self.index.get_mut(m) {
                u.readers.remove(&pos);
                u.writers.remove(&pos);
            }
        }
    }

    /// A fusable nest alive at `pos`.
    fn fusable(&self, pos: usize) -> bool {
        self.nests.get(&pos).is_some_and(|n| n.alive && n.unfusable.is_none())
    }

    /// The closest producers of the nest at `dst`: for each memref it reads,
    /// the last earlier position writing it, closest first.
    fn producers(&self, dst: usize) -> Vec<usize> {
        let nest = &self.nests[&dst];
        let mut out: Vec<usize> = nest
            .by_memref
            .iter()
            .filter(|(_, a)| !a.reads.is_empty())
            .filter_map(|(m, _)| self.index.get(m)?.writers.range(..dst).next_back().copied())
            .collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
        out
    }

    /// The closest earlier siblings of the nest at `dst`: for each memref it
    /// reads and does not write, the last earlier position reading it
    /// without writing it.
    fn siblings(&self, dst: usize) -> Vec<usize> {
        let nest = &self.nests[&dst];
        let mut out: Vec<usize> = nest
            .by_memref
            .iter()
            .filter(|(_, a)| !a.reads.is_empty() && a.writes.is_empty())
            .filter_map(|(m, _)| {
                let u = self.index.get(m)?;
                let q = *u.readers.range(..dst).next_back()?;
                (!u.writers.contains(&q)).then_some(q)
            })
            .collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
        out
    }

    /// Runs the fusions of `pass.mode` on the block; returns how many nests
    /// were fused into another.
    pub fn run(&mut self, pass: &LoopFusion, b: &mut Builder<'_>, remarks: &mut Vec<(OpId, String)>) -> u64 {
        let mut fused = 0;
        let positions: Vec<usize> = {
            let mut v: Vec<usize> = self.nests.keys().copied().collect();
            v.sort_unstable();
            v
        };
        if pass.mode != FusionMode::Sibling {
            let mut tried: FxHashSet<(usize, usize)> = FxHashSet::default();
            for &dst in &positions {
                'retry: loop {
                    if !self.fusable(dst) {
                        break;
                    }
                    for src in self.producers(dst) {
                        if !self.fusable(src) || !tried.insert((src, dst)) {
                            continue;
                        }
                        match super::legality::try_fuse(self, pass, b, src, dst, true) {
                            Ok(()) => {
                                fused += 1;
                                continue 'retry;
                            }
                            Err(why) => remarks.push((self.nests[&src].root.op(), why)),
                        }
                    }
                    break;
                }
            }
        }
        if pass.mode != FusionMode::ProducerConsumer {
            let mut tried: FxHashSet<(usize, usize)> = FxHashSet::default();
            for &dst in &positions {
                if !self.fusable(dst) {
                    continue;
                }
                for src in self.siblings(dst) {
                    if !self.fusable(src) || !tried.insert((src, dst)) {
                        continue;
                    }
                    match super::legality::try_fuse(self, pass, b, src, dst, false) {
                        Ok(()) => {
                            fused += 1;
                            break;
                        }
                        Err(why) => remarks.push((self.nests[&dst].root.op(), why)),
                    }
                }
            }
        }
        fused
    }
}
