//! Decoding: IR in a [`Body`] -> [`Program`], once, before execution.
//!
//! Each function becomes a flat instruction vector over register slots.
//! SSA values get one register each (some share one: `memref.cast`, an
//! identity `affine.apply`, a loop's results and its iteration arguments);
//! constants live in the frame's initial registers and cost nothing at run
//! time. An op the interpreter cannot run becomes a `Trap` that fails only if
//! it is reached.

use crate::program::*;
use lf_affine::{AffineExpr, AffineMap, BinaryOp, ExprView};
use lf_dialects::arith::{CmpFPredicate, CmpIPredicate};
use lf_ir::ods::{operand_group, prop};
use lf_ir::{AttrData, Attribute, BlockId, Body, Context, DenseValues, Location, OpId, Type, TypeData, Value};
use rustc_hash::FxHashMap;

/// Decodes the module `op` of `body`.
pub fn decode_module(ctx: &Context, body: &Body, op: OpId) -> Program {
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
        };
        let is_gpu_func = ctx.op_name_str(b.op_name(*f)) == "gpu.func";
        let mut func = std::mem::take(&mut d.prog.funcs[i]);
        d.decode_func(*f, b, is_gpu_func, &mut func);
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
    for &r in body.regions(op) {
        for b in rb.region_blocks(r) {
            for inner in rb.block_ops(b) {
                let name = ctx.op_name_str(rb.op_name(inner));
                let sym = lf_ir::symbols::symbol_name(ctx, rb, inner).map(|s| ctx.ident_str(s).to_string());
                match name {
                    "func.func" | "gpu.func" => {
                        if let Some(s) = sym {
                            items.push((rb, inner, format!("{prefix}{s}")));
                        }
                    }
                    "gpu.module" | "builtin.module" => {
                        let p = match &sym {
                            Some(s) => format!("{prefix}{s}::"),
                            None => prefix.to_string(),
                        };
                        collect(ctx, rb, inner, &p, items, prog);
                    }
                    "memref.global" => {
                        if let Some(g) = decode_global(ctx, rb, inner, sym) {
                            prog.globals.push(g);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

fn decode_global(ctx: &Context, body: &Body, op: OpId, sym: Option<String>) -> Option<Global> {
    let ty = match prop(ctx, body, op, "type").map(|a| ctx.attr_data(a)) {
        Some(AttrData::Type(t)) => mem_type(ctx, *t).ok()?,
        _ => return None,
    };
    let init = prop(ctx, body, op, "initial_value").and_then(|a| match ctx.attr_data(a) {
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
        TypeData::Dialect { dialect, body } if ctx.ident_str(*dialect) == "gpu" && body.contains("async") => {
            Ok(Scalar::Index)
        }
        TypeData::MemRef { element, .. } | TypeData::UnrankedMemRef { element, .. } => scalar(ctx, *element),
        _ => Err(format!(
            "values of type {} are not supported by lf-run",
            type_str(ctx, t)
        )),
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
    match space.map(|a| ctx.attr_data(a)) {
        Some(AttrData::Dialect { body, .. }) if body.contains("workgroup") => Space::Workgroup,
        Some(AttrData::Dialect { body, .. }) if body.contains("private") => Space::Private,
        Some(AttrData::Integer { value: 3, .. }) => Space::Workgroup,
        Some(AttrData::Integer { value: 5, .. }) => Space::Private,
        _ => Space::Global,
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
        _ => return Err("this affine.parallel reduction is not supported by lf-run".into()),
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
}

type R<T> = Result<T, String>;

impl<'a> FnDecoder<'a> {
    fn decode_func(&mut self, op: OpId, outer: &Body, is_gpu_func: bool, func: &mut Func) {
        let fb = self.body;
        let region = outer.regions(op)[0];
        let blocks: Vec<BlockId> = fb.region_blocks(region).collect();
        let ftype = prop(self.ctx, outer, op, "function_type").and_then(|a| match self.ctx.attr_data(a) {
            AttrData::Type(t) => Some(*t),
            _ => None,
        });
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
            if is_gpu_func {
                let nw = lf_ir::ods::discardable_attr(self.ctx, outer, op, "workgroup_attributions")
                    .or_else(|| prop(self.ctx, outer, op, "workgroup_attributions"))
                    .and_then(|a| lf_ir::ods::constraints::int_value(self.ctx, a))
                    .unwrap_or(0) as usize;
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

    fn reg(&mut self, v: Value) -> Reg {
        if let Some(&r) = self.regs.get(&v) {
            return r;
        }
        let r = self.new_reg();
        self.regs.insert(v, r);
        r
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

    fn pc(&self) -> u32 {
        self.code.len() as u32
    }

    fn patch(&mut self, at: u32, target: u32) {
        match &mut self.code[at as usize] {
            Inst::Jump { target: t }
            | Inst::JumpIfZero { target: t, .. }
            | Inst::JumpIfLt { target: t, .. }
            | Inst::LoopNext { target: t, .. } => *t = target,
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

    fn operand_regs(&mut self, vals: &[Value]) -> Vec<Reg> {
        vals.iter().map(|&v| self.reg(v)).collect()
    }

    fn operands(&self, op: OpId) -> Vec<Value> {
        self.body.operands(op).collect()
    }

    fn group(&mut self, op: OpId, name: &str) -> Vec<Reg> {
        let vals = operand_group(self.ctx, self.body, op, name);
        self.operand_regs(&vals)
    }

    fn prop(&self, op: OpId, name: &str) -> Option<&'a AttrData> {
        let ctx: &'a Context = self.ctx;
        prop(ctx, self.body, op, name).map(|a| ctx.attr_data(a))
    }

    fn int_prop(&self, op: OpId, name: &str) -> Option<i64> {
        match self.prop(op, name)? {
            AttrData::Integer { value, .. } => Some(*value as i64),
            _ => None,
        }
    }

    fn map_prop(&self, op: OpId, name: &str) -> R<AffineMap> {
        match self.prop(op, name) {
            Some(AttrData::AffineMap(m)) => Ok(m.clone()),
            _ => Err(format!("missing affine map '{name}'")),
        }
    }

    fn i64_array(&self, op: OpId, name: &str) -> Vec<i64> {
        match self.prop(op, name) {
            Some(AttrData::DenseArray {
                values: DenseValues::Int(v),
                ..
            }) => v.iter().map(|&x| x as i64).collect(),
            _ => Vec::new(),
        }
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
    fn decode_region(&mut self, op: OpId, index: usize, dsts: Vec<Reg>) -> R<()> {
        let r = self.body.region(op, index);
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

    fn region_block(&self, op: OpId, index: usize) -> R<BlockId> {
        let r = self.body.region(op, index);
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

    /// A counted loop: `iv` from `lb` while `< ub` by `step`, carrying `iters`.
    fn counted_loop(&mut self, op: OpId, lb: Reg, ub: Reg, step: Reg, inits: &[Reg]) -> R<()> {
        let block = self.region_block(op, 0)?;
        let args = self.body.block_args(block).to_vec();
        if args.is_empty() {
            return Err("loop without induction variable".into());
        }
        let iv = self.reg(args[0]);
        let iters = self.operand_regs(&args[1..]);
        for (i, &r) in iters.iter().enumerate() {
            if i < self.body.num_results(op) {
                self.alias_result(op, i, r);
            }
        }
        self.emit(Inst::StepCheck { step });
        self.emit(Inst::Mov { dst: iv, src: lb });
        self.par_move(&iters, inits);
        let enter = self.emit(Inst::JumpIfLt {
            a: iv,
            b: ub,
            target: 0,
        });
        let skip = self.emit(Inst::Jump { target: 0 });
        let body = self.pc();
        self.patch(enter, body);
        self.decode_region(op, 0, iters)?;
        self.emit(Inst::LoopNext {
            iv,
            step,
            ub,
            target: body,
        });
        let end = self.pc();
        self.patch(skip, end);
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
        body: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
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
        Ok(())
    }

    /// `scf.parallel`: its iterations run in order, as a loop nest; `scf.reduce`
    /// combines each iteration's values into the results.
    fn scf_parallel(&mut self, op: OpId) -> R<()> {
        let lbs = self.group(op, "lowerBound");
        let ubs = self.group(op, "upperBound");
        let steps = self.group(op, "step");
        let inits = self.group(op, "initVals");
        let block = self.region_block(op, 0)?;
        let args = self.body.block_args(block).to_vec();
        let ivs = self.operand_regs(&args);
        if ivs.len() != lbs.len() || ubs.len() != lbs.len() || steps.len() != lbs.len() {
            return Err("scf.parallel bounds do not match its induction variables".into());
        }
        let accs: Vec<Reg> = (0..self.body.num_results(op)).map(|i| self.res(op, i)).collect();
        self.par_move(&accs, &inits);
        self.nest(&ivs, &lbs, &ubs, &steps, |d| d.decode_region(op, 0, accs.clone()))
    }

    /// `affine.parallel`: a loop nest; each result starts at its reduction's
    /// identity and combines the value `affine.yield` gives in every iteration.
    fn affine_parallel(&mut self, op: OpId) -> R<()> {
        let lbm = self.map_prop(op, "lowerBoundsMap")?;
        let ubm = self.map_prop(op, "upperBoundsMap")?;
        let groups = |d: &Self, name: &str| -> Vec<usize> {
            match d.prop(op, name) {
                Some(AttrData::DenseElements {
                    values: DenseValues::Int(v),
                    ty,
                }) => {
                    let n = d.ctx.type_data(*ty).shape().map_or(1, |s| s.iter().product::<i64>()) as usize;
                    if v.len() == 1 {
                        vec![v[0] as usize; n]
                    } else {
                        v.iter().map(|&x| x as usize).collect()
                    }
                }
                _ => Vec::new(),
            }
        };
        let (lg, ug) = (groups(self, "lowerBoundsGroups"), groups(self, "upperBoundsGroups"));
        let steps: Vec<i64> = match self.prop(op, "steps") {
            Some(AttrData::Array(items)) => items
                .iter()
                .map(|a| match self.ctx.attr_data(*a) {
                    AttrData::Integer { value, .. } => *value as i64,
                    _ => 1,
                })
                .collect(),
            _ => Vec::new(),
        };
        let kinds: Vec<i64> = match self.prop(op, "reductions") {
            Some(AttrData::Array(items)) => items
                .iter()
                .map(|a| match self.ctx.attr_data(*a) {
                    AttrData::Integer { value, .. } => *value as i64,
                    _ => -1,
                })
                .collect(),
            _ => Vec::new(),
        };
        let ops = self.group(op, "mapOperands");
        let nl = lbm.num_inputs() as usize;
        if ops.len() < nl {
            return Err("affine.parallel operand count mismatch".into());
        }
        let lres = self.map(&lbm, &ops[..nl])?;
        let ures = self.map(&ubm, &ops[nl..])?;
        let block = self.region_block(op, 0)?;
        let args = self.body.block_args(block).to_vec();
        let ivs = self.operand_regs(&args);
        if lg.len() != ivs.len() || ug.len() != ivs.len() || steps.len() != ivs.len() {
            return Err("affine.parallel bounds do not match its induction variables".into());
        }
        let bound = |d: &mut Self, res: &[Reg], groups: &[usize], op: IOp| -> R<Vec<Reg>> {
            let mut out = Vec::new();
            let mut k = 0;
            for &g in groups {
                let part = res
                    .get(k..k + g)
                    .ok_or("affine.parallel bound groups do not match the maps")?;
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
            let kind = *kinds.get(i).ok_or("affine.parallel result without reduction")?;
            let (init, inst): (u64, Combine) = reduction(kind, s)?;
            let acc = self.res(op, i);
            let k = self.konst(init);
            self.emit(Inst::Mov { dst: acc, src: k });
            accs.push(acc);
            combine.push((inst, s.shift()));
        }
        let tmps: Vec<Reg> = (0..n).map(|_| self.new_reg()).collect();
        self.nest(&ivs, &lbs, &ubs, &step_regs, |d| {
            d.decode_region(op, 0, tmps.clone())?;
            for (i, (inst, shift)) in combine.iter().enumerate() {
                d.emit(inst(accs[i], accs[i], tmps[i], *shift));
            }
            Ok(())
        })
    }

    fn if_else(&mut self, op: OpId, cond: Reg) -> R<()> {
        let n = self.body.num_results(op);
        let dsts: Vec<Reg> = (0..n).map(|i| self.res(op, i)).collect();
        let jz = self.emit(Inst::JumpIfZero { cond, target: 0 });
        self.decode_region(op, 0, dsts.clone())?;
        let has_else = self.body.num_regions(op) > 1 && !self.body.region_is_empty(self.body.region(op, 1));
        if has_else {
            let j = self.emit(Inst::Jump { target: 0 });
            let e = self.pc();
            self.patch(jz, e);
            self.decode_region(op, 1, dsts)?;
            let end = self.pc();
            self.patch(j, end);
        } else {
            let end = self.pc();
            self.patch(jz, end);
        }
        Ok(())
    }

    fn mem_access(&mut self, op: OpId, mem: Value, map_ops: &[Value]) -> R<(Reg, List)> {
        let m = self.reg(mem);
        let ops = self.operand_regs(map_ops);
        let idx = match self.prop(op, "map") {
            Some(AttrData::AffineMap(map)) => {
                let map = map.clone();
                self.map(&map, &ops)?
            }
            _ => ops,
        };
        let l = self.list(&idx);
        Ok((m, l))
    }

    // ------------------------------------------------------------ ops

    fn decode_op(&mut self, op: OpId) -> R<()> {
        let name = self.ctx.op_name_str(self.body.op_name(op));
        let (dialect, short) = name.split_once('.').unwrap_or(("", name));
        match dialect {
            "arith" => self.arith(op, short),
            "math" => self.math(op, short),
            _ => self.other(op, name),
        }
    }

    fn bin_int(&mut self, op: OpId, iop: IOp) -> R<()> {
        let o = self.operands(op);
        let s = scalar(self.ctx, self.result_type(op, 0))?;
        let (a, b) = (self.reg(o[0]), self.reg(o[1]));
        let dst = self.res(op, 0);
        self.emit(Inst::IBin {
            op: iop,
            shift: s.shift(),
            dst,
            a,
            b,
        });
        Ok(())
    }

    fn bin_float(&mut self, op: OpId, fop: FOp) -> R<()> {
        let o = self.operands(op);
        let s = scalar(self.ctx, self.result_type(op, 0))?;
        let (a, b) = (self.reg(o[0]), self.reg(o[1]));
        let dst = self.res(op, 0);
        self.emit(match s {
            Scalar::F32 => Inst::F32Bin { op: fop, dst, a, b },
            Scalar::F64 => Inst::F64Bin { op: fop, dst, a, b },
            _ => return Err("float op on a non-float type".into()),
        });
        Ok(())
    }

    fn un_float(&mut self, op: OpId, fun: FUn) -> R<()> {
        let o = self.operands(op);
        let s = scalar(self.ctx, self.result_type(op, 0))?;
        let a = self.reg(o[0]);
        let dst = self.res(op, 0);
        self.emit(match s {
            Scalar::F32 => Inst::F32Un { op: fun, dst, a },
            Scalar::F64 => Inst::F64Un { op: fun, dst, a },
            _ => return Err("float op on a non-float type".into()),
        });
        Ok(())
    }

    fn conv(&mut self, op: OpId, short: &str) -> R<()> {
        let o = self.operands(op);
        let src = scalar(self.ctx, self.body.value_type(o[0]))?;
        let dsts = scalar(self.ctx, self.result_type(op, 0))?;
        let conv = match (short, src, dsts) {
            ("extsi" | "trunci" | "index_cast", _, _) => Conv::IntS,
            ("extui" | "index_castui", _, _) => Conv::IntU,
            ("sitofp", _, Scalar::F32) => Conv::SiToF32,
            ("sitofp", _, Scalar::F64) => Conv::SiToF64,
            ("uitofp", _, Scalar::F32) => Conv::UiToF32,
            ("uitofp", _, Scalar::F64) => Conv::UiToF64,
            ("fptosi", Scalar::F32, _) => Conv::F32ToSi,
            ("fptosi", Scalar::F64, _) => Conv::F64ToSi,
            ("fptoui", Scalar::F32, _) => Conv::F32ToUi,
            ("fptoui", Scalar::F64, _) => Conv::F64ToUi,
            ("extf", Scalar::F32, Scalar::F64) => Conv::F32ToF64,
            ("truncf", Scalar::F64, Scalar::F32) => Conv::F64ToF32,
            ("extf" | "truncf", a, b) if a == b => Conv::Same,
            ("bitcast", Scalar::F32, Scalar::Int(32)) => Conv::BitsF32ToI,
            ("bitcast", Scalar::Int(32), Scalar::F32) => Conv::BitsIToF32,
            ("bitcast", a, b) if a.width() == 64 && b.width() == 64 => Conv::Same,
            ("bitcast", a, b) if a == b => Conv::Same,
            _ => return Err(format!("arith.{short} between these types is not supported by lf-run")),
        };
        let a = self.reg(o[0]);
        let dst = self.res(op, 0);
        self.emit(Inst::Conv {
            conv,
            src_shift: src.shift(),
            dst_shift: dsts.shift(),
            dst,
            a,
        });
        Ok(())
    }

    fn arith(&mut self, op: OpId, short: &str) -> R<()> {
        let iop = match short {
            "addi" => Some(IOp::Add),
            "subi" => Some(IOp::Sub),
            "muli" => Some(IOp::Mul),
            "andi" => Some(IOp::And),
            "ori" => Some(IOp::Or),
            "xori" => Some(IOp::Xor),
            "shli" => Some(IOp::Shl),
            "shrsi" => Some(IOp::ShrS),
            "shrui" => Some(IOp::ShrU),
            "divsi" => Some(IOp::DivS),
            "divui" => Some(IOp::DivU),
            "remsi" => Some(IOp::RemS),
            "remui" => Some(IOp::RemU),
            "floordivsi" => Some(IOp::FloorDivS),
            "ceildivsi" => Some(IOp::CeilDivS),
            "ceildivui" => Some(IOp::CeilDivU),
            "maxsi" => Some(IOp::MaxS),
            "maxui" => Some(IOp::MaxU),
            "minsi" => Some(IOp::MinS),
            "minui" => Some(IOp::MinU),
            _ => None,
        };
        if let Some(iop) = iop {
            return self.bin_int(op, iop);
        }
        let fop = match short {
            "addf" => Some(FOp::Add),
            "subf" => Some(FOp::Sub),
            "mulf" => Some(FOp::Mul),
            "divf" => Some(FOp::Div),
            "remf" => Some(FOp::Rem),
            "maximumf" => Some(FOp::Maximum),
            "minimumf" => Some(FOp::Minimum),
            "maxnumf" => Some(FOp::MaxNum),
            "minnumf" => Some(FOp::MinNum),
            _ => None,
        };
        if let Some(fop) = fop {
            return self.bin_float(op, fop);
        }
        match short {
            "constant" => {
                let bits = match self.prop(op, "value") {
                    Some(AttrData::Integer { value, ty }) => {
                        let s = scalar(self.ctx, *ty)?;
                        sext(*value as u64, s.shift())
                    }
                    Some(AttrData::Float { bits, ty }) => {
                        scalar(self.ctx, *ty)?;
                        *bits
                    }
                    _ => return Err("arith.constant of this kind (vector, tensor) is not supported by lf-run".into()),
                };
                let r = self.konst(bits);
                self.alias_result(op, 0, r);
                Ok(())
            }
            "negf" => self.un_float(op, FUn::Neg),
            "cmpi" | "cmpf" => {
                let o = self.operands(op);
                let s = scalar(self.ctx, self.body.value_type(o[0]))?;
                let pred = self.int_prop(op, "predicate").ok_or("missing predicate")?;
                let (a, b) = (self.reg(o[0]), self.reg(o[1]));
                let dst = self.res(op, 0);
                let fpred = || CmpFPredicate::from_value(pred).ok_or("unknown predicate");
                self.emit(match (short, s) {
                    ("cmpi", _) => Inst::CmpI {
                        pred: CmpIPredicate::from_value(pred).ok_or("unknown predicate")?,
                        shift: s.shift(),
                        dst,
                        a,
                        b,
                    },
                    (_, Scalar::F32) => Inst::CmpF32 {
                        pred: fpred()?,
                        dst,
                        a,
                        b,
                    },
                    (_, Scalar::F64) => Inst::CmpF64 {
                        pred: fpred()?,
                        dst,
                        a,
                        b,
                    },
                    _ => return Err("cmpf on a non-float type".into()),
                });
                Ok(())
            }
            "select" => {
                let o = self.operands(op);
                let (c, a, b) = (self.reg(o[0]), self.reg(o[1]), self.reg(o[2]));
                let dst = self.res(op, 0);
                self.emit(Inst::Select { dst, c, a, b });
                Ok(())
            }
            "extsi" | "extui" | "trunci" | "index_cast" | "index_castui" | "sitofp" | "uitofp" | "fptosi"
            | "fptoui" | "extf" | "truncf" | "bitcast" => self.conv(op, short),
            _ => Err(format!("'arith.{short}' is not supported by lf-run")),
        }
    }

    fn math(&mut self, op: OpId, short: &str) -> R<()> {
        let fun = match short {
            "absf" => FUn::Abs,
            "ceil" => FUn::Ceil,
            "floor" => FUn::Floor,
            "sqrt" => FUn::Sqrt,
            "rsqrt" => FUn::Rsqrt,
            "exp" => FUn::Exp,
            "exp2" => FUn::Exp2,
            "log" => FUn::Log,
            "log2" => FUn::Log2,
            "sin" => FUn::Sin,
            "cos" => FUn::Cos,
            "tanh" => FUn::Tanh,
            "powf" => return self.bin_float(op, FOp::Pow),
            "absi" => {
                let o = self.operands(op);
                let s = scalar(self.ctx, self.result_type(op, 0))?;
                let a = self.reg(o[0]);
                let dst = self.res(op, 0);
                self.emit(Inst::AbsI {
                    shift: s.shift(),
                    dst,
                    a,
                });
                return Ok(());
            }
            "fma" => {
                let o = self.operands(op);
                let s = scalar(self.ctx, self.result_type(op, 0))?;
                let (a, b, c) = (self.reg(o[0]), self.reg(o[1]), self.reg(o[2]));
                let dst = self.res(op, 0);
                self.emit(match s {
                    Scalar::F32 => Inst::Fma32 { dst, a, b, c },
                    _ => Inst::Fma64 { dst, a, b, c },
                });
                return Ok(());
            }
            _ => return Err(format!("'math.{short}' is not supported by lf-run")),
        };
        self.un_float(op, fun)
    }

    fn alloc(&mut self, op: OpId, stack: bool, dyn_group: &str) -> R<()> {
        let ty = mem_type(self.ctx, self.result_type(op, 0))?;
        let dyns = self.group(op, dyn_group);
        self.prog.types.push(ty);
        let t = (self.prog.types.len() - 1) as u32;
        let dyn_sizes = self.list(&dyns);
        let dst = self.res(op, 0);
        self.emit(Inst::Alloc {
            dst,
            ty: t,
            dyn_sizes,
            stack,
        });
        Ok(())
    }

    /// Results that are async tokens get the value 0.
    fn tokens(&mut self, op: OpId) {
        for i in 0..self.body.num_results(op) {
            let t = self.result_type(op, i);
            if let TypeData::Dialect { body, .. } = self.ctx.type_data(t) {
                if body.contains("async") {
                    let r = self.konst(0);
                    self.alias_result(op, i, r);
                }
            }
        }
    }

    fn sym_ref(&self, op: OpId, name: &str) -> Option<String> {
        let a = prop(self.ctx, self.body, op, name)?;
        match self.ctx.attr_data(a) {
            AttrData::SymbolRef { root, nested } => {
                let mut s = self.ctx.ident_str(*root).to_string();
                for n in nested.iter() {
                    s.push_str("::");
                    s.push_str(self.ctx.ident_str(*n));
                }
                Some(s)
            }
            _ => None,
        }
    }

    fn view(&mut self, op: OpId, reinterpret: bool) -> R<()> {
        let o = self.operands(op);
        let src = self.reg(o[0]);
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
        let (so, ss, st) = (
            self.i64_array(op, "static_offsets"),
            self.i64_array(op, "static_sizes"),
            self.i64_array(op, "static_strides"),
        );
        let (go, gs, gt) = (
            self.group(op, "offsets"),
            self.group(op, "sizes"),
            self.group(op, "strides"),
        );
        let offsets = operand(so, go);
        let sizes = operand(ss, gs);
        let strides = operand(st, gt);
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

    fn other(&mut self, op: OpId, name: &str) -> R<()> {
        match name {
            "func.return" | "gpu.return" => {
                let o = self.operands(op);
                let r = self.operand_regs(&o);
                let vals = self.list(&r);
                self.emit(Inst::Return { vals });
            }
            "scf.yield" | "affine.yield" | "gpu.yield" | "scf.reduce.return" => {
                let o = self.operands(op);
                let srcs = self.operand_regs(&o);
                let dsts = self.yields.last().cloned().unwrap_or_default();
                self.par_move(&dsts, &srcs);
            }
            "gpu.terminator" => {
                self.emit(Inst::KernelEnd);
            }
            "func.call" => {
                let callee = self.sym_ref(op, "callee").ok_or("call without callee")?;
                let &f = self
                    .names
                    .get(&callee)
                    .ok_or_else(|| format!("call to unknown function '@{callee}'"))?;
                let o = self.operands(op);
                let a = self.operand_regs(&o);
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
            }
            "scf.for" => {
                if self.prop(op, "unsignedCmp").is_some() {
                    return Err("scf.for with unsigned comparison is not supported by lf-run".into());
                }
                let o = self.operands(op);
                let r = self.operand_regs(&o);
                self.counted_loop(op, r[0], r[1], r[2], &r[3..])?;
            }
            "affine.for" => {
                let lbm = self.map_prop(op, "lowerBoundMap")?;
                let ubm = self.map_prop(op, "upperBoundMap")?;
                let lbo = self.group(op, "lowerBoundOperands");
                let ubo = self.group(op, "upperBoundOperands");
                let inits = self.group(op, "inits");
                let step = self.int_prop(op, "step").unwrap_or(1);
                let lbs = self.map(&lbm, &lbo)?;
                let lb = self.reduce(lbs, IOp::MaxS)?;
                let ubs = self.map(&ubm, &ubo)?;
                let ub = self.reduce(ubs, IOp::MinS)?;
                let step = self.konst(step as u64);
                self.counted_loop(op, lb, ub, step, &inits)?;
            }
            "scf.if" => {
                let o = self.operands(op);
                let c = self.reg(o[0]);
                self.if_else(op, c)?;
            }
            "affine.if" => {
                let set = match self.prop(op, "condition") {
                    Some(AttrData::IntegerSet(s)) => s.clone(),
                    _ => return Err("affine.if without condition".into()),
                };
                let o = self.operands(op);
                let ops = self.operand_regs(&o);
                let nd = set.num_dims() as usize;
                if ops.len() < nd {
                    return Err("affine.if operand count mismatch".into());
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
                self.if_else(op, acc)?;
            }
            "scf.while" => self.while_loop(op)?,
            "scf.parallel" => self.scf_parallel(op)?,
            "affine.parallel" => self.affine_parallel(op)?,
            "scf.reduce" => {
                let accs = self.yields.last().cloned().unwrap_or_default();
                let o = self.operands(op);
                for (i, &v) in o.iter().enumerate() {
                    let acc = *accs.get(i).ok_or("scf.reduce operand without a result")?;
                    let block = self.region_block(op, i)?;
                    let args = self.body.block_args(block).to_vec();
                    if args.len() != 2 {
                        return Err("scf.reduce region needs two arguments".into());
                    }
                    let r = self.reg(v);
                    self.regs.insert(args[0], acc);
                    self.regs.insert(args[1], r);
                    self.decode_region(op, i, vec![acc])?;
                }
            }
            "scf.execute_region" => {
                let n = self.body.num_results(op);
                let dsts: Vec<Reg> = (0..n).map(|i| self.res(op, i)).collect();
                self.decode_region(op, 0, dsts)?;
            }
            "affine.apply" | "affine.min" | "affine.max" => {
                let m = self.map_prop(op, "map")?;
                let o = self.operands(op);
                let ops = self.operand_regs(&o);
                let rs = self.map(&m, &ops)?;
                let r = match name {
                    "affine.min" => self.reduce(rs, IOp::MinS)?,
                    "affine.max" => self.reduce(rs, IOp::MaxS)?,
                    _ => *rs.first().ok_or("affine.apply without result")?,
                };
                self.alias_result(op, 0, r);
            }
            "affine.load" | "memref.load" => {
                let o = self.operands(op);
                let (mem, idx) = self.mem_access(op, o[0], &o[1..])?;
                let dst = self.res(op, 0);
                self.emit(Inst::Load { dst, mem, idx });
            }
            "affine.store" | "memref.store" => {
                let o = self.operands(op);
                let val = self.reg(o[0]);
                let (mem, idx) = self.mem_access(op, o[1], &o[2..])?;
                self.emit(Inst::Store { val, mem, idx });
            }
            "memref.alloc" => self.alloc(op, false, "dynamicSizes")?,
            "memref.alloca" => self.alloc(op, true, "dynamicSizes")?,
            "gpu.alloc" => {
                self.alloc(op, false, "dynamicSizes")?;
                self.tokens(op);
            }
            "memref.dealloc" | "gpu.dealloc" => {
                let m = self.group(op, "memref");
                let mem = *m.first().ok_or("dealloc without memref")?;
                self.emit(Inst::Dealloc { mem });
                self.tokens(op);
            }
            "memref.cast" => {
                let o = self.operands(op);
                let r = self.reg(o[0]);
                self.alias_result(op, 0, r);
            }
            "memref.dim" => {
                let o = self.operands(op);
                let (mem, index) = (self.reg(o[0]), self.reg(o[1]));
                let dst = self.res(op, 0);
                self.emit(Inst::Dim { dst, mem, index });
            }
            "memref.copy" => {
                let o = self.operands(op);
                let (src, dst) = (self.reg(o[0]), self.reg(o[1]));
                self.emit(Inst::Copy { src, dst });
            }
            "gpu.memcpy" => {
                let d = self.group(op, "dst");
                let s = self.group(op, "src");
                self.emit(Inst::Copy { src: s[0], dst: d[0] });
                self.tokens(op);
            }
            "gpu.memset" => {
                let d = self.group(op, "dst");
                let v = self.group(op, "value");
                self.emit(Inst::Memset { dst: d[0], val: v[0] });
                self.tokens(op);
            }
            "gpu.wait" => self.tokens(op),
            "memref.subview" => self.view(op, false)?,
            "memref.reinterpret_cast" => self.view(op, true)?,
            "memref.get_global" => {
                let g = self.sym_ref(op, "name").ok_or("get_global without name")?;
                let &global = self
                    .globals
                    .get(&g)
                    .ok_or_else(|| format!("unknown or unsupported memref.global '@{g}'"))?;
                let dst = self.res(op, 0);
                self.emit(Inst::GetGlobal { dst, global });
            }
            "gpu.thread_id" | "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim" | "gpu.global_id" => {
                let id = match name {
                    "gpu.thread_id" => GpuId::Thread,
                    "gpu.block_id" => GpuId::Block,
                    "gpu.block_dim" => GpuId::BlockDim,
                    "gpu.grid_dim" => GpuId::GridDim,
                    _ => GpuId::Global,
                };
                let dim = match self.prop(op, "dimension") {
                    Some(AttrData::Dialect { body, .. }) if body.contains('y') => 1,
                    Some(AttrData::Dialect { body, .. }) if body.contains('z') => 2,
                    _ => 0,
                };
                let dst = self.res(op, 0);
                self.emit(Inst::GpuId { id, dim, dst });
            }
            "gpu.lane_id" => {
                let dst = self.res(op, 0);
                self.emit(Inst::GpuId {
                    id: GpuId::Lane,
                    dim: 0,
                    dst,
                });
            }
            "gpu.barrier" => {
                self.emit(Inst::Barrier);
            }
            "gpu.launch" => self.launch(op)?,
            "gpu.launch_func" => {
                let k = self.sym_ref(op, "kernel").ok_or("launch_func without kernel")?;
                let &f = self
                    .names
                    .get(&k)
                    .ok_or_else(|| format!("unknown kernel '@{}'", k.replace("::", "::@")))?;
                let dims = self.launch_dims(op)?;
                let a = self.group(op, "kernelOperands");
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
                self.tokens(op);
            }
            "builtin.unrealized_conversion_cast" => {
                let o = self.operands(op);
                if o.len() == 1 && self.body.num_results(op) == 1 {
                    let r = self.reg(o[0]);
                    self.alias_result(op, 0, r);
                } else {
                    return Err("unrealized_conversion_cast with several values".into());
                }
            }
            _ => return Err(format!("'{name}' is not supported by lf-run")),
        }
        Ok(())
    }

    fn launch_dims(&mut self, op: OpId) -> R<[Reg; 6]> {
        let mut dims = [0; 6];
        for (i, g) in lf_dialects::gpu::LAUNCH_SIZE_OPERANDS.iter().enumerate() {
            dims[i] = *self.group(op, g).first().ok_or("launch without sizes")?;
        }
        Ok(dims)
    }

    fn launch(&mut self, op: OpId) -> R<()> {
        let dims = self.launch_dims(op)?;
        if self.body.region_blocks(self.body.region(op, 0)).count() != 1 {
            return Err("gpu.launch bodies with several blocks are not supported by lf-run".into());
        }
        let block = self.region_block(op, 0)?;
        let args = self.body.block_args(block).to_vec();
        if args.len() < 12 {
            return Err("gpu.launch with clusters is not supported by lf-run".into());
        }
        if self.group(op, "clusterSizeX").len() == 1 {
            return Err("gpu.launch with clusters is not supported by lf-run".into());
        }
        let mut ids = [0; 12];
        for (i, a) in args.iter().take(12).enumerate() {
            ids[i] = self.reg(*a);
        }
        let nw = lf_ir::ods::discardable_attr(self.ctx, self.body, op, "workgroup_attributions")
            .or_else(|| prop(self.ctx, self.body, op, "workgroup_attributions"))
            .and_then(|a| lf_ir::ods::constraints::int_value(self.ctx, a))
            .unwrap_or(0) as usize;
        let (mut workgroup, mut private) = (Vec::new(), Vec::new());
        for (k, &a) in args.iter().enumerate().skip(12) {
            let r = self.reg(a);
            let t = mem_type(self.ctx, self.body.value_type(a))?;
            if k - 12 < nw {
                workgroup.push((r, t));
            } else {
                private.push((r, t));
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
        self.decode_region(op, 0, Vec::new())?;
        self.loc = self.body.op_loc(op);
        self.emit(Inst::KernelEnd);
        let end = self.pc();
        self.patch(skip, end);
        self.tokens(op);
        Ok(())
    }

    fn while_loop(&mut self, op: OpId) -> R<()> {
        let before = self.region_block(op, 0)?;
        let after = self.region_block(op, 1)?;
        let bargs = self.body.block_args(before).to_vec();
        let aargs = self.body.block_args(after).to_vec();
        let bregs = self.operand_regs(&bargs);
        let aregs = self.operand_regs(&aargs);
        let o = self.operands(op);
        let inits = self.operand_regs(&o);
        self.par_move(&bregs, &inits);
        let head = self.pc();
        let ops: Vec<OpId> = self.body.block_ops(before).collect();
        let (last, rest) = ops.split_last().ok_or("empty scf.while region")?;
        for &o in rest {
            self.loc = self.body.op_loc(o);
            if let Err(e) = self.decode_op(o) {
                self.trap(e);
            }
        }
        self.loc = self.body.op_loc(*last);
        let cops = self.operands(*last);
        let cregs = self.operand_regs(&cops);
        let (cond, fwd) = cregs.split_first().ok_or("scf.condition without condition")?;
        let fwd = fwd.to_vec();
        let jz = self.emit(Inst::JumpIfZero { cond: *cond, target: 0 });
        self.par_move(&aregs, &fwd);
        self.decode_region(op, 1, bregs)?;
        self.emit(Inst::Jump { target: head });
        let exit = self.pc();
        self.patch(jz, exit);
        self.loc = self.body.op_loc(op);
        let n = self.body.num_results(op);
        let res: Vec<Reg> = (0..n).map(|i| self.res(op, i)).collect();
        self.par_move(&res, &fwd);
        Ok(())
    }
}
