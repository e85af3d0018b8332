//! `symbol-dce`: erase private symbols that nothing live refers to.

use lf_diag::Diagnostic;
use lf_ir::attrs::AttrData;
use lf_ir::{Attribute, Body, Context, Ident, OpId, RegionId, Traits};
use lf_pass::analysis::AnalysisManager;
use lf_pass::pass::{Anchor, Pass, PassInfo, PassResult, PassTarget};
use rustc_hash::{FxHashMap, FxHashSet};

/// Registration of `symbol-dce`.
pub static INFO: PassInfo = PassInfo {
    name: "symbol-dce",
    summary: "Erase private symbols that are not referenced",
    description: "Runs on an op with a symbol table (a module). Symbols that are not private are live, and \
so are the ops of a live symbol table that are not symbols; a symbol referred to (by a symbol reference \
attribute anywhere in a live op, nested references such as `@gpu_module::@kernel` included) from a live \
op is live. Private symbols that are not live are erased, in nested symbol tables (`gpu.module`) too. \
Matches `mlir-opt --symbol-dce`.\n\nStatistic: `num-dce'd`.",
    anchor: Anchor::Any,
    options: &[],
    create: |_| Ok(Box::new(SymbolDce)),
};

/// The `symbol-dce` pass.
pub struct SymbolDce;

type TableId = usize;
type SymId = usize;

/// A symbol reference made by an op, resolved from the table holding the op.
struct Use {
    table: TableId,
    path: Vec<Ident>,
}

struct Table {
    parent: Option<TableId>,
    symbols: FxHashMap<Ident, SymId>,
    /// Uses by the non-symbol ops of the table (live with the table).
    uses: Vec<Use>,
    /// The symbols of the table, in order.
    order: Vec<SymId>,
}

struct Sym {
    private: bool,
    /// The table it defines, if it is a symbol table.
    inner: Option<TableId>,
    uses: Vec<Use>,
    /// Ops from the pass's body down to the symbol op.
    path: Vec<OpId>,
}

#[derive(Default)]
struct Symbols {
    tables: Vec<Table>,
    syms: Vec<Sym>,
}

impl Pass for SymbolDce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn class_name(&self) -> std::borrow::Cow<'static, str> {
        // MLIR's name of the pass, in IR dump headers.
        "SymbolDCE".into()
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        if !ctx.op_def(op.op_name()).is_some_and(|d| d.has(Traits::SYMBOL_TABLE)) {
            return Err(Box::new(Diagnostic::error(
                op.loc().source_pos(ctx),
                format!(
                    "symbol-dce runs on ops with a symbol table (such as 'builtin.module'), not on '{}'",
                    op.op_name_str()
                ),
            )));
        }
        let regions = op.regions().to_vec();
        let mut s = Symbols::default();
        s.table(ctx, op.body(), &regions, None, &[]);
        let live = s.liveness();
        let dead: Vec<&Vec<OpId>> = s
            .syms
            .iter()
            .enumerate()
            .filter(|(i, sym)| sym.private && !live.contains(i))
            .map(|(_, sym)| &sym.path)
            .collect();
        let n = dead.len() as u64;
        let body = op.body_mut();
        for path in dead {
            erase_at(body, path);
        }
        op.add_statistic("num-dce'd", "Number of symbols DCE'd", n);
        if n == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}

/// Erases the op at the end of `path` (an erased ancestor took it along).
fn erase_at(body: &mut Body, path: &[OpId]) {
    let Some((&last, outer)) = path.split_last() else {
        return;
    };
    let mut b = body;
    for &o in outer {
        if b.is_erased(o) {
            return;
        }
        match b.nested_body_mut(o) {
            Some(nb) => b = nb,
            None => return,
        }
    }
    if !b.is_erased(last) {
        b.erase_op(last);
    }
}

impl Symbols {
    /// Records the symbol table whose regions `roots` are in `body`.
    fn table(
        &mut self,
        ctx: &Context,
        body: &Body,
        roots: &[RegionId],
        parent: Option<TableId>,
        path: &[OpId],
    ) -> TableId {
        let t = self.tables.len();
        self.tables.push(Table {
            parent,
            symbols: FxHashMap::default(),
            uses: Vec::new(),
            order: Vec::new(),
        });
        for &r in roots {
            for b in body.region_blocks(r) {
                for op in body.block_ops(b) {
                    let mut p = path.to_vec();
                    p.push(op);
                    let name = lf_ir::symbols::symbol_name(ctx, body, op);
                    let is_table = ctx
                        .op_def(body.op_name(op))
                        .is_some_and(|d| d.has(Traits::SYMBOL_TABLE));
                    let mut uses = Vec::new();
                    collect_op_uses(ctx, body, op, t, !is_table, &mut uses);
                    let inner = if is_table {
                        let rb = body.regions_body(op);
                        Some(self.table(ctx, rb, body.regions(op), Some(t), &p))
                    } else {
                        None
                    };
                    match name {
                        Some(n) => {
                            let id = self.syms.len();
                            self.syms.push(Sym {
                                private: is_private(ctx, body, op),
                                inner,
                                uses,
                                path: p,
                            });
                            self.tables[t].symbols.entry(n).or_insert(id);
                            self.tables[t].order.push(id);
                        }
                        // Not a symbol: live with its table (a nested table
                        // that is not a symbol is made live in `liveness`).
                        None => self.tables[t].uses.extend(uses),
                    }
                }
            }
        }
        t
    }

    fn resolve(&self, u: &Use) -> Option<SymId> {
        let (first, rest) = u.path.split_first()?;
        let mut t = Some(u.table);
        let mut sym = None;
        while let Some(ti) = t {
            if let Some(&s) = self.tables[ti].symbols.get(first) {
                sym = Some(s);
                break;
            }
            t = self.tables[ti].parent;
        }
        let mut sym = sym?;
        for name in rest {
            let inner = self.syms[sym].inner?;
            sym = *self.tables[inner].symbols.get(name)?;
        }
        Some(sym)
    }

    /// The live symbols.
    fn liveness(&self) -> FxHashSet<SymId> {
        let mut live = FxHashSet::default();
        let mut live_tables = FxHashSet::default();
        let mut work: Vec<SymId> = Vec::new();
        let mut table_work: Vec<TableId> = vec![0];
        // Tables that are not symbols (nested plain modules) are live too.
        for i in 1..self.tables.len() {
            if !self.syms.iter().any(|s| s.inner == Some(i)) {
                table_work.push(i);
            }
        }
        loop {
            if let Some(t) = table_work.pop() {
                if !live_tables.insert(t) {
                    continue;
                }
                for u in &self.tables[t].uses {
                    if let Some(s) = self.resolve(u) {
                        work.push(s);
                    }
                }
                for &s in &self.tables[t].order {
                    if !self.syms[s].private {
                        work.push(s);
                    }
                }
                continue;
            }
            let Some(s) = work.pop() else { break };
            if !live.insert(s) {
                continue;
            }
            for u in &self.syms[s].uses {
                if let Some(r) = self.resolve(u) {
                    work.push(r);
                }
            }
            if let Some(t) = self.syms[s].inner {
                table_work.push(t);
            }
        }
        live
    }
}

fn is_private(ctx: &Context, body: &Body, op: OpId) -> bool {
    for dict in [body.op_props(op), body.op_attrs(op)].into_iter().flatten() {
        for (k, v) in ctx.attr_data(dict).dict_entries() {
            if ctx.ident_str(*k) == "sym_visibility" {
                if let AttrData::String { value, .. } = ctx.attr_data(*v) {
                    return &**value == "private";
                }
            }
        }
    }
    false
}

/// The symbol references of `op` and, when `nested`, of the ops in its
/// regions (across nested bodies), resolved from table `t`.
fn collect_op_uses(ctx: &Context, body: &Body, op: OpId, t: TableId, nested: bool, out: &mut Vec<Use>) {
    let mut attrs = Vec::new();
    if nested {
        lf_ir::walk::walk(body, op, lf_ir::walk::WalkOrder::PreOrder, &mut |b, o| {
            attrs.extend(b.op_props(o));
            attrs.extend(b.op_attrs(o));
            lf_ir::walk::WalkControl::Advance
        });
    } else {
        attrs.extend(body.op_props(op));
        attrs.extend(body.op_attrs(op));
    }
    for a in attrs {
        refs_in(ctx, a, t, out);
    }
}

fn refs_in(ctx: &Context, a: Attribute, t: TableId, out: &mut Vec<Use>) {
    match ctx.attr_data(a) {
        AttrData::SymbolRef { root, nested } => {
            let mut path = vec![*root];
            path.extend(nested.iter().copied());
            out.push(Use { table: t, path });
        }
        AttrData::Array(items) => {
            for &i in items.iter() {
                refs_in(ctx, i, t, out);
            }
        }
        AttrData::Dictionary(entries) => {
            for &(_, v) in entries.iter() {
                refs_in(ctx, v, t, out);
            }
        }
        _ => {}
    }
}
