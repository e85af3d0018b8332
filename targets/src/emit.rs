//! The statement emitter shared by all targets: walks the ops of a function
//! body and writes C statements, one local per SSA value (named after the
//! IR's value names), constants and index arithmetic inlined as expressions.
//! Host-only ops (allocation, copies, launches) are written per flavor.

use crate::ctypes::{self, Flavor};
use crate::expr::{self, paren};
use crate::module::{op_error, Program};
use crate::names::ValueNames;
use lf_diag::Diagnostic;
use lf_ir::{AttrData, BlockId, Body, Context, OpId, RegionId, Type, TypeData, Value, DYNAMIC};
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
}

/// Whether a memref type's memory space is `#gpu.address_space<NAME>`.
pub fn has_space(ctx: &Context, t: Type, name: &str) -> bool {
    match ctx.type_data(t) {
        TypeData::MemRef {
            memory_space: Some(s), ..
        } => match ctx.attr_data(*s) {
            AttrData::Dialect { body, .. } => body.contains(name),
            _ => false,
        },
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

    fn opname(&self, op: OpId) -> &'a str {
        self.ctx.op_name_str(self.body.op_name(op))
    }

    /// The C type of a scalar, or an error at `op`.
    pub fn cty(&mut self, op: OpId, t: Type) -> &'static str {
        match ctypes::scalar(self.ctx, t, self.flavor) {
            Some(s) => s,
            None => {
                let ts = lf_ir::printer::type_to_string(self.ctx, t);
                self.err(op, format!("type '{ts}' is not supported by the emitter"));
                "int"
            }
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
        self.line(&format!("{t} {name} = {rhs};"));
        self.vals.insert(v, Val::Expr(name));
    }

    fn inline(&mut self, v: Value, e: String) {
        self.vals.insert(v, Val::Expr(e));
    }

    fn math_fn(&self, base: &str, ty: Type) -> String {
        match self.flavor {
            Flavor::OclDevice => base.to_string(),
            _ if ctypes::is_f64(self.ctx, ty) => base.to_string(),
            _ => format!("{base}f"),
        }
    }

    fn operands(&self, op: OpId) -> Vec<Value> {
        self.body.operands(op).collect()
    }

    /// Emits one op.
    pub fn op(&mut self, op: OpId) {
        let name = self.opname(op);
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
        match name {
            "arith.constant" => self.constant(op),
            "arith.addi" | "arith.subi" | "arith.muli" if is_index(self, res) => {
                let sym = match name {
                    "arith.addi" => "+",
                    "arith.subi" => "-",
                    _ => "*",
                };
                let (a, b) = (e(self, 0), e(self, 1));
                let s = if sym == "*" {
                    format!("{} * {}", paren_mul(&a), paren_mul(&b))
                } else if sym == "-" {
                    format!("{a} - {}", paren_mul(&b))
                } else {
                    format!("{a} + {}", paren_mul(&b))
                };
                self.inline(res.unwrap(), s);
            }
            "arith.addi" | "arith.addf" => self.binop(op, "+"),
            "arith.subi" | "arith.subf" => self.binop(op, "-"),
            "arith.muli" | "arith.mulf" => self.binop(op, "*"),
            "arith.divsi" | "arith.divf" => self.binop(op, "/"),
            "arith.remsi" => self.binop(op, "%"),
            "arith.andi" => self.binop(op, "&"),
            "arith.ori" => self.binop(op, "|"),
            "arith.xori" => self.binop(op, "^"),
            "arith.shli" => self.binop(op, "<<"),
            "arith.shrsi" => self.binop(op, ">>"),
            "arith.divui" | "arith.remui" | "arith.shrui" => {
                let sym = match name {
                    "arith.divui" => "/",
                    "arith.remui" => "%",
                    _ => ">>",
                };
                let ty = self.body.value_type(ops[0]);
                let t = self.cty(op, ty);
                let u = ctypes::unsigned(self.ctx, ty, self.flavor).unwrap_or("unsigned int");
                let s = format!("({t})(({u}){} {sym} ({u}){})", paren(&e(self, 0)), paren(&e(self, 1)));
                self.define(op, res.unwrap(), s);
            }
            "arith.floordivsi" | "arith.ceildivsi" => {
                let f = if name == "arith.floordivsi" {
                    "lf_floordiv"
                } else {
                    "lf_ceildiv"
                };
                let sfx = if self.flavor.is_device() { "" } else { "64" };
                let s = format!("{f}{sfx}({}, {})", e(self, 0), e(self, 1));
                self.define(op, res.unwrap(), s);
            }
            "arith.maxsi" | "arith.minsi" | "arith.maxui" | "arith.minui" => {
                let cmp = if name.contains("max") { ">" } else { "<" };
                let (a, b) = (paren(&e(self, 0)), paren(&e(self, 1)));
                let s = format!("{a} {cmp} {b} ? {a} : {b}");
                self.define(op, res.unwrap(), s);
            }
            "arith.maximumf" | "arith.maxnumf" | "arith.minimumf" | "arith.minnumf" => {
                let base = if name.contains("max") { "fmax" } else { "fmin" };
                let f = self.math_fn(base, self.body.value_type(ops[0]));
                let s = format!("{f}({}, {})", e(self, 0), e(self, 1));
                self.define(op, res.unwrap(), s);
            }
            "arith.remf" => {
                let f = self.math_fn("fmod", self.body.value_type(ops[0]));
                let s = format!("{f}({}, {})", e(self, 0), e(self, 1));
                self.define(op, res.unwrap(), s);
            }
            "arith.negf" => {
                let s = format!("-{}", paren(&e(self, 0)));
                self.define(op, res.unwrap(), s);
            }
            "arith.cmpi" | "arith.cmpf" => self.compare(op),
            "arith.select" => {
                let s = format!(
                    "{} ? {} : {}",
                    paren(&e(self, 0)),
                    paren(&e(self, 1)),
                    paren(&e(self, 2))
                );
                self.define(op, res.unwrap(), s);
            }
            "arith.index_cast" | "arith.extsi" | "arith.trunci" | "arith.sitofp" | "arith.fptosi" | "arith.extf"
            | "arith.truncf" | "arith.fptoui" => {
                let r = res.unwrap();
                let t = self.cty(op, self.body.value_type(r));
                let s = format!("({t}){}", paren(&e(self, 0)));
                if name == "arith.index_cast" && self.flavor.is_device() {
                    // index is `int` in kernels: the cast is free.
                    let src = self.cty(op, self.body.value_type(ops[0]));
                    if src == t {
                        self.inline(r, e(self, 0));
                        return;
                    }
                }
                self.define(op, r, s);
            }
            "arith.uitofp" | "arith.extui" | "arith.index_castui" => {
                let r = res.unwrap();
                let t = self.cty(op, self.body.value_type(r));
                let src = self.body.value_type(ops[0]);
                let u = ctypes::unsigned(self.ctx, src, self.flavor).unwrap_or("unsigned int");
                let s = format!("({t})({u}){}", paren(&e(self, 0)));
                self.define(op, r, s);
            }
            "math.sqrt" | "math.exp" | "math.exp2" | "math.log" | "math.log2" | "math.sin" | "math.cos"
            | "math.tanh" | "math.absf" | "math.floor" | "math.ceil" | "math.powf" | "math.fma" => {
                let base = match name {
                    "math.absf" => "fabs",
                    "math.powf" => "pow",
                    other => &other[5..],
                };
                let f = self.math_fn(base, self.body.value_type(ops[0]));
                let args: Vec<String> = (0..ops.len()).map(|i| e(self, i)).collect();
                let s = format!("{f}({})", args.join(", "));
                self.define(op, res.unwrap(), s);
            }
            "math.rsqrt" => {
                let ty = self.body.value_type(ops[0]);
                let s = match self.flavor {
                    Flavor::OclDevice => format!("rsqrt({})", e(self, 0)),
                    Flavor::CudaDevice if !ctypes::is_f64(self.ctx, ty) => format!("rsqrtf({})", e(self, 0)),
                    _ => {
                        let one = expr::float_literal(1.0, !ctypes::is_f64(self.ctx, ty));
                        format!("{one} / {}({})", self.math_fn("sqrt", ty), e(self, 0))
                    }
                };
                self.define(op, res.unwrap(), s);
            }
            "math.absi" => {
                let a = paren(&e(self, 0));
                self.define(op, res.unwrap(), format!("{a} < 0 ? -{a} : {a}"));
            }
            "memref.load" => {
                if let Some(m) = self.mem(op, ops[0]) {
                    self.check_access(op, &m);
                    let idx: Vec<String> = ops[1..].iter().map(|v| self.expr(*v)).collect();
                    let s = self.element(&m, &idx);
                    self.define(op, res.unwrap(), s);
                }
            }
            "memref.store" => {
                if let Some(m) = self.mem(op, ops[1]) {
                    self.check_access(op, &m);
                    let idx: Vec<String> = ops[2..].iter().map(|v| self.expr(*v)).collect();
                    let s = format!("{} = {};", self.element(&m, &idx), e(self, 0));
                    self.line(&s);
                }
            }
            "affine.load" | "affine.store" => self.affine_access(op),
            "affine.apply" => {
                if let Some((map, args)) = self.map_operands(op, "map", &ops) {
                    let s = self.map_result(&map, 0, &args);
                    // Plain sums and products are inlined into their uses;
                    // divisions and modulos get a named local.
                    if s.contains("lf_") {
                        self.define(op, res.unwrap(), s);
                    } else {
                        self.inline(res.unwrap(), s);
                    }
                }
            }
            "affine.min" | "affine.max" => {
                if let Some((map, args)) = self.map_operands(op, "map", &ops) {
                    let cmp = if name == "affine.min" { "<" } else { ">" };
                    let s = self.fold_minmax(&map, &args, cmp);
                    self.define(op, res.unwrap(), s);
                }
            }
            "scf.for" => self.scf_for(op),
            "affine.for" => self.affine_for(op),
            "scf.if" => self.scf_if(op),
            "gpu.thread_id" | "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim" | "gpu.global_id" => self.gpu_id(op),
            "gpu.barrier" => {
                match self.flavor {
                    Flavor::CudaDevice => self.line("__syncthreads();"),
                    Flavor::OclDevice => self.line("barrier(CLK_LOCAL_MEM_FENCE);"),
                    _ => self.err(op, "'gpu.barrier' outside a kernel"),
                };
            }
            "gpu.return" | "func.return" => {
                if ops.is_empty() {
                    self.line("return;");
                } else {
                    let s = format!("return {};", e(self, 0));
                    self.line(&s);
                }
            }
            "memref.alloca" if self.flavor.is_device() => {
                let r = res.unwrap();
                let name = self.names.get(r);
                let ty = self.body.value_type(r);
                if let Some(m) = self.view_of_type(op, ty, name.clone(), Space::Private) {
                    let t = self.cty(op, m.elem);
                    let n = m.count();
                    self.line(&format!("{t} {name}[{n}];"));
                    self.vals.insert(r, Val::Mem(m));
                }
            }
            "memref.alloc" | "memref.alloca" if !self.flavor.is_device() => {
                let r = res.unwrap();
                let name = self.names.get(r);
                let ty = self.body.value_type(r);
                if let Some(m) = self.view_of_type(op, ty, name.clone(), Space::Host) {
                    let t = self.cty(op, m.elem);
                    let n = m.count();
                    self.line(&format!(
                        "{t}* {name} = ({t}*)lf_host_alloc((size_t)({n}) * sizeof({t}));"
                    ));
                    self.vals.insert(r, Val::Mem(m));
                }
            }
            "memref.dealloc" if !self.flavor.is_device() => {
                if let Some(m) = self.mem(op, ops[0]) {
                    self.line(&format!("free({});", m.ptr));
                }
            }
            "memref.cast" => {
                if let Some(mut m) = self.mem(op, ops[0]) {
                    let r = res.unwrap();
                    if let TypeData::MemRef { shape, .. } = self.ctx.type_data(self.body.value_type(r)) {
                        for (d, &s) in m.dims.iter_mut().zip(shape.iter()) {
                            if s != DYNAMIC {
                                *d = s.to_string();
                            }
                        }
                    }
                    self.vals.insert(r, Val::Mem(m));
                }
            }
            "gpu.alloc" | "gpu.dealloc" | "gpu.memcpy" | "gpu.wait" | "gpu.launch_func" | "func.call"
            | "gpu.memset"
                if !self.flavor.is_device() =>
            {
                self.host_op(op)
            }
            "scf.yield" | "affine.yield" => self.err(op, format!("'{name}' in an unexpected place")),
            _ => {
                let hint = if self.flavor.is_device() {
                    " in a kernel"
                } else {
                    " in host code"
                };
                self.err(op, format!("'{name}' is not supported by the emitter{hint}"));
            }
        }
    }

    /// Hook for the target's host ops; set by the target before emitting.
    fn host_op(&mut self, op: OpId) {
        match self.flavor {
            Flavor::CudaHost => crate::cuda::host_op(self, op),
            Flavor::OclHost => crate::opencl::host_op(self, op),
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

    fn constant(&mut self, op: OpId) {
        let r = self.body.result(op, 0);
        let Some(a) = lf_ir::ods::prop(self.ctx, self.body, op, "value") else {
            self.err(op, "constant without a value");
            return;
        };
        let s = match self.ctx.attr_data(a) {
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
        let (a, b) = (self.expr(ops[0]), self.expr(ops[1]));
        let s = format!("{} {sym} {}", paren(&a), paren(&b));
        let r = self.body.result(op, 0);
        self.define(op, r, s);
    }

    fn compare(&mut self, op: OpId) {
        let ops = self.operands(op);
        let pred = lf_ir::ods::prop(self.ctx, self.body, op, "predicate")
            .and_then(|a| lf_ir::ods::constraints::int_value(self.ctx, a))
            .unwrap_or(0);
        let (a, b) = (paren(&self.expr(ops[0])), paren(&self.expr(ops[1])));
        let s = if self.opname(op) == "arith.cmpi" {
            let ty = self.body.value_type(ops[0]);
            let u = ctypes::unsigned(self.ctx, ty, self.flavor).unwrap_or("unsigned int");
            let (ua, ub) = (format!("({u}){a}"), format!("({u}){b}"));
            match pred {
                0 => format!("{a} == {b}"),
                1 => format!("{a} != {b}"),
                2 => format!("{a} < {b}"),
                3 => format!("{a} <= {b}"),
                4 => format!("{a} > {b}"),
                5 => format!("{a} >= {b}"),
                6 => format!("{ua} < {ub}"),
                7 => format!("{ua} <= {ub}"),
                8 => format!("{ua} > {ub}"),
                _ => format!("{ua} >= {ub}"),
            }
        } else {
            match pred {
                0 => "0".into(),
                1 => format!("{a} == {b}"),
                2 => format!("{a} > {b}"),
                3 => format!("{a} >= {b}"),
                4 => format!("{a} < {b}"),
                5 => format!("{a} <= {b}"),
                6 => format!("{a} < {b} || {a} > {b}"),
                7 => format!("{a} == {a} && {b} == {b}"),
                8 => format!("!({a} < {b} || {a} > {b})"),
                9 => format!("!({a} <= {b})"),
                10 => format!("!({a} < {b})"),
                11 => format!("!({a} >= {b})"),
                12 => format!("!({a} > {b})"),
                13 => format!("{a} != {b}"),
                14 => format!("{a} != {a} || {b} != {b}"),
                _ => "1".into(),
            }
        };
        let r = self.body.result(op, 0);
        self.define(op, r, s);
    }

    fn map_operands(&mut self, op: OpId, attr: &str, ops: &[Value]) -> Option<(lf_ir::affine::AffineMap, Vec<String>)> {
        let a = lf_ir::ods::prop(self.ctx, self.body, op, attr)?;
        match self.ctx.attr_data(a) {
            AttrData::AffineMap(m) => Some((m.clone(), ops.iter().map(|v| self.expr(*v)).collect())),
            _ => {
                self.err(op, format!("'{attr}' is not an affine map"));
                None
            }
        }
    }

    fn map_result(&self, map: &lf_ir::affine::AffineMap, i: usize, args: &[String]) -> String {
        let nd = map.num_dims() as usize;
        expr::affine(map.result(i), &args[..nd], &args[nd..], !self.flavor.is_device())
    }

    fn fold_minmax(&self, map: &lf_ir::affine::AffineMap, args: &[String], cmp: &str) -> String {
        let mut acc = self.map_result(map, 0, args);
        for i in 1..map.num_results() {
            let r = self.map_result(map, i, args);
            let (a, b) = (paren(&acc), paren(&r));
            acc = format!("{a} {cmp} {b} ? {a} : {b}");
        }
        acc
    }

    fn affine_access(&mut self, op: OpId) {
        let ops = self.operands(op);
        let store = self.opname(op) == "affine.store";
        let mi = usize::from(store);
        let Some(m) = self.mem(op, ops[mi]) else { return };
        self.check_access(op, &m);
        let Some((map, args)) = self.map_operands(op, "map", &ops[mi + 1..]) else {
            return;
        };
        let idx: Vec<String> = (0..map.num_results())
            .map(|i| self.map_result(&map, i, &args))
            .collect();
        let el = self.element(&m, &idx);
        if store {
            let v = self.expr(ops[0]);
            self.line(&format!("{el} = {v};"));
        } else {
            let r = self.body.result(op, 0);
            self.define(op, r, el);
        }
    }

    fn gpu_id(&mut self, op: OpId) {
        let name = self.opname(op);
        let dim = lf_ir::ods::prop(self.ctx, self.body, op, "dimension")
            .map(|a| match self.ctx.attr_data(a) {
                AttrData::Dialect { body, .. } if body.contains('y') => 1,
                AttrData::Dialect { body, .. } if body.contains('z') => 2,
                _ => 0,
            })
            .unwrap_or(0);
        let xyz = ["x", "y", "z"][dim];
        let s = match (self.flavor, name) {
            (Flavor::CudaDevice, "gpu.thread_id") => format!("(int)threadIdx.{xyz}"),
            (Flavor::CudaDevice, "gpu.block_id") => format!("(int)blockIdx.{xyz}"),
            (Flavor::CudaDevice, "gpu.block_dim") => format!("(int)blockDim.{xyz}"),
            (Flavor::CudaDevice, "gpu.grid_dim") => format!("(int)gridDim.{xyz}"),
            (Flavor::CudaDevice, _) => format!("(int)(blockIdx.{xyz} * blockDim.{xyz} + threadIdx.{xyz})"),
            (Flavor::OclDevice, "gpu.thread_id") => format!("(int)get_local_id({dim})"),
            (Flavor::OclDevice, "gpu.block_id") => format!("(int)get_group_id({dim})"),
            (Flavor::OclDevice, "gpu.block_dim") => format!("(int)get_local_size({dim})"),
            (Flavor::OclDevice, "gpu.grid_dim") => format!("(int)get_num_groups({dim})"),
            (Flavor::OclDevice, _) => format!("(int)get_global_id({dim})"),
            _ => {
                self.err(op, format!("'{name}' outside a kernel"));
                return;
            }
        };
        let r = self.body.result(op, 0);
        let n = self.names.get(r);
        if !self.body.has_uses(r) {
            return;
        }
        self.line(&format!("const int {n} = {s};"));
        self.vals.insert(r, Val::Expr(n));
    }

    fn region_entry(&self, op: OpId, i: usize) -> Option<(RegionId, BlockId)> {
        let r = self.body.region(op, i);
        self.body.entry_block(r).map(|b| (r, b))
    }

    /// Declares the loop/if results, initialised or not.
    fn declare_results(&mut self, op: OpId, inits: Option<&[Value]>) -> Vec<String> {
        let mut names = Vec::new();
        let results: Vec<Value> = self.body.results(op).collect();
        for (i, r) in results.into_iter().enumerate() {
            let t = self.cty(op, self.body.value_type(r));
            let n = self.names.get(r);
            match inits {
                Some(init) => {
                    let e = self.expr(init[i]);
                    self.line(&format!("{t} {n} = {e};"));
                }
                None => self.line(&format!("{t} {n};")),
            }
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
            self.line(&format!("{t} {n} = {c};"));
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

    fn scf_for(&mut self, op: OpId) {
        let ops = self.operands(op);
        let (lb, ub, step) = (self.expr(ops[0]), self.expr(ops[1]), self.expr(ops[2]));
        let carried = self.declare_results(op, Some(&ops[3..]));
        self.counted_loop(op, &lb, &ub, &step, &carried);
    }

    /// `for (T iv = lb; iv < ub; iv += step) { body }` for the loop `op`
    /// whose results are `carried`; `ub` is used as written.
    fn counted_loop(&mut self, op: OpId, lb: &str, ub: &str, step: &str, carried: &[String]) {
        let Some((_, entry)) = self.region_entry(op, 0) else {
            return;
        };
        let args = self.body.block_args(entry).to_vec();
        let iv = self.names.get(args[0]);
        let t = self.cty_value(args[0]);
        self.vals.insert(args[0], Val::Expr(iv.clone()));
        let inc = if step == "1" {
            format!("{iv}++")
        } else {
            format!("{iv} += {step}")
        };
        self.line(&format!("for ({t} {iv} = {lb}; {iv} < {ub}; {inc}) {{"));
        self.loop_body(entry, &args[1..], carried);
        self.line("}");
    }

    fn affine_for(&mut self, op: OpId) {
        let ops = self.operands(op);
        let lmap = lf_ir::ods::prop(self.ctx, self.body, op, "lowerBoundMap");
        let umap = lf_ir::ods::prop(self.ctx, self.body, op, "upperBoundMap");
        let step = lf_ir::ods::prop(self.ctx, self.body, op, "step")
            .and_then(|a| lf_ir::ods::constraints::int_value(self.ctx, a))
            .unwrap_or(1);
        let (Some(lmap), Some(umap)) = (lmap, umap) else {
            self.err(op, "affine.for without bound maps");
            return;
        };
        let (AttrData::AffineMap(lm), AttrData::AffineMap(um)) =
            (self.ctx.attr_data(lmap).clone(), self.ctx.attr_data(umap).clone())
        else {
            return;
        };
        let nl = (lm.num_dims() + lm.num_symbols()) as usize;
        let nu = (um.num_dims() + um.num_symbols()) as usize;
        let largs: Vec<String> = ops[..nl].iter().map(|v| self.expr(*v)).collect();
        let uargs: Vec<String> = ops[nl..nl + nu].iter().map(|v| self.expr(*v)).collect();
        let lb = self.fold_minmax(&lm, &largs, ">");
        let ub = self.fold_minmax(&um, &uargs, "<");
        let carried = self.declare_results(op, Some(&ops[nl + nu..]));
        let ub = if expr::is_atom(&ub) { ub } else { format!("({ub})") };
        self.counted_loop(op, &lb, &ub, &step.to_string(), &carried);
    }

    fn scf_if(&mut self, op: OpId) {
        let ops = self.operands(op);
        let cond = self.expr(ops[0]);
        let targets = self.declare_results(op, None);
        self.line(&format!("if ({cond}) {{"));
        if let Some((_, b)) = self.region_entry(op, 0) {
            self.indent += 1;
            self.block(b, true);
            self.yield_to(b, &targets);
            self.indent -= 1;
        }
        if let Some((_, b)) = self.region_entry(op, 1) {
            self.line("} else {");
            self.indent += 1;
            self.block(b, true);
            self.yield_to(b, &targets);
            self.indent -= 1;
        }
        self.line("}");
    }
}

/// Parenthesizes an operand of `*` unless it is an atom or already a product.
fn paren_mul(e: &str) -> String {
    if expr::is_atom(e) || (!e.contains(['+', '-', '?', '<', '>', '=', '&', '|', '/', '%', '^']) && !e.starts_with('-'))
    {
        e.to_string()
    } else {
        format!("({e})")
    }
}
