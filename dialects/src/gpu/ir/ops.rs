//! What the generated `gpu` views lack: the meaning of the block arguments
//! of `gpu.launch` and `gpu.func` (ids, sizes, memory attributions), the
//! kernel named by `gpu.launch_func`, the discardable attributes the dialect
//! uses, and builders of `gpu.module`, `gpu.func` (with its entry block:
//! arguments and attributions), `gpu.launch` (filling its body) and
//! `gpu.launch_func` of a kernel.

use super::views::{GpuFuncOp, GpuLaunchFuncOp, GpuLaunchOp, GpuModuleOp, GpuTerminatorOp};
use lf_ir::attrs::AttrData;
use lf_ir::builder::Builder;
use lf_ir::view::{entry_args, Ir, OpView, ValueList};
use lf_ir::{Attribute, Type, Value};

/// The unit attribute that marks a `gpu.func` as a kernel.
pub const KERNEL_ATTR: &str = "gpu.kernel";
/// The attribute holding how many of a `gpu.func`'s or `gpu.launch`'s
/// block arguments after the inputs (or ids) are workgroup attributions.
pub const WORKGROUP_ATTRIBUTIONS_ATTR: &str = "workgroup_attributions";
/// The module attribute that allows `gpu.launch_func` in a module.
pub const CONTAINER_MODULE_ATTR: &str = "gpu.container_module";

/// The number of block arguments of `gpu.launch` before its attributions:
/// block ids, thread ids, grid sizes, block sizes (three each).
const LAUNCH_ID_ARGS: usize = 12;

fn int_attr(ir_ctx: &lf_ir::Context, a: Option<Attribute>) -> usize {
    match a.map(|a| ir_ctx.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) => usize::try_from(*value).unwrap_or(0),
        _ => 0,
    }
}

fn three(v: &[Value]) -> [Value; 3] {
    [v[0], v[1], v[2]]
}

impl GpuLaunchOp {
    /// `%bx, %by, %bz`: the block ids.
    pub fn block_ids<'c>(self, ir: &impl Ir<'c>) -> [Value; 3] {
        three(&entry_args(ir, self.op(), 0)[0..3])
    }
    /// `%tx, %ty, %tz`: the thread ids.
    pub fn thread_ids<'c>(self, ir: &impl Ir<'c>) -> [Value; 3] {
        three(&entry_args(ir, self.op(), 0)[3..6])
    }
    /// The grid size, as block arguments of the body.
    pub fn grid_size_args<'c>(self, ir: &impl Ir<'c>) -> [Value; 3] {
        three(&entry_args(ir, self.op(), 0)[6..9])
    }
    /// The block size, as block arguments of the body.
    pub fn block_size_args<'c>(self, ir: &impl Ir<'c>) -> [Value; 3] {
        three(&entry_args(ir, self.op(), 0)[9..12])
    }
    /// The grid size operands.
    pub fn grid_size<'c>(self, ir: &impl Ir<'c>) -> [Value; 3] {
        [self.grid_size_x(ir), self.grid_size_y(ir), self.grid_size_z(ir)]
    }
    /// The block size operands.
    pub fn block_size<'c>(self, ir: &impl Ir<'c>) -> [Value; 3] {
        [self.block_size_x(ir), self.block_size_y(ir), self.block_size_z(ir)]
    }
    /// Sets the launch configuration: the grid and block size operands.
    pub fn set_sizes(self, b: &mut Builder<'_>, grid: [Value; 3], block: [Value; 3]) {
        self.set_grid_size_x(b, grid[0]);
        self.set_grid_size_y(b, grid[1]);
        self.set_grid_size_z(b, grid[2]);
        self.set_block_size_x(b, block[0]);
        self.set_block_size_y(b, block[1]);
        self.set_block_size_z(b, block[2]);
    }
    /// How many attributions are workgroup (shared) memory.
    pub fn num_workgroup_attributions<'c>(self, ir: &impl Ir<'c>) -> usize {
        let ctx = ir.ctx();
        int_attr(
            ctx,
            lf_ir::ods::discardable_attr(ctx, ir.body(), self.op(), WORKGROUP_ATTRIBUTIONS_ATTR),
        )
    }
    /// The workgroup memory attributions (block arguments).
    pub fn workgroup_attributions<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        let args = entry_args(ir, self.op(), 0);
        let n = self.num_workgroup_attributions(ir);
        let start = LAUNCH_ID_ARGS.min(args.len());
        args[start..(start + n).min(args.len())].iter().copied().collect()
    }
    /// The private memory attributions (block arguments).
    pub fn private_attributions<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        let args = entry_args(ir, self.op(), 0);
        let n = self.num_workgroup_attributions(ir);
        args[(LAUNCH_ID_ARGS + n).min(args.len())..].iter().copied().collect()
    }

    /// Adds a workgroup memory attribution of type `ty` to the launch (a
    /// new block argument after the others, the count attribute updated);
    /// `None`, with nothing changed, when the launch has private
    /// attributions (they would have to move) or no body.
    pub fn add_workgroup_attribution(self, b: &mut Builder<'_>, ty: Type) -> Option<Value> {
        if !self.private_attributions(b).is_empty() {
            return None;
        }
        let entry = b.body().regions_body(self.op()).entry_block(self.body(b))?;
        let n = self.num_workgroup_attributions(b);
        let loc = b.body().op_loc(self.op());
        let ctx = b.ctx();
        let count = ctx.integer_attr((n + 1) as i128, ctx.common().i64);
        let op = self.op();
        let mut arg = None;
        b.modify_in_place(op, |ctx, body| {
            arg = Some(body.add_block_arg(entry, ty, loc));
            let mut entries: lf_ir::DictEntries = body
                .op_attrs(op)
                .map(|d| ctx.attr_data(d).dict_entries().iter().copied().collect())
                .unwrap_or_default();
            let key = ctx.intern(WORKGROUP_ATTRIBUTIONS_ATTR);
            entries.retain(|(k, _)| *k != key);
            entries.push((key, count));
            body.set_op_attrs(op, Some(ctx.dict_attr_from(entries)));
        });
        arg
    }

    /// Creates `gpu.launch` on a `grid` of blocks of `block` threads at the
    /// builder's insertion point; `body` fills the kernel's block given the
    /// launch (read its ids with [`GpuLaunchOp::thread_ids`] and
    /// [`GpuLaunchOp::block_ids`]); the `gpu.terminator` is added.
    pub fn build(
        b: &mut Builder<'_>,
        grid: [Value; 3],
        block: [Value; 3],
        body: impl FnOnce(&mut Builder<'_>, GpuLaunchOp),
    ) -> GpuLaunchOp {
        Self::build_with_workgroup(b, grid, block, &[], body)
    }

    /// [`GpuLaunchOp::build`] with one workgroup memory attribution per
    /// type of `workgroup` (read them with
    /// [`GpuLaunchOp::workgroup_attributions`]).
    pub fn build_with_workgroup(
        b: &mut Builder<'_>,
        grid: [Value; 3],
        block: [Value; 3],
        workgroup: &[Type],
        body: impl FnOnce(&mut Builder<'_>, GpuLaunchOp),
    ) -> GpuLaunchOp {
        let launch = GpuLaunchOp::build_empty(
            b,
            &[],
            grid[0],
            grid[1],
            grid[2],
            block[0],
            block[1],
            block[2],
            None,
            None,
            None,
            None,
            None,
        );
        let index = b.ctx().common().index;
        let region = launch.body(b);
        let mut arg_types = vec![index; LAUNCH_ID_ARGS];
        arg_types.extend_from_slice(workgroup);
        let entry = b.create_block(region, &arg_types);
        let ctx = b.ctx();
        let count = ctx.integer_attr(workgroup.len() as i128, ctx.common().i64);
        b.modify_in_place(launch.op(), |ctx, body| {
            let mut entries: lf_ir::DictEntries = body
                .op_attrs(launch.op())
                .map(|d| ctx.attr_data(d).dict_entries().iter().copied().collect())
                .unwrap_or_default();
            entries.push((ctx.intern(WORKGROUP_ATTRIBUTIONS_ATTR), count));
            body.set_op_attrs(launch.op(), Some(ctx.dict_attr_from(entries)));
        });
        b.guarded(|b| {
            b.set_insertion_point_to_end(entry);
            body(b, launch);
            GpuTerminatorOp::build(b);
        });
        launch
    }
}

impl GpuModuleOp {
    /// Creates an empty `gpu.module @name` (its block in its nested body)
    /// at the builder's insertion point.
    pub fn build(b: &mut Builder<'_>, name: &str) -> GpuModuleOp {
        let m = GpuModuleOp::build_empty(b, name);
        let region = m.body_region(b);
        let nested = b
            .body_mut()
            .nested_body_mut(m.op())
            .expect("a gpu.module has a nested body");
        let block = nested.create_block();
        nested.append_block(region, block);
        m
    }
}

impl GpuFuncOp {
    /// Creates `gpu.func @name` of the function type `ty` at the builder's
    /// insertion point (as MLIR's builder), with an entry block whose
    /// arguments are the inputs, then the `workgroup` and the `private`
    /// memory attributions (memrefs). Fill it through a builder on the
    /// function's nested body ([`Builder::nested`]); make it a kernel with
    /// [`GpuFuncOp::set_kernel`].
    pub fn build(b: &mut Builder<'_>, name: &str, ty: Type, workgroup: &[Type], private: &[Type]) -> GpuFuncOp {
        let ctx = b.ctx();
        let inputs: Vec<Type> = match ctx.type_data(ty) {
            lf_ir::TypeData::Function { inputs, .. } => inputs.to_vec(),
            _ => panic!("gpu.func: a function type"),
        };
        let f = GpuFuncOp::build_empty(b, ty);
        b.set_discardable_attr(f.op(), lf_ir::symbols::SYMBOL_ATTR_NAME, Some(ctx.string_attr(name)));
        let count = ctx.integer_attr(workgroup.len() as i128, ctx.common().i64);
        b.set_discardable_attr(f.op(), WORKGROUP_ATTRIBUTIONS_ATTR, Some(count));
        let region = f.body(b);
        let loc = b.loc();
        let nested = b
            .body_mut()
            .nested_body_mut(f.op())
            .expect("gpu.func has a nested body");
        let block = nested.create_block();
        for &t in inputs.iter().chain(workgroup).chain(private) {
            nested.add_block_arg(block, t, loc);
        }
        nested.append_block(region, block);
        f
    }

    /// Makes the function a kernel (the `gpu.kernel` attribute) or not.
    pub fn set_kernel(self, b: &mut Builder<'_>, on: bool) {
        let unit = on.then(|| b.ctx().common().unit);
        b.set_discardable_attr(self.op(), KERNEL_ATTR, unit);
    }

    /// The entry block (in the function's nested body).
    pub fn entry_block<'c>(self, ir: &impl Ir<'c>) -> lf_ir::BlockId {
        let body = ir.body();
        body.regions_body(self.op())
            .entry_block(self.body(ir))
            .expect("gpu.func has a body")
    }

    /// The function's inputs (the first block arguments).
    pub fn arguments<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        let n = self.num_inputs(ir);
        entry_args(ir, self.op(), 0).into_iter().take(n).collect()
    }
    /// The number of inputs of the function type.
    pub fn num_inputs<'c>(self, ir: &impl Ir<'c>) -> usize {
        match ir.ctx().type_data(self.function_type(ir)) {
            lf_ir::TypeData::Function { inputs, .. } => inputs.len(),
            _ => 0,
        }
    }
    /// The input types of the function type.
    pub fn input_types<'c>(self, ir: &impl Ir<'c>) -> Vec<Type> {
        match ir.ctx().type_data(self.function_type(ir)) {
            lf_ir::TypeData::Function { inputs, .. } => inputs.to_vec(),
            _ => Vec::new(),
        }
    }
    /// Whether the function is a kernel (`gpu.kernel`).
    pub fn is_kernel<'c>(self, ir: &impl Ir<'c>) -> bool {
        lf_ir::ods::discardable_attr(ir.ctx(), ir.body(), self.op(), KERNEL_ATTR).is_some()
    }
    /// How many attributions are workgroup (shared) memory.
    pub fn num_workgroup_attributions<'c>(self, ir: &impl Ir<'c>) -> usize {
        let ctx = ir.ctx();
        int_attr(
            ctx,
            lf_ir::ods::discardable_attr(ctx, ir.body(), self.op(), WORKGROUP_ATTRIBUTIONS_ATTR),
        )
    }
    /// The workgroup memory attributions (block arguments after the inputs).
    pub fn workgroup_attributions<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        let args = entry_args(ir, self.op(), 0);
        let start = self.num_inputs(ir).min(args.len());
        let end = (start + self.num_workgroup_attributions(ir)).min(args.len());
        args[start..end].iter().copied().collect()
    }
    /// The private memory attributions (the last block arguments).
    pub fn private_attributions<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        let args = entry_args(ir, self.op(), 0);
        let start = (self.num_inputs(ir) + self.num_workgroup_attributions(ir)).min(args.len());
        args[start..].iter().copied().collect()
    }
}

impl GpuLaunchFuncOp {
    /// Creates `gpu.launch_func @module::@kernel blocks in (grid) threads in
    /// (block) args(operands)` at the builder's insertion point (the
    /// generated [`GpuLaunchFuncOp::build`] takes every operand group);
    /// set the optional parts (async dependencies, cluster size, dynamic
    /// shared memory size) with the setters.
    pub fn build_kernel(
        b: &mut Builder<'_>,
        module: &str,
        kernel: &str,
        grid: [Value; 3],
        block: [Value; 3],
        operands: &[Value],
    ) -> GpuLaunchFuncOp {
        let ctx = b.ctx();
        let symbol = ctx.get_attr(AttrData::SymbolRef {
            root: ctx.intern(module),
            nested: Box::new([ctx.intern(kernel)]),
        });
        let [gx, gy, gz] = grid;
        let [bx, by, bz] = block;
        GpuLaunchFuncOp::build(
            b,
            &[],
            gx,
            gy,
            gz,
            bx,
            by,
            bz,
            None,
            None,
            None,
            None,
            operands,
            None,
            None,
            symbol,
        )
    }

    /// The `gpu.module` of the kernel (`@m` of `@m::@k`).
    pub fn kernel_module<'c>(self, ir: &impl Ir<'c>) -> &'c str {
        let ctx = ir.ctx();
        match ctx.attr_data(self.kernel(ir)) {
            AttrData::SymbolRef { root, .. } => ctx.ident_str(*root),
            _ => "",
        }
    }
    /// The kernel's name (`@k` of `@m::@k`).
    pub fn kernel_name<'c>(self, ir: &impl Ir<'c>) -> &'c str {
        let ctx = ir.ctx();
        match ctx.attr_data(self.kernel(ir)) {
            AttrData::SymbolRef { root, nested } => ctx.ident_str(*nested.last().unwrap_or(root)),
            _ => "",
        }
    }
    /// The grid size operands.
    pub fn grid_size<'c>(self, ir: &impl Ir<'c>) -> [Value; 3] {
        [self.grid_size_x(ir), self.grid_size_y(ir), self.grid_size_z(ir)]
    }
    /// The block size operands.
    pub fn block_size<'c>(self, ir: &impl Ir<'c>) -> [Value; 3] {
        [self.block_size_x(ir), self.block_size_y(ir), self.block_size_z(ir)]
    }
}
