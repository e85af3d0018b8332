//! SSA value and block numbering, exactly as MLIR's printer does it.
//!
//! Regions are numbered from a stack (last pushed, first numbered): a region's
//! block arguments and op results are numbered first, then the regions of its
//! ops are pushed. In the custom form each region starts from the counters its
//! parent region had when it was pushed (so sibling regions reuse numbers); in
//! the generic form the counters never go back (unique ids), as in MLIR.

use crate::entity::NONE;
use crate::{BlockId, Body, Context, OpId, RegionId, Value, ValueDef};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

const ARG_BIT: u32 = 1 << 31;
/// Marks an index into [`Names::strings`] (a name suggested by the op).
const NAME_BIT: u32 = 1 << 30;

/// Names in use, per region scope (a child scope sees its parents' names).
#[derive(Default)]
struct NameScopes {
    scopes: Vec<(usize, FxHashSet<String>)>,
    /// Names used by the ancestors of the root scope (when numbering an
    /// isolated op's body on its own).
    base: Option<Arc<FxHashSet<String>>>,
}

impl NameScopes {
    fn used(&self, mut scope: usize, name: &str) -> bool {
        loop {
            let (parent, names) = &self.scopes[scope];
            if names.contains(name) {
                return true;
            }
            if *parent == usize::MAX {
                return self.base.as_ref().is_some_and(|b| b.contains(name));
            }
            scope = *parent;
        }
    }

    /// Every name `scope` sees (its own and its ancestors').
    fn all_visible(&self, mut scope: usize) -> FxHashSet<String> {
        let mut all: FxHashSet<String> = self.base.as_deref().cloned().unwrap_or_default();
        loop {
            let (parent, names) = &self.scopes[scope];
            all.extend(names.iter().cloned());
            if *parent == usize::MAX {
                return all;
            }
            scope = *parent;
        }
    }

    /// MLIR's `uniqueValueName`: the name itself, or `name_N` with the next
    /// conflict id that is free.
    fn unique(&mut self, scope: usize, name: &str, next_conflict: &mut u32) -> String {
        let out = if !self.used(scope, name) {
            name.to_string()
        } else {
            loop {
                let probe = format!("{name}_{next_conflict}");
                *next_conflict += 1;
                if !self.used(scope, &probe) {
                    break probe;
                }
            }
        };
        self.scopes[scope].1.insert(out.clone());
        out
    }
}

#[derive(Default)]
struct BodyNames {
    values: Vec<u32>,
    blocks: Vec<u32>,
}

/// The names of all values and blocks under one printed op.
#[derive(Default)]
pub struct Names {
    bodies: FxHashMap<usize, BodyNames>,
    strings: Vec<String>,
    /// Ops whose results each got a name of their own (one result group
    /// per result: `%memref, %asyncToken = gpu.alloc async ...`), by body.
    split: FxHashSet<(usize, u32)>,
}

fn key(b: &Body) -> usize {
    b as *const Body as usize
}

impl Names {
    /// Numbers everything nested in `op` of `body`. With `ctx` (custom form),
    /// ops may suggest names for their results (`%c0`, `%cst`).
    pub fn compute(ctx: Option<&Context>, body: &Body, op: OpId, unique: bool) -> Names {
        Self::compute_with(ctx, body, op, unique, false)
    }

    /// [`Names::compute`], where with `split_results` an op with several
    /// results whose name hook gives one name per result (comma-separated:
    /// `"memref,asyncToken"`) gets one result group per result, as MLIR
    /// prints `%memref, %asyncToken = gpu.alloc async ...`. The printer must
    /// then write result definitions with [`Names::write_result_defs`].
    pub fn compute_with(ctx: Option<&Context>, body: &Body, op: OpId, unique: bool, split_results: bool) -> Names {
        let mut names = Names::default();
        let mut scopes = NameScopes::default();
        scopes.scopes.push((usize::MAX, FxHashSet::default()));
        let rb = body.regions_body(op);
        let stack: Vec<Pending<'_>> = body.regions(op).iter().map(|&r| (rb, r, 0, 0, 0, 0)).collect();
        // In the custom form each region starts from counters fixed when it
        // is pushed, so the bodies of isolated ops (functions) can be
        // numbered on other threads, each seeing the names of its ancestors.
        // In the generic form the counters run on from one function to the
        // next (the last pushed is numbered first): each function is
        // numbered from zero on its own, and its numbers are then shifted by
        // what the functions numbered before it used. That takes functions
        // that are all of the top op's regions hold (no other op with
        // regions, whose numbering would come in between) and no suggested
        // names (whose conflict counter runs on too).
        let parallel = rayon::current_num_threads() > 1
            && (!unique || (ctx.is_none() && only_isolated_ops_have_regions(body, op)));
        let mut jobs = Vec::new();
        let numbering = Numbering {
            ctx,
            unique,
            split_results,
        };
        let (next_value, next_arg, _) = numbering.run(&mut names, &mut scopes, stack, parallel.then_some(&mut jobs));
        if !jobs.is_empty() {
            use rayon::prelude::*;
            let mut parts: Vec<(Names, (u32, u32, u32))> = jobs
                .into_par_iter()
                .with_max_len(1)
                .map(|(stack, seen)| {
                    let mut part = Names::default();
                    let mut scopes = NameScopes {
                        scopes: vec![(usize::MAX, FxHashSet::default())],
                        base: Some(seen),
                    };
                    let used = numbering.run(&mut part, &mut scopes, stack, None);
                    (part, used)
                })
                .collect();
            if unique {
                // Functions are numbered last pushed first.
                let mut start = (next_value, next_arg);
                let mut offsets = vec![(0, 0); parts.len()];
                for (i, (_, (values, args, _))) in parts.iter().enumerate().rev() {
                    offsets[i] = start;
                    start = (start.0 + values, start.1 + args);
                }
                parts
                    .par_iter_mut()
                    .zip(offsets)
                    .for_each(|((part, _), (values, args))| part.shift(values, args));
            }
            for (part, _) in parts {
                names.merge(part);
            }
        }
        names
    }

    /// Adds `values` to every value number and `args` to every argument
    /// number (names given by ops are left alone).
    fn shift(&mut self, values: u32, args: u32) {
        for bn in self.bodies.values_mut() {
            for v in bn.values.iter_mut() {
                if *v == NONE || *v & NAME_BIT != 0 {
                    continue;
                }
                *v = if *v & ARG_BIT != 0 {
                    ((*v & !ARG_BIT) + args) | ARG_BIT
                } else {
                    *v + values
                };
            }
        }
    }

    /// Takes in the names of other bodies (numbered separately).
    fn merge(&mut self, part: Names) {
        let offset = self.strings.len() as u32;
        for (k, mut bn) in part.bodies {
            if offset > 0 {
                for v in bn.values.iter_mut() {
                    if *v != NONE && *v & ARG_BIT == 0 && *v & NAME_BIT != 0 {
                        *v += offset;
                    }
                }
            }
            self.bodies.insert(k, bn);
        }
        self.strings.extend(part.strings);
        self.split.extend(part.split);
    }

    /// Writes the name of `v` (with `%`), e.g. `%3`, `%arg0`, `%2#1`.
    pub fn write_value(&self, out: &mut String, body: &Body, v: Value) {
        let bn = self.bodies.get(&key(body));
        let lookup = |x: Value| bn.and_then(|n| n.values.get(x.index()).copied()).unwrap_or(NONE);
        let (raw, group) = match body.value_def(v) {
            ValueDef::OpResult { op, index }
                if body.num_results(op) > 1 && !self.split.contains(&(key(body), op.0)) =>
            {
                (lookup(body.result(op, 0)), Some(index))
            }
            _ => (lookup(v), None),
        };
        if raw == NONE {
            out.push_str("%<<UNKNOWN SSA VALUE>>");
        } else if raw & ARG_BIT != 0 {
            out.push_str("%arg");
            super::push_int(out, raw & !ARG_BIT);
        } else if raw & NAME_BIT != 0 {
            out.push('%');
            out.push_str(&self.strings[(raw & !NAME_BIT) as usize]);
        } else {
            out.push('%');
            super::push_int(out, raw);
        }
        if let Some(g) = group {
            out.push('#');
            super::push_int(out, g);
        }
    }

    /// Writes the name an op's results are defined with (`%3` for `%3:2 = ...`).
    pub fn write_result_group(&self, out: &mut String, body: &Body, op: crate::OpId) {
        let raw = self
            .bodies
            .get(&key(body))
            .and_then(|n| n.values.get(body.result(op, 0).index()).copied())
            .unwrap_or(NONE);
        if raw == NONE {
            out.push_str("%<<UNKNOWN SSA VALUE>>");
        } else if raw & NAME_BIT != 0 {
            out.push('%');
            out.push_str(&self.strings[(raw & !NAME_BIT) as usize]);
        } else {
            out.push('%');
            super::push_int(out, raw);
        }
    }

    /// Writes the names an op's results are defined with, without ` = `:
    /// `%3` for one result, `%3:2` for a group of two, `%memref, %asyncToken`
    /// for results named one by one (see [`Names::compute_with`]). Nothing
    /// for an op without results.
    pub fn write_result_defs(&self, out: &mut String, body: &Body, op: crate::OpId) {
        let n = body.num_results(op);
        if n == 0 {
            return;
        }
        if self.split.contains(&(key(body), op.0)) {
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                self.write_value(out, body, body.result(op, i));
            }
            return;
        }
        self.write_result_group(out, body, op);
        if n > 1 {
            out.push(':');
            super::push_int(out, n);
        }
    }

    /// Writes the name of a block (`^bbN`).
    pub fn write_block(&self, out: &mut String, body: &Body, b: BlockId) {
        let n = self
            .bodies
            .get(&key(body))
            .and_then(|n| n.blocks.get(b.index()).copied())
            .unwrap_or(NONE);
        if n == NONE {
            out.push_str("^INVALIDBLOCK");
        } else {
            out.push_str("^bb");
            super::push_int(out, n);
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

/// Whether every op in `op`'s regions that has regions has them in a body
/// of its own (is isolated from above, as functions are), with at least two
/// such ops.
fn only_isolated_ops_have_regions(body: &Body, op: OpId) -> bool {
    let rb = body.regions_body(op);
    if !rb.may_hold_several_isolated_ops() {
        return false;
    }
    body.regions(op).iter().all(|&r| {
        rb.region_blocks(r).all(|b| {
            rb.block_ops(b)
                .all(|o| rb.num_regions(o) == 0 || !std::ptr::eq(rb.regions_body(o), rb))
        })
    })
}

/// A region waiting to be numbered: (body, region, next value, next
/// argument, next conflict id, parent scope).
type Pending<'b> = (&'b Body, RegionId, u32, u32, u32, usize);

/// The regions of one isolated op to number on another thread, with the
/// names its ancestors use.
type Job<'b> = (Vec<Pending<'b>>, Arc<FxHashSet<String>>);

/// The settings of one numbering (see [`Names::compute_with`]).
#[derive(Clone, Copy)]
struct Numbering<'c> {
    ctx: Option<&'c Context>,
    unique: bool,
    split_results: bool,
}

impl Numbering<'_> {
    /// Numbers the regions of `stack` and everything nested in them; with
    /// `jobs`, the regions of isolated ops are left as jobs instead. Returns
    /// the counters at the end (next value, argument and conflict id).
    fn run<'b>(
        &self,
        names: &mut Names,
        scopes: &mut NameScopes,
        mut stack: Vec<Pending<'b>>,
        mut jobs: Option<&mut Vec<Job<'b>>>,
    ) -> (u32, u32, u32) {
        let (ctx, unique, split_results) = (self.ctx, self.unique, self.split_results);
        let (mut next_value, mut next_arg, mut next_conflict) = (0u32, 0u32, 0u32);
        let mut seen_by_scope: FxHashMap<usize, Arc<FxHashSet<String>>> = FxHashMap::default();
        while let Some((b, region, v, a, c, parent_scope)) = stack.pop() {
            if !unique {
                next_value = v;
                next_arg = a;
                next_conflict = c;
            }
            scopes.scopes.push((parent_scope, FxHashSet::default()));
            let scope = scopes.scopes.len() - 1;
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
                    if b.num_results(o) == 0 {
                        continue;
                    }
                    let hint = ctx
                        .and_then(|c| c.op_def(b.op_name(o)).and_then(|d| d.result_names).map(|f| f(c, b, o)))
                        .flatten();
                    let n = b.num_results(o);
                    match hint {
                        Some(h) if n == 1 => {
                            let name = scopes.unique(scope, &sanitize(&h), &mut next_conflict);
                            bn.values[b.result(o, 0).index()] = NAME_BIT | names.strings.len() as u32;
                            names.strings.push(name);
                        }
                        Some(h) if split_results && h.split(',').count() == n => {
                            for (i, part) in h.split(',').enumerate() {
                                let name = scopes.unique(scope, &sanitize(part), &mut next_conflict);
                                bn.values[b.result(o, i).index()] = NAME_BIT | names.strings.len() as u32;
                                names.strings.push(name);
                            }
                            names.split.insert((key(b), o.0));
                        }
                        _ => {
                            bn.values[b.result(o, 0).index()] = next_value;
                            next_value += 1;
                        }
                    }
                }
            }
            for blk in b.region_blocks(region) {
                for o in b.block_ops(blk) {
                    let orb = b.regions_body(o);
                    match jobs.as_deref_mut() {
                        Some(jobs) if !std::ptr::eq(orb, b) && b.num_regions(o) > 0 => {
                            let seen = seen_by_scope
                                .entry(scope)
                                .or_insert_with(|| Arc::new(scopes.all_visible(scope)));
                            let regions = b
                                .regions(o)
                                .iter()
                                .map(|&r| (orb, r, next_value, next_arg, next_conflict, 0))
                                .collect();
                            jobs.push((regions, Arc::clone(seen)));
                        }
                        _ => {
                            for &r in b.regions(o) {
                                stack.push((orb, r, next_value, next_arg, next_conflict, scope));
                            }
                        }
                    }
                }
            }
        }
        (next_value, next_arg, next_conflict)
    }
}

/// MLIR's `sanitizeIdentifier` for SSA names: characters that cannot appear
/// in a name become `_`, and a leading digit gets a `_` in front.
fn sanitize(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 1);
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        out.push('_');
    }
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || "$._-".contains(c) {
            out.push(c);
        } else {
            out.push('_');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Names;
    use crate::{Context, OpDef};

    static TWO: OpDef = OpDef {
        result_names: Some(|_, _, _| Some("memref,asyncToken".into())),
        ..OpDef::new("test.two")
    };

    /// The names of the results of each op in the module's first function
    /// body, defined (`write_result_defs`) and used (`write_value`).
    fn names(src: &str, split: bool) -> Vec<(String, Vec<String>)> {
        let ctx = Context::new();
        ctx.set_allow_unregistered_dialects(true);
        ctx.register_op(&TWO);
        let m = crate::parse_source(&ctx, src, "t.mlir").expect("parses");
        let names = Names::compute_with(Some(&ctx), &m.body, m.op, false, split);
        let rb = m.body.regions_body(m.op);
        let mut out = Vec::new();
        for &r in m.body.regions(m.op) {
            for b in rb.region_blocks(r) {
                for o in rb.block_ops(b) {
                    let mut def = String::new();
                    names.write_result_defs(&mut def, rb, o);
                    let uses = rb
                        .results(o)
                        .map(|v| {
                            let mut s = String::new();
                            names.write_value(&mut s, rb, v);
                            s
                        })
                        .collect();
                    out.push((def, uses));
                }
            }
        }
        out
    }

    const SRC: &str = "%a, %b = \"test.two\"() : () -> (i32, i32)\n\
        %c:2 = \"test.two\"() : () -> (i32, i32)\n\
        %d:2 = \"test.other\"() : () -> (i32, i32)\n\
        %e = \"test.one\"() : () -> i32\n";

    #[test]
    fn results_named_one_by_one_get_a_group_each() {
        let n = names(SRC, true);
        assert_eq!(n[0].0, "%memref, %asyncToken");
        assert_eq!(n[0].1, ["%memref", "%asyncToken"]);
        // The second op's names conflict: MLIR's `_N` suffixes from one counter.
        assert_eq!(n[1].0, "%memref_0, %asyncToken_1");
        assert_eq!(n[1].1, ["%memref_0", "%asyncToken_1"]);
        // Ops without names keep a numbered group.
        assert_eq!(n[2].0, "%0:2");
        assert_eq!(n[2].1, ["%0#0", "%0#1"]);
        assert_eq!(n[3].0, "%1");
    }

    #[test]
    fn without_splitting_results_stay_one_numbered_group() {
        let n = names(SRC, false);
        assert_eq!(n[0].0, "%0:2");
        assert_eq!(n[0].1, ["%0#0", "%0#1"]);
        assert_eq!(n[1].0, "%1:2");
    }
}
