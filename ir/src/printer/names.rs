//! SSA value and block numbering, exactly as MLIR's printer does it.
//!
//! Regions are numbered from a stack (last pushed, first numbered): a region's
//! block arguments and op results are numbered first, then the regions of its
//! ops are pushed. In the custom form each region starts from the counters its
//! parent region had when it was pushed (so sibling regions reuse numbers); in
//! the generic form the counters never go back (unique ids), as in MLIR.

use crate::entity::NONE;
use crate::{BlockId, Body, OpId, RegionId, Value, ValueDef};
use rustc_hash::FxHashMap;

const ARG_BIT: u32 = 1 << 31;

#[derive(Default)]
struct BodyNames {
    values: Vec<u32>,
    blocks: Vec<u32>,
}

/// The names of all values and blocks under one printed op.
#[derive(Default)]
pub struct Names {
    bodies: FxHashMap<usize, BodyNames>,
}

fn key(b: &Body) -> usize {
    b as *const Body as usize
}

impl Names {
    /// Numbers everything nested in `op` of `body`.
    pub fn compute(body: &Body, op: OpId, unique: bool) -> Names {
        let mut names = Names::default();
        let mut stack: Vec<(&Body, RegionId, u32, u32)> = Vec::new();
        let rb = body.regions_body(op);
        for &r in body.regions(op) {
            stack.push((rb, r, 0, 0));
        }
        let (mut next_value, mut next_arg) = (0u32, 0u32);
        while let Some((b, region, v, a)) = stack.pop() {
            if !unique {
                next_value = v;
                next_arg = a;
            }
            let bn = names.bodies.entry(key(b)).or_insert_with(|| BodyNames {
                values: vec![NONE; b.values.len()],
                blocks: vec![NONE; b.blocks.len()],
            });
            for (i, blk) in b.region_blocks(region).enumerate() {
                bn.blocks[blk.index()] = i as u32;
                let entry = i == 0;
                for &arg in b.block_args(blk) {
                    if entry {
                        bn.values[arg.index()] = next_arg | ARG_BIT;
                        next_arg += 1;
                    } else {
                        bn.values[arg.index()] = next_value;
                        next_value += 1;
                    }
                }
                for o in b.block_ops(blk) {
                    if b.num_results(o) > 0 {
                        bn.values[b.result(o, 0).index()] = next_value;
                        next_value += 1;
                    }
                }
            }
            for blk in b.region_blocks(region) {
                for o in b.block_ops(blk) {
                    let orb = b.regions_body(o);
                    for &r in b.regions(o) {
                        stack.push((orb, r, next_value, next_arg));
                    }
                }
            }
        }
        names
    }

    /// Writes the name of `v` (with `%`), e.g. `%3`, `%arg0`, `%2#1`.
    pub fn write_value(&self, out: &mut String, body: &Body, v: Value) {
        use std::fmt::Write;
        let bn = self.bodies.get(&key(body));
        let lookup = |x: Value| bn.and_then(|n| n.values.get(x.index()).copied()).unwrap_or(NONE);
        let (raw, group) = match body.value_def(v) {
            ValueDef::OpResult { op, index } if body.num_results(op) > 1 => (lookup(body.result(op, 0)), Some(index)),
            _ => (lookup(v), None),
        };
        if raw == NONE {
            let _ = write!(out, "%<<UNKNOWN SSA VALUE>>");
        } else if raw & ARG_BIT != 0 {
            let _ = write!(out, "%arg{}", raw & !ARG_BIT);
        } else {
            let _ = write!(out, "%{raw}");
        }
        if let Some(g) = group {
            let _ = write!(out, "#{g}");
        }
    }

    /// Writes the name an op's results are defined with (`%3` for `%3:2 = ...`).
    pub fn write_result_group(&self, out: &mut String, body: &Body, op: crate::OpId) {
        use std::fmt::Write;
        let raw = self
            .bodies
            .get(&key(body))
            .and_then(|n| n.values.get(body.result(op, 0).index()).copied())
            .unwrap_or(NONE);
        if raw == NONE {
            out.push_str("%<<UNKNOWN SSA VALUE>>");
        } else {
            let _ = write!(out, "%{raw}");
        }
    }

    /// Writes the name of a block (`^bbN`).
    pub fn write_block(&self, out: &mut String, body: &Body, b: BlockId) {
        use std::fmt::Write;
        let n = self
            .bodies
            .get(&key(body))
            .and_then(|n| n.blocks.get(b.index()).copied())
            .unwrap_or(NONE);
        if n == NONE {
            out.push_str("^INVALIDBLOCK");
        } else {
            let _ = write!(out, "^bb{n}");
        }
    }

    /// The block's number in its region (for sorting predecessors).
    pub fn block_number(&self, body: &Body, b: BlockId) -> u32 {
        self.bodies
            .get(&key(body))
            .and_then(|n| n.blocks.get(b.index()).copied())
            .unwrap_or(NONE)
    }
}
