//! The builtin dialect ops the core needs: `builtin.module`.

use crate::attrs::AttrData;
use crate::parser::{CustomParser, ParseResult};
use crate::printer::CustomPrinter;
use crate::registry::{OpDef, Traits};
use crate::walk::{walk, WalkControl, WalkOrder};
use crate::{Body, Context, OpId};
use lf_diag::Diagnostic;

/// `builtin.module`: a top-level container of ops with a symbol table.
pub static MODULE: OpDef = OpDef {
    summary: "A top level container operation",
    description: "A `module` holds a single block of operations (with no terminator) and \
        is a symbol table. It may have an optional `@name` and extra attributes:\n\n\
        ```mlir\nmodule @m attributes {foo} {\n  ...\n}\n```",
    traits: Traits::ISOLATED_FROM_ABOVE
        .with(Traits::SYMBOL_TABLE)
        .with(Traits::NO_TERMINATOR)
        .with(Traits::SINGLE_BLOCK)
        .with(Traits::GRAPH_REGION),
    attributes: &[
        crate::ods::AttrDef::optional("sym_name", &crate::ods::constraints::STRING_ATTR),
        crate::ods::AttrDef::optional("sym_visibility", &crate::ods::constraints::STRING_ATTR),
    ],
    regions: &[crate::ods::RegionDef {
        name: "bodyRegion",
        single_block: true,
        may_be_empty: false,
    }],
    verify: Some(verify_module),
    verify_regions: Some(verify_module_symbol_uses),
    parse: Some(parse_module),
    print: Some(print_module),
    ..OpDef::new("builtin.module")
};

/// Registers the builtin ops.
pub fn register(ctx: &Context) {
    ctx.register_dialect("builtin");
    ctx.register_op(&MODULE);
}

fn parse_module(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    if let Some(name) = p.parse_optional_symbol_name()? {
        let ctx = p.ctx();
        let value = ctx.string_attr(ctx.ident_str(name));
        let props = ctx.dict_attr(vec![(ctx.intern("sym_name"), value)]);
        p.set_props(props);
    }
    p.parse_optional_attr_dict_with_keyword()?;
    p.parse_region(&[])?;
    p.ensure_entry_blocks();
    Ok(())
}

fn print_module(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    if let Some(props) = p.body().op_props(op) {
        for (k, v) in ctx.attr_data(props).dict_entries() {
            if ctx.ident_str(*k) == "sym_name" {
                if let AttrData::String { value, .. } = ctx.attr_data(*v) {
                    let sym = ctx.get_attr(AttrData::SymbolRef {
                        root: ctx.intern(value),
                        nested: Box::new([]),
                    });
                    p.write(" ");
                    p.attr(sym);
                }
            }
        }
    }
    // `sym_visibility` goes with the discardable attributes, as MLIR prints it.
    p.attr_dict_with_props(op, &["sym_name"], true);
    p.write(" ");
    p.region_with_default_dialect(op, 0, false, false, "builtin");
    Ok(())
}

fn verify_module(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let err = |m: &str| {
        Err(Diagnostic::error(
            body.op_loc(op).source_pos(ctx),
            format!("'builtin.module' op {m}"),
        ))
    };
    if body.num_operands(op) != 0 || body.num_results(op) != 0 {
        return err("requires zero operands and results");
    }
    if body.num_regions(op) != 1 {
        return err("requires one region");
    }
    let rb = body.regions_body(op);
    let r = body.region(op, 0);
    let blocks: Vec<_> = rb.region_blocks(r).collect();
    if blocks.len() != 1 {
        return err("expects a single block in its region");
    }
    if !rb.block_args(blocks[0]).is_empty() {
        return err("region should have no arguments");
    }
    if let Some(a) = body.op_attrs(op) {
        for (k, _) in ctx.attr_data(a).dict_entries() {
            let name = ctx.ident_str(*k);
            if !name.contains('.') {
                return err(&format!(
                    "can only contain attributes with dialect-prefixed names, found: '{name}'"
                ));
            }
        }
    }
    Ok(())
}

/// The module's symbol table check of its symbol users (MLIR's
/// `verifySymbolTable`), after its body verified: the ops with a
/// [`crate::registry::SymbolUsesFn`] in the module's body outside isolated
/// ops, which check their own (`func.func` those in its body), and nested
/// symbol tables, in program order.
fn verify_module_symbol_uses(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let rb = body.regions_body(op);
    let check = |o: OpId| ctx.op_def(rb.op_name(o)).and_then(|d| d.verify_symbol_uses);
    // Most modules hold functions and globals only: a scan of the module's
    // own ops (not the functions' bodies) says so.
    if !rb.live_ops().any(|o| check(o).is_some()) {
        return Ok(());
    }
    let mut result = Ok(());
    walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
        if o == op && std::ptr::eq(b, body) {
            return WalkControl::Advance;
        }
        let def = ctx.op_def(b.op_name(o));
        let r = match def.and_then(|d| d.verify_symbol_uses) {
            Some(f) => f(ctx, symbol_table_of(ctx, b, o), b, o),
            None => Ok(()),
        };
        if let Err(e) = r {
            result = Err(e);
            return WalkControl::Interrupt;
        }
        if def.is_some_and(|d| d.has(Traits::ISOLATED_FROM_ABOVE) || d.has(Traits::SYMBOL_TABLE)) {
            WalkControl::Skip
        } else {
            WalkControl::Advance
        }
    });
    result
}

/// Where the symbols of `op`, in the body of a module outside its isolated
/// ops, are looked up: its ancestor directly in the module; `None` if an
/// unregistered op with one region lies in between (MLIR takes it for a
/// symbol table it cannot read).
fn symbol_table_of<'b>(ctx: &Context, body: &'b Body, op: OpId) -> Option<(&'b Body, OpId)> {
    let mut anchor = op;
    while let Some(parent) = body.parent_op(anchor) {
        if ctx.op_def(body.op_name(parent)).is_none() && body.num_regions(parent) == 1 {
            return None;
        }
        anchor = parent;
    }
    Some((body, anchor))
}
