//! Printer primitives for the `func` and `scf` dialects: region arguments
//! declared in an op's own syntax (`%arg0: i32 {attrs} loc(...)`), optional
//! attribute dictionaries given as values, and regions printed with or
//! without their terminators.

use super::CustomPrinter;
use crate::{Attribute, OpId, Value};

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
    /// ops in it without the `dialect.` prefix of their names, as MLIR does
    /// inside an op whose `getDefaultDialect` is `dialect` (`return` inside
    /// `func.func`, `module` inside `builtin.module`).
    pub fn region_with_default_dialect(
        &mut self,
        op: OpId,
        index: usize,
        print_entry_args: bool,
        print_terminators: bool,
        dialect: &'static str,
    ) {
        let rb = self.body.regions_body(op);
        let r = self.body.region(op, index);
        self.p
            .region_in(rb, r, print_entry_args, print_terminators, false, dialect);
    }
}
