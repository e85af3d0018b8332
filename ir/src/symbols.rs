//! Symbols and symbol tables (`sym_name`, ops with the SymbolTable trait).

use crate::attrs::AttrData;
use crate::{Body, Context, Ident, OpId, RegionId};

/// The name of the attribute holding a symbol's name (MLIR's
/// `SymbolTable::getSymbolAttrName`): a property of most symbol ops, a
/// discardable attribute of `gpu.func`.
pub const SYMBOL_ATTR_NAME: &str = "sym_name";

/// The `sym_name` of an op (from its properties or attributes), if any.
pub fn symbol_name(ctx: &Context, body: &Body, op: OpId) -> Option<Ident> {
    symbol_name_str(ctx, body, op).map(|n| ctx.intern(n))
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

/// An index of the symbols of the symbol-table region looked up last on this
/// thread (verifying a module looks up each call's callee in the same table).
struct SymbolIndex {
    body: usize,
    region: RegionId,
    num_ops: usize,
    names: rustc_hash::FxHashMap<Box<str>, OpId>,
}

thread_local! {
    static INDEX: std::cell::RefCell<Option<SymbolIndex>> = const { std::cell::RefCell::new(None) };
}

/// Finds the op named `name` directly in the symbol table region.
///
/// Each thread keeps an index of the last table it searched; a hit is checked
/// against the op's current name and a miss falls back to a scan, so the
/// answer is always an op of `body` with that name (the first one, unless
/// the table was changed in place since it was indexed).
pub fn lookup_symbol(ctx: &Context, body: &Body, region: RegionId, name: &str) -> Option<OpId> {
    let hit = INDEX.with(|cell| {
        let mut index = cell.borrow_mut();
        let key = (body as *const Body as usize, region, body.ops.len());
        if index.as_ref().is_none_or(|i| (i.body, i.region, i.num_ops) != key) {
            let mut names = rustc_hash::FxHashMap::default();
            for b in body.region_blocks(region) {
                for op in body.block_ops(b) {
                    if let Some(n) = symbol_name_str(ctx, body, op) {
                        names.entry(n.into()).or_insert(op);
                    }
                }
            }
            *index = Some(SymbolIndex {
                body: key.0,
                region,
                num_ops: key.2,
                names,
            });
        }
        index.as_ref().and_then(|i| i.names.get(name).copied())
    });
    if let Some(op) = hit {
        if op.index() < body.ops.len()
            && !body.is_erased(op)
            && body.op_block(op).and_then(|b| body.block_region(b)) == Some(region)
            && symbol_name_str(ctx, body, op) == Some(name)
        {
            return Some(op);
        }
    }
    lookup_symbol_scan(ctx, body, region, name)
}

/// The `sym_name` of an op as a string: the first string-valued `sym_name`
/// of its properties, then of its attributes.
fn symbol_name_str<'c>(ctx: &'c Context, body: &Body, op: OpId) -> Option<&'c str> {
    for dict in [body.op_props(op), body.op_attrs(op)].into_iter().flatten() {
        for (k, v) in ctx.attr_data(dict).dict_entries() {
            if ctx.ident_str(*k) == "sym_name" {
                if let AttrData::String { value, .. } = ctx.attr_data(*v) {
                    return Some(value);
                }
            }
        }
    }
    None
}

/// [`lookup_symbol`] by a scan comparing names in place.
fn lookup_symbol_scan(ctx: &Context, body: &Body, region: RegionId, name: &str) -> Option<OpId> {
    body.region_blocks(region)
        .flat_map(|b| body.block_ops(b))
        .find(|&op| symbol_name_str(ctx, body, op) == Some(name))
}
