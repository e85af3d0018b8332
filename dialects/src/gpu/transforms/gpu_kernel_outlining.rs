//! `gpu-kernel-outlining`: moves the body of each `gpu.launch` into a
//! `gpu.func` kernel of a new `gpu.module` and replaces the launch by a
//! `gpu.launch_func`, as `mlir-opt --gpu-kernel-outlining`.

use lf_ir::attrs::AttrData;
use lf_ir::clone::{clone_op_into, ValueMap};
use lf_ir::diag::Diagnostic;
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Attribute, Body, Context, DenseValues, Ident, OpId, OperationState, Type, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::rewrite::{constant_value, fill_default_props, nested_bodies};
use lf_pass::AnalysisManager;
use rustc_hash::FxHashSet;

/// The registration record of `gpu-kernel-outlining`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-kernel-outlining",
    summary: "Outline gpu.launch bodies to kernel functions",
    description: "For each `gpu.launch` in a function `@f`, creates `gpu.module @f_kernel` \
(renamed `@f_kernel_0`, `@f_kernel_1`, ... if the name is taken, or named by the launch's \
`module`/`function` attributes) holding `gpu.func @f_kernel(...) kernel`, inserted after `@f`. \
The kernel's arguments are the values defined above the launch and used in its body, in \
order of first use; the launch's block and thread ids and grid and block sizes become \
`gpu.block_id`, `gpu.thread_id`, `gpu.grid_dim` and `gpu.block_dim` ops at the start of the \
kernel, and `gpu.terminator` becomes `gpu.return`. Constant block (grid) sizes are recorded \
as `known_block_size` (`known_grid_size`). The launch is replaced by `gpu.launch_func \
@f_kernel::@f_kernel` with the same sizes and the kernel arguments, and the module gets the \
`gpu.container_module` attribute.\n\n\
Not supported yet (reported as errors): launches with workgroup or private memory \
attributions, clusters, or bodies of several blocks.",
    anchor: Anchor::Op("builtin.module"),
    options: &[PassOption {
        name: "data-layout-str",
        kind: OptionKind::String,
        default: "",
        help: "String containing the data layout specification to be attached to the GPU module (not supported: must be empty)",
    }],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    if !opts.str("data-layout-str").is_empty() {
        return Err("data-layout-str is not supported by lf".into());
    }
    Ok(Box::new(GpuKernelOutlining))
}

/// The `gpu-kernel-outlining` pass.
pub struct GpuKernelOutlining;

/// A kernel made from a launch, waiting to be put into the module.
struct Outlined {
    after: OpId,
    module: OpState,
}

/// An op to create later (in another body).
struct OpState(OperationState);

fn str_prop<'c>(ctx: &'c Context, body: &Body, op: OpId, name: &str) -> Option<&'c str> {
    match ctx.attr_data(lf_ir::ods::prop(ctx, body, op, name)?) {
        AttrData::String { value, .. } => Some(value),
        _ => None,
    }
}

fn symbol_prop(ctx: &Context, body: &Body, op: OpId, name: &str) -> Option<String> {
    match ctx.attr_data(lf_ir::ods::prop(ctx, body, op, name)?) {
        AttrData::SymbolRef { root, .. } => Some(ctx.ident_str(*root).to_string()),
        _ => None,
    }
}

fn dict(ctx: &Context, entries: Vec<(&str, Attribute)>) -> Option<Attribute> {
    Some(ctx.dict_attr(entries.into_iter().map(|(k, v)| (ctx.intern(k), v)).collect()))
}

/// Whether `v` is defined inside `launch` (in its region, at any depth).
fn defined_inside(body: &Body, v: Value, launch: OpId) -> bool {
    let mut block = body.value_block(v);
    while let Some(b) = block {
        let Some(parent) = body.block_region(b).and_then(|r| body.region_parent(r)) else {
            return false;
        };
        if parent == launch {
            return true;
        }
        block = body.op_block(parent);
    }
    false
}

/// The constant values of three size operands, if all are constants.
fn known_sizes(ctx: &Context, body: &Body, vals: &[Value]) -> Option<Attribute> {
    let mut out = Vec::new();
    for v in vals {
        match ctx.attr_data(constant_value(ctx, body, *v)?) {
            AttrData::Integer { value, .. } => out.push(*value),
            _ => return None,
        }
    }
    Some(ctx.get_attr(AttrData::DenseArray {
        element: ctx.common().i32,
        values: DenseValues::Int(out.into()),
    }))
}

fn group(ctx: &Context, body: &Body, op: OpId, name: &str) -> Vec<Value> {
    lf_ir::ods::operand_group(ctx, body, op, name)
}

fn unique_name(base: &str, taken: &mut FxHashSet<String>) -> String {
    let mut name = base.to_string();
    let mut n = 0;
    while taken.contains(&name) {
        name = format!("{base}_{n}");
        n += 1;
    }
    taken.insert(name.clone());
    name
}

/// Outlines one launch of function `func` (in `body`); returns the module to insert.
fn outline(
    ctx: &Context,
    body: &mut Body,
    launch: OpId,
    func: OpId,
    func_name: &str,
    taken: &mut FxHashSet<String>,
) -> Result<Outlined, Box<Diagnostic>> {
    let loc = body.op_loc(launch);
    let err = |m: &str| {
        Box::new(Diagnostic::error(
            loc.source_pos(ctx),
            format!("gpu-kernel-outlining: {m}"),
        ))
    };
    let region = body.region(launch, 0);
    let blocks: Vec<_> = body.region_blocks(region).collect();
    if blocks.len() != 1 {
        return Err(err("launches whose body has several blocks are not supported"));
    }
    let entry = blocks[0];
    let args: Vec<Value> = body.block_args(entry).to_vec();
    if args.len() != 12 || !group(ctx, body, launch, "clusterSizeX").is_empty() {
        return Err(err("launches with clusters or memory attributions are not supported"));
    }
    // Values defined above and used inside, in order of first use.
    let mut used: Vec<Value> = Vec::new();
    let mut seen: FxHashSet<Value> = FxHashSet::default();
    let ops: Vec<OpId> = body.block_ops(entry).collect();
    for &o in &ops {
        walk(body, o, WalkOrder::PreOrder, &mut |b, x| {
            if !std::ptr::eq(b, &*body) {
                return WalkControl::Skip;
            }
            for v in b.operands(x) {
                if !defined_inside(b, v, launch) && seen.insert(v) {
                    used.push(v);
                }
            }
            WalkControl::Advance
        });
    }
    let grid = [
        group(ctx, body, launch, "gridSizeX"),
        group(ctx, body, launch, "gridSizeY"),
        group(ctx, body, launch, "gridSizeZ"),
    ]
    .concat();
    let block = [
        group(ctx, body, launch, "blockSizeX"),
        group(ctx, body, launch, "blockSizeY"),
        group(ctx, body, launch, "blockSizeZ"),
    ]
    .concat();
    let deps = group(ctx, body, launch, "asyncDependencies");
    let dsm = group(ctx, body, launch, "dynamicSharedMemorySize");
    let kernel_name = symbol_prop(ctx, body, launch, "function").unwrap_or_else(|| format!("{func_name}_kernel"));
    let module_base = symbol_prop(ctx, body, launch, "module").unwrap_or_else(|| format!("{func_name}_kernel"));
    let module_name = unique_name(&module_base, taken);

    // The kernel body.
    let mut kb = Body::new();
    let kregion = kb.create_region();
    let kblock = kb.create_block();
    kb.append_block(kregion, kblock);
    let mut map = ValueMap::default();
    let arg_types: Vec<Type> = used.iter().map(|v| body.value_type(*v)).collect();
    for (v, t) in used.iter().zip(&arg_types) {
        let a = kb.add_block_arg(kblock, *t, loc);
        map.map(*v, a);
    }
    let index = ctx.common().index;
    let dim_attr = |d: &str| {
        ctx.get_attr(AttrData::Dialect {
            dialect: ctx.intern("gpu"),
            body: format!("<dim {d}>").into(),
        })
    };
    for (k, name) in ["gpu.block_id", "gpu.thread_id", "gpu.grid_dim", "gpu.block_dim"]
        .iter()
        .enumerate()
    {
        for (i, d) in ["x", "y", "z"].iter().enumerate() {
            let mut st = OperationState::new(ctx.op_name(name), loc);
            st.result_types = vec![index];
            st.props = dict(ctx, vec![("dimension", dim_attr(d))]);
            fill_default_props(ctx, &mut st);
            let op = kb.create_op(st);
            kb.append_op(kblock, op);
            map.map(args[k * 3 + i], kb.result(op, 0));
        }
    }
    for &o in &ops {
        if ctx.op_name_str(body.op_name(o)) == "gpu.terminator" {
            let st = OperationState::new(ctx.op_name("gpu.return"), body.op_loc(o));
            let r = kb.create_op(st);
            kb.append_op(kblock, r);
            continue;
        }
        let c = clone_op_into(body, o, &mut kb, &mut map);
        kb.append_op(kblock, c);
    }
    // The gpu.func op.
    let mut props = vec![(
        "function_type",
        ctx.get_attr(AttrData::Type(ctx.function_type(&arg_types, &[]))),
    )];
    if let Some(a) = known_sizes(ctx, body, &block) {
        props.push(("known_block_size", a));
    }
    if let Some(a) = known_sizes(ctx, body, &grid) {
        props.push(("known_grid_size", a));
    }
    let mut fst = OperationState::new(ctx.op_name("gpu.func"), loc);
    fst.props = dict(ctx, props);
    fst.attrs = dict(
        ctx,
        vec![
            ("gpu.kernel", ctx.common().unit),
            ("sym_name", ctx.string_attr(&kernel_name)),
            ("workgroup_attributions", ctx.integer_attr(0, ctx.common().i64)),
        ],
    );
    fst.nested = Some(Box::new(kb));
    fst.regions = vec![kregion];
    // The gpu.module body.
    let mut mb = Body::new();
    let mregion = mb.create_region();
    let mblock = mb.create_block();
    mb.append_block(mregion, mblock);
    let kf = mb.create_op(fst);
    mb.append_op(mblock, kf);
    let mut mst = OperationState::new(ctx.op_name("gpu.module"), loc);
    mst.props = dict(ctx, vec![("sym_name", ctx.string_attr(&module_name))]);
    mst.nested = Some(Box::new(mb));
    mst.regions = vec![mregion];

    // Replace the launch.
    let kernel_ref = ctx.get_attr(AttrData::SymbolRef {
        root: ctx.intern(&module_name),
        nested: vec![ctx.intern(&kernel_name)].into_boxed_slice(),
    });
    let mut lst = OperationState::new(ctx.op_name("gpu.launch_func"), loc);
    lst.operands = deps.clone();
    lst.operands.extend(&grid);
    lst.operands.extend(&block);
    lst.operands.extend(&dsm);
    lst.operands.extend(&used);
    lst.result_types = body.results(launch).map(|r| body.value_type(r)).collect();
    let sizes = [deps.len(), 1, 1, 1, 1, 1, 1, 0, 0, 0, dsm.len(), used.len(), 0];
    lst.props = dict(
        ctx,
        vec![
            ("kernel", kernel_ref),
            ("operandSegmentSizes", lf_ir::ods::segment_sizes_attr(ctx, &sizes)),
        ],
    );
    let lf = body.create_op(lst);
    body.insert_op_before(launch, lf);
    let old: Vec<Value> = body.results(launch).collect();
    let new: Vec<Value> = body.results(lf).collect();
    for (a, b) in old.into_iter().zip(new) {
        body.replace_all_uses(a, b);
    }
    body.erase_op(launch);
    Ok(Outlined {
        after: func,
        module: OpState(mst),
    })
}

impl Pass for GpuKernelOutlining {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let module = op.body_mut();
        let mut taken: FxHashSet<String> = FxHashSet::default();
        let mut funcs: Vec<(OpId, String)> = Vec::new();
        for &r in &regions {
            for b in module.region_blocks(r) {
                for f in module.block_ops(b) {
                    if let Some(n) = str_prop(ctx, module, f, "sym_name") {
                        taken.insert(n.to_string());
                        funcs.push((f, n.to_string()));
                    }
                }
            }
        }
        let mut outlined = Vec::new();
        for (f, roots, fb) in nested_bodies(module, &regions) {
            let Some((_, fname)) = funcs.iter().find(|(x, _)| *x == f) else {
                continue;
            };
            let mut launches = Vec::new();
            for &r in &roots {
                for b in fb.region_blocks(r) {
                    for o in fb.block_ops(b) {
                        walk(fb, o, WalkOrder::PreOrder, &mut |wb, x| {
                            if !std::ptr::eq(wb, &*fb) {
                                return WalkControl::Skip;
                            }
                            if ctx.op_name_str(wb.op_name(x)) == "gpu.launch" {
                                launches.push(x);
                                return WalkControl::Skip;
                            }
                            WalkControl::Advance
                        });
                    }
                }
            }
            for l in launches {
                outlined.push(outline(ctx, fb, l, f, fname, &mut taken)?);
            }
        }
        let n = outlined.len();
        let mut last_after: Option<(OpId, OpId)> = None;
        for o in outlined {
            let anchor = match last_after {
                Some((f, m)) if f == o.after => m,
                _ => o.after,
            };
            let m = module.create_op(o.module.0);
            module.insert_op_after(anchor, m);
            last_after = Some((o.after, m));
        }
        if n > 0 {
            let unit = ctx.common().unit;
            let mut entries: Vec<(Ident, Attribute)> = op
                .attrs()
                .map(|d| ctx.attr_data(d).dict_entries().to_vec())
                .unwrap_or_default();
            let key = ctx.intern("gpu.container_module");
            if !entries.iter().any(|(k, _)| *k == key) {
                entries.push((key, unit));
                op.set_attrs(Some(ctx.dict_attr(entries)));
            }
        } else {
            am.preserve_all();
        }
        op.add_statistic("num-kernels", "Kernels outlined", n as u64);
        Ok(())
    }
}

/// Runs `gpu-kernel-outlining` on a parsed module (a no-op on anything else
/// and on a module without inline `gpu.launch`): what `lf-translate` and
/// `lf-run --gpu-backend` do before emitting kernels.
pub fn outline_module(ctx: &Context, owned: &mut lf_ir::OwnedOp) -> Result<(), Vec<Diagnostic>> {
    if ctx.op_name_str(owned.body.op_name(owned.op)) != "builtin.module" {
        return Ok(());
    }
    let mut pipeline = lf_pass::OpPassManager::new("builtin.module");
    pipeline
        .add_default(&INFO)
        .map_err(|e| vec![Diagnostic::error(None, e)])?;
    let options = lf_pass::RunOptions {
        threads: 1,
        ..Default::default()
    };
    let report = lf_pass::PassManager::new(pipeline, options).run(ctx, owned, &mut std::io::sink());
    if report.failed {
        return Err(report.diags);
    }
    Ok(())
}
