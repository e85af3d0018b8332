//! Decoding: IR in a [`Body`] -> [`Program`], once, before execution.
//!
//! Each function becomes a flat instruction vector over register slots.
//! SSA values get one register each (some share one: `memref.cast`, an
//! identity `affine.apply`, a loop's results and its iteration arguments);
//! constants live in the frame's initial registers and cost nothing at run
//! time. An op the interpreter cannot run becomes a `Trap` that fails only if
//! it is reached.
//!
//! Ops are read through their typed views (`lf_dialects::<dialect>::*Op`):
//! each op's decoder is found from its declaration by one hash lookup
//! (`handlers`), and reads its operands, attributes and regions through
//! the view's getters.

use crate::program::*;
use lf_affine::{AffineExpr, AffineMap, BinaryOp, ExprView};
use lf_dialects::affine::{
    AffineApplyOp, AffineForOp, AffineIfOp, AffineLoadOp, AffineMaxOp, AffineMinOp, AffineParallelOp, AffineStoreOp,
    AffineYieldOp,
};
use lf_dialects::arith::{
    ArithAddfOp, ArithAddiOp, ArithAndiOp, ArithBitcastOp, ArithCeildivsiOp, ArithCeildivuiOp, ArithCmpfOp,
    ArithCmpiOp, ArithConstantOp, ArithDivfOp, ArithDivsiOp, ArithDivuiOp, ArithExtfOp, ArithExtsiOp, ArithExtuiOp,
    ArithFloordivsiOp, ArithFptosiOp, ArithFptouiOp, ArithIndexCastOp, ArithIndexCastuiOp, ArithMaximumfOp,
    ArithMaxnumfOp, ArithMaxsiOp, ArithMaxuiOp, ArithMinimumfOp, ArithMinnumfOp, ArithMinsiOp, ArithMinuiOp,
    ArithMulfOp, ArithMuliOp, ArithNegfOp, ArithOriOp, ArithRemfOp, ArithRemsiOp, ArithRemuiOp, ArithSelectOp,
    ArithShliOp, ArithShrsiOp, ArithShruiOp, ArithSitofpOp, ArithSubfOp, ArithSubiOp, ArithTruncfOp, ArithTrunciOp,
    ArithUitofpOp, ArithXoriOp, CmpIPredicate,
};
use lf_dialects::builtin::{BuiltinModuleOp, BuiltinUnrealizedConversionCastOp};
use lf_dialects::func::{FuncCallOp, FuncFuncOp, FuncReturnOp};
use lf_dialects::gpu::{
    Dimension, GpuAllocOp, GpuBarrierOp, GpuBlockDimOp, GpuBlockIdOp, GpuDeallocOp, GpuFuncOp, GpuGlobalIdOp,
    GpuGridDimOp, GpuLaneIdOp, GpuLaunchFuncOp, GpuLaunchOp, GpuMemcpyOp, GpuMemsetOp, GpuModuleOp, GpuReturnOp,
    GpuTerminatorOp, GpuThreadIdOp, GpuWaitOp, GpuYieldOp,
};
use lf_dialects::math::{
    MathAbsfOp, MathAbsiOp, MathCeilOp, MathCosOp, MathExp2Op, MathExpOp, MathFloorOp, MathFmaOp, MathLog2Op,
    MathLogOp, MathPowfOp, MathRsqrtOp, MathSinOp, MathSqrtOp, MathTanhOp,
};
use lf_dialects::memref::{
    MemrefAllocOp, MemrefAllocaOp, MemrefCastOp, MemrefCopyOp, MemrefDeallocOp, MemrefDimOp, MemrefGetGlobalOp,
    MemrefGlobalOp, MemrefLoadOp, MemrefReinterpretCastOp, MemrefStoreOp, MemrefSubviewOp,
};
use lf_dialects::scf::{
    ScfConditionOp, ScfExecuteRegionOp, ScfForOp, ScfIfOp, ScfParallelOp, ScfReduceOp, ScfReduceReturnOp, ScfWhileOp,
    ScfYieldOp,
};
use lf_dialects::vector::{
    VectorBroadcastOp, VectorExtractOp, VectorFromElementsOp, VectorInsertOp, VectorLoadOp, VectorStoreOp,
};
use lf_ir::view::{OpView, ValueList};
use lf_ir::{
    AttrData, Attribute, BlockId, Body, Context, DenseValues, Location, OpDef, OpId, RegionId, Type, TypeData, Value,
};
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// Decodes the module `op` of `body`.
pub fn decode_module(ctx: &Context, body: &Body, op: OpId) -> Program {
    decode_module_with(ctx, body, op, Instrument::default())
}

/// Decodes the module `op` of `body`, with the instrumentation `instr` asks
/// for (`--profile-divergence`, `--compare-traces`).
pub fn decode_module_with(ctx: &Context, body: &Body, op: OpId, instr: Instrument) -> Program {
    let mut prog = Program::default();
    // First the symbols, so that calls can refer to functions defined later.
    let mut items: Vec<(&Body, OpId, String)> = Vec::new();
    collect(ctx, body, op, "", &mut items, &mut prog);
    for (b, f, name) in &items {
        let mut func = Func {
            name: name.clone(),
            loc: b.op_loc(*f),
            ..Func::default()
        };
        if let Some(fb) = b.nested_body(*f) {
            let empty = b.regions(*f).iter().all(|&r| fb.region_is_empty(r));
            if empty {
                let short = name.rsplit("::").next().unwrap_or(name);
                func.external = Some(Extern::from_name(short));
            }
        } else {
            func.external = Some(Extern::from_name(name));
        }
        prog.funcs.push(func);
    }
    let names: FxHashMap<String, u32> = prog
        .funcs
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.clone(), i as u32))
        .collect();
    let global_names: FxHashMap<String, u32> = prog
        .globals
        .iter()
        .enumerate()
        .map(|(i, g)| (g.name.clone(), i as u32))
        .collect();
    for (i, (b, f, _)) in items.iter().enumerate() {
        if prog.funcs[i].external.is_some() {
            continue;
        }
        let Some(fb) = b.nested_body(*f) else { continue };
        let mut d = FnDecoder {
            ctx,
            body: fb,
            prog: &mut prog,
            names: &names,
            globals: &global_names,
            regs: FxHashMap::default(),
            init: Vec::new(),
            code: Vec::new(),
            locs: Vec::new(),
            lists: Vec::new(),
            yields: Vec::new(),
            loc: b.op_loc(*f),
            instr,
        };
        let mut func = std::mem::take(&mut d.prog.funcs[i]);
        d.decode_func(*f, b, &mut func);
        d.prog.funcs[i] = func;
    }
    prog
}

/// Collects the functions (and globals) of a module, recursing into nested modules.
fn collect<'b>(
    ctx: &Context,
    body: &'b Body,
    op: OpId,
    prefix: &str,
    items: &mut Vec<(&'b Body, OpId, String)>,
    prog: &mut Program,
) {
    let rb = body.regions_body(op);
    let ir = (ctx, rb);
    for &r in body.regions(op) {
        for b in rb.region_blocks(r) {
            for inner in rb.block_ops(b) {
                let sym = lf_ir::symbols::symbol_name(ctx, rb, inner).map(|s| ctx.ident_str(s).to_string());
                if FuncFuncOp::isa(&ir, inner) || GpuFuncOp::isa(&ir, inner) {
                    if let Some(s) = sym {
                        items.push((rb, inner, format!("{prefix}{s}")));
                    }
                } else if GpuModuleOp::isa(&ir, inner) || BuiltinModuleOp::isa(&ir, inner) {
                    let p = match &sym {
                        Some(s) => format!("{prefix}{s}::"),
                        None => prefix.to_string(),
                    };
                    collect(ctx, rb, inner, &p, items, prog);
                } else if let Some(global) = MemrefGlobalOp::cast(&ir, inner) {
                    if let Some(g) = decode_global(ctx, rb, global, sym) {
                        prog.globals.push(g);
                    }
                }
            }
        }
    }
}

fn decode_global(ctx: &Context, body: &Body, op: MemrefGlobalOp, sym: Option<String>) -> Option<Global> {
    let ir = (ctx, body);
    let ty = mem_type(ctx, op.type_(&ir)).ok()?;
    let init = op.initial_value(&ir).and_then(|a| match ctx.attr_data(a) {
        AttrData::DenseElements { values, .. } => Some(dense_bits(values, ty.elem)),
        _ => None,
    });
    Some(Global { name: sym?, ty, init })
}

fn dense_bits(values: &DenseValues, elem: Scalar) -> Vec<u64> {
    match values {
        DenseValues::Int(v) => v.iter().map(|&x| sext(x as u64, elem.shift())).collect(),
        DenseValues::Float(v) => v.clone().into_vec(),
    }
}

/// The scalar kind of a type (async tokens count as `index`).
pub fn scalar(ctx: &Context, t: Type) -> Result<Scalar, String> {
    match ctx.type_data(t) {
        TypeData::Integer { width, .. } if *width >= 1 && *width <= 64 => Ok(Scalar::Int(*width as u8)),
        TypeData::Index => Ok(Scalar::Index),
        TypeData::Float(lf_ir::FloatKind::F32) => Ok(Scalar::F32),
        TypeData::Float(lf_ir::FloatKind::F64) => Ok(Scalar::F64),
        TypeData::Dialect { .. } if lf_dialects::gpu::is_async_token(ctx, t) => Ok(Scalar::Index),
        TypeData::MemRef { element, .. } | TypeData::UnrankedMemRef { element, .. } => scalar(ctx, *element),
        _ => Err(format!(
            "values of type {} are not supported by lf-run",
            type_str(ctx, t)
        )),
    }
}

/// The lane count of a type: `N` for `vector<NxT>`, 1 for anything else.
/// A vector value lives in `N` consecutive registers.
pub fn lanes(ctx: &Context, t: Type) -> u32 {
    lf_dialects::vector::vector_shape(ctx, t).map_or(1, |(n, _)| n as u32)
}

/// The scalar kind of a type and its lane count: of the elements of a 1-D
/// vector (arith and math act on vectors elementwise), or [`scalar`]'s.
pub fn lanes_scalar(ctx: &Context, t: Type) -> Result<(Scalar, u32), String> {
    match lf_dialects::vector::vector_shape(ctx, t) {
        Some((n, e)) => Ok((scalar(ctx, e)?, n as u32)),
        None => Ok((scalar(ctx, t)?, 1)),
    }
}

fn type_str(ctx: &Context, t: Type) -> String {
    match ctx.type_data(t) {
        TypeData::Float(k) => k.keyword().to_string(),
        TypeData::Integer { width, .. } => format!("i{width}"),
        TypeData::Vector { .. } => "vector".into(),
        TypeData::Tensor { .. } | TypeData::UnrankedTensor { .. } => "tensor".into(),
        TypeData::Complex(_) => "complex".into(),
        _ => "this kind".into(),
    }
}

/// The memory space of a memref type's space attribute.
fn space_of(ctx: &Context, space: Option<Attribute>) -> Space {
    let Some(a) = space else { return Space::Global };
    match lf_dialects::gpu::AddressSpace::from_attr(ctx, a) {
        Some(lf_dialects::gpu::AddressSpace::Workgroup) => Space::Workgroup,
        Some(lf_dialects::gpu::AddressSpace::Private) => Space::Private,
        Some(lf_dialects::gpu::AddressSpace::Global) => Space::Global,
        // NVVM's numbering, as MLIR's GPU-to-NVVM lowering keeps it.
        None => match ctx.attr_data(a) {
            AttrData::Integer { value: 3, .. } => Space::Workgroup,
            AttrData::Integer { value: 5, .. } => Space::Private,
            _ => Space::Global,
        },
    }
}

/// A memref type as the interpreter needs it.
pub fn mem_type(ctx: &Context, t: Type) -> Result<MemTy, String> {
    match ctx.type_data(t) {
        TypeData::MemRef {
            shape,
            element,
            layout,
            memory_space,
        } => {
            let strided = match layout.map(|a| ctx.attr_data(a)) {
                None => None,
                Some(AttrData::Strided { strides, offset }) => Some((
                    strides.iter().map(|&s| (s != lf_ir::DYNAMIC).then_some(s)).collect(),
                    (*offset != lf_ir::DYNAMIC).then_some(*offset),
                )),
                Some(AttrData::AffineMap(m)) if m.is_identity() => None,
                Some(_) => return Err("memrefs with an affine-map layout are not supported by lf-run".into()),
            };
            Ok(MemTy {
                shape: shape.iter().map(|&s| (s != lf_ir::DYNAMIC).then_some(s)).collect(),
                elem: scalar(ctx, *element)?,
                space: space_of(ctx, *memory_space),
                strided,
            })
        }
        TypeData::UnrankedMemRef { element, memory_space } => Ok(MemTy {
            shape: Vec::new(),
            elem: scalar(ctx, *element)?,
            space: space_of(ctx, *memory_space),
            strided: None,
        }),
        _ => Err("expected a memref type".into()),
    }
}

/// Makes the instruction `dst = a <op> b` (with the integer width's shift).
type Combine = fn(Reg, Reg, Reg, u8) -> Inst;

/// The identity and the combining instruction of an `affine.parallel`
/// reduction kind (MLIR's `AtomicRMWKind` numbering, alphabetical).
fn reduction(kind: i64, s: Scalar) -> Result<(u64, Combine), String> {
    let f32b = |v: f32| v.to_bits() as u64;
    let fl = |v32: f32, v64: f64| if s == Scalar::F32 { f32b(v32) } else { v64.to_bits() };
    macro_rules! fop {
        ($op:expr) => {
            if s == Scalar::F32 {
                |dst, a, b, _| Inst::F32Bin { op: $op, dst, a, b }
            } else {
                |dst, a, b, _| Inst::F64Bin { op: $op, dst, a, b }
            }
        };
    }
    macro_rules! iop {
        ($op:expr) => {
            |dst, a, b, shift| Inst::IBin {
                op: $op,
                shift,
                dst,
                a,
                b,
            }
        };
    }
    let sh = s.shift();
    let min = sext(1u64 << (63 - sh), sh);
    Ok(match kind {
        0 if s.is_float() => (fl(0.0, 0.0), fop!(FOp::Add)),
        1 => (0, iop!(IOp::Add)),
        2 => (u64::MAX, iop!(IOp::And)),
        4 if s.is_float() => (fl(f32::NEG_INFINITY, f64::NEG_INFINITY), fop!(FOp::Maximum)),
        5 if s.is_float() => (fl(f32::NAN, f64::NAN), fop!(FOp::MaxNum)),
        6 => (min, iop!(IOp::MaxS)),
        7 => (0, iop!(IOp::MaxU)),
        8 if s.is_float() => (fl(f32::INFINITY, f64::INFINITY), fop!(FOp::Minimum)),
        9 if s.is_float() => (fl(f32::NAN, f64::NAN), fop!(FOp::MinNum)),
        10 => (!min, iop!(IOp::MinS)),
        11 => (u64::MAX, iop!(IOp::MinU)),
        12 if s.is_float() => (fl(1.0, 1.0), fop!(FOp::Mul)),
        13 => (1, iop!(IOp::Mul)),
        14 => (0, iop!(IOp::Or)),
        15 => (0, iop!(IOp::Xor)),
        _ => {
            return Err(format!(
                "this {} reduction is not supported by lf-run",
                AffineParallelOp::def().name
            ))
        }
    })
}

/// Decodes one function body.
struct FnDecoder<'a> {
    ctx: &'a Context,
    body: &'a Body,
    prog: &'a mut Program,
    names: &'a FxHashMap<String, u32>,
    globals: &'a FxHashMap<String, u32>,
    regs: FxHashMap<Value, Reg>,
    init: Vec<u64>,
    code: Vec<Inst>,
    locs: Vec<Location>,
    lists: Vec<Reg>,
    /// Where `*.yield` of the innermost region being decoded moves its operands.
    yields: Vec<Vec<Reg>>,
    loc: Location,
    /// Profiling and tracing instructions to add.
    instr: Instrument,
}

type R<T> = Result<T, String>;

impl<'a> FnDecoder<'a> {
    /// Decodes the `func.func` or `gpu.func` `op` of `outer` (whose body is `self.body`).
    fn decode_func(&mut self, op: OpId, outer: &Body, func: &mut Func) {
        let fb = self.body;
        let outer_ir = (self.ctx, outer);
        let gpu_func = GpuFuncOp::cast(&outer_ir, op);
        let region = outer.regions(op)[0];
        let blocks: Vec<BlockId> = fb.region_blocks(region).collect();
        let ftype = match (FuncFuncOp::cast(&outer_ir, op), gpu_func) {
            (Some(f), _) => Some(f.function_type(&outer_ir)),
            (None, Some(f)) => Some(f.function_type(&outer_ir)),
            (None, None) => None,
        };
        let (inputs, results) = match ftype.map(|t| self.ctx.type_data(t)) {
            Some(TypeData::Function { inputs, results }) => (inputs.to_vec(), results.len()),
            _ => (Vec::new(), 0),
        };
        func.num_results = results as u32;
        if blocks.len() != 1 {
            self.loc = outer.op_loc(op);
            self.trap("functions with several blocks (cf dialect) are not supported by lf-run".into());
        } else {
            let entry = blocks[0];
            let args = fb.block_args(entry).to_vec();
            let n = inputs.len().min(args.len());
            for &a in args.iter().take(n) {
                let r = self.reg(a);
                func.params.push(r);
                let t = fb.value_type(a);
                func.param_types.push(mem_type(self.ctx, t).ok());
                func.param_kinds.push(scalar(self.ctx, t).unwrap_or(Scalar::Index));
            }
            if let Some(gpu_func) = gpu_func {
                let nw = gpu_func.num_workgroup_attributions(&outer_ir);
                for (k, &a) in args.iter().enumerate().skip(n) {
                    let r = self.reg(a);
                    match mem_type(self.ctx, fb.value_type(a)) {
                        Ok(t) if k - n < nw => func.workgroup.push((r, t)),
                        Ok(t) => func.private.push((r, t)),
                        Err(e) => {
                            self.loc = outer.op_loc(op);
                            self.trap(e)
                        }
                    }
                }
            }
            self.decode_ops(entry);
        }
        // A function that falls off its end (cannot happen in verified IR).
        self.loc = outer.op_loc(op);
        self.emit(Inst::Return { vals: List::default() });
        func.code = std::mem::take(&mut self.code);
        func.locs = std::mem::take(&mut self.locs);
        func.lists = std::mem::take(&mut self.lists);
        func.num_regs = self.init.len() as u32;
        func.init = std::mem::take(&mut self.init);
    }

    // ------------------------------------------------------------ helpers

    fn new_reg(&mut self) -> Reg {
        self.init.push(0);
        (self.init.len() - 1) as Reg
    }

    /// The register of `v`; the first of `N` consecutive ones for a
    /// `vector<NxT>`.
    fn reg(&mut self, v: Value) -> Reg {
        if let Some(&r) = self.regs.get(&v) {
            return r;
        }
        let r = self.new_reg();
        for _ in 1..lanes(self.ctx, self.body.value_type(v)) {
            self.new_reg();
        }
        self.regs.insert(v, r);
        r
    }

    /// Emits `mk(k)` for each lane `k` of `n`.
    fn lanewise(&mut self, n: u32, mk: impl Fn(u32) -> Inst) {
        for k in 0..n {
            self.emit(mk(k));
        }
    }

    fn konst(&mut self, bits: u64) -> Reg {
        let r = self.new_reg();
        self.init[r as usize] = bits;
        r
    }

    fn emit(&mut self, i: Inst) -> u32 {
        self.code.push(i);
        self.locs.push(self.loc);
        (self.code.len() - 1) as u32
    }

    /// With loop profiling, a new entry of [`Program::loops`] for loop `op`.
    fn loop_id(&mut self, op: OpId, name: &'static str) -> Option<u32> {
        if !self.instr.loops {
            return None;
        }
        self.prog.loops.push(LoopInfo {
            loc: self.body.op_loc(op),
            name,
        });
        Some((self.prog.loops.len() - 1) as u32)
    }

    /// Emits the loop event `mk(id)` when loop `id` is profiled.
    fn loop_event(&mut self, id: Option<u32>, mk: fn(u32) -> Inst) {
        if let Some(id) = id {
            self.emit(mk(id));
        }
    }

    fn pc(&self) -> u32 {
        self.code.len() as u32
    }

    fn patch(&mut self, at: u32, target: u32) {
        match &mut self.code[at as usize] {
            Inst::Jump { target: t }
            | Inst::JumpIfZero { target: t, .. }
            | Inst::JumpIfLt { target: t, .. }
            | Inst::LoopNext { target: t, .. }
            | Inst::LoopNextWrap { target: t, .. } => *t = target,
            _ => {}
        }
    }

    fn list(&mut self, regs: &[Reg]) -> List {
        let start = self.lists.len() as u32;
        self.lists.extend_from_slice(regs);
        List {
            start,
            len: regs.len() as u32,
        }
    }

    fn trap(&mut self, msg: String) {
        self.prog.messages.push(msg);
        let m = (self.prog.messages.len() - 1) as u32;
        self.emit(Inst::Trap { msg: m });
    }

    fn par_move(&mut self, dsts: &[Reg], srcs: &[Reg]) {
        let pairs: Vec<(Reg, Reg)> = dsts
            .iter()
            .zip(srcs)
            .filter(|(d, s)| d != s)
            .map(|(&d, &s)| (d, s))
            .collect();
        match pairs.len() {
            0 => {}
            1 => {
                self.emit(Inst::Mov {
                    dst: pairs[0].0,
                    src: pairs[0].1,
                });
            }
            _ => {
                let flat: Vec<Reg> = pairs.iter().flat_map(|&(d, s)| [d, s]).collect();
                let l = self.list(&flat);
                self.emit(Inst::ParMove { pairs: l });
            }
        }
    }

    /// The registers of `vals`, every lane of a vector.
    fn operand_regs(&mut self, vals: &[Value]) -> Vec<Reg> {
        let mut out = Vec::with_capacity(vals.len());
        for &v in vals {
            let r = self.reg(v);
            out.extend((0..lanes(self.ctx, self.body.value_type(v))).map(|k| r + k));
        }
        out
    }

    /// The registers of the results of `op`, every lane of a vector.
    fn result_regs(&mut self, op: OpId) -> Vec<Reg> {
        let vals: Vec<Value> = self.body.results(op).collect();
        self.operand_regs(&vals)
    }

    fn operands(&self, op: OpId) -> Vec<Value> {
        self.body.operands(op).collect()
    }

    /// What the views' getters read: the context and the function's body.
    fn ir(&self) -> (&'a Context, &'a Body) {
        (self.ctx, self.body)
    }

    fn result_type(&self, op: OpId, i: usize) -> Type {
        self.body.value_type(self.body.result(op, i))
    }

    fn res(&mut self, op: OpId, i: usize) -> Reg {
        let v = self.body.result(op, i);
        self.reg(v)
    }

    fn alias_result(&mut self, op: OpId, i: usize, r: Reg) {
        let v = self.body.result(op, i);
        self.regs.insert(v, r);
    }

    // ------------------------------------------------------------ blocks

    fn decode_ops(&mut self, block: BlockId) {
        let ops: Vec<OpId> = self.body.block_ops(block).collect();
        for op in ops {
            self.loc = self.body.op_loc(op);
            if let Err(e) = self.decode_op(op) {
                self.loc = self.body.op_loc(op);
                self.trap(e);
            }
        }
    }

    /// Decodes a single-block region whose yield moves into `dsts`.
    fn decode_region(&mut self, r: RegionId, dsts: Vec<Reg>) -> R<()> {
        let blocks: Vec<BlockId> = self.body.region_blocks(r).collect();
        match blocks.len() {
            0 => Ok(()),
            1 => {
                self.yields.push(dsts);
                self.decode_ops(blocks[0]);
                self.yields.pop();
                Ok(())
            }
            _ => Err("regions with several blocks (cf dialect) are not supported by lf-run".into()),
        }
    }

    /// The entry block of a region.
    fn entry(&self, r: RegionId) -> R<BlockId> {
        self.body.entry_block(r).ok_or_else(|| "empty region".to_string())
    }

    // ------------------------------------------------------------ affine

    fn expr(&mut self, e: &AffineExpr, dims: &[Reg], syms: &[Reg]) -> R<Reg> {
        Ok(match e.view() {
            ExprView::Dim(p) => *dims.get(p as usize).ok_or("affine dimension out of range")?,
            ExprView::Symbol(p) => *syms.get(p as usize).ok_or("affine symbol out of range")?,
            ExprView::Constant(c) => self.konst(c as u64),
            ExprView::Binary(op, l, r) => {
                let iop = match op {
                    BinaryOp::Add => IOp::Add,
                    BinaryOp::Mul => IOp::Mul,
                    BinaryOp::Mod => IOp::AffMod,
                    BinaryOp::FloorDiv => IOp::FloorDivS,
                    BinaryOp::CeilDiv => IOp::CeilDivS,
                };
                let a = self.expr(l, dims, syms)?;
                let dst = self.new_reg();
                if let Some(c) = r.as_constant() {
                    self.emit(Inst::IBinImm {
                        op: iop,
                        dst,
                        a,
                        imm: c,
                    });
                } else {
                    let b = self.expr(r, dims, syms)?;
                    self.emit(Inst::IBin {
                        op: iop,
                        shift: 0,
                        dst,
                        a,
                        b,
                    });
                }
                dst
            }
        })
    }

    fn map(&mut self, m: &AffineMap, operands: &[Reg]) -> R<Vec<Reg>> {
        let nd = m.num_dims() as usize;
        if operands.len() != m.num_inputs() as usize {
            return Err("affine map operand count mismatch".into());
        }
        let (dims, syms) = operands.split_at(nd);
        m.results().iter().map(|e| self.expr(e, dims, syms)).collect()
    }

    fn reduce(&mut self, regs: Vec<Reg>, op: IOp) -> R<Reg> {
        let mut it = regs.into_iter();
        let mut acc = it.next().ok_or("affine bound map without results")?;
        for r in it {
            let dst = self.new_reg();
            self.emit(Inst::IBin {
                op,
                shift: 0,
                dst,
                a: acc,
                b: r,
            });
            acc = dst;
        }
        Ok(acc)
    }

    /// A counted loop `op` with body `region`: `iv` from `lb` while `< ub`
    /// by `step`, carrying `iters`. An induction variable narrower than 64
    /// bits wraps at its width when the step is added (MLIR's lowering adds
    /// the step with an `arith.addi` of the variable's type).
    fn counted_loop(
        &mut self,
        op: OpId,
        region: RegionId,
        bounds: [Reg; 3],
        inits: &[Reg],
        name: &'static str,
    ) -> R<()> {
        let [lb, ub, step] = bounds;
        let block = self.entry(region)?;
        let args = self.body.block_args(block).to_vec();
        if args.is_empty() {
            return Err("loop without induction variable".into());
        }
        let shift = scalar(self.ctx, self.body.value_type(args[0]))?.shift();
        let iv = self.reg(args[0]);
        let iters = self.operand_regs(&args[1..]);
        for (i, &a) in args[1..].iter().enumerate() {
            if i < self.body.num_results(op) {
                let r = self.reg(a);
                self.alias_result(op, i, r);
            }
        }
        let prof = self.loop_id(op, name);
        self.emit(Inst::StepCheck { step });
        self.emit(Inst::Mov { dst: iv, src: lb });
        self.par_move(&iters, inits);
        self.loop_event(prof, |id| Inst::LoopEnter { id });
        let enter = self.emit(Inst::JumpIfLt {
            a: iv,
            b: ub,
            target: 0,
        });
        let skip = self.emit(Inst::Jump { target: 0 });
        let body = self.pc();
        self.patch(enter, body);
        self.loop_event(prof, |id| Inst::LoopIter { id });
        self.decode_region(region, iters)?;
        self.emit(if shift == 0 {
            Inst::LoopNext {
                iv,
                step,
                ub,
                target: body,
            }
        } else {
            Inst::LoopNextWrap {
                iv,
                step,
                ub,
                target: body,
                shift,
            }
        });
        let end = self.pc();
        self.patch(skip, end);
        self.loop_event(prof, |id| Inst::LoopExit { id });
        Ok(())
    }

    /// A nest of counted loops, outermost first, around the code `body` emits.
    /// The iterations are checked for races between each other (`ParBegin`,
    /// `ParIter`, `ParEnd`).
    fn nest(
        &mut self,
        ivs: &[Reg],
        lbs: &[Reg],
        ubs: &[Reg],
        steps: &[Reg],
        prof: Option<u32>,
        body: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        self.loop_event(prof, |id| Inst::LoopEnter { id });
        self.emit(Inst::ParBegin);
        let mut heads = Vec::new();
        for d in 0..ivs.len() {
            self.emit(Inst::StepCheck { step: steps[d] });
            self.emit(Inst::Mov {
                dst: ivs[d],
                src: lbs[d],
            });
            let enter = self.emit(Inst::JumpIfLt {
                a: ivs[d],
                b: ubs[d],
                target: 0,
            });
            let skip = self.emit(Inst::Jump { target: 0 });
            let start = self.pc();
            self.patch(enter, start);
            heads.push((start, skip));
        }
        let l = self.list(ivs);
        self.emit(Inst::ParIter { ivs: l });
        self.loop_event(prof, |id| Inst::LoopIter { id });
        body(self)?;
        for d in (0..ivs.len()).rev() {
            let (start, skip) = heads[d];
            self.emit(Inst::LoopNext {
                iv: ivs[d],
                step: steps[d],
                ub: ubs[d],
                target: start,
            });
            let end = self.pc();
            self.patch(skip, end);
        }
        self.emit(Inst::ParEnd);
        self.loop_event(prof, |id| Inst::LoopExit { id });
        Ok(())
    }

    /// `scf.parallel`: its iterations run in order, as a loop nest; `scf.reduce`
    /// combines each iteration's values into the results.
    fn scf_parallel(&mut self, x: ScfParallelOp) -> R<()> {
        let (ir, op) = (self.ir(), x.op());
        let lbs = self.operand_regs(&x.lower_bound(&ir));
        let ubs = self.operand_regs(&x.upper_bound(&ir));
        let steps = self.operand_regs(&x.step(&ir));
        let inits = self.operand_regs(&x.init_vals(&ir));
        let region = x.region(&ir);
        let block = self.entry(region)?;
        let args = self.body.block_args(block).to_vec();
        let ivs = self.operand_regs(&args);
        if ivs.len() != lbs.len() || ubs.len() != lbs.len() || steps.len() != lbs.len() {
            return Err(format!(
                "{} bounds do not match its induction variables",
                ScfParallelOp::def().name
            ));
        }
        let accs: Vec<Reg> = (0..self.body.num_results(op)).map(|i| self.res(op, i)).collect();
        self.par_move(&accs, &inits);
        let prof = self.loop_id(op, ScfParallelOp::def().name);
        self.nest(&ivs, &lbs, &ubs, &steps, prof, |d| {
            d.decode_region(region, accs.clone())
        })
    }

    /// `affine.parallel`: a loop nest; each result starts at its reduction's
    /// identity and combines the value `affine.yield` gives in every iteration.
    fn affine_parallel(&mut self, x: AffineParallelOp) -> R<()> {
        let (ir, op) = (self.ir(), x.op());
        let name = AffineParallelOp::def().name;
        let lbm = x.lower_bounds_map(&ir);
        let ubm = x.upper_bounds_map(&ir);
        let groups = |g: Vec<i64>| -> Vec<usize> { g.into_iter().map(|n| n as usize).collect() };
        let (lg, ug) = (groups(x.lower_bound_groups(&ir)), groups(x.upper_bound_groups(&ir)));
        let steps = x.step_values(&ir);
        let kinds = x.reduction_kinds(&ir);
        let ops = self.operand_regs(&x.map_operands(&ir));
        let nl = lbm.num_inputs() as usize;
        if ops.len() < nl {
            return Err(format!("{name} operand count mismatch"));
        }
        let lres = self.map(lbm, &ops[..nl])?;
        let ures = self.map(ubm, &ops[nl..])?;
        let region = x.region(&ir);
        let block = self.entry(region)?;
        let args = self.body.block_args(block).to_vec();
        let ivs = self.operand_regs(&args);
        if lg.len() != ivs.len() || ug.len() != ivs.len() || steps.len() != ivs.len() {
            return Err(format!("{name} bounds do not match its induction variables"));
        }
        let bound = |d: &mut Self, res: &[Reg], groups: &[usize], op: IOp| -> R<Vec<Reg>> {
            let mut out = Vec::new();
            let mut k = 0;
            for &g in groups {
                let part = res
                    .get(k..k + g)
                    .ok_or_else(|| format!("{name} bound groups do not match the maps"))?;
                out.push(d.reduce(part.to_vec(), op)?);
                k += g;
            }
            Ok(out)
        };
        let lbs = bound(self, &lres, &lg, IOp::MaxS)?;
        let ubs = bound(self, &ures, &ug, IOp::MinS)?;
        let step_regs: Vec<Reg> = steps.iter().map(|&s| self.konst(s as u64)).collect();
        let n = self.body.num_results(op);
        let mut accs = Vec::new();
        let mut combine = Vec::new();
        for i in 0..n {
            let s = scalar(self.ctx, self.result_type(op, i))?;
            let kind = *kinds.get(i).ok_or_else(|| format!("{name} result without reduction"))?;
            let (init, inst): (u64, Combine) = reduction(kind, s)?;
            let acc = self.res(op, i);
            let k = self.konst(init);
            self.emit(Inst::Mov { dst: acc, src: k });
            accs.push(acc);
            combine.push((inst, s.shift()));
        }
        let tmps: Vec<Reg> = (0..n).map(|_| self.new_reg()).collect();
        let prof = self.loop_id(op, name);
        self.nest(&ivs, &lbs, &ubs, &step_regs, prof, |d| {
            d.decode_region(region, tmps.clone())?;
            for (i, (inst, shift)) in combine.iter().enumerate() {
                d.emit(inst(accs[i], accs[i], tmps[i], *shift));
            }
            Ok(())
        })
    }

    /// `scf.if` or `affine.if` `op`: `then` when `cond` is not zero, else `els`.
    fn if_else(&mut self, op: OpId, cond: Reg, then: RegionId, els: RegionId) -> R<()> {
        let dsts = self.result_regs(op);
        let jz = self.emit(Inst::JumpIfZero { cond, target: 0 });
        self.decode_region(then, dsts.clone())?;
        if !self.body.region_is_empty(els) {
            let j = self.emit(Inst::Jump { target: 0 });
            let e = self.pc();
            self.patch(jz, e);
            self.decode_region(els, dsts)?;
            let end = self.pc();
            self.patch(j, end);
        } else {
            let end = self.pc();
            self.patch(jz, end);
        }
        Ok(())
    }

    /// The memref and index registers of a load or store: `indices`, or
    /// the results of `map` (affine) on them.
    fn mem_access(&mut self, mem: Value, indices: &[Value], map: Option<&AffineMap>) -> R<(Reg, List)> {
        let m = self.reg(mem);
        let ops = self.operand_regs(indices);
        let idx = match map {
            Some(map) => self.map(map, &ops)?,
            None => ops,
        };
        let l = self.list(&idx);
        Ok((m, l))
    }

    // ------------------------------------------------------------ ops

    fn decode_op(&mut self, op: OpId) -> R<()> {
        let name = self.body.op_name(op);
        match self.ctx.op_def(name).and_then(|def| handlers().get(&def_key(def))) {
            Some(decode) => decode(self, op),
            // The name of an op lf-run has no decoder for (perhaps of an
            // unregistered dialect): message text, not a lookup.
            None => Err(format!("'{}' is not supported by lf-run", self.ctx.op_name_str(name))),
        }
    }

    /// `arith` integer binary op `op` (operands `lhs`, `rhs`).
    fn bin_int(&mut self, op: OpId, iop: IOp) -> R<()> {
        let o = self.operands(op);
        let (s, n) = lanes_scalar(self.ctx, self.result_type(op, 0))?;
        let (a, b) = (self.reg(o[0]), self.reg(o[1]));
        let dst = self.res(op, 0);
        self.lanewise(n, |k| Inst::IBin {
            op: iop,
            shift: s.shift(),
            dst: dst + k,
            a: a + k,
            b: b + k,
        });
        Ok(())
    }

    /// Float binary op `op` (operands `lhs`, `rhs`).
    fn bin_float(&mut self, op: OpId, fop: FOp) -> R<()> {
        let o = self.operands(op);
        let (s, n) = lanes_scalar(self.ctx, self.result_type(op, 0))?;
        let (a, b) = (self.reg(o[0]), self.reg(o[1]));
        let dst = self.res(op, 0);
        match s {
            Scalar::F32 => self.lanewise(n, |k| Inst::F32Bin {
                op: fop,
                dst: dst + k,
                a: a + k,
                b: b + k,
            }),
            Scalar::F64 => self.lanewise(n, |k| Inst::F64Bin {
                op: fop,
                dst: dst + k,
                a: a + k,
                b: b + k,
            }),
            _ => return Err("float op on a non-float type".into()),
        }
        Ok(())
    }

    /// Float unary op `op` (operand `operand`).
    fn un_float(&mut self, op: OpId, fun: FUn) -> R<()> {
        let o = self.operands(op);
        let (s, n) = lanes_scalar(self.ctx, self.result_type(op, 0))?;
        let a = self.reg(o[0]);
        let dst = self.res(op, 0);
        match s {
            Scalar::F32 => self.lanewise(n, |k| Inst::F32Un {
                op: fun,
                dst: dst + k,
                a: a + k,
            }),
            Scalar::F64 => self.lanewise(n, |k| Inst::F64Un {
                op: fun,
                dst: dst + k,
                a: a + k,
            }),
            _ => return Err("float op on a non-float type".into()),
        }
        Ok(())
    }

    /// An `arith` cast `x` (operand `in`, result `out`).
    fn conv<V: OpView>(&mut self, x: V, cast: CastKind) -> R<()> {
        let op = x.op();
        let o = self.operands(op);
        let (src, n) = lanes_scalar(self.ctx, self.body.value_type(o[0]))?;
        let (dsts, _) = lanes_scalar(self.ctx, self.result_type(op, 0))?;
        let conv = match (cast, src, dsts) {
            (CastKind::ExtSI | CastKind::TruncI | CastKind::IndexCast, _, _) => Conv::IntS,
            (CastKind::ExtUI | CastKind::IndexCastUI, _, _) => Conv::IntU,
            (CastKind::SIToFP, _, Scalar::F32) => Conv::SiToF32,
            (CastKind::SIToFP, _, Scalar::F64) => Conv::SiToF64,
            (CastKind::UIToFP, _, Scalar::F32) => Conv::UiToF32,
            (CastKind::UIToFP, _, Scalar::F64) => Conv::UiToF64,
            (CastKind::FPToSI, Scalar::F32, _) => Conv::F32ToSi,
            (CastKind::FPToSI, Scalar::F64, _) => Conv::F64ToSi,
            (CastKind::FPToUI, Scalar::F32, _) => Conv::F32ToUi,
            (CastKind::FPToUI, Scalar::F64, _) => Conv::F64ToUi,
            (CastKind::ExtF, Scalar::F32, Scalar::F64) => Conv::F32ToF64,
            (CastKind::TruncF, Scalar::F64, Scalar::F32) => Conv::F64ToF32,
            (CastKind::ExtF | CastKind::TruncF, a, b) if a == b => Conv::Same,
            (CastKind::Bitcast, Scalar::F32, Scalar::Int(32)) => Conv::BitsF32ToI,
            (CastKind::Bitcast, Scalar::Int(32), Scalar::F32) => Conv::BitsIToF32,
            (CastKind::Bitcast, a, b) if a.width() == 64 && b.width() == 64 => Conv::Same,
            (CastKind::Bitcast, a, b) if a == b => Conv::Same,
            _ => {
                return Err(format!(
                    "{} between these types is not supported by lf-run",
                    V::def().name
                ))
            }
        };
        let a = self.reg(o[0]);
        let dst = self.res(op, 0);
        self.lanewise(n, |k| Inst::Conv {
            conv,
            src_shift: src.shift(),
            dst_shift: dsts.shift(),
            dst: dst + k,
            a: a + k,
        });
        Ok(())
    }

    fn constant(&mut self, x: ArithConstantOp) -> R<()> {
        let bits = match self.ctx.attr_data(x.value(&self.ir())) {
            AttrData::Integer { value, ty } => {
                let s = scalar(self.ctx, *ty)?;
                sext(*value as u64, s.shift())
            }
            AttrData::Float { bits, ty } => {
                scalar(self.ctx, *ty)?;
                *bits
            }
            AttrData::DenseElements { ty, values } if lanes(self.ctx, *ty) > 1 => {
                let (s, n) = lanes_scalar(self.ctx, *ty)?;
                let bits: Vec<u64> = match values {
                    DenseValues::Int(v) => v.iter().map(|&x| sext(x as u64, s.shift())).collect(),
                    DenseValues::Float(v) => v.to_vec(),
                };
                let dst = self.res(x.op(), 0);
                for k in 0..n as usize {
                    self.init[dst as usize + k] = if bits.len() == 1 { bits[0] } else { bits[k] };
                }
                return Ok(());
            }
            _ => {
                return Err(format!(
                    "{} of this kind (vector, tensor) is not supported by lf-run",
                    ArithConstantOp::def().name
                ))
            }
        };
        let r = self.konst(bits);
        self.alias_result(x.op(), 0, r);
        Ok(())
    }

    fn cmpi(&mut self, x: ArithCmpiOp) -> R<()> {
        let ir = self.ir();
        let (lhs, rhs) = (x.lhs(&ir), x.rhs(&ir));
        let (s, n) = lanes_scalar(self.ctx, self.body.value_type(lhs))?;
        let pred = x.predicate(&ir);
        let (a, b) = (self.reg(lhs), self.reg(rhs));
        let dst = self.res(x.op(), 0);
        self.lanewise(n, |k| Inst::CmpI {
            pred,
            shift: s.shift(),
            dst: dst + k,
            a: a + k,
            b: b + k,
        });
        Ok(())
    }

    fn cmpf(&mut self, x: ArithCmpfOp) -> R<()> {
        let ir = self.ir();
        let (lhs, rhs) = (x.lhs(&ir), x.rhs(&ir));
        let (s, n) = lanes_scalar(self.ctx, self.body.value_type(lhs))?;
        let pred = x.predicate(&ir);
        let (a, b) = (self.reg(lhs), self.reg(rhs));
        let dst = self.res(x.op(), 0);
        let (dst, a, b) = (dst, a, b);
        match s {
            Scalar::F32 => self.lanewise(n, |k| Inst::CmpF32 {
                pred,
                dst: dst + k,
                a: a + k,
                b: b + k,
            }),
            Scalar::F64 => self.lanewise(n, |k| Inst::CmpF64 {
                pred,
                dst: dst + k,
                a: a + k,
                b: b + k,
            }),
            _ => return Err("cmpf on a non-float type".into()),
        }
        Ok(())
    }

    fn select(&mut self, x: ArithSelectOp) -> R<()> {
        let ir = self.ir();
        let cond = x.condition(&ir);
        let per_lane = lanes(self.ctx, self.body.value_type(cond)) > 1;
        let c = self.reg(cond);
        let a = self.reg(x.true_value(&ir));
        let b = self.reg(x.false_value(&ir));
        let dst = self.res(x.op(), 0);
        let n = lanes(self.ctx, self.result_type(x.op(), 0));
        self.lanewise(n, |k| Inst::Select {
            dst: dst + k,
            c: if per_lane { c + k } else { c },
            a: a + k,
            b: b + k,
        });
        Ok(())
    }

    fn abs_i(&mut self, x: MathAbsiOp) -> R<()> {
        let op = x.op();
        let (s, n) = lanes_scalar(self.ctx, self.result_type(op, 0))?;
        let a = self.reg(x.operand(&self.ir()));
        let dst = self.res(op, 0);
        self.lanewise(n, |k| Inst::AbsI {
            shift: s.shift(),
            dst: dst + k,
            a: a + k,
        });
        Ok(())
    }

    fn fma(&mut self, x: MathFmaOp) -> R<()> {
        let (ir, op) = (self.ir(), x.op());
        let (s, n) = lanes_scalar(self.ctx, self.result_type(op, 0))?;
        let (a, b, c) = (self.reg(x.a(&ir)), self.reg(x.b(&ir)), self.reg(x.c(&ir)));
        let dst = self.res(op, 0);
        match s {
            Scalar::F32 => self.lanewise(n, |k| Inst::Fma32 {
                dst: dst + k,
                a: a + k,
                b: b + k,
                c: c + k,
            }),
            _ => self.lanewise(n, |k| Inst::Fma64 {
                dst: dst + k,
                a: a + k,
                b: b + k,
                c: c + k,
            }),
        }
        Ok(())
    }

    /// `memref.alloc`, `memref.alloca` (`stack`) or `gpu.alloc` (`device`) `op`.
    fn alloc(&mut self, op: OpId, stack: bool, device: bool, dynamic_sizes: &[Value]) -> R<()> {
        let ty = mem_type(self.ctx, self.result_type(op, 0))?;
        let dyns = self.operand_regs(dynamic_sizes);
        self.prog.types.push(ty);
        let t = (self.prog.types.len() - 1) as u32;
        let dyn_sizes = self.list(&dyns);
        let dst = self.res(op, 0);
        self.emit(Inst::Alloc {
            dst,
            ty: t,
            dyn_sizes,
            stack,
            device,
        });
        Ok(())
    }

    /// `memref.dealloc` or `gpu.dealloc` `op` of `memref`.
    fn dealloc(&mut self, op: OpId, memref: Value) {
        let mem = self.reg(memref);
        self.emit(Inst::Dealloc { mem });
        self.tokens(op);
    }

    /// Results that are async tokens get the value 0.
    fn tokens(&mut self, op: OpId) {
        for i in 0..self.body.num_results(op) {
            let t = self.result_type(op, i);
            if lf_dialects::gpu::is_async_token(self.ctx, t) {
                let r = self.konst(0);
                self.alias_result(op, i, r);
            }
        }
    }

    /// `op` (a `memref.subview`, or with `reinterpret` a `memref.reinterpret_cast`) of `v`.
    fn view(&mut self, op: OpId, v: ViewOperands, reinterpret: bool) -> R<()> {
        let src = self.reg(v.source);
        let operand = |stat: Vec<i64>, dynamic: Vec<Reg>| -> Vec<Operand> {
            let mut it = dynamic.into_iter();
            stat.into_iter()
                .map(|s| {
                    if s == lf_ir::DYNAMIC {
                        Operand::Reg(it.next().unwrap_or(0))
                    } else {
                        Operand::Const(s)
                    }
                })
                .collect()
        };
        let (go, gs, gt) = (
            self.operand_regs(&v.offsets),
            self.operand_regs(&v.sizes),
            self.operand_regs(&v.strides),
        );
        let offsets = operand(v.static_offsets, go);
        let sizes = operand(v.static_sizes, gs);
        let strides = operand(v.static_strides, gt);
        let res_rank = match self.ctx.type_data(self.result_type(op, 0)) {
            TypeData::MemRef { shape, .. } => shape.len(),
            _ => return Err("expected a memref result".into()),
        };
        let mut keep = vec![true; sizes.len()];
        if !reinterpret && res_rank < sizes.len() {
            let mut drop = sizes.len() - res_rank;
            for (i, s) in sizes.iter().enumerate() {
                if drop > 0 && matches!(s, Operand::Const(1)) {
                    keep[i] = false;
                    drop -= 1;
                }
            }
            if drop > 0 {
                return Err("rank-reducing subview with dynamic unit sizes is not supported by lf-run".into());
            }
        }
        self.prog.views.push(ViewInfo {
            offsets,
            sizes,
            strides,
            keep,
        });
        let info = (self.prog.views.len() - 1) as u32;
        let dst = self.res(op, 0);
        self.emit(Inst::View {
            dst,
            src,
            info,
            reinterpret,
        });
        Ok(())
    }

    /// `func.return` or `gpu.return` of `vals`.
    fn ret(&mut self, vals: &[Value]) {
        let r = self.operand_regs(vals);
        let vals = self.list(&r);
        self.emit(Inst::Return { vals });
    }

    /// A terminator that yields `vals` to the op holding its region.
    fn yield_values(&mut self, vals: &[Value]) {
        let srcs = self.operand_regs(vals);
        let dsts = self.yields.last().cloned().unwrap_or_default();
        self.par_move(&dsts, &srcs);
    }

    fn call(&mut self, x: FuncCallOp) -> R<()> {
        let (ir, op) = (self.ir(), x.op());
        let callee = x.callee(&ir);
        let &f = self
            .names
            .get(callee)
            .ok_or_else(|| format!("call to unknown function '@{callee}'"))?;
        let a = self.operand_regs(&x.operands(&ir));
        let args = self.list(&a);
        match self.prog.funcs[f as usize].external {
            Some(Some(ext)) => {
                self.emit(Inst::Ext { ext, args });
            }
            Some(None) => {
                return Err(format!(
                    "'@{callee}' is an external function that lf-run does not provide (it provides \
                     the runner-utils print functions)"
                ))
            }
            None => {
                let n = self.body.num_results(op);
                let rr: Vec<Reg> = (0..n).map(|i| self.res(op, i)).collect();
                let rets = self.list(&rr);
                self.emit(Inst::Call { func: f, args, rets });
            }
        }
        Ok(())
    }

    fn scf_for(&mut self, x: ScfForOp) -> R<()> {
        let ir = self.ir();
        if x.unsigned_cmp(&ir) {
            return Err(format!(
                "{} with unsigned comparison is not supported by lf-run",
                ScfForOp::def().name
            ));
        }
        let lb = self.reg(x.lower_bound(&ir));
        let ub = self.reg(x.upper_bound(&ir));
        let step = self.reg(x.step(&ir));
        let inits = self.operand_regs(&x.init_args(&ir));
        self.counted_loop(x.op(), x.region(&ir), [lb, ub, step], &inits, ScfForOp::def().name)
    }

    fn affine_for(&mut self, x: AffineForOp) -> R<()> {
        let ir = self.ir();
        let lbo = self.operand_regs(&x.lower_bound_operands(&ir));
        let ubo = self.operand_regs(&x.upper_bound_operands(&ir));
        let inits = self.operand_regs(&x.inits(&ir));
        let lbs = self.map(x.lower_bound_map(&ir), &lbo)?;
        let lb = self.reduce(lbs, IOp::MaxS)?;
        let ubs = self.map(x.upper_bound_map(&ir), &ubo)?;
        let ub = self.reduce(ubs, IOp::MinS)?;
        let step = self.konst(x.step(&ir) as u64);
        self.counted_loop(x.op(), x.region(&ir), [lb, ub, step], &inits, AffineForOp::def().name)
    }

    fn scf_if(&mut self, x: ScfIfOp) -> R<()> {
        let ir = self.ir();
        let c = self.reg(x.condition(&ir));
        self.if_else(x.op(), c, x.then_region(&ir), x.else_region(&ir))
    }

    /// `affine.if`: the conjunction of its set's constraints (`== 0` or `>= 0`).
    fn affine_if(&mut self, x: AffineIfOp) -> R<()> {
        let ir = self.ir();
        let set = x.condition(&ir);
        let ops = self.operand_regs(&x.operands(&ir));
        let nd = set.num_dims() as usize;
        if ops.len() < nd {
            return Err(format!("{} operand count mismatch", AffineIfOp::def().name));
        }
        let (dims, syms) = ops.split_at(nd);
        let zero = self.konst(0);
        let mut acc = self.konst(u64::MAX);
        for (i, c) in set.constraints().iter().enumerate() {
            let e = self.expr(c, dims, syms)?;
            let t = self.new_reg();
            let pred = if set.eq_flags()[i] {
                CmpIPredicate::Eq
            } else {
                CmpIPredicate::Sge
            };
            self.emit(Inst::CmpI {
                pred,
                shift: 0,
                dst: t,
                a: e,
                b: zero,
            });
            let n = self.new_reg();
            self.emit(Inst::IBin {
                op: IOp::And,
                shift: 0,
                dst: n,
                a: acc,
                b: t,
            });
            acc = n;
        }
        self.if_else(x.op(), acc, x.then_region(&ir), x.else_region(&ir))
    }

    /// `scf.reduce`: each operand combined into its accumulator by its region.
    fn scf_reduce(&mut self, x: ScfReduceOp) -> R<()> {
        let (ir, op) = (self.ir(), x.op());
        let name = ScfReduceOp::def().name;
        let accs = self.yields.last().cloned().unwrap_or_default();
        for (i, &v) in x.operands(&ir).iter().enumerate() {
            let acc = *accs.get(i).ok_or_else(|| format!("{name} operand without a result"))?;
            // The regions are variadic, one per operand.
            let region = self.body.region(op, i);
            let block = self.entry(region)?;
            let args = self.body.block_args(block).to_vec();
            if args.len() != 2 {
                return Err(format!("{name} region needs two arguments"));
            }
            let r = self.reg(v);
            self.regs.insert(args[0], acc);
            self.regs.insert(args[1], r);
            self.decode_region(region, vec![acc])?;
        }
        Ok(())
    }

    fn execute_region(&mut self, x: ScfExecuteRegionOp) -> R<()> {
        let op = x.op();
        let n = self.body.num_results(op);
        let dsts: Vec<Reg> = (0..n).map(|i| self.res(op, i)).collect();
        self.decode_region(x.region(&self.ir()), dsts)
    }

    /// `affine.apply` (`combine` is `None`: the map's single result),
    /// `affine.min` or `affine.max` (the results combined by `combine`).
    fn affine_map_op(&mut self, op: OpId, map: &AffineMap, operands: &[Value], combine: Option<IOp>) -> R<()> {
        let ops = self.operand_regs(operands);
        let rs = self.map(map, &ops)?;
        let r = match combine {
            Some(iop) => self.reduce(rs, iop)?,
            None => *rs
                .first()
                .ok_or_else(|| format!("{} without result", AffineApplyOp::def().name))?,
        };
        self.alias_result(op, 0, r);
        Ok(())
    }

    /// `affine.load` (with its `map`) or `memref.load` `op`.
    fn load(&mut self, op: OpId, memref: Value, indices: &[Value], map: Option<&AffineMap>) -> R<()> {
        let (mem, idx) = self.mem_access(memref, indices, map)?;
        let dst = self.res(op, 0);
        self.emit(Inst::Load { dst, mem, idx });
        Ok(())
    }

    /// `affine.store` (with its `map`) or `memref.store`.
    fn store(&mut self, value: Value, memref: Value, indices: &[Value], map: Option<&AffineMap>) -> R<()> {
        let val = self.reg(value);
        let (mem, idx) = self.mem_access(memref, indices, map)?;
        self.emit(Inst::Store { val, mem, idx });
        if self.instr.stores {
            self.emit(Inst::TraceStore { val, mem, idx });
        }
        Ok(())
    }

    /// `vector.load`: the whole vector in one checked, aligned access.
    fn vector_load(&mut self, x: VectorLoadOp) -> R<()> {
        let ir = self.ir();
        let width = lanes(self.ctx, self.result_type(x.op(), 0)) as u8;
        let (mem, idx) = self.mem_access(x.base(&ir), &x.indices(&ir), None)?;
        let dst = self.res(x.op(), 0);
        self.emit(Inst::VLoad { dst, mem, idx, width });
        Ok(())
    }

    /// `vector.store`.
    fn vector_store(&mut self, x: VectorStoreOp) -> R<()> {
        let ir = self.ir();
        let value = x.value_to_store(&ir);
        let width = lanes(self.ctx, self.body.value_type(value)) as u8;
        let val = self.reg(value);
        let (mem, idx) = self.mem_access(x.base(&ir), &x.indices(&ir), None)?;
        self.emit(Inst::VStore { val, mem, idx, width });
        if self.instr.stores {
            self.emit(Inst::TraceVStore { val, mem, idx, width });
        }
        Ok(())
    }

    /// The lane a `vector.extract`/`vector.insert` names.
    fn position(pos: &[i64]) -> R<u32> {
        match pos {
            [p] if *p >= 0 => Ok(*p as u32),
            _ => Err("vector positions other than one static index are not supported by lf-run".into()),
        }
    }

    fn vector_extract(&mut self, x: VectorExtractOp) -> R<()> {
        let ir = self.ir();
        let p = Self::position(&x.static_position(&ir))?;
        let src = self.reg(x.source(&ir));
        let dst = self.res(x.op(), 0);
        self.emit(Inst::Mov { dst, src: src + p });
        Ok(())
    }

    fn vector_insert(&mut self, x: VectorInsertOp) -> R<()> {
        let ir = self.ir();
        let p = Self::position(&x.static_position(&ir))?;
        let n = lanes(self.ctx, self.result_type(x.op(), 0));
        let v = self.reg(x.value_to_store(&ir));
        let d = self.reg(x.dest(&ir));
        let dst = self.res(x.op(), 0);
        self.lanewise(n, |k| Inst::Mov {
            dst: dst + k,
            src: if k == p { v } else { d + k },
        });
        Ok(())
    }

    fn vector_broadcast(&mut self, x: VectorBroadcastOp) -> R<()> {
        let n = lanes(self.ctx, self.result_type(x.op(), 0));
        let src = self.reg(x.source(&self.ir()));
        let dst = self.res(x.op(), 0);
        self.lanewise(n, |k| Inst::Mov { dst: dst + k, src });
        Ok(())
    }

    fn vector_from_elements(&mut self, x: VectorFromElementsOp) -> R<()> {
        let srcs = self.operand_regs(&x.elements(&self.ir()));
        let dst = self.res(x.op(), 0);
        for (k, src) in srcs.into_iter().enumerate() {
            self.emit(Inst::Mov {
                dst: dst + k as u32,
                src,
            });
        }
        Ok(())
    }

    fn get_global(&mut self, x: MemrefGetGlobalOp) -> R<()> {
        let g = x.name(&self.ir());
        let &global = self
            .globals
            .get(g)
            .ok_or_else(|| format!("unknown or unsupported {} '@{g}'", MemrefGlobalOp::def().name))?;
        let dst = self.res(x.op(), 0);
        self.emit(Inst::GetGlobal { dst, global });
        Ok(())
    }

    /// A GPU id op `op` reading `id` in `dim`.
    fn gpu_id(&mut self, op: OpId, id: GpuId, dim: Dimension) {
        let dst = self.res(op, 0);
        self.emit(Inst::GpuId {
            id,
            dim: dim.index() as u8,
            dst,
        });
    }

    fn launch_func(&mut self, x: GpuLaunchFuncOp) -> R<()> {
        let ir = self.ir();
        let k = symbol_path(self.ctx, x.kernel(&ir))
            .ok_or_else(|| format!("{} without kernel", GpuLaunchFuncOp::def().name))?;
        let &f = self
            .names
            .get(&k)
            .ok_or_else(|| format!("unknown kernel '@{}'", k.replace("::", "::@")))?;
        let dims = self.launch_dims(x.grid_size(&ir), x.block_size(&ir));
        let a = self.operand_regs(&x.kernel_operands(&ir));
        let args = self.list(&a);
        self.prog.launches.push(LaunchInfo {
            dims,
            inline: None,
            kernel: Some((f, args)),
            workgroup: Vec::new(),
            private: Vec::new(),
        });
        let info = (self.prog.launches.len() - 1) as u32;
        self.emit(Inst::Launch { info });
        self.tokens(x.op());
        Ok(())
    }

    fn unrealized_cast(&mut self, x: BuiltinUnrealizedConversionCastOp) -> R<()> {
        let ir = self.ir();
        let (inputs, outputs) = (x.inputs(&ir), x.outputs(&ir));
        if inputs.len() == 1 && outputs.len() == 1 {
            let r = self.reg(inputs[0]);
            self.alias_result(x.op(), 0, r);
            Ok(())
        } else {
            Err("unrealized_conversion_cast with several values".into())
        }
    }

    /// The registers of a launch's grid and block sizes.
    fn launch_dims(&mut self, grid: [Value; 3], block: [Value; 3]) -> [Reg; 6] {
        let mut dims = [0; 6];
        for (d, &v) in dims.iter_mut().zip(grid.iter().chain(&block)) {
            *d = self.reg(v);
        }
        dims
    }

    fn launch(&mut self, x: GpuLaunchOp) -> R<()> {
        let (ir, op) = (self.ir(), x.op());
        let name = GpuLaunchOp::def().name;
        let dims = self.launch_dims(x.grid_size(&ir), x.block_size(&ir));
        let region = x.body(&ir);
        if self.body.region_blocks(region).count() != 1 {
            return Err(format!("{name} bodies with several blocks are not supported by lf-run"));
        }
        let block = self.entry(region)?;
        if self.body.block_args(block).len() < 12 || x.cluster_size_x(&ir).is_some() {
            return Err(format!("{name} with clusters is not supported by lf-run"));
        }
        let id_args = [
            x.block_ids(&ir),
            x.thread_ids(&ir),
            x.grid_size_args(&ir),
            x.block_size_args(&ir),
        ];
        let mut ids = [0; 12];
        for (r, &a) in ids.iter_mut().zip(id_args.iter().flatten()) {
            *r = self.reg(a);
        }
        let (mut workgroup, mut private) = (Vec::new(), Vec::new());
        for (attributions, out) in [
            (x.workgroup_attributions(&ir), &mut workgroup),
            (x.private_attributions(&ir), &mut private),
        ] {
            for a in attributions {
                let r = self.reg(a);
                out.push((r, mem_type(self.ctx, self.body.value_type(a))?));
            }
        }
        self.prog.launches.push(LaunchInfo {
            dims,
            inline: None,
            kernel: None,
            workgroup,
            private,
        });
        let info = (self.prog.launches.len() - 1) as u32;
        self.emit(Inst::Launch { info });
        let skip = self.emit(Inst::Jump { target: 0 });
        let start = self.pc();
        self.prog.launches[info as usize].inline = Some((start, ids));
        self.decode_region(region, Vec::new())?;
        self.loc = self.body.op_loc(op);
        self.emit(Inst::KernelEnd);
        let end = self.pc();
        self.patch(skip, end);
        self.tokens(op);
        Ok(())
    }

    fn while_loop(&mut self, x: ScfWhileOp) -> R<()> {
        let (ir, op) = (self.ir(), x.op());
        let (before_region, after_region) = (x.before(&ir), x.after(&ir));
        let before = self.entry(before_region)?;
        let after = self.entry(after_region)?;
        let bargs = self.body.block_args(before).to_vec();
        let aargs = self.body.block_args(after).to_vec();
        let bregs = self.operand_regs(&bargs);
        let aregs = self.operand_regs(&aargs);
        let inits = self.operand_regs(&x.inits(&ir));
        self.par_move(&bregs, &inits);
        let prof = self.loop_id(op, ScfWhileOp::def().name);
        self.loop_event(prof, |id| Inst::LoopEnter { id });
        let head = self.pc();
        let ops: Vec<OpId> = self.body.block_ops(before).collect();
        let (last, rest) = ops
            .split_last()
            .ok_or_else(|| format!("empty {} region", ScfWhileOp::def().name))?;
        for &o in rest {
            self.loc = self.body.op_loc(o);
            if let Err(e) = self.decode_op(o) {
                self.trap(e);
            }
        }
        self.loc = self.body.op_loc(*last);
        let condition = ScfConditionOp::cast(&ir, *last).ok_or_else(|| {
            format!(
                "{} region not ended by {}",
                ScfWhileOp::def().name,
                ScfConditionOp::def().name
            )
        })?;
        let cond = self.reg(condition.condition(&ir));
        let fwd = self.operand_regs(&condition.args(&ir));
        let jz = self.emit(Inst::JumpIfZero { cond, target: 0 });
        self.loop_event(prof, |id| Inst::LoopIter { id });
        self.par_move(&aregs, &fwd);
        self.decode_region(after_region, bregs)?;
        self.emit(Inst::Jump { target: head });
        let exit = self.pc();
        self.patch(jz, exit);
        self.loc = self.body.op_loc(op);
        self.loop_event(prof, |id| Inst::LoopExit { id });
        let n = self.body.num_results(op);
        let res: Vec<Reg> = (0..n).map(|i| self.res(op, i)).collect();
        self.par_move(&res, &fwd);
        Ok(())
    }
}

/// The `arith` casts, for [`FnDecoder::conv`].
#[derive(Copy, Clone)]
enum CastKind {
    ExtSI,
    ExtUI,
    TruncI,
    IndexCast,
    IndexCastUI,
    SIToFP,
    UIToFP,
    FPToSI,
    FPToUI,
    ExtF,
    TruncF,
    Bitcast,
}

/// The operands of `memref.subview` and `memref.reinterpret_cast`.
struct ViewOperands {
    source: Value,
    offsets: ValueList,
    sizes: ValueList,
    strides: ValueList,
    static_offsets: Vec<i64>,
    static_sizes: Vec<i64>,
    static_strides: Vec<i64>,
}

impl ViewOperands {
    /// The operands of a `memref.subview`.
    fn subview(ir: &(&Context, &Body), x: MemrefSubviewOp) -> ViewOperands {
        ViewOperands {
            source: x.source(ir),
            offsets: x.offsets(ir),
            sizes: x.sizes(ir),
            strides: x.strides(ir),
            static_offsets: x.static_offsets(ir),
            static_sizes: x.static_sizes(ir),
            static_strides: x.static_strides(ir),
        }
    }

    /// The operands of a `memref.reinterpret_cast`.
    fn reinterpret_cast(ir: &(&Context, &Body), x: MemrefReinterpretCastOp) -> ViewOperands {
        ViewOperands {
            source: x.source(ir),
            offsets: x.offsets(ir),
            sizes: x.sizes(ir),
            strides: x.strides(ir),
            static_offsets: x.static_offsets(ir),
            static_sizes: x.static_sizes(ir),
            static_strides: x.static_strides(ir),
        }
    }
}

/// A symbol reference as the decoder names functions: `@m::@k` is `m::k`.
fn symbol_path(ctx: &Context, a: Attribute) -> Option<String> {
    match ctx.attr_data(a) {
        AttrData::SymbolRef { root, nested } => {
            let mut s = ctx.ident_str(*root).to_string();
            for n in nested.iter() {
                s.push_str("::");
                s.push_str(ctx.ident_str(*n));
            }
            Some(s)
        }
        _ => None,
    }
}

/// Decodes one op of the kind its entry in [`handlers`] names.
type Handler = fn(&mut FnDecoder<'_>, OpId) -> R<()>;

/// The key of an op declaration in [`handlers`] (declarations are statics:
/// one address each, as [`lf_ir::view::is_op`] compares them).
fn def_key(def: &'static OpDef) -> usize {
    def as *const OpDef as usize
}

/// `View => |d, x| body` entries: `body` decodes the op `x` (a `View`) with the decoder `d`.
macro_rules! handlers {
    ($($view:ident => |$d:ident, $x:ident| $body:expr,)*) => {
        vec![$((
            $view::def(),
            (|$d: &mut FnDecoder<'_>, op: OpId| -> R<()> {
                #[allow(unused_variables)]
                let $x = $view::from_op_unchecked(op);
                $body
            }) as Handler,
        ),)*]
    };
}

/// The decoder of every op lf-run runs, by declaration: one hash lookup
/// per op, whatever its kind.
fn handlers() -> &'static FxHashMap<usize, Handler> {
    static TABLE: OnceLock<FxHashMap<usize, Handler>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let entries: Vec<(&'static OpDef, Handler)> = handlers! {
            // arith: integer and float arithmetic
            ArithAddiOp => |d, x| d.bin_int(x.op(), IOp::Add),
            ArithSubiOp => |d, x| d.bin_int(x.op(), IOp::Sub),
            ArithMuliOp => |d, x| d.bin_int(x.op(), IOp::Mul),
            ArithAndiOp => |d, x| d.bin_int(x.op(), IOp::And),
            ArithOriOp => |d, x| d.bin_int(x.op(), IOp::Or),
            ArithXoriOp => |d, x| d.bin_int(x.op(), IOp::Xor),
            ArithShliOp => |d, x| d.bin_int(x.op(), IOp::Shl),
            ArithShrsiOp => |d, x| d.bin_int(x.op(), IOp::ShrS),
            ArithShruiOp => |d, x| d.bin_int(x.op(), IOp::ShrU),
            ArithDivsiOp => |d, x| d.bin_int(x.op(), IOp::DivS),
            ArithDivuiOp => |d, x| d.bin_int(x.op(), IOp::DivU),
            ArithRemsiOp => |d, x| d.bin_int(x.op(), IOp::RemS),
            ArithRemuiOp => |d, x| d.bin_int(x.op(), IOp::RemU),
            ArithFloordivsiOp => |d, x| d.bin_int(x.op(), IOp::FloorDivS),
            ArithCeildivsiOp => |d, x| d.bin_int(x.op(), IOp::CeilDivS),
            ArithCeildivuiOp => |d, x| d.bin_int(x.op(), IOp::CeilDivU),
            ArithMaxsiOp => |d, x| d.bin_int(x.op(), IOp::MaxS),
            ArithMaxuiOp => |d, x| d.bin_int(x.op(), IOp::MaxU),
            ArithMinsiOp => |d, x| d.bin_int(x.op(), IOp::MinS),
            ArithMinuiOp => |d, x| d.bin_int(x.op(), IOp::MinU),
            ArithAddfOp => |d, x| d.bin_float(x.op(), FOp::Add),
            ArithSubfOp => |d, x| d.bin_float(x.op(), FOp::Sub),
            ArithMulfOp => |d, x| d.bin_float(x.op(), FOp::Mul),
            ArithDivfOp => |d, x| d.bin_float(x.op(), FOp::Div),
            ArithRemfOp => |d, x| d.bin_float(x.op(), FOp::Rem),
            ArithMaximumfOp => |d, x| d.bin_float(x.op(), FOp::Maximum),
            ArithMinimumfOp => |d, x| d.bin_float(x.op(), FOp::Minimum),
            ArithMaxnumfOp => |d, x| d.bin_float(x.op(), FOp::MaxNum),
            ArithMinnumfOp => |d, x| d.bin_float(x.op(), FOp::MinNum),
            ArithNegfOp => |d, x| d.un_float(x.op(), FUn::Neg),
            // arith: constants, comparisons, select
            ArithConstantOp => |d, x| d.constant(x),
            ArithCmpiOp => |d, x| d.cmpi(x),
            ArithCmpfOp => |d, x| d.cmpf(x),
            ArithSelectOp => |d, x| d.select(x),
            // arith: casts
            ArithExtsiOp => |d, x| d.conv(x, CastKind::ExtSI),
            ArithExtuiOp => |d, x| d.conv(x, CastKind::ExtUI),
            ArithTrunciOp => |d, x| d.conv(x, CastKind::TruncI),
            ArithIndexCastOp => |d, x| d.conv(x, CastKind::IndexCast),
            ArithIndexCastuiOp => |d, x| d.conv(x, CastKind::IndexCastUI),
            ArithSitofpOp => |d, x| d.conv(x, CastKind::SIToFP),
            ArithUitofpOp => |d, x| d.conv(x, CastKind::UIToFP),
            ArithFptosiOp => |d, x| d.conv(x, CastKind::FPToSI),
            ArithFptouiOp => |d, x| d.conv(x, CastKind::FPToUI),
            ArithExtfOp => |d, x| d.conv(x, CastKind::ExtF),
            ArithTruncfOp => |d, x| d.conv(x, CastKind::TruncF),
            ArithBitcastOp => |d, x| d.conv(x, CastKind::Bitcast),
            // math
            MathAbsfOp => |d, x| d.un_float(x.op(), FUn::Abs),
            MathCeilOp => |d, x| d.un_float(x.op(), FUn::Ceil),
            MathFloorOp => |d, x| d.un_float(x.op(), FUn::Floor),
            MathSqrtOp => |d, x| d.un_float(x.op(), FUn::Sqrt),
            MathRsqrtOp => |d, x| d.un_float(x.op(), FUn::Rsqrt),
            MathExpOp => |d, x| d.un_float(x.op(), FUn::Exp),
            MathExp2Op => |d, x| d.un_float(x.op(), FUn::Exp2),
            MathLogOp => |d, x| d.un_float(x.op(), FUn::Log),
            MathLog2Op => |d, x| d.un_float(x.op(), FUn::Log2),
            MathSinOp => |d, x| d.un_float(x.op(), FUn::Sin),
            MathCosOp => |d, x| d.un_float(x.op(), FUn::Cos),
            MathTanhOp => |d, x| d.un_float(x.op(), FUn::Tanh),
            MathPowfOp => |d, x| d.bin_float(x.op(), FOp::Pow),
            MathAbsiOp => |d, x| d.abs_i(x),
            MathFmaOp => |d, x| d.fma(x),
            // func
            FuncReturnOp => |d, x| {
                d.ret(&x.operands(&d.ir()));
                Ok(())
            },
            FuncCallOp => |d, x| d.call(x),
            // scf
            ScfForOp => |d, x| d.scf_for(x),
            ScfIfOp => |d, x| d.scf_if(x),
            ScfWhileOp => |d, x| d.while_loop(x),
            ScfParallelOp => |d, x| d.scf_parallel(x),
            ScfReduceOp => |d, x| d.scf_reduce(x),
            ScfExecuteRegionOp => |d, x| d.execute_region(x),
            ScfYieldOp => |d, x| {
                d.yield_values(&x.results(&d.ir()));
                Ok(())
            },
            ScfReduceReturnOp => |d, x| {
                d.yield_values(&[x.result(&d.ir())]);
                Ok(())
            },
            // affine
            AffineForOp => |d, x| d.affine_for(x),
            AffineIfOp => |d, x| d.affine_if(x),
            AffineParallelOp => |d, x| d.affine_parallel(x),
            AffineYieldOp => |d, x| {
                d.yield_values(&x.operands(&d.ir()));
                Ok(())
            },
            AffineApplyOp => |d, x| {
                let ir = d.ir();
                d.affine_map_op(x.op(), x.map(&ir), &x.map_operands(&ir), None)
            },
            AffineMinOp => |d, x| {
                let ir = d.ir();
                d.affine_map_op(x.op(), x.map(&ir), &x.map_operands(&ir), Some(IOp::MinS))
            },
            AffineMaxOp => |d, x| {
                let ir = d.ir();
                d.affine_map_op(x.op(), x.map(&ir), &x.map_operands(&ir), Some(IOp::MaxS))
            },
            AffineLoadOp => |d, x| {
                let ir = d.ir();
                d.load(x.op(), x.memref(&ir), &x.indices(&ir), Some(x.map(&ir)))
            },
            AffineStoreOp => |d, x| {
                let ir = d.ir();
                d.store(x.value(&ir), x.memref(&ir), &x.indices(&ir), Some(x.map(&ir)))
            },
            // memref
            MemrefLoadOp => |d, x| {
                let ir = d.ir();
                d.load(x.op(), x.memref(&ir), &x.indices(&ir), None)
            },
            VectorLoadOp => |d, x| d.vector_load(x),
            VectorStoreOp => |d, x| d.vector_store(x),
            VectorExtractOp => |d, x| d.vector_extract(x),
            VectorInsertOp => |d, x| d.vector_insert(x),
            VectorBroadcastOp => |d, x| d.vector_broadcast(x),
            VectorFromElementsOp => |d, x| d.vector_from_elements(x),
            MemrefStoreOp => |d, x| {
                let ir = d.ir();
                d.store(x.value(&ir), x.memref(&ir), &x.indices(&ir), None)
            },
            MemrefAllocOp => |d, x| d.alloc(x.op(), false, false, &x.dynamic_sizes(&d.ir())),
            MemrefAllocaOp => |d, x| d.alloc(x.op(), true, false, &x.dynamic_sizes(&d.ir())),
            MemrefDeallocOp => |d, x| {
                d.dealloc(x.op(), x.memref(&d.ir()));
                Ok(())
            },
            MemrefCastOp => |d, x| {
                let r = d.reg(x.source(&d.ir()));
                d.alias_result(x.op(), 0, r);
                Ok(())
            },
            MemrefDimOp => |d, x| {
                let ir = d.ir();
                let (mem, index) = (d.reg(x.source(&ir)), d.reg(x.index(&ir)));
                let dst = d.res(x.op(), 0);
                d.emit(Inst::Dim { dst, mem, index });
                Ok(())
            },
            MemrefCopyOp => |d, x| {
                let ir = d.ir();
                let (src, dst) = (d.reg(x.source(&ir)), d.reg(x.target(&ir)));
                d.emit(Inst::Copy { src, dst, gpu: false });
                Ok(())
            },
            MemrefSubviewOp => |d, x| d.view(x.op(), ViewOperands::subview(&d.ir(), x), false),
            MemrefReinterpretCastOp => |d, x| d.view(x.op(), ViewOperands::reinterpret_cast(&d.ir(), x), true),
            MemrefGetGlobalOp => |d, x| d.get_global(x),
            // gpu
            GpuReturnOp => |d, x| {
                d.ret(&x.operands(&d.ir()));
                Ok(())
            },
            GpuYieldOp => |d, x| {
                d.yield_values(&x.values(&d.ir()));
                Ok(())
            },
            GpuTerminatorOp => |d, x| {
                d.emit(Inst::KernelEnd);
                Ok(())
            },
            GpuAllocOp => |d, x| {
                d.alloc(x.op(), false, true, &x.dynamic_sizes(&d.ir()))?;
                d.tokens(x.op());
                Ok(())
            },
            GpuDeallocOp => |d, x| {
                d.dealloc(x.op(), x.memref(&d.ir()));
                Ok(())
            },
            GpuMemcpyOp => |d, x| {
                let ir = d.ir();
                let (dst, src) = (d.reg(x.dst(&ir)), d.reg(x.src(&ir)));
                d.emit(Inst::Copy { src, dst, gpu: true });
                d.tokens(x.op());
                Ok(())
            },
            GpuMemsetOp => |d, x| {
                let ir = d.ir();
                let (dst, val) = (d.reg(x.dst(&ir)), d.reg(x.value(&ir)));
                d.emit(Inst::Memset { dst, val });
                d.tokens(x.op());
                Ok(())
            },
            GpuWaitOp => |d, x| {
                d.tokens(x.op());
                Ok(())
            },
            GpuThreadIdOp => |d, x| {
                d.gpu_id(x.op(), GpuId::Thread, x.dimension(&d.ir()));
                Ok(())
            },
            GpuBlockIdOp => |d, x| {
                d.gpu_id(x.op(), GpuId::Block, x.dimension(&d.ir()));
                Ok(())
            },
            GpuBlockDimOp => |d, x| {
                d.gpu_id(x.op(), GpuId::BlockDim, x.dimension(&d.ir()));
                Ok(())
            },
            GpuGridDimOp => |d, x| {
                d.gpu_id(x.op(), GpuId::GridDim, x.dimension(&d.ir()));
                Ok(())
            },
            GpuGlobalIdOp => |d, x| {
                d.gpu_id(x.op(), GpuId::Global, x.dimension(&d.ir()));
                Ok(())
            },
            GpuLaneIdOp => |d, x| {
                d.gpu_id(x.op(), GpuId::Lane, Dimension::X);
                Ok(())
            },
            GpuBarrierOp => |d, x| {
                d.emit(Inst::Barrier);
                Ok(())
            },
            GpuLaunchOp => |d, x| d.launch(x),
            GpuLaunchFuncOp => |d, x| d.launch_func(x),
            // builtin
            BuiltinUnrealizedConversionCastOp => |d, x| d.unrealized_cast(x),
        };
        entries.into_iter().map(|(def, h)| (def_key(def), h)).collect()
    })
}
