//! Alias collection for printing: `#map`, `#set` (and `#loc` with debug info).
//!
//! Like MLIR, affine maps and integer sets get aliases numbered in the order
//! they are first met when visiting each op as MLIR's alias pass does: its
//! regions first, then operand types, result types, and attributes. Locations
//! (when printed) get `#locN` aliases in pre-order and are defined at the end.

use super::deferred::{Deferred, DeferredNames};
use crate::attrs::{AttrData, LocationData};
use crate::types::TypeData;
use crate::{Attribute, Body, Context, OpId, Type};
use rustc_hash::{FxHashMap, FxHashSet};

struct Entry {
    attr: Attribute,
    prefix: &'static str,
    depth: u32,
    /// Only reached from op locations: defined after the op, as MLIR does.
    deferred: bool,
}

/// The aliases chosen for one print.
#[derive(Default)]
pub struct Aliases {
    names: FxHashMap<Attribute, String>,
    entries: Vec<Entry>,
    index: FxHashMap<Attribute, usize>,
    /// Aliases defined before the op, in order.
    pub(crate) top: Vec<(String, Attribute)>,
    /// Aliases defined after the op (op locations), in order.
    pub(crate) end: Vec<(String, Attribute)>,
    seen_types: FxHashSet<Type>,
    seen_attrs: FxHashSet<Attribute>,
    /// The types and attributes seen that hold an alias candidate.
    containing_types: FxHashSet<Type>,
    containing_attrs: FxHashSet<Attribute>,
    with_locs: bool,
    /// When given (custom form): the attributes a dry run of the printer
    /// actually wrote; only those get aliases, as in MLIR, whose alias pass is
    /// a dry run of the printer (custom syntax may leave attributes out, e.g.
    /// the maps of `affine.load` or an elided terminator's location).
    /// The value is the attribute's position in print order: maps and sets
    /// are numbered in that order, as MLIR numbers them.
    printed: Option<FxHashMap<Attribute, u32>>,
    /// In a dry run: records every attribute whose alias is looked up.
    recorder: Option<parking_lot::Mutex<FxHashMap<Attribute, u32>>>,
    /// Deferred numbering (see [`Aliases::deferred`]).
    deferred: Option<parking_lot::Mutex<Deferred>>,
}

impl Aliases {
    /// The alias name (without `#`) of an attribute, if it has one.
    #[inline]
    pub fn attr_alias(&self, a: Attribute) -> Option<&str> {
        if self.recorder.is_some() {
            self.note_printed(a);
            return None;
        }
        if self.names.is_empty() {
            return None;
        }
        self.names.get(&a).map(|s| s.as_str())
    }

    /// Collects the aliases for printing `op` of `body`.
    ///
    /// `printed`, when given, holds the attributes the printer will actually
    /// write (found by a dry run of the custom form, see [`Aliases::recording`]);
    /// others get no alias, as in MLIR, whose custom syntax of e.g. `scf.for`
    /// does not print the induction variable's location.
    pub fn collect(
        ctx: &Context,
        body: &Body,
        op: OpId,
        with_locs: bool,
        printed: Option<FxHashMap<Attribute, u32>>,
    ) -> Aliases {
        let mut a = Aliases {
            with_locs,
            printed,
            ..Aliases::default()
        };
        if with_locs || !a.visit_op_in_parallel(ctx, body, op) {
            a.visit_op(ctx, body, op);
        }
        a.assign_names();
        a
    }

    /// [`Aliases::visit_op`] with the ops of `op`'s blocks visited on
    /// rayon's threads, a run of consecutive ops into a table of its own,
    /// whose entries are then added here in program order: the same entries
    /// in the same order as a visit on one thread (an entry is first met in
    /// the first op that has it either way). Only without locations, whose
    /// depths depend on what was met before. Returns false, doing nothing,
    /// when `op`'s regions hold fewer than two isolated ops (functions): not
    /// worth it.
    fn visit_op_in_parallel(&mut self, ctx: &Context, body: &Body, op: OpId) -> bool {
        use rayon::prelude::*;
        let rb = body.regions_body(op);
        let threads = rayon::current_num_threads();
        if !rb.may_hold_several_isolated_ops() || threads < 2 {
            return false;
        }
        for &r in body.regions(op) {
            for b in rb.region_blocks(r) {
                for &arg in rb.block_args(b) {
                    self.visit_type(ctx, rb.value_type(arg));
                }
                let ops: Vec<OpId> = rb.block_ops(b).collect();
                // A few runs per thread, so that a thread that is done early
                // takes another; each run still meets most repeated
                // attributes only once.
                let run = ops.len().div_ceil(4 * threads).max(1);
                let parts: Vec<Aliases> = ops
                    .par_chunks(run)
                    .map(|run| {
                        let mut part = Aliases::default();
                        for &o in run {
                            part.visit_op(ctx, rb, o);
                        }
                        part
                    })
                    .collect();
                for part in parts {
                    for e in &part.entries {
                        self.add(e.attr, e.prefix, e.depth, e.deferred);
                    }
                    self.containing_types.extend(part.containing_types);
                    self.containing_attrs.extend(part.containing_attrs);
                }
            }
        }
        self.visit_op_itself(ctx, body, op);
        true
    }

    /// Aliases that define nothing and record every attribute looked up
    /// (for a dry run of the printer).
    pub(crate) fn recording() -> Aliases {
        Aliases {
            recorder: Some(Default::default()),
            ..Aliases::default()
        }
    }

    /// Aliases numbered after printing, in one pass with no dry run (the
    /// custom form without locations): each map or set written gets a
    /// placeholder, numbered in the order first written, as MLIR's alias
    /// pass (a dry run of the printer) numbers them. Prints on other threads
    /// use their own table and are merged in order with [`Aliases::absorb`];
    /// [`Aliases::finish_deferred`] then gives the definitions and the text.
    /// `top` for the table of the whole print, false for the table of a
    /// child print on another thread; a top table spills long text to a
    /// temporary file in `spill_dir` (see [`super::deferred`]).
    pub(crate) fn deferred(top: bool, spill_dir: Option<std::path::PathBuf>) -> Aliases {
        Aliases {
            deferred: Some(parking_lot::Mutex::new(Deferred::new(top, spill_dir))),
            ..Aliases::default()
        }
    }

    /// Whether this is a deferred table.
    pub(crate) fn is_deferred(&self) -> bool {
        self.deferred.is_some()
    }

    /// Writes the alias of `a` (`#map3`, or a placeholder when deferred);
    /// returns false, writing nothing, when `a` has none.
    #[inline]
    pub(crate) fn write_alias(&self, ctx: &Context, out: &mut String, a: Attribute) -> bool {
        if let Some(d) = &self.deferred {
            let prefix = match ctx.attr_data(a) {
                AttrData::AffineMap(_) => "map",
                AttrData::IntegerSet(_) => "set",
                AttrData::Location(_) => {
                    // Locations get aliases numbered by nesting depth: left
                    // to the exact path.
                    d.lock().unsure = true;
                    return false;
                }
                _ => return false,
            };
            d.lock().write_placeholder(out, a, prefix);
            return true;
        }
        match self.attr_alias(a) {
            Some(name) => {
                out.push('#');
                out.push_str(name);
                true
            }
            None => false,
        }
    }

    /// In a deferred print: notes that the numbering cannot be trusted (an
    /// op whose alias order is not its print order was printed).
    pub(crate) fn mark_unsure(&self) {
        if let Some(d) = &self.deferred {
            d.lock().unsure = true;
        }
    }

    /// Appends `text`, printed with the deferred table `child`, to `out`,
    /// renumbering its placeholders into this table (children are absorbed
    /// in print order, so first-written order is kept).
    pub(crate) fn absorb(&self, out: &mut String, text: String, child: Aliases) {
        match (&self.deferred, child.deferred) {
            (Some(me), Some(child)) => me.lock().absorb(out, text, child.into_inner()),
            _ => out.push_str(&text),
        }
    }

    /// In the top table of a deferred print: takes over the text printed so
    /// far (leaving `out` empty), to write it to the temporary file once
    /// long. Otherwise does nothing.
    pub(crate) fn take_over(&self, out: &mut String) {
        if let Some(d) = &self.deferred {
            d.lock().take_over(out);
        }
    }

    /// Ends a deferred print (see [`Deferred::finish`]).
    pub(crate) fn finish_deferred(self, last: String) -> Option<DeferredNames> {
        self.deferred?.into_inner().finish(last)
    }

    /// In a dry run, notes an attribute printed without an alias lookup.
    pub(crate) fn note_printed(&self, a: Attribute) {
        if let Some(r) = &self.recorder {
            let mut r = r.lock();
            let next = r.len() as u32;
            r.entry(a).or_insert(next);
        }
    }

    /// The attributes recorded by a dry run, in the order they were first
    /// printed.
    pub(crate) fn recorded_in_order(self) -> Vec<Attribute> {
        let mut v: Vec<(Attribute, u32)> = self.into_recorded().into_iter().collect();
        v.sort_by_key(|&(_, i)| i);
        v.into_iter().map(|(a, _)| a).collect()
    }

    /// The attributes recorded by a dry run.
    pub(crate) fn into_recorded(self) -> FxHashMap<Attribute, u32> {
        self.recorder.map(|r| r.into_inner()).unwrap_or_default()
    }

    /// Whether no alias was chosen.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Sorts by (depth, prefix), keeping first-seen order otherwise, and
    /// numbers each prefix in that order: `#map`, `#map1`, ...
    fn assign_names(&mut self) {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        // Maps and sets in the order a dry run printed them (when known);
        // locations in visit order (MLIR visits an op's location first).
        let position = |i: usize| {
            let e = &self.entries[i];
            match &self.printed {
                Some(p) if e.prefix != "loc" => p.get(&e.attr).map_or(i, |&x| x as usize),
                _ => i,
            }
        };
        order.sort_by_key(|&i| (self.entries[i].depth, self.entries[i].prefix, position(i)));
        let mut counters: FxHashMap<&'static str, usize> = FxHashMap::default();
        for i in order {
            let e = &self.entries[i];
            let n = counters.entry(e.prefix).or_insert(0);
            let name = if *n == 0 {
                e.prefix.to_string()
            } else {
                format!("{}{}", e.prefix, n)
            };
            *n += 1;
            self.names.insert(e.attr, name.clone());
            if e.deferred {
                self.end.push((name, e.attr));
            } else {
                self.top.push((name, e.attr));
            }
        }
    }

    fn add(&mut self, attr: Attribute, prefix: &'static str, depth: u32, deferred: bool) -> u32 {
        if self.printed.as_ref().is_some_and(|p| !p.contains_key(&attr)) {
            return depth;
        }
        if let Some(&i) = self.index.get(&attr) {
            if !deferred {
                self.entries[i].deferred = false;
            }
            return self.entries[i].depth;
        }
        self.index.insert(attr, self.entries.len());
        self.entries.push(Entry {
            attr,
            prefix,
            depth,
            deferred,
        });
        depth
    }

    fn visit_op(&mut self, ctx: &Context, body: &Body, op: OpId) {
        if self.with_locs {
            self.visit_loc_attr(ctx, body.op_loc(op).to_attr(ctx), true);
        }
        let rb = body.regions_body(op);
        for &r in body.regions(op) {
            for b in rb.region_blocks(r) {
                for (i, &arg) in rb.block_args(b).iter().enumerate() {
                    self.visit_type(ctx, rb.value_type(arg));
                    if self.with_locs {
                        let loc = rb.block_arg_loc(b, i).to_attr(ctx);
                        self.visit_loc_attr(ctx, loc, false);
                    }
                }
                for inner in rb.block_ops(b) {
                    self.visit_op(ctx, rb, inner);
                }
            }
        }
        self.visit_op_itself(ctx, body, op);
    }

    /// The part of [`Aliases::visit_op`] after the regions: the op's operand
    /// and result types, properties and attributes.
    fn visit_op_itself(&mut self, ctx: &Context, body: &Body, op: OpId) {
        for v in body.operands(op) {
            self.visit_type(ctx, body.value_type(v));
        }
        for v in body.results(op) {
            self.visit_type(ctx, body.value_type(v));
        }
        if ctx.op_def(body.op_name(op)).is_some() {
            if let Some(p) = body.op_props(op) {
                self.visit_attr(ctx, p);
            }
        }
        if let Some(d) = body.op_attrs(op) {
            self.visit_attr(ctx, d);
        }
    }

    /// Visits a type; returns whether it holds an attribute that may get an
    /// alias (remembered, see [`Aliases::op_may_print_alias`]).
    fn visit_type(&mut self, ctx: &Context, t: Type) -> bool {
        if !self.seen_types.insert(t) {
            return self.containing_types.contains(&t);
        }
        let mut found = false;
        match ctx.type_data(t) {
            TypeData::Function { inputs, results } => {
                for x in inputs.iter().chain(results.iter()) {
                    found |= self.visit_type(ctx, *x);
                }
            }
            TypeData::MemRef {
                element,
                layout,
                memory_space,
                ..
            } => {
                found |= self.visit_type(ctx, *element);
                if let Some(l) = layout {
                    found |= self.visit_attr(ctx, *l);
                }
                if let Some(m) = memory_space {
                    found |= self.visit_attr(ctx, *m);
                }
            }
            TypeData::Tensor { element, encoding, .. } => {
                found |= self.visit_type(ctx, *element);
                if let Some(e) = encoding {
                    found |= self.visit_attr(ctx, *e);
                }
            }
            TypeData::Tuple(elems) => {
                for x in elems.iter() {
                    found |= self.visit_type(ctx, *x);
                }
            }
            TypeData::Vector { element, .. }
            | TypeData::UnrankedMemRef { element, .. }
            | TypeData::UnrankedTensor { element }
            | TypeData::Complex(element) => found |= self.visit_type(ctx, *element),
            _ => {}
        }
        if found {
            self.containing_types.insert(t);
        }
        found
    }

    /// Visits an attribute; returns whether it is or holds one that may get
    /// an alias (remembered, see [`Aliases::op_may_print_alias`]).
    fn visit_attr(&mut self, ctx: &Context, a: Attribute) -> bool {
        if !self.seen_attrs.insert(a) {
            return self.containing_attrs.contains(&a);
        }
        let mut found = false;
        match ctx.attr_data(a) {
            AttrData::AffineMap(_) => {
                self.add(a, "map", 0, false);
                found = true;
            }
            AttrData::IntegerSet(_) => {
                self.add(a, "set", 0, false);
                found = true;
            }
            AttrData::Location(_) => {
                self.visit_loc_attr(ctx, a, false);
                found = true;
            }
            AttrData::Array(v) => {
                for x in v.iter() {
                    found |= self.visit_attr(ctx, *x);
                }
            }
            AttrData::Dictionary(v) => {
                for (_, x) in v.iter() {
                    found |= self.visit_attr(ctx, *x);
                }
            }
            AttrData::Type(t) => found = self.visit_type(ctx, *t),
            AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } => found = self.visit_type(ctx, *ty),
            AttrData::DenseElements { ty, .. } => found = self.visit_type(ctx, *ty),
            _ => {}
        }
        if found {
            self.containing_attrs.insert(a);
        }
        found
    }

    /// Whether printing `op` itself (not its regions) may write an attribute
    /// that has an alias here: a dry run can skip the ops for which this is
    /// false. Only meaningful on the result of a collection without
    /// locations.
    pub(crate) fn op_may_print_alias(&self, body: &Body, op: OpId) -> bool {
        if self.entries.is_empty() {
            return false;
        }
        [body.op_props(op), body.op_attrs(op)]
            .into_iter()
            .flatten()
            .any(|a| self.containing_attrs.contains(&a))
            || body
                .operands(op)
                .chain(body.results(op))
                .any(|v| self.containing_types.contains(&body.value_type(v)))
    }

    /// Gives a location (and the locations inside it) aliases; returns its depth.
    fn visit_loc_attr(&mut self, ctx: &Context, a: Attribute, deferred: bool) -> u32 {
        if let Some(&i) = self.index.get(&a) {
            if deferred {
                return self.entries[i].depth;
            }
        }
        let children: Vec<Attribute> = match ctx.attr_data(a) {
            AttrData::Location(LocationData::Fused { locations, .. }) => locations.to_vec(),
            AttrData::Location(LocationData::CallSite { callee, caller }) => vec![*callee, *caller],
            AttrData::Location(LocationData::Name { child: Some(c), .. }) => vec![*c],
            _ => Vec::new(),
        };
        let mut depth = 0;
        for c in children {
            depth = depth.max(self.visit_loc_attr(ctx, c, deferred) + 1);
        }
        self.add(a, "loc", depth, deferred)
    }
}
