//! Every `gpu` op built through its builder (terminators through their
//! parents' builders), verified, and printed as mlir-opt 22 prints it (see
//! [`common::check`]): a `gpu.module` of kernels and host code that
//! launches them, in a `gpu.container_module`.
//!
//! lf lets kernels use GPU ids as affine dimensions (an extension MLIR
//! rejects); the kernels here index memory with `memref.load` instead.

mod common;

use lf_dialects::arith::{ArithAddiOp, ArithConstantOp};
use lf_dialects::gpu::*;
use lf_dialects::memref::{MemrefLoadOp, MemrefStoreOp};
use lf_dialects::scf::ScfExecuteRegionOp;
use lf_ir::builder::Builder;
use lf_ir::view::{OpView, ValueList};
use lf_ir::{Context, Type, Value, DYNAMIC};

/// `memref<n x f32, #gpu.address_space<space>>`.
fn memref_in_space(ctx: &Context, n: i64, space: AddressSpace) -> Type {
    common::memref_in(ctx, &[n], ctx.common().f32, None, Some(space.attr(ctx)))
}

/// Builds the body of the `gpu.func` `f` with `fill`, given its entry
/// block's arguments (inputs, then attributions).
fn func_body(b: &mut Builder<'_>, f: GpuFuncOp, fill: impl FnOnce(&mut Builder<'_>, &[Value])) {
    let entry = f.entry_block(b);
    let args: Vec<Value> = b.body().regions_body(f.op()).block_args(entry).to_vec();
    let mut fb = b.nested(f.op()).expect("gpu.func has a nested body");
    fb.set_insertion_point_to_end(entry);
    fill(&mut fb, &args);
}

/// `gpu.module @kernels`: a kernel with memory attributions reading every
/// id, and a helper function returning a value through `gpu.yield`.
fn kernels(b: &mut Builder<'_>, buffer: Type) {
    let ctx = b.ctx();
    let c = ctx.common();
    let m = GpuModuleOp::build(b, "kernels");
    let block = m.body_region_block(b);
    let mut mb = b.nested(m.op()).expect("gpu.module has a nested body");
    mb.set_insertion_point_to_end(block);
    let b = &mut mb;

    let k = GpuFuncOp::build(
        b,
        "k",
        ctx.function_type(&[buffer, c.f32], &[]),
        &[memref_in_space(ctx, 32, AddressSpace::Workgroup)],
        &[memref_in_space(ctx, 4, AddressSpace::Private)],
    );
    k.set_kernel(b, true);
    func_body(b, k, |b, args| {
        let (a, f, shared) = (args[0], args[1], args[2]);
        let tx = GpuThreadIdOp::build(b, Dimension::X).result(b);
        let by = GpuBlockIdOp::build(b, Dimension::Y);
        by.set_upper_bound(b, Some(4));
        GpuBlockDimOp::build(b, Dimension::Z);
        GpuGridDimOp::build(b, Dimension::X);
        let gid = GpuGlobalIdOp::build(b, Dimension::X).result(b);
        let lane = GpuLaneIdOp::build(b);
        lane.set_upper_bound(b, Some(32));
        MemrefStoreOp::build(b, f, shared, &[tx]);
        GpuBarrierOp::build(b);
        let v = MemrefLoadOp::build(b, shared, &[tx]).result(b);
        MemrefStoreOp::build(b, v, a, &[gid]);
        GpuReturnOp::build(b, &[]);
    });

    let helper = GpuFuncOp::build(b, "helper", ctx.function_type(&[c.f32], &[c.f32]), &[], &[]);
    func_body(b, helper, |b, args| {
        // `gpu.yield` ends the regions of ops lf does not have
        // (`gpu.all_reduce`); `scf.execute_region` takes it as well.
        let once = ScfExecuteRegionOp::build_empty(b, &[c.f32]);
        let block = b.create_block(once.region(b), &[]);
        b.guarded(|b| {
            b.set_insertion_point_to_end(block);
            GpuYieldOp::build(b, &[args[0]]);
        });
        GpuReturnOp::build(b, &once.results(b));
    });
}

/// Launches: `gpu.launch_func` of the kernel (plain, with a dynamic shared
/// memory size set afterwards, and async through the generated builder)
/// and a `gpu.launch` whose body adds its ids.
fn launches(b: &mut Builder<'_>, a: Value, f: Value, n: Value, bytes: Value, token: Value) {
    let c1 = ArithConstantOp::index(b, 1);
    let plain = GpuLaunchFuncOp::build_kernel(b, "kernels", "k", [c1, c1, c1], [n, c1, c1], &[a, f]);
    let kernel = plain.kernel(b);
    let shared = GpuLaunchFuncOp::build_kernel(b, "kernels", "k", [c1; 3], [n, c1, c1], &[a, f]);
    shared.set_dynamic_shared_memory_size(b, Some(bytes));
    let token_ty = async_token_type(b.ctx());
    GpuLaunchFuncOp::build(
        b,
        &[token],
        c1,
        c1,
        c1,
        n,
        c1,
        c1,
        None,
        None,
        None,
        None,
        &[a, f],
        None,
        Some(token_ty),
        kernel,
    );
    let launch = GpuLaunchOp::build(b, [c1, c1, c1], [n, c1, c1], |b, launch| {
        let [bx, _, _] = launch.block_ids(b);
        let [tx, _, _] = launch.thread_ids(b);
        ArithAddiOp::build(b, bx, tx);
    });
    launch.set_dynamic_shared_memory_size(b, Some(bytes));
}

/// Device memory: async allocation chains, copies, sets and frees.
fn memory(b: &mut Builder<'_>, a: Value, f: Value, n: Value, buffer: Type) {
    let token_ty = async_token_type(b.ctx());
    let t0 = GpuWaitOp::build(b, &[], Some(token_ty)).async_token(b);
    let t0 = t0.expect("gpu.wait async has a token");
    let shared = GpuAllocOp::build(b, &[], &[n], &[], buffer, None);
    shared.set_host_shared(b, true);
    let shared = shared.memref(b);
    let dev = GpuAllocOp::build(b, &[t0], &[n], &[], buffer, Some(token_ty));
    let (dev_mem, t1) = (dev.memref(b), dev.async_token(b).expect("a token"));
    let t2 = GpuMemcpyOp::build(b, &[t1], dev_mem, a, Some(token_ty)).async_token(b);
    GpuMemcpyOp::build(b, &[], shared, a, None);
    let t3 = GpuMemsetOp::build(b, &[t2.expect("a token")], dev_mem, f, Some(token_ty)).async_token(b);
    GpuMemsetOp::build(b, &[], shared, f, None);
    let t4 = GpuDeallocOp::build(b, &[t3.expect("a token")], dev_mem, Some(token_ty)).async_token(b);
    GpuDeallocOp::build(b, &[], shared, None);
    GpuWaitOp::build(b, &[t4.expect("a token")], None);
}

#[test]
fn every_gpu_op_builds_like_mlir() {
    let ctx = common::context();
    let c = ctx.common();
    let buffer = common::memref(&ctx, &[DYNAMIC], c.f32);
    let token = async_token_type(&ctx);
    let (mut body, module) = common::module(&ctx, |b| {
        kernels(b, buffer);
        let inputs = [buffer, c.f32, c.index, c.i32, token];
        common::func(b, "host", &inputs, &[], |b, args| {
            launches(b, args[0], args[1], args[2], args[3], args[4]);
            memory(b, args[0], args[1], args[2], buffer);
            ValueList::new()
        });
    });
    let mut b = Builder::new(&ctx, &mut body);
    b.set_discardable_attr(module, CONTAINER_MODULE_ATTR, Some(c.unit));
    common::check(&ctx, &body, module, "gpu");
}
