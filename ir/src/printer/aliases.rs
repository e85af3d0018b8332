//! Alias collection for printing: `#map`, `#set` (and `#loc` with debug info).
//!
//! Like MLIR, affine maps and integer sets get aliases numbered in the order
//! they are first met when visiting each op as MLIR's alias pass does: its
//! regions first, then operand types, result types, and attributes. Locations
//! (when printed) get `#locN` aliases in pre-order and are defined at the end.

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

/// Starts a placeholder for an alias that is numbered after printing; the
/// placeholder is `MARK_START`, the decimal index in [`Deferred::order`],
/// `MARK_END`.
const MARK_START: char = '\u{1}';
const MARK_END: char = '\u{2}';

/// The maps and sets a deferred print wrote, in the order first written.
#[derive(Default)]
struct Deferred {
    index: FxHashMap<Attribute, u32>,
    /// Each attribute with its alias prefix (`map` or `set`).
    order: Vec<(Attribute, &'static str)>,
    /// Placeholders written (or taken over from a child print).
    placeholders: usize,
    /// Set when the numbering cannot be trusted: a placeholder count did
    /// not match (the marker occurred in printed text), or an op was printed
    /// whose alias order differs from its print order.
    unsure: bool,
    /// Whether this is the table of the whole print (which keeps the text
    /// of absorbed child prints as segments instead of copying it).
    top: bool,
    /// The text so far, in order, when `top`.
    segments: Vec<Segment>,
}

/// A piece of a deferred print's text, with the placeholders of a child
/// print still numbered in the child's table (`map` takes them to ours).
struct Segment {
    text: String,
    map: Option<Vec<u32>>,
}

impl Segment {
    /// The index in the top table of placeholder `i` of this segment.
    fn resolve(&self, i: u32) -> Option<u32> {
        match &self.map {
            None => Some(i),
            Some(m) => m.get(i as usize).copied(),
        }
    }
}

impl Deferred {
    fn index_of(&mut self, a: Attribute, prefix: &'static str) -> u32 {
        let next = self.order.len() as u32;
        let i = *self.index.entry(a).or_insert(next);
        if i == next {
            self.order.push((a, prefix));
        }
        i
    }
}

/// Writes the placeholder of index `i` (see [`MARK_START`]).
fn write_mark(out: &mut String, i: u32) {
    use std::fmt::Write;
    let _ = write!(out, "{MARK_START}{i}{MARK_END}");
}

/// A piece of deferred text: plain text, or a placeholder's index.
enum Piece<'t> {
    Text(&'t str),
    Mark(u32),
}

/// Calls `f` on each piece of `text`, in order; returns the number of
/// well-formed placeholders.
fn for_each_piece<'t>(text: &'t str, mut f: impl FnMut(Piece<'t>)) -> usize {
    let mut rest = text;
    let mut count = 0;
    while let Some(start) = rest.find(MARK_START) {
        f(Piece::Text(&rest[..start]));
        let after = &rest[start + 1..];
        let parsed = after
            .find(MARK_END)
            .and_then(|end| after[..end].parse::<u32>().ok().map(|i| (i, end)));
        match parsed {
            Some((i, end)) => {
                f(Piece::Mark(i));
                count += 1;
                rest = &after[end + 1..];
            }
            None => {
                f(Piece::Text(&rest[start..start + 1]));
                rest = after;
            }
        }
    }
    f(Piece::Text(rest));
    count
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
        a.visit_op(ctx, body, op);
        a.assign_names();
        a
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
    /// child print on another thread.
    pub(crate) fn deferred(top: bool) -> Aliases {
        Aliases {
            deferred: Some(parking_lot::Mutex::new(Deferred {
                top,
                ..Deferred::default()
            })),
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
            let mut d = d.lock();
            let i = d.index_of(a, prefix);
            d.placeholders += 1;
            drop(d);
            write_mark(out, i);
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
        let (Some(me), Some(child)) = (&self.deferred, child.deferred) else {
            out.push_str(&text);
            return;
        };
        let child = child.into_inner();
        let mut me = me.lock();
        if me.top && child.segments.is_empty() {
            // Keep the child's text as it is, with a map to our numbering.
            let map = child.order.iter().map(|&(a, prefix)| me.index_of(a, prefix)).collect();
            me.placeholders += child.placeholders;
            me.unsure |= child.unsure;
            if !out.is_empty() {
                let text = std::mem::take(out);
                me.segments.push(Segment { text, map: None });
            }
            me.segments.push(Segment { text, map: Some(map) });
            return;
        }
        let mut bad = child.unsure;
        let found = for_each_piece(&text, |piece| match piece {
            Piece::Text(s) => out.push_str(s),
            Piece::Mark(i) => match child.order.get(i as usize) {
                Some(&(a, prefix)) => write_mark(out, me.index_of(a, prefix)),
                None => bad = true,
            },
        });
        me.placeholders += found;
        if bad || found != child.placeholders {
            me.unsure = true;
        }
    }

    /// Ends a deferred print: the alias definitions (maps, then sets, each
    /// numbered in first-written order) and the names to put in place of
    /// the placeholders; `None` when the numbering cannot be trusted (then
    /// print again the exact way).
    pub(crate) fn finish_deferred(self, last: String) -> Option<DeferredNames> {
        let mut d = self.deferred?.into_inner();
        d.segments.push(Segment { text: last, map: None });
        if d.unsure {
            return None;
        }
        let mut names = vec![String::new(); d.order.len()];
        let mut top = Vec::with_capacity(d.order.len());
        for prefix in ["map", "set"] {
            let mut n = 0usize;
            for (i, &(a, p)) in d.order.iter().enumerate() {
                if p == prefix {
                    names[i] = if n == 0 {
                        prefix.to_string()
                    } else {
                        format!("{prefix}{n}")
                    };
                    n += 1;
                    top.push((names[i].clone(), a));
                }
            }
        }
        Some(DeferredNames {
            top,
            names,
            placeholders: d.placeholders,
            segments: d.segments,
        })
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

/// The outcome of a deferred print (see [`Aliases::finish_deferred`]).
pub(crate) struct DeferredNames {
    /// The alias definitions, in the order they are printed.
    pub(crate) top: Vec<(String, Attribute)>,
    names: Vec<String>,
    placeholders: usize,
    segments: Vec<Segment>,
}

impl DeferredNames {
    /// Whether the text holds exactly the placeholders counted while
    /// printing (false when the marker also occurred in the printed text).
    pub(crate) fn matches(&self) -> bool {
        let mut valid = true;
        let mut found = 0;
        for seg in &self.segments {
            found += for_each_piece(&seg.text, |piece| {
                if let Piece::Mark(i) = piece {
                    valid &= seg.resolve(i).is_some_and(|g| (g as usize) < self.names.len());
                }
            });
        }
        valid && found == self.placeholders
    }

    /// Writes the text with each placeholder replaced by `#name` (after
    /// [`DeferredNames::matches`] said yes).
    pub(crate) fn write_text(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        const CHUNK: usize = 1 << 16;
        let mut buf = String::with_capacity(CHUNK);
        let mut result = Ok(());
        for seg in &self.segments {
            for_each_piece(&seg.text, |piece| {
                let s = match piece {
                    Piece::Text(s) => s,
                    Piece::Mark(i) => {
                        buf.push('#');
                        &self.names[seg.resolve(i).unwrap_or(0) as usize]
                    }
                };
                if buf.len() + s.len() > CHUNK {
                    if result.is_ok() {
                        result = w.write_all(buf.as_bytes()).and_then(|_| w.write_all(s.as_bytes()));
                    }
                    buf.clear();
                } else {
                    buf.push_str(s);
                }
            });
        }
        result?;
        w.write_all(buf.as_bytes())
    }
}
