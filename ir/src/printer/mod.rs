//! The printer: MLIR's textual syntax, custom or generic form.
//!
//! Printing numbers values and blocks first ([`names`]), collects aliases
//! ([`aliases`]), then writes ops. Output goes through a `String` buffer that
//! is flushed to the writer in large chunks.

mod aliases;
mod custom_funcscf;
mod deferred;
mod names;
mod syntax;

pub use aliases::Aliases;
pub use names::Names;

use crate::registry::Traits;
use crate::{Attribute, BlockId, Body, Context, Location, OpId, RegionId, Type, Value};
use std::io;
use syntax::SyntaxWriter;

/// Appends the decimal digits of `n`. Through `itoa` rather than `write!`:
/// `fmt`'s machinery cost about 270 instructions for each value name
/// printed (`%12`, `%arg3`), a quarter of the printer's instructions on
/// the benchmark's custom form.
pub(crate) fn push_int(out: &mut String, n: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// Printing options.
#[derive(Clone, Debug, Default)]
pub struct PrintOptions {
    /// Print every op in the generic form.
    pub generic: bool,
    /// Print locations (`loc(...)`), as `--mlir-print-debuginfo`.
    pub debuginfo: bool,
    /// Print as MLIR's local scope (`--mlir-print-local-scope`): no alias
    /// definitions, every attribute, type and location written where it is
    /// used, and no empty line after the op.
    pub local_scope: bool,
    /// A directory for an unnamed temporary file that holds the text of a
    /// long custom-form print until its alias definitions, which come first,
    /// are known. Without one the text is held in memory until then.
    pub spill_dir: Option<std::path::PathBuf>,
}

/// A type as text.
pub fn type_to_string(ctx: &Context, t: Type) -> String {
    let mut s = String::new();
    SyntaxWriter { ctx, aliases: None }.ty(&mut s, t);
    s
}

/// An attribute as text.
pub fn attr_to_string(ctx: &Context, a: Attribute) -> String {
    let mut s = String::new();
    SyntaxWriter { ctx, aliases: None }.attr(&mut s, a);
    s
}

/// Prints `op` of `body` (usually the top-level module) with its alias
/// definitions, followed by a newline, to `w`.
pub fn print_op(ctx: &Context, body: &Body, op: OpId, opts: &PrintOptions, w: &mut dyn io::Write) -> io::Result<()> {
    let number = || Names::compute_with((!opts.generic).then_some(ctx), body, op, opts.generic, true);
    if opts.local_scope {
        let (names, aliases) = (number(), Aliases::default());
        let mut p = OpPrinter::new(ctx, opts, &names, &aliases, w);
        p.flush_at = WRITE_CHUNK;
        p.print_op(body, op);
        p.out.push('\n');
        p.flush(true);
        return match p.err.take() {
            Some(e) => Err(e),
            None => Ok(()),
        };
    }
    let collect = || Aliases::collect(ctx, body, op, opts.debuginfo, None);
    let (names, mut aliases) = if opts.generic {
        // Independent walks, each with parts on one thread: together they
        // keep both cores busy.
        rayon::join(number, collect)
    } else {
        let names = number();
        if !opts.debuginfo {
            if let Some(done) = print_deferred(ctx, body, op, opts, &names, w) {
                return done;
            }
        }
        (names, collect())
    };
    // In the custom form, ops decide which attributes and locations they
    // print; a dry run finds them, so that aliases are defined only for those.
    if !opts.generic && !aliases.is_empty() {
        let recording = Aliases::recording();
        let mut sink = io::sink();
        let mut dry = OpPrinter::new(ctx, opts, &names, &recording, &mut sink);
        dry.dry_run = true;
        dry.skip_unless_alias = (!opts.debuginfo).then_some(&aliases);
        dry.print_op(body, op);
        drop(dry);
        aliases = Aliases::collect(ctx, body, op, opts.debuginfo, Some(recording.into_recorded()));
    }
    let mut p = OpPrinter::new(ctx, opts, &names, &aliases, w);
    // The text goes to the writer in pieces that stay in the cache: a
    // buffer the size of the output would be fresh memory, a page fault
    // for every 4 KB written, on the one thread that writes.
    p.flush_at = WRITE_CHUNK;
    p.out.reserve(2 * WRITE_CHUNK);
    write_alias_definitions(ctx, &aliases.top, Some(&aliases), &mut |text| p.append_text(text));
    p.print_op(body, op);
    p.out.push('\n');
    write_alias_definitions(ctx, &aliases.end, Some(&aliases), &mut |text| p.append_text(text));
    p.out.push('\n');
    p.flush(true);
    match p.err.take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Prints the custom form without locations in one pass, numbering the
/// aliases afterwards (see [`Aliases::deferred`]); `None`, having written
/// nothing, when that numbering cannot be trusted.
fn print_deferred(
    ctx: &Context,
    body: &Body,
    op: OpId,
    opts: &PrintOptions,
    names: &Names,
    w: &mut dyn io::Write,
) -> Option<io::Result<()>> {
    let aliases = Aliases::deferred(true, opts.spill_dir.clone());
    let mut sink = io::sink();
    let mut p = OpPrinter::new(ctx, opts, names, &aliases, &mut sink);
    p.print_op(body, op);
    p.out.push_str("\n\n");
    let text = std::mem::take(&mut p.out);
    drop(p);
    let resolved = aliases.finish_deferred(text)?;
    if !resolved.matches() {
        return None;
    }
    let mut head = String::new();
    write_alias_definitions(ctx, &resolved.top, None, &mut |text| head.push_str(text));
    Some(w.write_all(head.as_bytes()).and_then(|_| resolved.write_text(w)))
}

/// Text a top-level print holds before writing it: small enough to stay
/// in the cache.
const WRITE_CHUNK: usize = 1 << 16;

/// Text a printer holds before writing it, unless told otherwise
/// ([`OpPrinter::flush_at`]).
const HOLD_TEXT: usize = 1 << 20;

/// Bytes of text per op of a function in the generic and the custom form,
/// rounded up from the benchmark's programs (112 and 54): a function printed
/// on its own is given room for its ops' text at once, instead of growing
/// its buffer by doubling (each growth copies the text into fresh memory).
const BYTES_PER_GENERIC_OP: usize = 128;
const BYTES_PER_CUSTOM_OP: usize = 64;

/// Writes `#name = attr` lines, handing the text to `emit` in pieces;
/// attributes inside them use the aliases of `table` (a fused location
/// names its parts `#loc1`).
fn write_alias_definitions(
    ctx: &Context,
    aliases: &[(String, Attribute)],
    table: Option<&Aliases>,
    emit: &mut dyn FnMut(&str),
) {
    use rayon::prelude::*;
    /// Definitions per piece printed on one of rayon's threads.
    const PIECE: usize = 1024;
    // One piece of definitions as text.
    let piece = |defs: &[(String, Attribute)]| {
        let syntax = SyntaxWriter { ctx, aliases: table };
        let mut out = String::with_capacity(defs.len() * 64);
        for (name, a) in defs {
            out.push('#');
            out.push_str(name);
            out.push_str(" = ");
            syntax.attr_no_alias(&mut out, *a);
            out.push('\n');
        }
        out
    };
    // A generic-form print defines every map and set (83k at 1M ops): in
    // pieces on rayon's threads, appended in order.
    if aliases.len() < 2 * PIECE || rayon::current_num_threads() < 2 {
        for defs in aliases.chunks(PIECE) {
            emit(&piece(defs));
        }
        return;
    }
    let pieces: Vec<String> = aliases.par_chunks(PIECE).map(piece).collect();
    for p in pieces {
        emit(&p);
    }
}

/// Prints to a `String` (convenience for tests and diagnostics).
pub fn op_to_string(ctx: &Context, body: &Body, op: OpId, opts: &PrintOptions) -> String {
    let mut v = Vec::new();
    print_op(ctx, body, op, opts, &mut v).expect("writing to a Vec cannot fail");
    String::from_utf8(v).expect("printer writes UTF-8")
}

/// Prints one op in the generic form, without aliases or location, with
/// values named as if it were printed alone (for diagnostic notes).
pub fn op_summary(ctx: &Context, body: &Body, op: OpId) -> String {
    let opts = PrintOptions {
        generic: true,
        ..PrintOptions::default()
    };
    let names = Names::default();
    let aliases = Aliases::default();
    let mut sink = io::sink();
    let mut p = OpPrinter::new(ctx, &opts, &names, &aliases, &mut sink);
    p.summary = true;
    p.print_op(body, op);
    p.out
}

pub(crate) struct OpPrinter<'a> {
    ctx: &'a Context,
    opts: &'a PrintOptions,
    names: &'a Names,
    aliases: &'a Aliases,
    out: String,
    w: &'a mut dyn io::Write,
    /// Length of `out` beyond which [`OpPrinter::flush`] writes it (a
    /// deferred print holds its text regardless).
    flush_at: usize,
    indent: usize,
    err: Option<io::Error>,
    summary: bool,
    /// A dry run (with recording aliases): printed sequentially.
    dry_run: bool,
    /// In a dry run: skip ops without regions that print no attribute with
    /// an alias in these (a collection without locations).
    skip_unless_alias: Option<&'a Aliases>,
    /// The dialect whose prefix the custom form of the ops being printed
    /// leaves out (MLIR's default dialect: `builtin` at the top and in a
    /// module, `func` in a function, none in other ops' regions).
    default_dialect: &'static str,
}

impl<'a> OpPrinter<'a> {
    /// A printer writing the op's text to `w` (a real print: no dry run,
    /// no summary).
    fn new(
        ctx: &'a Context,
        opts: &'a PrintOptions,
        names: &'a Names,
        aliases: &'a Aliases,
        w: &'a mut dyn io::Write,
    ) -> Self {
        OpPrinter {
            ctx,
            opts,
            names,
            aliases,
            out: String::new(),
            w,
            flush_at: HOLD_TEXT,
            indent: 0,
            err: None,
            summary: false,
            dry_run: false,
            skip_unless_alias: None,
            default_dialect: "builtin",
        }
    }

    fn syntax(&self) -> SyntaxWriter<'a> {
        SyntaxWriter {
            ctx: self.ctx,
            aliases: Some(self.aliases),
        }
    }

    fn flush(&mut self, force: bool) {
        // A deferred print keeps its text until the aliases are numbered
        // (its table takes the text over, to write it to a file when long).
        if !force && self.aliases.is_deferred() {
            if self.out.len() > HOLD_TEXT {
                self.aliases.take_over(&mut self.out);
            }
            return;
        }
        if (force || self.out.len() > self.flush_at) && self.err.is_none() {
            if let Err(e) = self.w.write_all(self.out.as_bytes()) {
                self.err = Some(e);
            }
            self.out.clear();
        }
    }

    /// Appends `text` printed elsewhere. Unless deferred, a text longer
    /// than what this printer holds goes to the writer as it is, after the
    /// text held, without being copied into `out` first.
    fn append_text(&mut self, text: &str) {
        if text.len() <= self.flush_at || self.aliases.is_deferred() {
            self.out.push_str(text);
            self.flush(false);
            return;
        }
        self.flush(true);
        if self.err.is_none() {
            if let Err(e) = self.w.write_all(text.as_bytes()) {
                self.err = Some(e);
            }
        }
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    fn value(&mut self, body: &Body, v: Value) {
        self.names.write_value(&mut self.out, body, v);
    }

    fn print_op(&mut self, body: &Body, op: OpId) {
        if let Some(candidates) = self.skip_unless_alias {
            if body.num_regions(op) == 0 && !candidates.op_may_print_alias(body, op) {
                return;
            }
        }
        if body.num_results(op) > 0 {
            self.names.write_result_defs(&mut self.out, body, op);
            self.out.push_str(" = ");
        }
        let def = self.ctx.op_def(body.op_name(op));
        let custom = if self.opts.generic {
            None
        } else {
            def.and_then(|d| match d.print {
                Some(print) => Some(Ok(print)),
                None => self.ctx.op_format(body.op_name(op)).map(Err),
            })
        };
        match custom {
            Some(how) => {
                let name = self.ctx.op_name_str(body.op_name(op));
                self.out.push_str(strip_dialect(name, self.default_dialect));
                let mut cp = CustomPrinter { p: self, body };
                match how {
                    Ok(print) => {
                        let _ = print(&mut cp, op);
                    }
                    Err(format) => crate::ods::format::print_with_format(&mut cp, op, format),
                }
            }
            None => self.print_generic(body, op),
        }
        if self.opts.debuginfo {
            self.out.push(' ');
            self.loc(body.op_loc(op));
        }
        self.flush(false);
    }

    /// Writes a block argument's location inline (`loc("f":1:2)`), as MLIR
    /// does, and notes it in a dry run.
    pub(crate) fn block_arg_loc(&mut self, l: Location) {
        let a = l.to_attr(self.ctx);
        self.aliases.note_printed(a);
        self.out.push_str("loc(");
        let s = self.syntax();
        s.location_body(&mut self.out, a);
        self.out.push(')');
    }

    fn loc(&mut self, l: Location) {
        let a = l.to_attr(self.ctx);
        self.out.push_str("loc(");
        match self.aliases.attr_alias(a) {
            Some(name) => {
                self.out.push('#');
                self.out.push_str(name);
            }
            None => {
                let s = self.syntax();
                s.location_body(&mut self.out, a);
            }
        }
        self.out.push(')');
    }

    fn print_generic(&mut self, body: &Body, op: OpId) {
        if self.dry_run {
            return self.visit_generic_in_alias_order(body, op);
        }
        if body.num_regions(op) > 0 {
            // MLIR numbers the aliases of a generic op's regions before those
            // of its own attributes: not print order.
            self.aliases.mark_unsure();
        }
        let ctx = self.ctx;
        self.out.push('"');
        self.out.push_str(ctx.op_name_str(body.op_name(op)));
        self.out.push_str("\"(");
        for (i, v) in body.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(body, v);
        }
        self.out.push(')');
        let succs = body.successors(op);
        if !succs.is_empty() {
            self.out.push('[');
            for (i, b) in succs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.names.write_block(&mut self.out, body, *b);
            }
            self.out.push(']');
        }
        if let Some(p) = body.op_props(op) {
            self.out.push_str(" <");
            let s = self.syntax();
            s.attr_no_alias(&mut self.out, p);
            self.out.push('>');
        }
        let nregions = body.num_regions(op);
        if nregions > 0 && !self.summary {
            self.out.push_str(" (");
            let rb = body.regions_body(op);
            for (i, &r) in body.regions(op).iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.region(rb, r, true, true, true);
            }
            self.out.push(')');
        } else if nregions > 0 {
            self.out.push_str(" ({...})");
        }
        if let Some(a) = body.op_attrs(op) {
            if !ctx.attr_data(a).dict_entries().is_empty() {
                self.out.push(' ');
                let s = self.syntax();
                s.attr_no_alias(&mut self.out, a);
            }
        }
        self.out.push_str(" : (");
        let s = self.syntax();
        for (i, v) in body.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            s.ty(&mut self.out, body.value_type(v));
        }
        self.out.push_str(") -> ");
        let results: Vec<Type> = body.results(op).map(|v| body.value_type(v)).collect();
        s.result_types(&mut self.out, &results);
    }

    /// In a dry run, goes through a generic op's parts in the order MLIR's
    /// alias pass visits them (regions, operand and result types, then
    /// properties and attributes), so that aliases are numbered as MLIR
    /// numbers them; the text written is thrown away.
    fn visit_generic_in_alias_order(&mut self, body: &Body, op: OpId) {
        let rb = body.regions_body(op);
        for &r in body.regions(op) {
            self.region(rb, r, true, true, true);
        }
        let s = self.syntax();
        for v in body.operands(op).chain(body.results(op)) {
            s.ty(&mut self.out, body.value_type(v));
        }
        for a in [body.op_props(op), body.op_attrs(op)].into_iter().flatten() {
            s.attr_no_alias(&mut self.out, a);
        }
    }

    /// Prints `{ ... }` for a region of `body` whose op has no default
    /// dialect (the names of the ops in it keep their dialect prefix).
    fn region(
        &mut self,
        body: &Body,
        r: RegionId,
        print_entry_args: bool,
        print_terminators: bool,
        print_empty_block: bool,
    ) {
        self.region_in(body, r, print_entry_args, print_terminators, print_empty_block, "");
    }

    /// [`OpPrinter::region`] for a region whose op's default dialect is
    /// `dialect`: ops of that dialect are printed without its prefix in it
    /// (MLIR's `OpAsmOpInterface::getDefaultDialect`).
    fn region_in(
        &mut self,
        body: &Body,
        r: RegionId,
        print_entry_args: bool,
        print_terminators: bool,
        print_empty_block: bool,
        dialect: &'static str,
    ) {
        let outer = std::mem::replace(&mut self.default_dialect, dialect);
        self.region_ops(body, r, print_entry_args, print_terminators, print_empty_block);
        self.default_dialect = outer;
    }

    fn region_ops(
        &mut self,
        body: &Body,
        r: RegionId,
        print_entry_args: bool,
        print_terminators: bool,
        print_empty_block: bool,
    ) {
        self.out.push('{');
        self.indent += 2;
        let preds = predecessors(body, r);
        for (i, b) in body.region_blocks(r).enumerate() {
            let empty = body.first_op(b).is_none();
            let header = i > 0 || (empty && print_empty_block) || (print_entry_args && !body.block_args(b).is_empty());
            if header {
                self.indent -= 2;
                self.newline();
                self.indent += 2;
                self.block_header(body, b, i == 0, &preds[i].1);
            }
            let last = body.last_op(b);
            if self.print_isolated_ops_in_parallel(body, b) {
                continue;
            }
            for o in body.block_ops(b) {
                if !print_terminators && Some(o) == last && self.is_elidable_terminator(body, o) {
                    continue;
                }
                self.newline();
                self.print_op(body, o);
            }
        }
        self.indent -= 2;
        self.newline();
        self.out.push('}');
    }

    /// Prints the ops of a block holding several isolated ops (functions) on
    /// rayon's threads when it has more than one: batches of ops are printed
    /// each into its own buffer, appended in order, so the text is the same
    /// as printed one by one. Returns false (printing nothing) otherwise.
    /// Such a block (a module's) has no terminator to elide.
    fn print_isolated_ops_in_parallel(&mut self, body: &Body, b: BlockId) -> bool {
        use rayon::prelude::*;
        const BATCH: usize = 256;
        // Most blocks (a function's, a loop's) are in a body holding no
        // isolated op: nothing to look for there.
        if self.summary || !body.may_hold_several_isolated_ops() || rayon::current_num_threads() < 2 {
            return false;
        }
        let ops: Vec<OpId> = body.block_ops(b).collect();
        if ops.iter().filter(|&&o| body.nested_body(o).is_some()).take(2).count() < 2 {
            return false;
        }
        let (ctx, opts, names, aliases, indent) = (self.ctx, self.opts, self.names, self.aliases, self.indent);
        let (dry_run, skip_unless_alias) = (self.dry_run, self.skip_unless_alias);
        let default_dialect = self.default_dialect;
        let deferred = aliases.is_deferred();
        // Prints one batch, each op into its own buffer (and, in a dry run
        // or a deferred print, with its own alias table).
        let print_batch = |batch: &[OpId]| -> Vec<(String, Option<Aliases>)> {
            batch
                .par_iter()
                .with_max_len(1)
                .map(|&o| {
                    let recording = if dry_run {
                        Some(Aliases::recording())
                    } else {
                        deferred.then(|| Aliases::deferred(false, None))
                    };
                    let mut spill: Vec<u8> = Vec::new();
                    let mut child = OpPrinter::new(ctx, opts, names, recording.as_ref().unwrap_or(aliases), &mut spill);
                    if !dry_run {
                        let per_op = if opts.generic {
                            BYTES_PER_GENERIC_OP
                        } else {
                            BYTES_PER_CUSTOM_OP
                        };
                        let ops = body.nested_body(o).map_or(1, Body::op_slots);
                        child.out.reserve((ops * per_op).min(HOLD_TEXT));
                    }
                    child.indent = indent;
                    child.dry_run = dry_run;
                    child.skip_unless_alias = skip_unless_alias;
                    child.default_dialect = default_dialect;
                    child.print_op(body, o);
                    let text = if dry_run {
                        String::new()
                    } else {
                        std::mem::take(&mut child.out)
                    };
                    drop(child);
                    if spill.is_empty() || dry_run {
                        return (text, recording);
                    }
                    let mut all = String::from_utf8(spill).expect("the printer writes UTF-8");
                    all.push_str(&text);
                    (all, recording)
                })
                .collect()
        };
        // Batches are appended in order; while one is appended (which may
        // resolve and write text, one thread's work), the next is printed.
        let mut batches = ops.chunks(BATCH);
        let mut done = batches.next().map(print_batch).unwrap_or_default();
        loop {
            let next = batches.next();
            let mut printed = None;
            // In place: the printer's writer stays on this thread.
            rayon::in_place_scope(|s| {
                if let Some(batch) = next {
                    s.spawn(|_| printed = Some(print_batch(batch)));
                }
                self.append_batch(done, dry_run);
            });
            match printed {
                Some(p) => done = p,
                None => break,
            }
        }
        true
    }

    /// Appends the texts of a batch printed by
    /// [`OpPrinter::print_isolated_ops_in_parallel`], in order, merging
    /// their alias tables into ours (a dry run records their attributes).
    fn append_batch(&mut self, parts: Vec<(String, Option<Aliases>)>, dry_run: bool) {
        for (t, child_aliases) in parts {
            match child_aliases {
                Some(r) if dry_run => {
                    for a in r.recorded_in_order() {
                        self.aliases.note_printed(a);
                    }
                    continue;
                }
                Some(r) => {
                    self.newline();
                    self.aliases.absorb(&mut self.out, t, r);
                }
                None => {
                    self.newline();
                    self.append_text(&t);
                    continue;
                }
            }
            self.flush(false);
        }
    }

    fn is_elidable_terminator(&self, body: &Body, op: OpId) -> bool {
        let def = self.ctx.op_def(body.op_name(op));
        def.is_some_and(|d| d.has(Traits::TERMINATOR))
            && body.num_operands(op) == 0
            && body.num_results(op) == 0
            && body
                .op_attrs(op)
                .is_none_or(|a| self.ctx.attr_data(a).dict_entries().is_empty())
    }

    fn block_header(&mut self, body: &Body, b: BlockId, entry: bool, preds: &[BlockId]) {
        self.names.write_block(&mut self.out, body, b);
        let args = body.block_args(b);
        if !args.is_empty() {
            self.out.push('(');
            for (i, &a) in args.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.value(body, a);
                self.out.push_str(": ");
                let s = self.syntax();
                s.ty(&mut self.out, body.value_type(a));
                if self.opts.debuginfo {
                    self.out.push(' ');
                    self.block_arg_loc(body.block_arg_loc(b, i));
                }
            }
            self.out.push(')');
        }
        self.out.push(':');
        let mut ps: Vec<BlockId> = preds.to_vec();
        if ps.is_empty() {
            if !entry {
                self.out.push_str("  // no predecessors");
            }
            return;
        }
        if ps.iter().all(|p| *p == ps[0]) {
            self.out.push_str("  // pred: ");
            self.names.write_block(&mut self.out, body, ps[0]);
            return;
        }
        ps.sort_by_key(|p| self.names.block_number(body, *p));
        use std::fmt::Write;
        let _ = write!(self.out, "  // {} preds: ", ps.len());
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.names.write_block(&mut self.out, body, *p);
        }
    }
}

/// For each block of a region, in order, the blocks whose ops branch to it (with repeats).
fn predecessors(body: &Body, r: RegionId) -> Vec<(BlockId, Vec<BlockId>)> {
    let mut out: Vec<(BlockId, Vec<BlockId>)> = body.region_blocks(r).map(|b| (b, Vec::new())).collect();
    if out.len() <= 1 {
        return out;
    }
    let index: rustc_hash::FxHashMap<BlockId, usize> = out.iter().enumerate().map(|(i, (b, _))| (*b, i)).collect();
    for b in body.region_blocks(r) {
        for o in body.block_ops(b) {
            for s in body.successors(o) {
                if let Some(&i) = index.get(s) {
                    out[i].1.push(b);
                }
            }
        }
    }
    out
}

/// The API custom op printers use.
pub struct CustomPrinter<'p, 'a> {
    pub(crate) p: &'p mut OpPrinter<'a>,
    pub(crate) body: &'p Body,
}

impl<'p, 'a> CustomPrinter<'p, 'a> {
    /// Whether this is the printer's dry run, which only finds the
    /// attributes and locations that get aliases: a custom printer may skip
    /// text that holds none (e.g. the subscripts of `affine.load`).
    pub fn is_dry_run(&self) -> bool {
        self.p.dry_run
    }

    /// The context.
    pub fn ctx(&self) -> &'a Context {
        self.p.ctx
    }

    /// The body holding the op.
    pub fn body(&self) -> &'p Body {
        self.body
    }

    /// Writes raw text.
    pub fn write(&mut self, s: &str) {
        self.p.out.push_str(s);
    }

    /// Writes a value's name.
    pub fn value(&mut self, v: Value) {
        let b = self.body;
        self.p.value(b, v);
    }

    /// Writes an affine expression over values, as the custom forms of the
    /// affine ops do: dimension `i` as the name of `dims[i]`, symbol `j` as
    /// `symbol(` the name of `syms[j]` `)`.
    pub fn affine_expr_of_values(&mut self, e: &crate::affine::AffineExpr, dims: &[Value], syms: &[Value]) {
        let (names, body) = (&self.p.names, self.body);
        let _ = crate::affine::print_affine_expr_with(&mut self.p.out, e, &mut |out: &mut String, pos, is_sym| {
            let v = if is_sym {
                syms.get(pos as usize)
            } else {
                dims.get(pos as usize)
            };
            if is_sym {
                out.push_str("symbol(");
            }
            if let Some(&v) = v {
                names.write_value(out, body, v);
            }
            if is_sym {
                out.push(')');
            }
            Ok(())
        });
    }

    /// Writes a type.
    pub fn ty(&mut self, t: Type) {
        let s = self.p.syntax();
        s.ty(&mut self.p.out, t);
    }

    /// Writes an attribute.
    pub fn attr(&mut self, a: Attribute) {
        let s = self.p.syntax();
        s.attr(&mut self.p.out, a);
    }

    /// Writes ` {a = 1, ...}` for the op's discardable attributes, skipping
    /// `elide`; nothing if none remain.
    pub fn optional_attr_dict(&mut self, op: OpId, elide: &[&str], with_keyword: bool) {
        let Some(a) = self.body.op_attrs(op) else { return };
        let entries = self.p.ctx.attr_data(a).dict_entries();
        if entries.iter().all(|(n, _)| elide.contains(&self.p.ctx.ident_str(*n))) {
            return;
        }
        self.p.out.push_str(if with_keyword { " attributes {" } else { " {" });
        let s = self.p.syntax();
        s.dict_entries(&mut self.p.out, entries, elide);
        self.p.out.push('}');
    }

    /// Writes values separated by `, `.
    pub fn value_list(&mut self, values: &[Value]) {
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.p.out.push_str(", ");
            }
            self.value(*v);
        }
    }

    /// Writes types separated by `, `.
    pub fn type_list(&mut self, types: &[Type]) {
        for (i, t) in types.iter().enumerate() {
            if i > 0 {
                self.p.out.push_str(", ");
            }
            self.ty(*t);
        }
    }

    /// Writes `(inputs) -> results` as MLIR's `printFunctionalType` does.
    pub fn functional_type(&mut self, inputs: &[Type], results: &[Type]) {
        self.p.out.push('(');
        self.type_list(inputs);
        self.p.out.push_str(") -> ");
        let s = self.p.syntax();
        s.result_types(&mut self.p.out, results);
    }

    /// Writes the op's attribute dictionary for a declared op: its inherent
    /// attributes (properties) that are not in `elide` and not equal to their
    /// default, and its discardable attributes, sorted by name, as
    /// ` {...}` (or ` attributes {...}`); nothing if none remain.
    pub fn attr_dict_with_props(&mut self, op: OpId, elide: &[&str], with_keyword: bool) {
        let ctx = self.p.ctx;
        let def = ctx.op_def(self.body.op_name(op));
        let mut entries: Vec<(crate::Ident, Attribute)> = Vec::new();
        if let Some(p) = self.body.op_props(op) {
            for &(k, v) in ctx.attr_data(p).dict_entries() {
                let name = ctx.ident_str(k);
                if elide.contains(&name) {
                    continue;
                }
                let is_default = def
                    .and_then(|d| d.attributes.iter().find(|a| a.name == name))
                    .and_then(|a| a.default_value(ctx))
                    .is_some_and(|d| d == v);
                if !is_default {
                    entries.push((k, v));
                }
            }
        }
        if let Some(a) = self.body.op_attrs(op) {
            for &(k, v) in ctx.attr_data(a).dict_entries() {
                if !elide.contains(&ctx.ident_str(k)) {
                    entries.push((k, v));
                }
            }
        }
        if entries.is_empty() {
            return;
        }
        entries.sort_by(|a, b| ctx.ident_str(a.0).cmp(ctx.ident_str(b.0)));
        self.p.out.push_str(if with_keyword { " attributes {" } else { " {" });
        let s = self.p.syntax();
        s.dict_entries(&mut self.p.out, &entries, &[]);
        self.p.out.push('}');
    }

    /// Writes a region of the op (`{ ... }`).
    pub fn region(&mut self, op: OpId, index: usize, print_entry_args: bool, print_terminators: bool) {
        let rb = self.body.regions_body(op);
        let r = self.body.region(op, index);
        self.p.region(rb, r, print_entry_args, print_terminators, false);
    }
}

/// `name` without the prefix `dialect.` when `dialect` is the default
/// dialect where the op is printed (MLIR's `OpState::printOpName`: only
/// names with one dot lose it, so `scf.reduce.return` keeps its prefix).
fn strip_dialect<'n>(name: &'n str, dialect: &str) -> &'n str {
    // The byte after the prefix is checked first: for most ops it is not
    // the dot, and the string comparison (a libc call) is skipped.
    let n = dialect.len();
    if n == 0 || name.as_bytes().get(n) != Some(&b'.') || !name.starts_with(dialect) {
        return name;
    }
    let short = &name[n + 1..];
    if short.contains('.') {
        name
    } else {
        short
    }
}

#[cfg(test)]
mod tests {
    use super::strip_dialect;

    #[test]
    fn strip_dialect_drops_only_the_default_dialects_prefix() {
        assert_eq!(strip_dialect("func.return", "func"), "return");
        assert_eq!(strip_dialect("affine.load", "func"), "affine.load");
        assert_eq!(strip_dialect("funcx.call", "func"), "funcx.call");
        assert_eq!(strip_dialect("scf.reduce.return", "scf"), "scf.reduce.return");
        assert_eq!(strip_dialect("func.return", ""), "func.return");
        assert_eq!(strip_dialect("func", "func"), "func");
        assert_eq!(strip_dialect("gunc.return", "func"), "gunc.return");
    }
}
