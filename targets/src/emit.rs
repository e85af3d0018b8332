//! The statement emitter shared by all targets: walks the ops of a function
//! body and writes C statements, one local per SSA value (named after the
//! IR's value names), constants and index arithmetic inlined as expressions.
//! Host-only ops (allocation, copies, launches) are written per flavor.

use crate::ctypes::{self, Flavor};
use crate::expr::{self, paren};
use crate::module::{op_error, op_label, Program};
use crate::names::ValueNames;
use lf_diag::Diagnostic;
use lf_dialects::affine::{
    AffineApplyOp, AffineForOp, AffineIfOp, AffineLoadOp, AffineMaxOp, AffineMinOp, AffineParallelOp, AffineStoreOp,
    AffineYieldOp,
};
use lf_dialects::arith::{
    ArithAddfOp, ArithAddiOp, ArithAndiOp, ArithBitcastOp, ArithCeildivsiOp, ArithCmpfOp, ArithCmpiOp, ArithConstantOp,
    ArithDivfOp, ArithDivsiOp, ArithDivuiOp, ArithExtfOp, ArithExtsiOp, ArithExtuiOp, ArithFloordivsiOp, ArithFptosiOp,
    ArithFptouiOp, ArithIndexCastOp, ArithIndexCastuiOp, ArithMaximumfOp, ArithMaxnumfOp, ArithMaxsiOp, ArithMaxuiOp,
    ArithMinimumfOp, ArithMinnumfOp, ArithMinsiOp, ArithMinuiOp, ArithMulfOp, ArithMuliOp, ArithNegfOp, ArithOriOp,
    ArithRemfOp, ArithRemsiOp, ArithRemuiOp, ArithSelectOp, ArithShliOp, ArithShrsiOp, ArithShruiOp, ArithSitofpOp,
    ArithSubfOp, ArithSubiOp, ArithTruncfOp, ArithTrunciOp, ArithUitofpOp, ArithXoriOp, CmpFPredicate, CmpIPredicate,
};
use lf_dialects::func::{FuncCallOp, FuncReturnOp};
use lf_dialects::gpu::{
    AddressSpace, Dimension, GpuAllocOp, GpuBarrierOp, GpuBlockDimOp, GpuBlockIdOp, GpuDeallocOp, GpuGlobalIdOp,
    GpuGridDimOp, GpuLaunchFuncOp, GpuMemcpyOp, GpuMemsetOp, GpuReturnOp, GpuThreadIdOp, GpuWaitOp,
};
use lf_dialects::math::{
    MathAbsfOp, MathAbsiOp, MathCeilOp, MathCosOp, MathExp2Op, MathExpOp, MathFloorOp, MathFmaOp, MathLog2Op,
    MathLogOp, MathPowfOp, MathRsqrtOp, MathSinOp, MathSqrtOp, MathTanhOp,
};
use lf_dialects::memref::{MemrefAllocOp, MemrefAllocaOp, MemrefCastOp, MemrefDeallocOp, MemrefLoadOp, MemrefStoreOp};
use lf_dialects::scf::{ScfConditionOp, ScfForOp, ScfIfOp, ScfParallelOp, ScfWhileOp, ScfYieldOp};
use lf_dialects::vector::{
    VectorBroadcastOp, VectorExtractOp, VectorFromElementsOp, VectorInsertOp, VectorLoadOp, VectorStoreOp,
};
use lf_ir::affine::AffineMap;
use lf_ir::view::{IrRef, OpView, ValueList};
use lf_ir::{AttrData, BlockId, Body, Context, OpDef, OpId, Type, TypeData, Value, DYNAMIC};
use rustc_hash::FxHashMap;

/// Where a memref lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Space {
    /// Host memory (`malloc`).
    Host,
    /// A device buffer seen from the host (`cudaMalloc`, `cl_mem`).
    Device,
    /// Global memory seen from a kernel (a kernel argument).
    Global,
    /// `__constant` memory seen from a kernel.
    Constant,
    /// Workgroup (shared, local) memory.
    Shared,
    /// Private (per-thread) memory.
    Private,
}

/// A memref: a base pointer (or buffer handle), its sizes and element type.
#[derive(Clone, Debug)]
pub struct MemView {
    /// The C expression of the base pointer.
    pub ptr: String,
    /// The size of each dimension as a C expression.
    pub dims: Vec<String>,
    /// The element type.
    pub elem: Type,
    /// Where it lives.
    pub space: Space,
}

impl MemView {
    /// Number of elements as a C expression.
    pub fn count(&self) -> String {
        if self.dims.is_empty() {
            return "1".into();
        }
        if let Some(n) = self.static_count() {
            return n.to_string();
        }
        self.dims.iter().map(|d| paren(d)).collect::<Vec<_>>().join(" * ")
    }

    /// Number of elements, if every size is a literal.
    pub fn static_count(&self) -> Option<i64> {
        self.dims
            .iter()
            .try_fold(1i64, |acc, d| Some(acc * d.parse::<i64>().ok()?))
    }
}

/// What an SSA value stands for in C.
#[derive(Clone, Debug)]
pub enum Val {
    /// A scalar: a local's name or an inlined expression.
    Expr(String),
    /// A memref.
    Mem(MemView),
}

/// Writes the statements of one function.
pub struct Emitter<'a> {
    pub ctx: &'a Context,
    pub body: &'a Body,
    pub names: ValueNames<'a>,
    pub flavor: Flavor,
    pub out: String,
    pub indent: usize,
    pub vals: FxHashMap<Value, Val>,
    pub errors: Vec<Diagnostic>,
    pub program: Option<&'a Program<'a>>,
    /// The function being emitted: the body that stores it, and the op.
    pub func: (&'a Body, OpId),
    /// While true, errors are reported at the function op (its signature is
    /// being processed) instead of at an op of its body.
    pub at_func: bool,
    /// C89 mode (Brook+ kernels): the declarations of the function's locals,
    /// collected here to be written before its first statement; every
    /// definition in the body is an assignment.
    pub c89_decls: Option<Vec<String>>,
    /// Brook+ kernels: the launch sizes and the output stream each store writes.
    pub brook: Option<crate::brook::map_style::KernelContext>,
    /// Host code: time every kernel launch (`Options::profile_launches`).
    pub profile_launches: bool,
}

/// Whether a memref type's memory space is `#gpu.address_space<space>`.
pub fn has_space(ctx: &Context, t: Type, space: AddressSpace) -> bool {
    match ctx.type_data(t) {
        TypeData::MemRef {
            memory_space: Some(s), ..
        } => AddressSpace::from_attr(ctx, *s) == Some(space),
        _ => false,
    }
}

impl<'a> Emitter<'a> {
    /// An emitter for the function `op` stored in `parent`.
    pub fn new(ctx: &'a Context, parent: &'a Body, op: OpId, flavor: Flavor) -> Emitter<'a> {
        Emitter {
            ctx,
            body: parent.regions_body(op),
            names: ValueNames::new(ctx, parent, op),
            flavor,
            out: String::new(),
            indent: 1,
            vals: FxHashMap::default(),
            errors: Vec::new(),
            program: None,
            func: (parent, op),
            at_func: false,
            c89_decls: None,
            brook: None,
            profile_launches: false,
        }
    }

    fn err(&mut self, op: OpId, msg: impl Into<String>) {
        let d = if self.at_func {
            op_error(self.ctx, self.func.0, self.func.1, msg)
        } else {
            op_error(self.ctx, self.body, op, msg)
        };
        self.errors.push(d);
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// The context and the body being emitted, for the op views.
    fn ir(&self) -> IrRef<'a, 'a> {
        IrRef::new(self.ctx, self.body)
    }

    /// The C type of a scalar, or an error at `op`.
    pub fn cty(&mut self, op: OpId, t: Type) -> &'static str {
        match ctypes::scalar(self.ctx, t, self.flavor) {
            Some(s) => s,
            None => {
                let ts = lf_ir::printer::type_to_string(self.ctx, t);
                let msg = if self.flavor == Flavor::BrookKernel {
                    format!("[types] type '{ts}' is not supported by the Brook+ emitter (Brook+ has char, short, int, float, double and their vectors; no 64-bit integers)")
                } else {
                    format!("type '{ts}' is not supported by the emitter")
                };
                self.err(op, msg);
                "int"
            }
        }
    }

    /// The C type of the elements of a memref of `t` (see
    /// [`ctypes::element`]: `i1` is one byte), or an error at `op`.
    pub fn elem_cty(&mut self, op: OpId, t: Type) -> &'static str {
        match ctypes::element(self.ctx, t, self.flavor) {
            Some(s) => s,
            None => self.cty(op, t),
        }
    }

    /// The scalar expression of `v`.
    pub fn expr(&self, v: Value) -> String {
        match self.vals.get(&v) {
            Some(Val::Expr(e)) => e.clone(),
            Some(Val::Mem(m)) => m.ptr.clone(),
            None => self.names.get(v),
        }
    }

    /// The memref view of `v`, or an error at `op`.
    pub fn mem(&mut self, op: OpId, v: Value) -> Option<MemView> {
        match self.vals.get(&v) {
            Some(Val::Mem(m)) => Some(m.clone()),
            _ => {
                self.err(op, "memref operand has no known buffer (unsupported producer)");
                None
            }
        }
    }

    /// A view of memref type `t` named `ptr` (static sizes; a dynamic size is an error).
    pub fn view_of_type(&mut self, op: OpId, t: Type, ptr: String, space: Space) -> Option<MemView> {
        match self.ctx.type_data(t).clone() {
            TypeData::MemRef {
                shape, element, layout, ..
            } => {
                if let Some(l) = layout {
                    let identity = match self.ctx.attr_data(l) {
                        AttrData::AffineMap(m) => *m == lf_ir::affine::AffineMap::get_multi_dim_identity(m.num_dims()),
                        _ => false,
                    };
                    if !identity {
                        self.err(
                            op,
                            "memrefs with a non-identity layout are not supported by the emitter",
                        );
                        return None;
                    }
                }
                let mut dims = Vec::new();
                for (i, &d) in shape.iter().enumerate() {
                    if d == DYNAMIC {
                        if i == 0 && self.flavor.is_device() {
                            dims.push("?".into());
                            continue;
                        }
                        self.err(
                            op,
                            "memrefs with dynamic sizes are supported only as the outermost size of a kernel argument",
                        );
                        return None;
                    }
                    dims.push(d.to_string());
                }
                if matches!(self.ctx.type_data(element), TypeData::Index) {
                    self.err(
                        op,
                        "memrefs of 'index' are not supported by the emitter (use i32 or i64)",
                    );
                    return None;
                }
                self.cty(op, element);
                Some(MemView {
                    ptr,
                    dims,
                    elem: element,
                    space,
                })
            }
            _ => {
                let ts = lf_ir::printer::type_to_string(self.ctx, t);
                self.err(
                    op,
                    format!("type '{ts}' is not supported here (expected a ranked memref)"),
                );
                None
            }
        }
    }

    /// `ptr[linear index]` for memref `m` at `indices`.
    pub fn element(&self, m: &MemView, indices: &[String]) -> String {
        if self.flavor == Flavor::BrookKernel && m.space == Space::Global {
            // A gather array, indexed C-style.
            let subs: String = indices.iter().map(|i| format!("[{i}]")).collect();
            return format!("{}{subs}", m.ptr);
        }
        if indices.is_empty() {
            return format!("{}[0]", m.ptr);
        }
        let n = indices.len();
        // Strides from the inner sizes; static ones are folded into numbers.
        let mut terms = Vec::new();
        for (i, idx) in indices.iter().enumerate() {
            let inner = &m.dims[i + 1..n];
            let stride: Option<i64> = inner.iter().try_fold(1i64, |a, d| Some(a * d.parse::<i64>().ok()?));
            let term = match (stride, idx.parse::<i64>()) {
                (Some(s), Ok(c)) => (s * c).to_string(),
                _ => String::new(),
            };
            if !term.is_empty() {
                if term != "0" {
                    terms.push(term);
                }
                continue;
            }
            let term = match stride {
                Some(1) => idx.clone(),
                Some(s) => format!("{} * {s}", paren_mul(idx)),
                None => {
                    let s = inner.iter().map(|d| paren(d)).collect::<Vec<_>>().join(" * ");
                    format!("{} * {s}", paren_mul(idx))
                }
            };
            if term != "0" {
                terms.push(term);
            }
        }
        let lin = if terms.is_empty() {
            "0".to_string()
        } else {
            terms.join(" + ")
        };
        format!("{}[{lin}]", m.ptr)
    }

    /// Emits the ops of `block` (not its terminator when `skip_terminator`).
    pub fn block(&mut self, block: BlockId, skip_terminator: bool) {
        let ops: Vec<OpId> = self.body.block_ops(block).collect();
        let last = ops.last().copied();
        for op in ops {
            if skip_terminator && Some(op) == last && self.is_terminator(op) {
                continue;
            }
            self.op(op);
        }
    }

    fn is_terminator(&self, op: OpId) -> bool {
        self.ctx
            .op_def(self.body.op_name(op))
            .is_some_and(|d| d.has(lf_ir::Traits::TERMINATOR))
    }

    /// Defines a local for `v` (nothing is written when `v` is never used:
    /// the ops defined this way have no side effects).
    fn define(&mut self, op: OpId, v: Value, rhs: String) {
        let ty = self.body.value_type(v);
        let t = self.cty(op, ty);
        let name = self.names.get(v);
        if !self.body.has_uses(v) {
            return;
        }
        self.declare(t, &name, Some(&rhs));
        self.vals.insert(v, Val::Expr(name));
    }

    /// Declares the local `name` of C type `t`, initialised to `init` when
    /// given: `T name = init;` in place, or in C89 mode `T name;` at the top
    /// of the function (once per name) and `name = init;` in place.
    pub fn declare(&mut self, t: &str, name: &str, init: Option<&str>) {
        let Some(decls) = &mut self.c89_decls else {
            match init {
                Some(i) => self.line(&format!("{t} {name} = {i};")),
                None => self.line(&format!("{t} {name};")),
            }
            return;
        };
        let d = format!("{t} {name};");
        if !decls.contains(&d) {
            decls.push(d);
        }
        if let Some(i) = init {
            self.line(&format!("{name} = {i};"));
        }
    }

    /// The head of a counted C loop over `iv` of C type `t` from `lb`
    /// while `cond`, advancing by `step` (`for (T iv = lb; ...)`, or in C89
    /// mode with `iv` declared at the top and `iv = iv + step`).
    fn for_head(&mut self, t: &str, iv: &str, lb: &str, cond: &str, step: &str) -> String {
        if self.c89_decls.is_some() {
            self.declare(t, iv, None);
            return format!("for ({iv} = {lb}; {cond}; {iv} = {iv} + {}) {{", paren(step));
        }
        let inc = if step == "1" {
            format!("{iv}++")
        } else {
            format!("{iv} += {step}")
        };
        format!("for ({t} {iv} = {lb}; {cond}; {inc}) {{")
    }

    /// How affine divisions are written in this flavor.
    fn div_style(&self) -> expr::DivStyle {
        match self.flavor {
            Flavor::BrookKernel => expr::DivStyle::Inline,
            f if f.is_device() => expr::DivStyle::Helpers,
            _ => expr::DivStyle::Helpers64,
        }
    }

    fn inline(&mut self, v: Value, e: String) {
        self.vals.insert(v, Val::Expr(e));
    }

    fn math_fn(&self, base: &str, ty: Type) -> String {
        match self.flavor {
            Flavor::OclDevice => base.to_string(),
            Flavor::BrookKernel => match base {
                "fabs" => "abs",
                "fmax" => "max",
                "fmin" => "min",
                _ => base,
            }
            .to_string(),
            _ if ctypes::is_f64(self.ctx, ty) => base.to_string(),
            _ => format!("{base}f"),
        }
    }

    fn operands(&self, op: OpId) -> Vec<Value> {
        self.body.operands(op).collect()
    }

    /// Emits one op.
    pub fn op(&mut self, op: OpId) {
        let ir = self.ir();
        let ops = self.operands(op);
        let e = |s: &Self, i: usize| s.expr(ops[i]);
        let res = if self.body.num_results(op) > 0 {
            Some(self.body.result(op, 0))
        } else {
            None
        };
        let is_index = |s: &Self, v: Option<Value>| {
            v.is_some_and(|v| matches!(s.ctx.type_data(s.body.value_type(v)), TypeData::Index))
        };
        let def = self.ctx.op_def(self.body.op_name(op));
        let find = |table: &[(Def, &'static str)]| lookup(def, table);
        let any = |set: &[Def]| one_of(def, set);
        let vector_result = res.is_some_and(|r| self.is_vector(r));
        if let Some(c) = ArithConstantOp::cast(&ir, op) {
            self.constant(c);
        } else if (self.flavor == Flavor::BrookKernel && !self.brook_op_supported(op)) || self.vector_op(op) {
            // Reported by brook_op_supported, or written by vector_op.
        } else if vector_result && self.flavor == Flavor::CudaDevice && !any(CUDA_VECTOR_OPS) {
            // CUDA's float2/float4 have no operators or math functions.
            self.err(op, "this op on vectors is not supported by the CUDA emitter");
        } else if let Some(sym) = find(INDEX_OPS).filter(|_| is_index(self, res)) {
            let (a, b) = (e(self, 0), e(self, 1));
            let s = if sym == "*" {
                format!("{} * {}", paren_mul(&a), paren_mul(&b))
            } else {
                format!("{a} {sym} {}", paren_mul(&b))
            };
            self.inline(res.unwrap(), s);
        } else if let Some(sym) = find(BINARY_OPS) {
            self.binop(op, sym);
        } else if let Some(sym) = find(UNSIGNED_OPS) {
            let ty = self.body.value_type(ops[0]);
            let t = self.cty(op, ty);
            let u = ctypes::unsigned(self.ctx, ty, self.flavor).unwrap_or("unsigned int");
            let s = format!("({t})(({u}){} {sym} ({u}){})", paren(&e(self, 0)), paren(&e(self, 1)));
            self.define(op, res.unwrap(), s);
        } else if let Some(f) = find(DIVISION_HELPERS) {
            let sfx = if self.flavor.is_device() { "" } else { "64" };
            let s = format!("{f}{sfx}({}, {})", e(self, 0), e(self, 1));
            self.define(op, res.unwrap(), s);
        } else if let Some((cmp, unsigned)) = lookup(def, INTEGER_MIN_MAX) {
            let (a, b) = (paren(&e(self, 0)), paren(&e(self, 1)));
            let s = if unsigned {
                // The comparison is on the bits as unsigned; the result keeps
                // the operands' (signed) C type.
                let ty = self.body.value_type(ops[0]);
                let u = ctypes::unsigned(self.ctx, ty, self.flavor).unwrap_or("unsigned int");
                format!("({u}){a} {cmp} ({u}){b} ? {a} : {b}")
            } else {
                format!("{a} {cmp} {b} ? {a} : {b}")
            };
            self.define(op, res.unwrap(), s);
        } else if let Some(base) = find(FLOAT_BINARY_FUNCTIONS) {
            let f = self.math_fn(base, self.body.value_type(ops[0]));
            let s = format!("{f}({}, {})", e(self, 0), e(self, 1));
            self.define(op, res.unwrap(), s);
        } else if ArithNegfOp::isa(&ir, op) && vector_result && self.flavor == Flavor::CudaDevice {
            let a = e(self, 0);
            let s = self.lanes_expr(res.unwrap(), |k| format!("-{a}.{}", ctypes::component(k)));
            self.define(op, res.unwrap(), s);
        } else if ArithNegfOp::isa(&ir, op) {
            let s = format!("-{}", paren(&e(self, 0)));
            self.define(op, res.unwrap(), s);
        } else if let Some(c) = ArithCmpiOp::cast(&ir, op) {
            self.compare_int(c);
        } else if let Some(c) = ArithCmpfOp::cast(&ir, op) {
            self.compare_float(c);
        } else if ArithSelectOp::isa(&ir, op)
            && self.flavor == Flavor::BrookKernel
            && res.is_some_and(|r| ctypes::is_f64(self.ctx, self.body.value_type(r)))
        {
            // `?:` on doubles breaks brcc's code generation.
            let r = res.unwrap();
            if self.body.has_uses(r) {
                let name = self.names.get(r);
                self.declare("double", &name, None);
                let (c, a, b) = (e(self, 0), e(self, 1), e(self, 2));
                self.line(&format!("if ({c}) {name} = {a}; else {name} = {b};"));
                self.vals.insert(r, Val::Expr(name));
            }
        } else if ArithSelectOp::isa(&ir, op) {
            let s = format!(
                "{} ? {} : {}",
                paren(&e(self, 0)),
                paren(&e(self, 1)),
                paren(&e(self, 2))
            );
            self.define(op, res.unwrap(), s);
        } else if any(CASTS) {
            let r = res.unwrap();
            let t = self.cty(op, self.body.value_type(r));
            let s = if is_i1(self.ctx, self.body.value_type(r)) {
                // A truncation to i1 keeps the lowest bit (C's conversion
                // would keep any nonzero value as nonzero).
                format!("({t})({} & 1)", paren(&e(self, 0)))
            } else if ArithExtsiOp::isa(&ir, op) && is_i1(self.ctx, self.body.value_type(ops[0])) {
                // i1 true (1) sign-extends to all ones (-1).
                format!("-({t}){}", paren(&e(self, 0)))
            } else {
                format!("({t}){}", paren(&e(self, 0)))
            };
            if ArithIndexCastOp::isa(&ir, op) && self.flavor.is_device() {
                // index is `int` in kernels: the cast is free.
                let src = self.cty(op, self.body.value_type(ops[0]));
                if src == t {
                    self.inline(r, e(self, 0));
                    return;
                }
            }
            self.define(op, r, s);
        } else if any(UNSIGNED_CASTS) {
            let r = res.unwrap();
            let t = self.cty(op, self.body.value_type(r));
            let src = self.body.value_type(ops[0]);
            let u = ctypes::unsigned(self.ctx, src, self.flavor).unwrap_or("unsigned int");
            let s = format!("({t})({u}){}", paren(&e(self, 0)));
            self.define(op, r, s);
        } else if let Some(c) = ArithBitcastOp::cast(&ir, op) {
            self.bitcast(c);
        } else if let Some(base) = find(MATH_FUNCTIONS) {
            let f = self.math_fn(base, self.body.value_type(ops[0]));
            let args: Vec<String> = (0..ops.len()).map(|i| e(self, i)).collect();
            let s = format!("{f}({})", args.join(", "));
            self.define(op, res.unwrap(), s);
        } else if MathRsqrtOp::isa(&ir, op) {
            let ty = self.body.value_type(ops[0]);
            let s = match self.flavor {
                Flavor::OclDevice | Flavor::BrookKernel => format!("rsqrt({})", e(self, 0)),
                Flavor::CudaDevice if !ctypes::is_f64(self.ctx, ty) => format!("rsqrtf({})", e(self, 0)),
                _ => {
                    let one = expr::float_literal(1.0, !ctypes::is_f64(self.ctx, ty));
                    format!("{one} / {}({})", self.math_fn("sqrt", ty), e(self, 0))
                }
            };
            self.define(op, res.unwrap(), s);
        } else if MathAbsiOp::isa(&ir, op) {
            let a = paren(&e(self, 0));
            self.define(op, res.unwrap(), format!("{a} < 0 ? -{a} : {a}"));
        } else if let Some(load) = MemrefLoadOp::cast(&ir, op) {
            if let Some(m) = self.mem(op, load.memref(&ir)) {
                self.check_access(op, &m);
                let idx: Vec<String> = load.indices(&ir).iter().map(|v| self.expr(*v)).collect();
                let s = self.element(&m, &idx);
                self.define(op, load.result(&ir), s);
            }
        } else if (MemrefStoreOp::isa(&ir, op) || AffineStoreOp::isa(&ir, op)) && self.flavor == Flavor::BrookKernel {
            self.brook_store(op);
        } else if let Some(store) = MemrefStoreOp::cast(&ir, op) {
            if let Some(m) = self.mem(op, store.memref(&ir)) {
                self.check_access(op, &m);
                let idx: Vec<String> = store.indices(&ir).iter().map(|v| self.expr(*v)).collect();
                let s = format!("{} = {};", self.element(&m, &idx), self.expr(store.value(&ir)));
                self.line(&s);
            }
        } else if let Some(load) = AffineLoadOp::cast(&ir, op) {
            let (memref, map, indices) = (load.memref(&ir), load.map(&ir), load.indices(&ir));
            if let Some(el) = self.affine_element(op, memref, map, &indices) {
                self.define(op, load.result(&ir), el);
            }
        } else if let Some(store) = AffineStoreOp::cast(&ir, op) {
            let (memref, map, indices) = (store.memref(&ir), store.map(&ir), store.indices(&ir));
            if let Some(el) = self.affine_element(op, memref, map, &indices) {
                let v = self.expr(store.value(&ir));
                self.line(&format!("{el} = {v};"));
            }
        } else if let Some(apply) = AffineApplyOp::cast(&ir, op) {
            let args = self.exprs(&apply.map_operands(&ir));
            let s = self.map_result(apply.map(&ir), 0, &args);
            // Plain sums and products are inlined into their uses;
            // divisions and modulos get a named local.
            if s.contains("lf_") {
                self.define(op, apply.result(&ir), s);
            } else {
                self.inline(apply.result(&ir), s);
            }
        } else if let Some(min) = AffineMinOp::cast(&ir, op) {
            let args = self.exprs(&min.map_operands(&ir));
            let s = self.fold_minmax(min.map(&ir), &args, "<");
            self.define(op, min.result(&ir), s);
        } else if let Some(max) = AffineMaxOp::cast(&ir, op) {
            let args = self.exprs(&max.map_operands(&ir));
            let s = self.fold_minmax(max.map(&ir), &args, ">");
            self.define(op, max.result(&ir), s);
        } else if let Some(f) = ScfForOp::cast(&ir, op) {
            self.scf_for(f);
        } else if let Some(f) = AffineForOp::cast(&ir, op) {
            self.affine_for(f);
        } else if let Some(w) = ScfWhileOp::cast(&ir, op) {
            self.scf_while(w);
        } else if let Some(i) = ScfIfOp::cast(&ir, op) {
            self.scf_if(i);
        } else if let Some(i) = AffineIfOp::cast(&ir, op) {
            self.affine_if(i);
        } else if let Some(p) = ScfParallelOp::cast(&ir, op).filter(|p| p.init_vals(&ir).is_empty()) {
            let (lbs, ubs, steps) = (p.lower_bound(&ir), p.upper_bound(&ir), p.step(&ir));
            let dims: Vec<(Value, String, String, String)> = p
                .ivs(&ir)
                .iter()
                .enumerate()
                .map(|(k, &iv)| (iv, self.expr(lbs[k]), self.expr(ubs[k]), self.expr(steps[k])))
                .collect();
            self.parallel_loops(&dims, p.region_block(&ir));
        } else if let Some(p) = AffineParallelOp::cast(&ir, op).filter(|p| p.results(&ir).is_empty()) {
            let (lb_ops, ub_ops) = p.bound_operands(&ir);
            let (largs, uargs) = (self.exprs(&lb_ops), self.exprs(&ub_ops));
            let (lmap, umap) = (p.lower_bounds_map(&ir).clone(), p.upper_bounds_map(&ir).clone());
            let (lg, ug) = (p.lower_bound_groups(&ir), p.upper_bound_groups(&ir));
            let steps = p.step_values(&ir);
            let (mut la, mut ua) = (0usize, 0usize);
            let mut dims = Vec::new();
            for (k, &iv) in p.ivs(&ir).iter().enumerate() {
                let group = |m: &AffineMap, at: usize, n: i64| {
                    AffineMap::new(m.num_dims(), m.num_symbols(), m.results()[at..at + n as usize].to_vec())
                };
                let lb = self.fold_minmax(&group(&lmap, la, lg[k]), &largs, ">");
                let ub = self.fold_minmax(&group(&umap, ua, ug[k]), &uargs, "<");
                la += lg[k] as usize;
                ua += ug[k] as usize;
                dims.push((iv, lb, ub, steps[k].to_string()));
            }
            self.parallel_loops(&dims, p.region_block(&ir));
        } else if let Some((id, dim)) = gpu_id(&ir, op) {
            self.gpu_id(op, id, dim);
        } else if GpuBarrierOp::isa(&ir, op) {
            match self.flavor {
                Flavor::BrookKernel => self.err(
                    op,
                    "[workgroup-memory] Brook+ has no barrier outside the RV770 LDS form (syncGroup with a scatter output); the emitter writes map-style kernels only",
                ),
                Flavor::CudaDevice => self.line("__syncthreads();"),
                // gpu.barrier makes every memory access of the work-group visible (MLIR),
                // global ones too.
                Flavor::OclDevice => self.line("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"),
                _ => self.err(op, format!("'{}' outside a kernel", GpuBarrierOp::def().name)),
            };
        } else if GpuReturnOp::isa(&ir, op) || FuncReturnOp::isa(&ir, op) {
            if ops.is_empty() {
                self.line("return;");
            } else {
                let s = format!("return {};", e(self, 0));
                self.line(&s);
            }
        } else if MemrefAllocaOp::isa(&ir, op) && self.flavor == Flavor::BrookKernel {
            self.err(op, "per-thread arrays are not supported by the Brook+ emitter");
        } else if let Some(alloca) = MemrefAllocaOp::cast(&ir, op).filter(|_| self.flavor.is_device()) {
            let r = alloca.memref(&ir);
            let name = self.names.get(r);
            let ty = self.body.value_type(r);
            if let Some(m) = self.view_of_type(op, ty, name.clone(), Space::Private) {
                let t = self.elem_cty(op, m.elem);
                let n = m.count();
                self.line(&format!("{t} {name}[{n}];"));
                self.vals.insert(r, Val::Mem(m));
            }
        } else if (MemrefAllocOp::isa(&ir, op) || MemrefAllocaOp::isa(&ir, op)) && !self.flavor.is_device() {
            let r = res.unwrap();
            let name = self.names.get(r);
            let ty = self.body.value_type(r);
            if let Some(m) = self.view_of_type(op, ty, name.clone(), Space::Host) {
                let t = self.elem_cty(op, m.elem);
                let n = m.count();
                self.line(&format!(
                    "{t}* {name} = ({t}*)lf_host_alloc((size_t)({n}) * sizeof({t}));"
                ));
                self.vals.insert(r, Val::Mem(m));
            }
        } else if let Some(dealloc) = MemrefDeallocOp::cast(&ir, op).filter(|_| !self.flavor.is_device()) {
            if let Some(m) = self.mem(op, dealloc.memref(&ir)) {
                self.line(&format!("free({});", m.ptr));
            }
        } else if let Some(cast) = MemrefCastOp::cast(&ir, op) {
            if let Some(mut m) = self.mem(op, cast.source(&ir)) {
                let r = cast.dest(&ir);
                if let TypeData::MemRef { shape, .. } = self.ctx.type_data(self.body.value_type(r)) {
                    for (d, &s) in m.dims.iter_mut().zip(shape.iter()) {
                        if s != DYNAMIC {
                            *d = s.to_string();
                        }
                    }
                }
                self.vals.insert(r, Val::Mem(m));
            }
        } else if any(HOST_OPS) && !self.flavor.is_device() {
            self.host_op(op)
        } else if ScfYieldOp::isa(&ir, op) || AffineYieldOp::isa(&ir, op) {
            let name = op_label(self.ctx, self.body, op);
            self.err(op, format!("'{name}' in an unexpected place"));
        } else {
            let hint = if self.flavor.is_device() {
                " in a kernel"
            } else {
                " in host code"
            };
            let name = op_label(self.ctx, self.body, op);
            self.err(op, format!("'{name}' is not supported by the emitter{hint}"));
        }
    }

    /// Whether the Brook+ emitter writes `op`; reports it otherwise (ops
    /// that need helper functions, bit reinterpretation or vector memory
    /// accesses, which Brook+ kernels cannot express).
    fn brook_op_supported(&mut self, op: OpId) -> bool {
        let def = self.ctx.op_def(self.body.op_name(op));
        let not_builtin = [MathExp2Op::def, MathLog2Op::def, MathTanhOp::def, MathFmaOp::def];
        let (rule, why) = if one_of(def, &not_builtin) {
            ("built-ins", "it is not a Brook+ built-in function")
        } else if one_of(def, &[ArithFloordivsiOp::def, ArithCeildivsiOp::def]) {
            (
                "helpers",
                "Brook+ kernels cannot call helper functions (affine floordiv/ceildiv by constants are written inline)",
            )
        } else if one_of(def, &[VectorLoadOp::def, VectorStoreOp::def]) {
            (
                "map-style",
                "vector memory accesses are not map-style Brook+ (emit before vectorize-access: \
                 thread-granularity's vector lanes become double2/float4 output streams)",
            )
        } else {
            return true;
        };
        let name = op_label(self.ctx, self.body, op);
        self.err(
            op,
            format!("[{rule}] '{name}' is not supported by the Brook+ emitter: {why}"),
        );
        false
    }

    /// A store in a Brook+ kernel: an assignment to the output stream (or
    /// its lane) that the map-style plan gave it.
    fn brook_store(&mut self, op: OpId) {
        let ir = self.ir();
        let value = if let Some(s) = AffineStoreOp::cast(&ir, op) {
            s.value(&ir)
        } else if let Some(s) = MemrefStoreOp::cast(&ir, op) {
            s.value(&ir)
        } else {
            return;
        };
        if self.brook.as_ref().is_some_and(|b| b.never.contains(&op)) {
            self.line("/* a store whose bound checks admit no position: it never runs */");
            return;
        }
        let target = self.brook.as_ref().and_then(|b| b.stores.get(&op).cloned());
        match target {
            Some(lvalue) => {
                let v = self.expr(value);
                self.line(&format!("{lvalue} = {v};"));
            }
            None => self.err(
                op,
                "[map-style] this store has no output stream (not a top-level store of the kernel)",
            ),
        }
    }

    /// Hook for the target's host ops; set by the target before emitting.
    fn host_op(&mut self, op: OpId) {
        match self.flavor {
            Flavor::CudaHost => crate::cuda::host_op(self, op),
            Flavor::OclHost => crate::opencl::host_op(self, op),
            Flavor::BrookHost => crate::brook::host::host_op(self, op),
            _ => {}
        }
    }

    /// Emits a statement line (for the targets' host ops).
    pub fn stmt(&mut self, s: &str) {
        self.line(s);
    }

    /// Reports an error at `op` (for the targets' host ops).
    pub fn error(&mut self, op: OpId, msg: impl Into<String>) {
        self.err(op, msg);
    }

    fn check_access(&mut self, op: OpId, m: &MemView) {
        let bad = if self.flavor.is_device() {
            matches!(m.space, Space::Host | Space::Device)
        } else {
            !matches!(m.space, Space::Host)
        };
        if bad {
            let where_ = if self.flavor.is_device() {
                "a kernel"
            } else {
                "host code"
            };
            self.err(
                op,
                format!("this memref is not accessible from {where_} (copy it with gpu.memcpy first)"),
            );
        }
    }

    fn constant(&mut self, c: ArithConstantOp) {
        let (op, ir) = (c.op(), self.ir());
        let r = c.result(&ir);
        let s = match self.ctx.attr_data(c.value(&ir)) {
            AttrData::Integer { value, ty } => {
                if matches!(self.ctx.type_data(*ty), TypeData::Integer { width: 1, .. }) {
                    if *value != 0 { "1" } else { "0" }.to_string()
                } else if *value < 0 {
                    format!("({value})")
                } else if ctypes::byte_size(self.ctx, *ty) == Some(8) && *value > i32::MAX as i128 {
                    format!("{value}LL")
                } else {
                    value.to_string()
                }
            }
            AttrData::Float { bits, ty } => {
                let TypeData::Float(k) = self.ctx.type_data(*ty) else {
                    unreachable!()
                };
                let single = *k == lf_ir::FloatKind::F32;
                if !single && !ctypes::is_f64(self.ctx, *ty) {
                    self.err(op, "only f32 and f64 constants are supported");
                    return;
                }
                expr::float_literal(lf_ir::floatfmt::bits_to_f64(*k, *bits), single)
            }
            _ => {
                self.err(
                    op,
                    "only scalar integer and float constants are supported by the emitter",
                );
                return;
            }
        };
        self.inline(r, s);
    }

    fn binop(&mut self, op: OpId, sym: &str) {
        let ops = self.operands(op);
        // i1 arithmetic is modulo 2: the sum and difference of two bits are
        // their exclusive or, the product their and (an `int` would hold 2).
        let sym = match sym {
            "+" | "-" if is_i1(self.ctx, self.body.value_type(ops[0])) => "^",
            "*" if is_i1(self.ctx, self.body.value_type(ops[0])) => "&",
            _ => sym,
        };
        let (a, b) = (self.expr(ops[0]), self.expr(ops[1]));
        let r = self.body.result(op, 0);
        if self.flavor == Flavor::CudaDevice && self.is_vector(r) {
            // Component by component: CUDA's vector types have no operators.
            let (a, b) = (paren(&a), paren(&b));
            let s = self.lanes_expr(r, |k| {
                let c = ctypes::component(k);
                format!("{a}.{c} {sym} {b}.{c}")
            });
            self.define(op, r, s);
            return;
        }
        let s = format!("{} {sym} {}", paren(&a), paren(&b));
        self.define(op, r, s);
    }

    /// Whether `v` is a vector.
    fn is_vector(&self, v: Value) -> bool {
        matches!(self.ctx.type_data(self.body.value_type(v)), TypeData::Vector { .. })
    }

    /// A vector value of `v`'s type from one expression per lane:
    /// `make_float4(...)` in CUDA, `(float4)(...)` in OpenCL C.
    fn lanes_expr(&mut self, v: Value, lane: impl Fn(usize) -> String) -> String {
        let ty = self.body.value_type(v);
        let t = ctypes::vector(self.ctx, ty).unwrap_or("float4");
        let n = ctypes::lanes(self.ctx, ty).unwrap_or(0);
        let parts: Vec<String> = (0..n).map(lane).collect();
        match self.flavor {
            Flavor::OclDevice => format!("({t})({})", parts.join(", ")),
            Flavor::BrookKernel => format!("{t}({})", parts.join(", ")),
            _ => format!("make_{t}({})", parts.join(", ")),
        }
    }

    /// The `vector` ops: aligned vector loads and stores (one `float4`
    /// access: a pointer cast in CUDA, `vload4`/`vstore4` in OpenCL C),
    /// components as `.x`..`.w`, broadcasts and element lists as vector
    /// constructors. Returns whether `op` is one.
    fn vector_op(&mut self, op: OpId) -> bool {
        let ir = self.ir();
        if let Some(load) = VectorLoadOp::cast(&ir, op) {
            let r = load.result(&ir);
            let ty = self.body.value_type(r);
            let t = self.cty(op, ty);
            let Some(m) = self.mem(op, load.base(&ir)) else {
                return true;
            };
            self.check_access(op, &m);
            let idx: Vec<String> = load.indices(&ir).iter().map(|v| self.expr(*v)).collect();
            let el = self.element(&m, &idx);
            let s = match self.flavor {
                Flavor::OclDevice => format!("vload{}(0, &{el})", ctypes::lanes(self.ctx, ty).unwrap_or(0)),
                _ => format!("*({t}*)&{el}"),
            };
            self.define(op, r, s);
        } else if let Some(store) = VectorStoreOp::cast(&ir, op) {
            let v = store.value_to_store(&ir);
            let ty = self.body.value_type(v);
            let t = self.cty(op, ty);
            let Some(m) = self.mem(op, store.base(&ir)) else {
                return true;
            };
            self.check_access(op, &m);
            let idx: Vec<String> = store.indices(&ir).iter().map(|v| self.expr(*v)).collect();
            let el = self.element(&m, &idx);
            let val = self.expr(v);
            let s = match self.flavor {
                Flavor::OclDevice => format!("vstore{}({val}, 0, &{el});", ctypes::lanes(self.ctx, ty).unwrap_or(0)),
                _ => format!("*({t}*)&{el} = {val};"),
            };
            self.line(&s);
        } else if let Some(x) = VectorExtractOp::cast(&ir, op) {
            let p = x.static_position(&ir).first().copied().unwrap_or(0) as usize;
            let s = format!("{}.{}", paren(&self.expr(x.source(&ir))), ctypes::component(p.min(3)));
            self.inline(x.result(&ir), s);
        } else if let Some(x) = VectorInsertOp::cast(&ir, op) {
            let p = x.static_position(&ir).first().copied().unwrap_or(0) as usize;
            let r = x.result(&ir);
            let (dest, val) = (self.expr(x.dest(&ir)), self.expr(x.value_to_store(&ir)));
            self.define(op, r, dest);
            if self.body.has_uses(r) {
                let name = self.expr(r);
                self.line(&format!("{name}.{} = {val};", ctypes::component(p.min(3))));
            }
        } else if let Some(x) = VectorBroadcastOp::cast(&ir, op) {
            let r = x.vector(&ir);
            let s = self.expr(x.source(&ir));
            let e = self.lanes_expr(r, |_| s.clone());
            self.define(op, r, e);
        } else if let Some(x) = VectorFromElementsOp::cast(&ir, op) {
            let r = x.dest(&ir);
            let parts = self.exprs(&x.elements(&ir));
            let e = self.lanes_expr(r, |k| parts[k].clone());
            self.define(op, r, e);
        } else {
            return false;
        }
        true
    }

    /// `arith.cmpi`: signed predicates compare the operands as they are,
    /// unsigned ones through casts to the unsigned type of their width.
    fn compare_int(&mut self, c: ArithCmpiOp) {
        let ir = self.ir();
        let (lhs, rhs) = (c.lhs(&ir), c.rhs(&ir));
        let (a, b) = (paren(&self.expr(lhs)), paren(&self.expr(rhs)));
        let ty = self.body.value_type(lhs);
        let u = ctypes::unsigned(self.ctx, ty, self.flavor).unwrap_or("unsigned int");
        let (ua, ub) = (format!("({u}){a}"), format!("({u}){b}"));
        let s = match c.predicate(&ir) {
            CmpIPredicate::Eq => format!("{a} == {b}"),
            CmpIPredicate::Ne => format!("{a} != {b}"),
            CmpIPredicate::Slt => format!("{a} < {b}"),
            CmpIPredicate::Sle => format!("{a} <= {b}"),
            CmpIPredicate::Sgt => format!("{a} > {b}"),
            CmpIPredicate::Sge => format!("{a} >= {b}"),
            CmpIPredicate::Ult => format!("{ua} < {ub}"),
            CmpIPredicate::Ule => format!("{ua} <= {ub}"),
            CmpIPredicate::Ugt => format!("{ua} > {ub}"),
            CmpIPredicate::Uge => format!("{ua} >= {ub}"),
        };
        self.define(c.op(), c.result(&ir), s);
    }

    /// `arith.cmpf`: C's relational operators are false when an operand is
    /// NaN, so ordered predicates are written as they are and unordered ones
    /// as the negation of the opposite ordered comparison.
    fn compare_float(&mut self, c: ArithCmpfOp) {
        let ir = self.ir();
        let (a, b) = (paren(&self.expr(c.lhs(&ir))), paren(&self.expr(c.rhs(&ir))));
        let s = match c.predicate(&ir) {
            CmpFPredicate::False => "0".into(),
            CmpFPredicate::Oeq => format!("{a} == {b}"),
            CmpFPredicate::Ogt => format!("{a} > {b}"),
            CmpFPredicate::Oge => format!("{a} >= {b}"),
            CmpFPredicate::Olt => format!("{a} < {b}"),
            CmpFPredicate::Ole => format!("{a} <= {b}"),
            CmpFPredicate::One => format!("{a} < {b} || {a} > {b}"),
            CmpFPredicate::Ord => format!("{a} == {a} && {b} == {b}"),
            CmpFPredicate::Ueq => format!("!({a} < {b} || {a} > {b})"),
            CmpFPredicate::Ugt => format!("!({a} <= {b})"),
            CmpFPredicate::Uge => format!("!({a} < {b})"),
            CmpFPredicate::Ult => format!("!({a} >= {b})"),
            CmpFPredicate::Ule => format!("!({a} > {b})"),
            CmpFPredicate::Une => format!("{a} != {b}"),
            CmpFPredicate::Uno => format!("{a} != {a} || {b} != {b}"),
            CmpFPredicate::True => "1".into(),
        };
        self.define(c.op(), c.result(&ir), s);
    }

    /// `arith.bitcast` between scalars of one bit width. Between integer
    /// types (one C type per width) the value is used as it is; between an
    /// integer and a float the bits are reinterpreted: through CUDA's
    /// `__float_as_int` family in CUDA kernels, OpenCL C's `as_<type>()` in
    /// OpenCL kernels, `memcpy` in CUDA host code (C++) and a union in
    /// OpenCL host code (C99).
    fn bitcast(&mut self, c: ArithBitcastOp) {
        let (op, ir) = (c.op(), self.ir());
        let (input, out) = (c.in_(&ir), c.out(&ir));
        let (from, to) = (self.body.value_type(input), self.body.value_type(out));
        let errors = self.errors.len();
        let (ft, tt) = (self.cty(op, from), self.cty(op, to));
        let bits = match (scalar_bits(self.ctx, from), scalar_bits(self.ctx, to)) {
            _ if self.errors.len() > errors => return,
            (Some(f), Some(t)) if f == t => f,
            (Some(_), Some(_)) => return self.bad_bitcast(c, "the types must have the same bit width"),
            _ => return self.bad_bitcast(c, "only integers and floats can be bitcast"),
        };
        let x = self.expr(input);
        if ft == tt {
            self.inline(out, x);
            return;
        }
        match self.flavor {
            Flavor::CudaDevice => {
                let f = match (ctypes::is_float(self.ctx, from), bits) {
                    (true, 32) => "__float_as_int",
                    (false, 32) => "__int_as_float",
                    (true, 64) => "__double_as_longlong",
                    (false, 64) => "__longlong_as_double",
                    _ => return self.bad_bitcast(c, "CUDA reinterprets 32- and 64-bit values only"),
                };
                self.define(op, out, format!("{f}({x})"));
            }
            Flavor::OclDevice => self.define(op, out, format!("as_{tt}({x})")),
            Flavor::BrookKernel => self.bad_bitcast(c, "Brook+ cannot reinterpret bits"),
            Flavor::OclHost => {
                let s = format!("((union {{ {ft} from; {tt} to; }}){{{x}}}).to");
                self.define(op, out, s);
            }
            Flavor::CudaHost | Flavor::BrookHost => {
                if !self.body.has_uses(out) {
                    return;
                }
                let n = self.names.get(out);
                self.line(&format!("{tt} {n};"));
                // memcpy needs an object to copy from: a local is one, an
                // inlined expression (a constant) gets a temporary.
                let is_local = matches!(self.vals.get(&input), Some(Val::Expr(e)) if *e == self.names.get(input));
                if is_local {
                    self.line(&format!("memcpy(&{n}, &{x}, sizeof {n});"));
                } else {
                    self.line(&format!(
                        "{{ const {ft} lf_bits = {x}; memcpy(&{n}, &lf_bits, sizeof {n}); }}"
                    ));
                }
                self.vals.insert(out, Val::Expr(n));
            }
        }
    }

    /// Reports the `arith.bitcast` `c` as not supported, saying `why`.
    fn bad_bitcast(&mut self, c: ArithBitcastOp, why: &str) {
        let ir = self.ir();
        let show = |v| lf_ir::printer::type_to_string(self.ctx, self.body.value_type(v));
        let msg = format!(
            "'{}' from '{}' to '{}' is not supported by the emitter: {why}",
            ArithBitcastOp::def().name,
            show(c.in_(&ir)),
            show(c.out(&ir))
        );
        self.err(c.op(), msg);
    }

    /// The C expressions of `values`.
    fn exprs(&self, values: &[Value]) -> Vec<String> {
        values.iter().map(|v| self.expr(*v)).collect()
    }

    fn map_result(&self, map: &AffineMap, i: usize, args: &[String]) -> String {
        let nd = map.num_dims() as usize;
        expr::affine(map.result(i), &args[..nd], &args[nd..], self.div_style())
    }

    fn fold_minmax(&self, map: &AffineMap, args: &[String], cmp: &str) -> String {
        let mut acc = self.map_result(map, 0, args);
        for i in 1..map.num_results() {
            let r = self.map_result(map, i, args);
            let (a, b) = (paren(&acc), paren(&r));
            acc = format!("{a} {cmp} {b} ? {a} : {b}");
        }
        acc
    }

    /// The element of `memref` that `affine.load`/`affine.store` `op`
    /// accesses through `map` applied to `indices`.
    fn affine_element(&mut self, op: OpId, memref: Value, map: &AffineMap, indices: &[Value]) -> Option<String> {
        let m = self.mem(op, memref)?;
        self.check_access(op, &m);
        let args = self.exprs(indices);
        let idx: Vec<String> = (0..map.num_results()).map(|i| self.map_result(map, i, &args)).collect();
        Some(self.element(&m, &idx))
    }

    /// A `gpu` id op (`id` in dimension `dim`) as a `const int` local.
    fn gpu_id(&mut self, op: OpId, id: GpuId, dim: Dimension) {
        let (xyz, d) = (dim.keyword(), dim.index());
        let s = match (self.flavor, id) {
            (Flavor::CudaDevice, GpuId::Thread) => format!("(int)threadIdx.{xyz}"),
            (Flavor::CudaDevice, GpuId::Block) => format!("(int)blockIdx.{xyz}"),
            (Flavor::CudaDevice, GpuId::BlockDim) => format!("(int)blockDim.{xyz}"),
            (Flavor::CudaDevice, GpuId::GridDim) => format!("(int)gridDim.{xyz}"),
            (Flavor::CudaDevice, GpuId::Global) => {
                format!("(int)(blockIdx.{xyz} * blockDim.{xyz} + threadIdx.{xyz})")
            }
            (Flavor::OclDevice, GpuId::Thread) => format!("(int)get_local_id({d})"),
            (Flavor::OclDevice, GpuId::Block) => format!("(int)get_group_id({d})"),
            (Flavor::OclDevice, GpuId::BlockDim) => format!("(int)get_local_size({d})"),
            (Flavor::OclDevice, GpuId::GridDim) => format!("(int)get_num_groups({d})"),
            (Flavor::OclDevice, GpuId::Global) => format!("(int)get_global_id({d})"),
            (Flavor::BrookKernel, _) => match self.brook.as_ref().map(|b| b.id_expr(id, d)) {
                Some(s) => s,
                None => {
                    self.err(op, "a Brook+ kernel without launch sizes");
                    return;
                }
            },
            _ => {
                let name = op_label(self.ctx, self.body, op);
                self.err(op, format!("'{name}' outside a kernel"));
                return;
            }
        };
        let r = self.body.result(op, 0);
        let n = self.names.get(r);
        if !self.body.has_uses(r) {
            return;
        }
        if self.c89_decls.is_some() {
            self.declare("int", &n, Some(&s));
        } else {
            self.line(&format!("const int {n} = {s};"));
        }
        self.vals.insert(r, Val::Expr(n));
    }

    /// Declares the loop/if results, initialised or not.
    fn declare_results(&mut self, op: OpId, inits: Option<&[Value]>) -> Vec<String> {
        let mut names = Vec::new();
        let results: Vec<Value> = self.body.results(op).collect();
        for (i, r) in results.into_iter().enumerate() {
            let t = self.cty(op, self.body.value_type(r));
            let n = self.names.get(r);
            let init = inits.map(|init| self.expr(init[i]));
            self.declare(t, &n, init.as_deref());
            self.vals.insert(r, Val::Expr(n.clone()));
            names.push(n);
        }
        names
    }

    /// Emits a loop body: copies of the carried values, the ops, then the
    /// yield as assignments to `carried`.
    fn loop_body(&mut self, block: BlockId, iter_args: &[Value], carried: &[String]) {
        self.indent += 1;
        for (a, c) in iter_args.iter().zip(carried) {
            let t = self.cty_value(*a);
            let n = self.names.get(*a);
            self.declare(t, &n, Some(c));
            self.vals.insert(*a, Val::Expr(n));
        }
        self.block(block, true);
        self.yield_to(block, carried);
        self.indent -= 1;
    }

    fn cty_value(&mut self, v: Value) -> &'static str {
        let ty = self.body.value_type(v);
        ctypes::scalar(self.ctx, ty, self.flavor).unwrap_or("int")
    }

    fn yield_to(&mut self, block: BlockId, targets: &[String]) {
        if targets.is_empty() {
            return;
        }
        if let Some(t) = self.body.terminator(block) {
            let vals: Vec<Value> = self.body.operands(t).collect();
            for (v, n) in vals.iter().zip(targets) {
                let e = self.expr(*v);
                if e != *n {
                    self.line(&format!("{n} = {e};"));
                }
            }
        }
    }

    fn scf_for(&mut self, f: ScfForOp) {
        let ir = self.ir();
        let (lb, ub, step) = (
            self.expr(f.lower_bound(&ir)),
            self.expr(f.upper_bound(&ir)),
            self.expr(f.step(&ir)),
        );
        let carried = self.declare_results(f.op(), Some(&f.init_args(&ir)));
        let lp = CountedLoop {
            block: f.region_block(&ir),
            iv: f.iv(&ir),
            iter_args: f.region_iter_args(&ir),
        };
        // `scf.for unsigned` compares the induction variable with the upper
        // bound as unsigned numbers.
        let unsigned = f.unsigned_cmp(&ir).then(|| {
            let ty = self.body.value_type(f.iv(&ir));
            ctypes::unsigned(self.ctx, ty, self.flavor).unwrap_or("unsigned int")
        });
        self.counted_loop(&lp, &lb, &ub, &step, &carried, unsigned);
    }

    /// `for (T iv = lb; iv < ub; iv += step) { body }` for the loop `lp`
    /// whose results are `carried`; `ub` is used as written; with
    /// `unsigned`, both sides of `<` are cast to that type.
    fn counted_loop(
        &mut self,
        lp: &CountedLoop,
        lb: &str,
        ub: &str,
        step: &str,
        carried: &[String],
        unsigned: Option<&str>,
    ) {
        let iv = self.names.get(lp.iv);
        let t = self.cty_value(lp.iv);
        self.vals.insert(lp.iv, Val::Expr(iv.clone()));
        let cond = match unsigned {
            Some(u) => format!("({u}){iv} < ({u}){}", paren(ub)),
            None => format!("{iv} < {ub}"),
        };
        let head = self.for_head(t, &iv, lb, &cond, step);
        self.line(&head);
        self.loop_body(lp.block, &lp.iter_args, carried);
        self.line("}");
    }

    /// A parallel loop without reductions (`scf.parallel`,
    /// `affine.parallel`) as nested sequential loops, one per induction
    /// variable `(iv, lb, ub, step)`, over `block`.
    fn parallel_loops(&mut self, dims: &[(Value, String, String, String)], block: BlockId) {
        for (iv, lb, ub, step) in dims {
            let name = self.names.get(*iv);
            let t = self.cty_value(*iv);
            self.vals.insert(*iv, Val::Expr(name.clone()));
            let ub = if expr::is_atom(ub) {
                ub.clone()
            } else {
                format!("({ub})")
            };
            let head = self.for_head(t, &name, lb, &format!("{name} < {ub}"), step);
            self.line(&head);
            self.indent += 1;
        }
        self.block(block, true);
        for _ in dims {
            self.indent -= 1;
            self.line("}");
        }
    }

    fn affine_for(&mut self, f: AffineForOp) {
        let ir = self.ir();
        let (lower, upper) = (f.lower_bound(&ir), f.upper_bound(&ir));
        let largs = self.exprs(&lower.operands);
        let uargs = self.exprs(&upper.operands);
        let lb = self.fold_minmax(&lower.map, &largs, ">");
        let ub = self.fold_minmax(&upper.map, &uargs, "<");
        let carried = self.declare_results(f.op(), Some(&f.inits(&ir)));
        let ub = if expr::is_atom(&ub) { ub } else { format!("({ub})") };
        let lp = CountedLoop {
            block: f.region_block(&ir),
            iv: f.iv(&ir),
            iter_args: f.region_iter_args(&ir),
        };
        self.counted_loop(&lp, &lb, &ub, &f.step(&ir).to_string(), &carried, None);
    }

    /// `scf.while` as `while (1) { { before; results = forwarded; if
    /// (!cond) break; } after; carried = yielded; }`: the carried values live
    /// in `lf_`-prefixed locals (a prefix no value name has), the results
    /// hold the values the condition forwards on every trip, and the
    /// `after` block's arguments are copies of them.
    fn scf_while(&mut self, w: ScfWhileOp) {
        let ir = self.ir();
        let (before, after) = (
            self.body.entry_block(w.before(&ir)),
            self.body.entry_block(w.after(&ir)),
        );
        let (Some(before), Some(after)) = (before, after) else {
            self.err(w.op(), "an scf.while without blocks");
            return;
        };
        let inits = w.inits(&ir);
        let before_args: Vec<Value> = self.body.block_args(before).to_vec();
        let mut carried = Vec::new();
        for (a, init) in before_args.iter().zip(&inits) {
            let t = self.cty_value(*a);
            let n = format!("lf_{}", self.names.get(*a));
            let e = self.expr(*init);
            self.declare(t, &n, Some(&e));
            carried.push(n);
        }
        let results = self.declare_results(w.op(), None);
        self.line("while (1) {");
        // The `before` block in a scope of its own: its arguments and the
        // `after` block's share names.
        self.indent += 1;
        self.line("{");
        self.indent += 1;
        for (a, c) in before_args.iter().zip(&carried) {
            let t = self.cty_value(*a);
            let n = self.names.get(*a);
            self.declare(t, &n, Some(c));
            self.vals.insert(*a, Val::Expr(n));
        }
        self.block(before, true);
        let condition = self.body.terminator(before).and_then(|t| ScfConditionOp::cast(&ir, t));
        let Some(condition) = condition else {
            self.err(
                w.op(),
                "an scf.while whose `before` block does not end with scf.condition",
            );
            return;
        };
        for (v, n) in condition.args(&ir).iter().zip(&results) {
            let e = self.expr(*v);
            self.line(&format!("{n} = {e};"));
        }
        let c = self.expr(condition.condition(&ir));
        self.line(&format!("if (!{}) break;", paren(&c)));
        self.indent -= 1;
        self.line("}");
        for (a, r) in self.body.block_args(after).to_vec().into_iter().zip(&results) {
            let t = self.cty_value(a);
            let n = self.names.get(a);
            self.declare(t, &n, Some(r));
            self.vals.insert(a, Val::Expr(n));
        }
        self.block(after, true);
        // No yielded expression reads a carried local (only the copies at
        // the top do), so assigning them one after another is safe.
        self.yield_to(after, &carried);
        self.indent -= 1;
        self.line("}");
    }

    fn scf_if(&mut self, i: ScfIfOp) {
        let ir = self.ir();
        let cond = self.expr(i.condition(&ir));
        self.if_else(i.op(), &cond, i.then_region_block(&ir), i.else_region_block(&ir));
    }

    /// `affine.if`: the conjunction of its set's constraints
    /// (`e >= 0`, `e == 0`) on its operands.
    fn affine_if(&mut self, i: AffineIfOp) {
        let ir = self.ir();
        let set = i.condition(&ir);
        let args = self.exprs(&i.operands(&ir));
        let nd = set.num_dims() as usize;
        let style = self.div_style();
        let conds: Vec<String> = (0..set.num_constraints())
            .map(|k| {
                let e = expr::affine(set.constraint(k), &args[..nd], &args[nd..], style);
                let op = if set.is_eq(k) { "==" } else { ">=" };
                format!("{} {op} 0", paren(&e))
            })
            .collect();
        let cond = if conds.is_empty() {
            "1".to_string()
        } else {
            conds.join(" && ")
        };
        self.if_else(i.op(), &cond, i.then_block(&ir), i.else_block(&ir));
    }

    /// `if (cond) { then } else { otherwise }` for an if op with results
    /// yielded from its blocks.
    fn if_else(&mut self, op: OpId, cond: &str, then: BlockId, otherwise: Option<BlockId>) {
        let targets = self.declare_results(op, None);
        self.line(&format!("if ({cond}) {{"));
        self.indent += 1;
        self.block(then, true);
        self.yield_to(then, &targets);
        self.indent -= 1;
        if let Some(b) = otherwise {
            self.line("} else {");
            self.indent += 1;
            self.block(b, true);
            self.yield_to(b, &targets);
            self.indent -= 1;
        }
        self.line("}");
    }
}

/// The block of a counted loop (`scf.for`, `affine.for`): its induction
/// variable and the block arguments of its loop-carried values.
struct CountedLoop {
    block: BlockId,
    iv: Value,
    iter_args: ValueList,
}

/// The bit width of a scalar integer or float type.
fn scalar_bits(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.type_data(t) {
        TypeData::Integer { width, .. } => Some(*width),
        TypeData::Float(k) => Some(k.width()),
        _ => None,
    }
}

/// Whether `t` is `i1`.
fn is_i1(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_data(t), TypeData::Integer { width: 1, .. })
}

/// Which id a `gpu` id op reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum GpuId {
    /// `gpu.thread_id`.
    Thread,
    /// `gpu.block_id`.
    Block,
    /// `gpu.block_dim`.
    BlockDim,
    /// `gpu.grid_dim`.
    GridDim,
    /// `gpu.global_id`.
    Global,
}

/// The id and dimension `op` reads, if it is a `gpu` id op.
fn gpu_id(ir: &IrRef<'_, '_>, op: OpId) -> Option<(GpuId, Dimension)> {
    if let Some(x) = GpuThreadIdOp::cast(ir, op) {
        return Some((GpuId::Thread, x.dimension(ir)));
    }
    if let Some(x) = GpuBlockIdOp::cast(ir, op) {
        return Some((GpuId::Block, x.dimension(ir)));
    }
    if let Some(x) = GpuBlockDimOp::cast(ir, op) {
        return Some((GpuId::BlockDim, x.dimension(ir)));
    }
    if let Some(x) = GpuGridDimOp::cast(ir, op) {
        return Some((GpuId::GridDim, x.dimension(ir)));
    }
    GpuGlobalIdOp::cast(ir, op).map(|x| (GpuId::Global, x.dimension(ir)))
}

/// An op kind in a table: its view's declaration.
type Def = fn() -> &'static OpDef;

/// The entry of `table` for the op declared by `def`.
fn lookup<T: Copy>(def: Option<&'static OpDef>, table: &[(Def, T)]) -> Option<T> {
    let def = def?;
    table.iter().find(|(d, _)| std::ptr::eq(d(), def)).map(|&(_, v)| v)
}

/// Whether `def` declares one of the ops of `set`.
fn one_of(def: Option<&'static OpDef>, set: &[Def]) -> bool {
    def.is_some_and(|def| set.iter().any(|d| std::ptr::eq(d(), def)))
}

/// `index` arithmetic, inlined into its uses (see [`paren_mul`]).
const INDEX_OPS: &[(Def, &str)] = &[
    (ArithAddiOp::def, "+"),
    (ArithSubiOp::def, "-"),
    (ArithMuliOp::def, "*"),
];

/// Binary ops that are one C operator.
const BINARY_OPS: &[(Def, &str)] = &[
    (ArithAddiOp::def, "+"),
    (ArithAddfOp::def, "+"),
    (ArithSubiOp::def, "-"),
    (ArithSubfOp::def, "-"),
    (ArithMuliOp::def, "*"),
    (ArithMulfOp::def, "*"),
    (ArithDivsiOp::def, "/"),
    (ArithDivfOp::def, "/"),
    (ArithRemsiOp::def, "%"),
    (ArithAndiOp::def, "&"),
    (ArithOriOp::def, "|"),
    (ArithXoriOp::def, "^"),
    (ArithShliOp::def, "<<"),
    (ArithShrsiOp::def, ">>"),
];

/// The ops on vectors the CUDA emitter writes (component by component).
const CUDA_VECTOR_OPS: &[Def] = &[
    ArithAddfOp::def,
    ArithSubfOp::def,
    ArithMulfOp::def,
    ArithDivfOp::def,
    ArithNegfOp::def,
];

/// Integer ops that are one C operator on the unsigned type of their width.
const UNSIGNED_OPS: &[(Def, &str)] = &[
    (ArithDivuiOp::def, "/"),
    (ArithRemuiOp::def, "%"),
    (ArithShruiOp::def, ">>"),
];

/// Rounding divisions, through the helpers of [`expr::affine_helpers`].
const DIVISION_HELPERS: &[(Def, &str)] = &[
    (ArithFloordivsiOp::def, "lf_floordiv"),
    (ArithCeildivsiOp::def, "lf_ceildiv"),
];

/// Integer minimum and maximum, as `a CMP b ? a : b` (the comparison, and
/// whether it is on unsigned values).
const INTEGER_MIN_MAX: &[(Def, (&str, bool))] = &[
    (ArithMaxsiOp::def, (">", false)),
    (ArithMinsiOp::def, ("<", false)),
    (ArithMaxuiOp::def, (">", true)),
    (ArithMinuiOp::def, ("<", true)),
];

/// Float ops of two operands that are a C math function.
const FLOAT_BINARY_FUNCTIONS: &[(Def, &str)] = &[
    (ArithMaximumfOp::def, "fmax"),
    (ArithMaxnumfOp::def, "fmax"),
    (ArithMinimumfOp::def, "fmin"),
    (ArithMinnumfOp::def, "fmin"),
    (ArithRemfOp::def, "fmod"),
];

/// `math` ops that are the C math function of the same name (`f` suffixed
/// for `f32` outside OpenCL C).
const MATH_FUNCTIONS: &[(Def, &str)] = &[
    (MathSqrtOp::def, "sqrt"),
    (MathExpOp::def, "exp"),
    (MathExp2Op::def, "exp2"),
    (MathLogOp::def, "log"),
    (MathLog2Op::def, "log2"),
    (MathSinOp::def, "sin"),
    (MathCosOp::def, "cos"),
    (MathTanhOp::def, "tanh"),
    (MathAbsfOp::def, "fabs"),
    (MathFloorOp::def, "floor"),
    (MathCeilOp::def, "ceil"),
    (MathPowfOp::def, "pow"),
    (MathFmaOp::def, "fma"),
];

/// Conversions that are a C cast to the result type.
const CASTS: &[Def] = &[
    ArithIndexCastOp::def,
    ArithExtsiOp::def,
    ArithTrunciOp::def,
    ArithSitofpOp::def,
    ArithFptosiOp::def,
    ArithExtfOp::def,
    ArithTruncfOp::def,
    ArithFptouiOp::def,
];

/// Conversions that read their operand as unsigned.
const UNSIGNED_CASTS: &[Def] = &[ArithUitofpOp::def, ArithExtuiOp::def, ArithIndexCastuiOp::def];

/// Host ops written by the target (allocation, copies, launches, calls).
const HOST_OPS: &[Def] = &[
    GpuAllocOp::def,
    GpuDeallocOp::def,
    GpuMemcpyOp::def,
    GpuWaitOp::def,
    GpuLaunchFuncOp::def,
    FuncCallOp::def,
    GpuMemsetOp::def,
];

/// Parenthesizes an operand of `*` unless it is an atom or already a product.
fn paren_mul(e: &str) -> String {
    if expr::is_atom(e) || (!e.contains(['+', '-', '?', '<', '>', '=', '&', '|', '/', '%', '^']) && !e.starts_with('-'))
    {
        e.to_string()
    } else {
        format!("({e})")
    }
}
