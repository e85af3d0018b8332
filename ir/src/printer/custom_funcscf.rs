//! Printer primitives for the `func` and `scf` dialects: region arguments
//! declared in an op's own syntax (`%arg0: i32 {attrs} loc(...)`), optional
//! attribute dictionaries given as values, and regions printed with or
//! without their terminators.

use super::{CustomPrinter, OpPrinter};
use crate::{Attribute, Body, OpId, RegionId, Value};

impl<'p, 'a> CustomPrinter<'p, 'a> {
    /// Whether locations are printed (`--mlir-print-debuginfo`).
    pub fn printing_locations(&self) -> bool {
        self.p.opts.debuginfo
    }

    /// Writes ` {a = 1, ...}` for a dictionary attribute; nothing if it is
    /// absent, empty or not a dictionary.
    pub fn optional_dict(&mut self, dict: Option<Attribute>) {
        let Some(d) = dict else { return };
        let entries = self.p.ctx.attr_data(d).dict_entries();
        if entries.is_empty() {
            return;
        }
        self.p.out.push_str(" {");
        let s = self.p.syntax();
        s.dict_entries(&mut self.p.out, entries, &[]);
        self.p.out.push('}');
    }

    /// Writes a region argument declared in the op's syntax, as MLIR's
    /// `printRegionArgument`: `%arg0: i32`, then ` {attrs}` if `attrs` is a
    /// non-empty dictionary, then ` loc(...)` when printing locations. `v`
    /// must be a block argument of a region of `op`.
    pub fn region_argument(&mut self, op: OpId, v: Value, attrs: Option<Attribute>) {
        let rb = self.body.regions_body(op);
        self.p.value(rb, v);
        self.p.out.push_str(": ");
        let t = rb.value_type(v);
        self.ty(t);
        self.optional_dict(attrs);
        self.arg_loc(op, v);
    }

    /// Writes a region argument declared without its type (`affine.for`'s
    /// induction variable): its name, then ` loc(...)` when printing locations.
    pub fn region_argument_untyped(&mut self, op: OpId, v: Value) {
        let rb = self.body.regions_body(op);
        self.p.value(rb, v);
        self.arg_loc(op, v);
    }

    /// Writes ` loc(...)` for a block argument of a region of `op` when
    /// printing locations.
    fn arg_loc(&mut self, op: OpId, v: Value) {
        let rb = self.body.regions_body(op);
        if self.p.opts.debuginfo {
            if let Some(b) = rb.value_block(v) {
                if let Some(i) = rb.block_args(b).iter().position(|a| *a == v) {
                    self.p.out.push(' ');
                    self.p.block_arg_loc(rb.block_arg_loc(b, i));
                }
            }
        }
    }

    /// Writes the name of a value stored in the body of `op`'s regions
    /// (block arguments of an isolated op's regions live in its nested body).
    pub fn region_value(&mut self, op: OpId, v: Value) {
        let rb = self.body.regions_body(op);
        self.p.value(rb, v);
    }
}

impl<'p, 'a> CustomPrinter<'p, 'a> {
    /// Writes a region of the op like [`CustomPrinter::region`], printing the
    /// ops directly in it without the `dialect.` prefix of their names, as
    /// MLIR does inside an op whose `getDefaultDialect` is `dialect`
    /// (`return` inside `func.func`).
    pub fn region_with_default_dialect(
        &mut self,
        op: OpId,
        index: usize,
        print_entry_args: bool,
        print_terminators: bool,
        dialect: &str,
    ) {
        let rb = self.body.regions_body(op);
        let r = self.body.region(op, index);
        self.p
            .region_in_dialect(rb, r, print_entry_args, print_terminators, dialect);
    }
}

impl<'a> OpPrinter<'a> {
    /// [`OpPrinter::region`] with the ops of the region printed in `dialect`.
    fn region_in_dialect(
        &mut self,
        body: &Body,
        r: RegionId,
        print_entry_args: bool,
        print_terminators: bool,
        dialect: &str,
    ) {
        self.out.push('{');
        self.indent += 2;
        let preds = super::predecessors(body, r);
        for (i, b) in body.region_blocks(r).enumerate() {
            let header = i > 0 || (print_entry_args && !body.block_args(b).is_empty());
            if header {
                self.indent -= 2;
                self.newline();
                self.indent += 2;
                self.block_header(body, b, i == 0, &preds[i].1);
            }
            let last = body.last_op(b);
            for o in body.block_ops(b) {
                if !print_terminators && Some(o) == last && self.is_elidable_terminator(body, o) {
                    continue;
                }
                self.newline();
                self.print_op_in_dialect(body, o, dialect);
            }
        }
        self.indent -= 2;
        self.newline();
        self.out.push('}');
    }

    /// [`OpPrinter::print_op`] with a custom-form name stripped of `dialect.`.
    fn print_op_in_dialect(&mut self, body: &Body, op: OpId, dialect: &str) {
        let ctx = self.ctx;
        let def = ctx.op_def(body.op_name(op));
        let custom = if self.opts.generic {
            None
        } else {
            def.and_then(|d| match d.print {
                Some(print) => Some(Ok(print)),
                None => ctx.op_format(body.op_name(op)).map(Err),
            })
        };
        let Some(how) = custom else {
            self.print_op(body, op);
            return;
        };
        if body.num_results(op) > 0 {
            self.names.write_result_defs(&mut self.out, body, op);
            self.out.push_str(" = ");
        }
        let name = ctx.op_name_str(body.op_name(op));
        let short = name
            .strip_prefix(dialect)
            .and_then(|s| s.strip_prefix('.'))
            .or_else(|| name.strip_prefix("builtin."))
            .unwrap_or(name);
        self.out.push_str(short);
        let mut cp = CustomPrinter { p: self, body };
        match how {
            Ok(print) => {
                let _ = print(&mut cp, op);
            }
            Err(format) => crate::ods::format::print_with_format(&mut cp, op, format),
        }
        if self.opts.debuginfo {
            self.out.push(' ');
            self.loc(body.op_loc(op));
        }
        self.flush(false);
    }
}
