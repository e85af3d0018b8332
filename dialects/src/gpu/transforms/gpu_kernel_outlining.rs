//! `gpu-kernel-outlining`: moves the body of each `gpu.launch` into a
//! `gpu.func` kernel of a new `gpu.module` and replaces the launch by a
//! `gpu.launch_func`, as `mlir-opt --gpu-kernel-outlining`.
//!
//! The pass works in three steps over the module: it plans every launch of
//! every function (the kernel's arguments, its attributions, its names),
//! creates each `gpu.module` with its `gpu.func` and entry block after the
//! launch's function, then fills each kernel from its launch's body and
//! replaces the launch.

use crate::builtin::BuiltinModuleOp;
use crate::gpu::{
    Dimension, GpuBlockDimOp, GpuBlockIdOp, GpuFuncOp, GpuGridDimOp, GpuLaunchFuncOp, GpuLaunchOp, GpuModuleOp,
    GpuReturnOp, GpuTerminatorOp, GpuThreadIdOp, CONTAINER_MODULE_ATTR,
};
use lf_ir::attrs::AttrData;
use lf_ir::builder::Builder;
use lf_ir::clone::{clone_op_into, ValueMap};
use lf_ir::diag::Diagnostic;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Attribute, Body, Context, Ident, Location, OpId, RegionId, Type, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::rewrite::constant_value;
use lf_pass::AnalysisManager;
use rustc_hash::{FxHashMap, FxHashSet};

/// The registration record of `gpu-kernel-outlining`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-kernel-outlining",
    summary: "Outline gpu.launch bodies to kernel functions",
    description: "For each `gpu.launch` in a function `@f`, creates `gpu.module @f_kernel` \
(or as the launch's `module`/`function` attributes say; renamed `@f_kernel_N` if the name \
is taken, `N` counting the pass's renames from 0 as MLIR's symbol table does) holding `gpu.func @f_kernel(...) kernel`, inserted after `@f`. \
The kernel's arguments are the values defined above the launch and used in its body, in \
the order a post-order walk of the body first uses them (as MLIR's \
`getUsedValuesDefinedAbove`); the launch's block and thread ids and grid and block sizes become \
`gpu.block_id`, `gpu.thread_id`, `gpu.grid_dim` and `gpu.block_dim` ops at the start of the \
kernel, its `workgroup(...)` and `private(...)` memory attributions become the same \
attributions of the kernel (`gpu.func @f_kernel(...) workgroup(...) private(...) kernel`), \
and `gpu.terminator` becomes `gpu.return`. Constant block (grid) sizes up to `2^32 - 1` are recorded \
as `known_block_size` (`known_grid_size`), as `i32`s. The launch is replaced by `gpu.launch_func \
@f_kernel::@f_kernel` with the same sizes, async dependencies and dynamic shared memory \
size and the kernel arguments, and the module gets the `gpu.container_module` attribute.\n\n\
Not supported (reported as errors at the launch, before anything is changed): launches with \
`clusters(...)`, and launches whose body has several blocks (lf has no branch ops to join \
them).",
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

/// What outlining one launch makes, decided before anything changes.
struct Plan {
    /// The function holding the launch (an op of the module's body).
    func: OpId,
    /// The launch (in the function's body).
    launch: GpuLaunchOp,
    loc: Location,
    /// The values defined above the launch and used in it, in the order a
    /// post-order walk of its body first uses them: the kernel's arguments.
    used: Vec<Value>,
    arg_types: Vec<Type>,
    workgroup_types: Vec<Type>,
    private_types: Vec<Type>,
    kernel_name: String,
    module_name: String,
    known_block_size: Option<Vec<i64>>,
    known_grid_size: Option<Vec<i64>>,
    /// The kernel, once created: the `gpu.module` and its `gpu.func`.
    kernel: Option<(GpuModuleOp, GpuFuncOp)>,
}

/// The constant values of three size operands as `i32`s, if all are
/// constants of at most `u32::MAX` as unsigned 64-bit numbers (MLIR's
/// `maybeConstantDimsAttr`: larger sizes get no known size, and sizes above
/// `i32::MAX` wrap to negative `i32`s).
fn known_sizes(ctx: &Context, body: &Body, vals: &[Value; 3]) -> Option<Vec<i64>> {
    vals.iter()
        .map(|v| match ctx.attr_data(constant_value(ctx, body, *v)?) {
            AttrData::Integer { value, .. } => {
                let size = u32::try_from(*value as i64 as u64).ok()?;
                Some(i64::from(size as i32))
            }
            _ => None,
        })
        .collect()
}

/// The symbol names of the module, and new names made unique in it as
/// MLIR's `SymbolTable::insert` makes them: a name that is taken gets the
/// suffix `_N`, with one counter for the whole module (the second renamed
/// module of a run is `@g_kernel_1` even if no `@g_kernel_0` exists).
#[derive(Default)]
struct SymbolNames {
    taken: FxHashSet<String>,
    counter: usize,
}

impl SymbolNames {
    /// `base`, or `base_N` for the next `N` that makes it unused; taken from
    /// now on.
    fn unique(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        while self.taken.contains(&name) {
            name = format!("{base}_{}", self.counter);
            self.counter += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

/// The launches of a function's body (`body`, with root `regions`), in
/// program order; launches nested in a launch and isolated ops are not
/// looked into.
fn launches_of(ctx: &Context, body: &Body, regions: &[RegionId]) -> Vec<GpuLaunchOp> {
    let mut out = Vec::new();
    walk_regions(body, regions, WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        match GpuLaunchOp::cast(&(ctx, b), op) {
            Some(l) => {
                out.push(l);
                WalkControl::Skip
            }
            None => WalkControl::Advance,
        }
    });
    out
}

/// Plans the outlining of `launch` in function `func` (named `func_name`,
/// with body `body`), or says why it cannot be outlined.
fn plan(
    ctx: &Context,
    body: &Body,
    func: OpId,
    func_name: &str,
    launch: GpuLaunchOp,
    names: &mut SymbolNames,
) -> Result<Plan, Box<Diagnostic>> {
    let ir = (ctx, body);
    let loc = body.op_loc(launch.op());
    let err = |m: &str| {
        Box::new(Diagnostic::error(
            loc.source_pos(ctx),
            format!("gpu-kernel-outlining: {m}"),
        ))
    };
    if launch.cluster_size_x(&ir).is_some() {
        return Err(err("launches with clusters are not supported"));
    }
    let blocks: Vec<_> = body.region_blocks(launch.body(&ir)).collect();
    if blocks.len() != 1 {
        return Err(err("launches whose body has several blocks are not supported"));
    }
    let used = crate::gpu::utils::launch_inputs::used_values_defined_above(ctx, body, launch);
    let types = |vals: &[Value]| -> Vec<Type> { vals.iter().map(|v| body.value_type(*v)).collect() };
    let name = |s: Option<&str>| s.map_or_else(|| format!("{func_name}_kernel"), str::to_string);
    let module_base = name(launch.module(&ir));
    Ok(Plan {
        func,
        launch,
        loc,
        arg_types: types(&used),
        used,
        workgroup_types: types(&launch.workgroup_attributions(&ir)),
        private_types: types(&launch.private_attributions(&ir)),
        kernel_name: name(launch.function(&ir)),
        module_name: names.unique(&module_base),
        known_block_size: known_sizes(ctx, body, &launch.block_size(&ir)),
        known_grid_size: known_sizes(ctx, body, &launch.grid_size(&ir)),
        kernel: None,
    })
}

/// Creates the `gpu.module` of `plan` after `after` (in the module's body),
/// holding the kernel `gpu.func` with its entry block (arguments and
/// attributions) and nothing else yet.
fn create_kernel(b: &mut Builder<'_>, plan: &Plan, after: OpId) -> (GpuModuleOp, GpuFuncOp) {
    b.set_insertion_point_after(after);
    b.set_loc(plan.loc);
    let module = GpuModuleOp::build(b, &plan.module_name);
    let block = module.body_region_block(b);
    let mut mb = b.nested(module.op()).expect("gpu.module has a nested body");
    mb.set_insertion_point_to_end(block);
    let ty = mb.ctx().function_type(&plan.arg_types, &[]);
    let func = GpuFuncOp::build(
        &mut mb,
        &plan.kernel_name,
        ty,
        &plan.workgroup_types,
        &plan.private_types,
    );
    func.set_kernel(&mut mb, true);
    if let Some(s) = &plan.known_block_size {
        func.set_known_block_size(&mut mb, Some(s));
    }
    if let Some(s) = &plan.known_grid_size {
        func.set_known_grid_size(&mut mb, Some(s));
    }
    (module, func)
}

/// Fills the kernel `func` (an op of `module`, the body of its
/// `gpu.module`) from the body of `plan`'s launch (in `body`): the id and
/// size ops, then a clone of each op of the launch's body, with the
/// kernel's arguments and attributions for the values they stand for and
/// `gpu.return` for `gpu.terminator`.
fn fill_kernel(ctx: &Context, body: &Body, plan: &Plan, module: &mut Body, func: GpuFuncOp) {
    let ir = (ctx, body);
    let launch = plan.launch;
    let kir = (ctx, &*module);
    let entry = module
        .nested_body(func.op())
        .and_then(|kb| kb.entry_block(func.body(&kir)))
        .expect("gpu.func has an entry block");
    let mut map = ValueMap::default();
    for (v, a) in plan.used.iter().zip(func.arguments(&kir)) {
        map.map(*v, a);
    }
    for (v, a) in launch
        .workgroup_attributions(&ir)
        .into_iter()
        .zip(func.workgroup_attributions(&kir))
    {
        map.map(v, a);
    }
    for (v, a) in launch
        .private_attributions(&ir)
        .into_iter()
        .zip(func.private_attributions(&kir))
    {
        map.map(v, a);
    }
    let kernel = module.nested_body_mut(func.op()).expect("gpu.func has a nested body");
    let mut b = Builder::new(ctx, kernel);
    b.set_loc(plan.loc);
    b.set_insertion_point_to_end(entry);
    for (launch_ids, build) in [
        (
            launch.block_ids(&ir),
            (|b, d| GpuBlockIdOp::build(b, d).op()) as fn(&mut Builder<'_>, Dimension) -> OpId,
        ),
        (launch.thread_ids(&ir), |b, d| GpuThreadIdOp::build(b, d).op()),
        (launch.grid_size_args(&ir), |b, d| GpuGridDimOp::build(b, d).op()),
        (launch.block_size_args(&ir), |b, d| GpuBlockDimOp::build(b, d).op()),
    ] {
        for d in Dimension::ALL {
            let op = build(&mut b, d);
            map.map(launch_ids[d.index()], b.body().result(op, 0));
        }
    }
    let launch_block = body.entry_block(launch.body(&ir)).expect("gpu.launch has a body");
    for o in body.block_ops(launch_block) {
        if GpuTerminatorOp::isa(&ir, o) {
            b.set_loc(body.op_loc(o));
            GpuReturnOp::build(&mut b, &[]);
            continue;
        }
        let c = clone_op_into(body, o, b.body_mut(), &mut map);
        b.insert(c);
    }
}

/// Replaces the launch of `plan` (in `b`'s body, a function's) by a
/// `gpu.launch_func` of its kernel.
fn replace_launch(b: &mut Builder<'_>, plan: &Plan) {
    let ctx = b.ctx();
    let launch = plan.launch;
    let kernel = ctx.get_attr(AttrData::SymbolRef {
        root: ctx.intern(&plan.module_name),
        nested: vec![ctx.intern(&plan.kernel_name)].into_boxed_slice(),
    });
    let [gx, gy, gz] = launch.grid_size(&*b);
    let [bx, by, bz] = launch.block_size(&*b);
    let deps = launch.async_dependencies(&*b);
    let dsm = launch.dynamic_shared_memory_size(&*b);
    let token = launch.async_token(&*b).map(|t| b.body().value_type(t));
    b.set_insertion_point_before(launch.op());
    b.set_loc(plan.loc);
    let call = GpuLaunchFuncOp::build(
        b, &deps, gx, gy, gz, bx, by, bz, None, None, None, dsm, &plan.used, None, token, kernel,
    );
    let results: Vec<Value> = b.body().results(call.op()).collect();
    b.replace_op(launch.op(), &results);
}

impl Pass for GpuKernelOutlining {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn class_name(&self) -> std::borrow::Cow<'static, str> {
        // MLIR's name of the pass, in IR dump headers.
        "GpuKernelOutliningPass".into()
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let module = op.body_mut();
        // The symbols of the module, and its functions (symbols with a body
        // of their own), in program order.
        let mut names = SymbolNames::default();
        let mut funcs: Vec<(OpId, Ident)> = Vec::new();
        for &r in &regions {
            for block in module.region_blocks(r) {
                for f in module.block_ops(block) {
                    if let Some(n) = lf_ir::symbols::symbol_name(ctx, module, f) {
                        names.taken.insert(ctx.ident_str(n).to_string());
                        if module.nested_body(f).is_some() {
                            funcs.push((f, n));
                        }
                    }
                }
            }
        }
        // 1. Plan every launch; refuse the module if one cannot be outlined.
        let mut plans: Vec<Plan> = Vec::new();
        for &(f, name) in &funcs {
            let fb = module.nested_body(f).expect("a function body");
            for launch in launches_of(ctx, fb, module.regions(f)) {
                plans.push(plan(ctx, fb, f, ctx.ident_str(name), launch, &mut names)?);
            }
        }
        let n = plans.len();
        if n > 0 {
            // 2. The kernel modules, after their functions, in launch order.
            let mut b = Builder::new(ctx, module);
            let mut last: FxHashMap<OpId, OpId> = FxHashMap::default();
            for p in &mut plans {
                let after = last.get(&p.func).copied().unwrap_or(p.func);
                let (m, k) = create_kernel(&mut b, p, after);
                last.insert(p.func, m.op());
                p.kernel = Some((m, k));
            }
            // 3. Fill the kernels and replace the launches, one function at a time.
            let mut bodies: FxHashMap<OpId, &mut Body> = module.nested_bodies_mut().collect();
            for group in plans.chunk_by(|a, b| a.func == b.func) {
                let fb = bodies.remove(&group[0].func).expect("a function body");
                for p in group {
                    let (m, k) = p.kernel.expect("created above");
                    let mb = bodies.remove(&m.op()).expect("a gpu.module body");
                    fill_kernel(ctx, fb, p, mb, k);
                }
                let mut b = Builder::new(ctx, fb);
                for p in group {
                    replace_launch(&mut b, p);
                }
            }
            let mut entries: Vec<(Ident, Attribute)> = op
                .attrs()
                .map(|d| ctx.attr_data(d).dict_entries().to_vec())
                .unwrap_or_default();
            let key = ctx.intern(CONTAINER_MODULE_ATTR);
            if !entries.iter().any(|(k, _)| *k == key) {
                entries.push((key, ctx.common().unit));
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
    if !BuiltinModuleOp::isa(&(ctx, &owned.body), owned.op) {
        return Ok(());
    }
    let mut pipeline = lf_pass::OpPassManager::new(BuiltinModuleOp::def().name);
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
