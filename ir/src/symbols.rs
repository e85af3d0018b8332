//! Symbols and symbol tables (`sym_name`, ops with the SymbolTable trait).

use crate::attrs::AttrData;
use crate::{Body, Context, Ident, OpId, RegionId};

/// The `sym_name` of an op (from its properties or attributes), if any.
pub fn symbol_name(ctx: &Context, body: &Body, op: OpId) -> Option<Ident> {
    for dict in [body.op_props(op), body.op_attrs(op)].into_iter().flatten() {
        for (k, v) in ctx.attr_data(dict).dict_entries() {
            if ctx.ident_str(*k) == "sym_name" {
                if let AttrData::String { value, .. } = ctx.attr_data(*v) {
                    return Some(ctx.intern(value));
                }
            }
        }
    }
    None
}

/// The symbols defined directly in a region (a symbol table's body), in order.
pub fn symbols_in(ctx: &Context, body: &Body, region: RegionId) -> Vec<(Ident, OpId)> {
    let mut out = Vec::new();
    for b in body.region_blocks(region) {
        for op in body.block_ops(b) {
            if let Some(n) = symbol_name(ctx, body, op) {
                out.push((n, op));
            }
        }
    }
    out
}

/// Finds the op named `name` directly in the symbol table region.
pub fn lookup_symbol(ctx: &Context, body: &Body, region: RegionId, name: &str) -> Option<OpId> {
    let id = ctx.intern(name);
    symbols_in(ctx, body, region)
        .into_iter()
        .find(|(n, _)| *n == id)
        .map(|(_, op)| op)
}
