//! The compact form the interpreter executes: per function a flat vector of
//! instructions over numbered register slots, with structured control flow
//! (loops, ifs, launches) turned into jumps.

use lf_dialects::arith::{CmpFPredicate, CmpIPredicate};
use lf_ir::Location;

/// A register slot of a frame. Every value is 64 bits: integers are kept
/// sign-extended from their width, floats as their IEEE bits, memrefs as the
/// index of a descriptor.
pub type Reg = u32;

/// The scalar kind of a value or memory element.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Scalar {
    /// An integer of this width (1 to 64), kept sign-extended.
    Int(u8),
    /// `index` (64-bit).
    Index,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl Scalar {
    /// Bit width.
    pub fn width(self) -> u32 {
        match self {
            Scalar::Int(w) => w as u32,
            Scalar::Index | Scalar::F64 => 64,
            Scalar::F32 => 32,
        }
    }
    /// Bytes an element of this kind takes in a real memory.
    pub fn bytes(self) -> u64 {
        (self.width() as u64).div_ceil(8).max(1)
    }
    /// Whether this is a float kind.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64)
    }
    /// Shift that sign-extends a 64-bit value from this width (`(v << s) >> s`).
    pub fn shift(self) -> u8 {
        (64 - self.width()) as u8
    }
}

/// Sign-extends `v` from `64 - shift` bits.
#[inline(always)]
pub fn sext(v: u64, shift: u8) -> u64 {
    (((v << shift) as i64) >> shift) as u64
}

/// Zero-extends `v` from `64 - shift` bits.
#[inline(always)]
pub fn zext(v: u64, shift: u8) -> u64 {
    (v << shift) >> shift
}

/// Integer binary operators (`arith` and the affine operators).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[allow(missing_docs)]
pub enum IOp {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
    DivS,
    DivU,
    RemS,
    RemU,
    FloorDivS,
    CeilDivS,
    CeilDivU,
    MaxS,
    MaxU,
    MinS,
    MinU,
    /// Affine `mod` (result has the divisor's sign).
    AffMod,
}

/// Float binary operators.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[allow(missing_docs)]
pub enum FOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Maximum,
    Minimum,
    MaxNum,
    MinNum,
    Pow,
}

/// Float unary operators.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[allow(missing_docs)]
pub enum FUn {
    Neg,
    Abs,
    Ceil,
    Floor,
    Sqrt,
    Rsqrt,
    Exp,
    Exp2,
    Log,
    Log2,
    Sin,
    Cos,
    Tanh,
}

/// Conversions.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[allow(missing_docs)]
pub enum Conv {
    /// Sign-extend / truncate an integer to the destination shift.
    IntS,
    /// Zero-extend from the source width, then normalise.
    IntU,
    SiToF32,
    SiToF64,
    UiToF32,
    UiToF64,
    F32ToSi,
    F64ToSi,
    F32ToUi,
    F64ToUi,
    F32ToF64,
    F64ToF32,
    /// Bit cast between same-width kinds (f32 bits <-> i32 sign-extended).
    BitsF32ToI,
    BitsIToF32,
    /// 64-bit reinterpretation (no change).
    Same,
}

/// Which GPU id an instruction reads.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[allow(missing_docs)]
pub enum GpuId {
    Thread,
    Block,
    BlockDim,
    GridDim,
    Global,
    Lane,
}

/// The runner-utils functions lf-run provides.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[allow(missing_docs)]
pub enum Extern {
    PrintMemref(Scalar),
    PrintF32,
    PrintF64,
    PrintI64,
    PrintU64,
    PrintNewline,
    PrintComma,
    PrintOpen,
    PrintClose,
}

impl Extern {
    /// The runner-utils function of this name, if lf-run provides it.
    pub fn from_name(name: &str) -> Option<Extern> {
        Some(match name {
            "printMemrefF32" => Extern::PrintMemref(Scalar::F32),
            "printMemrefF64" => Extern::PrintMemref(Scalar::F64),
            "printMemrefI32" => Extern::PrintMemref(Scalar::Int(32)),
            "printMemrefI64" => Extern::PrintMemref(Scalar::Int(64)),
            "printF32" => Extern::PrintF32,
            "printF64" => Extern::PrintF64,
            "printI64" => Extern::PrintI64,
            "printU64" => Extern::PrintU64,
            "printNewline" => Extern::PrintNewline,
            "printComma" => Extern::PrintComma,
            "printOpen" => Extern::PrintOpen,
            "printClose" => Extern::PrintClose,
            _ => return None,
        })
    }
}

/// Where memory lives (the memref's memory space).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Space {
    /// Host or device global memory.
    Global,
    /// `#gpu.address_space<workgroup>` (or `3`): one per block.
    Workgroup,
    /// `#gpu.address_space<private>` (or `5`): one per thread.
    Private,
}

/// A memref type as the interpreter needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct MemTy {
    /// Static sizes; `None` for dynamic ones.
    pub shape: Vec<Option<i64>>,
    /// Element kind.
    pub elem: Scalar,
    /// Memory space.
    pub space: Space,
    /// Static strides and offset of a `strided<>` layout (`None`: dynamic);
    /// `None` for the identity layout.
    pub strided: Option<(Vec<Option<i64>>, Option<i64>)>,
}

/// A list of registers (a range of [`Func::lists`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct List {
    /// First entry.
    pub start: u32,
    /// Number of entries.
    pub len: u32,
}

/// A `gpu.launch` or `gpu.launch_func`.
#[derive(Clone, Debug)]
pub struct LaunchInfo {
    /// Grid sizes x, y, z then block sizes x, y, z.
    pub dims: [Reg; 6],
    /// Inline body (`gpu.launch`): its first instruction in this function,
    /// and the registers of its 12 id/size block arguments.
    pub inline: Option<(u32, [Reg; 12])>,
    /// Outlined kernel (`gpu.launch_func`): the function and the argument registers.
    pub kernel: Option<(u32, List)>,
    /// Workgroup attributions: destination register and type.
    pub workgroup: Vec<(Reg, MemTy)>,
    /// Private attributions.
    pub private: Vec<(Reg, MemTy)>,
}

/// `memref.subview` / `memref.reinterpret_cast` operands: static values or registers.
#[derive(Clone, Debug)]
pub struct ViewInfo {
    /// Offsets (subview) or the single offset (reinterpret_cast).
    pub offsets: Vec<Operand>,
    /// Sizes.
    pub sizes: Vec<Operand>,
    /// Strides.
    pub strides: Vec<Operand>,
    /// Result dimensions kept (rank-reducing subviews drop unit dimensions).
    pub keep: Vec<bool>,
}

/// A static value or a register.
#[derive(Copy, Clone, Debug)]
pub enum Operand {
    /// A constant.
    Const(i64),
    /// A register.
    Reg(Reg),
}

/// One instruction.
#[derive(Clone, Debug)]
#[allow(missing_docs)]
pub enum Inst {
    Const {
        dst: Reg,
        bits: u64,
    },
    Mov {
        dst: Reg,
        src: Reg,
    },
    /// Parallel move: `(dst, src)` pairs in `lists` (two entries each).
    ParMove {
        pairs: List,
    },
    IBin {
        op: IOp,
        shift: u8,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `a <op> imm` (affine expressions with constants).
    IBinImm {
        op: IOp,
        dst: Reg,
        a: Reg,
        imm: i64,
    },
    CmpI {
        pred: CmpIPredicate,
        shift: u8,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    F32Bin {
        op: FOp,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    F64Bin {
        op: FOp,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    F32Un {
        op: FUn,
        dst: Reg,
        a: Reg,
    },
    F64Un {
        op: FUn,
        dst: Reg,
        a: Reg,
    },
    Fma32 {
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    Fma64 {
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    CmpF32 {
        pred: CmpFPredicate,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    CmpF64 {
        pred: CmpFPredicate,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    AbsI {
        shift: u8,
        dst: Reg,
        a: Reg,
    },
    Conv {
        conv: Conv,
        src_shift: u8,
        dst_shift: u8,
        dst: Reg,
        a: Reg,
    },
    Select {
        dst: Reg,
        c: Reg,
        a: Reg,
        b: Reg,
    },
    Jump {
        target: u32,
    },
    /// Jump when the register is zero.
    JumpIfZero {
        cond: Reg,
        target: u32,
    },
    /// `if a <s b goto target`.
    JumpIfLt {
        a: Reg,
        b: Reg,
        target: u32,
    },
    /// `iv += step; if iv <s ub goto target`.
    LoopNext {
        iv: Reg,
        step: Reg,
        ub: Reg,
        target: u32,
    },
    /// [`Inst::LoopNext`] of an induction variable narrower than 64 bits
    /// (`scf.for ... : i8`): the sum wraps at the variable's width (sign
    /// extended by `shift`, as [`sext`]), as the `arith.addi` of MLIR's
    /// lowering to `cf` does.
    LoopNextWrap {
        iv: Reg,
        step: Reg,
        ub: Reg,
        target: u32,
        shift: u8,
    },
    /// Loop of `scf.for` with an unsigned comparison or non-positive steps: checked at run time.
    StepCheck {
        step: Reg,
    },
    Load {
        dst: Reg,
        mem: Reg,
        idx: List,
    },
    Store {
        val: Reg,
        mem: Reg,
        idx: List,
    },
    /// `vector.load`: `width` consecutive elements along the innermost
    /// dimension into registers `dst..dst + width` (an aligned access).
    VLoad {
        dst: Reg,
        mem: Reg,
        idx: List,
        width: u8,
    },
    /// `vector.store`: registers `val..val + width` to `width` consecutive
    /// elements along the innermost dimension (an aligned access).
    VStore {
        val: Reg,
        mem: Reg,
        idx: List,
        width: u8,
    },
    Alloc {
        dst: Reg,
        ty: u32,
        dyn_sizes: List,
        stack: bool,
        /// `gpu.alloc`: device memory under `--separate-memory`.
        device: bool,
    },
    Dealloc {
        mem: Reg,
    },
    Dim {
        dst: Reg,
        mem: Reg,
        index: Reg,
    },
    Copy {
        src: Reg,
        dst: Reg,
        /// `gpu.memcpy` (may cross host and device memory).
        gpu: bool,
    },
    Memset {
        dst: Reg,
        val: Reg,
    },
    View {
        dst: Reg,
        src: Reg,
        info: u32,
        reinterpret: bool,
    },
    GetGlobal {
        dst: Reg,
        global: u32,
    },
    Call {
        func: u32,
        args: List,
        rets: List,
    },
    Ext {
        ext: Extern,
        args: List,
    },
    Return {
        vals: List,
    },
    Launch {
        info: u32,
    },
    GpuId {
        id: GpuId,
        dim: u8,
        dst: Reg,
    },
    Barrier,
    /// End of a thread of an inline `gpu.launch` body.
    KernelEnd,
    /// Start of a parallel loop nest (race checking between its iterations).
    ParBegin,
    /// Start of an iteration of a parallel loop nest, with its induction variables.
    ParIter {
        ivs: List,
    },
    /// End of a parallel loop nest.
    ParEnd,
    /// An op the interpreter cannot run: fails when reached.
    Trap {
        msg: u32,
    },
    /// `--profile-divergence` only: a thread enters loop `id` of
    /// [`Program::loops`] (before its first condition).
    LoopEnter {
        id: u32,
    },
    /// `--profile-divergence` only: an iteration of loop `id` starts (a
    /// body of a counted or parallel loop, the after region of `scf.while`).
    LoopIter {
        id: u32,
    },
    /// `--profile-divergence` only: a thread leaves loop `id`.
    LoopExit {
        id: u32,
    },
    /// `--compare-traces` only: after a [`Inst::Store`] with the same
    /// operands, records the store in the thread's trace.
    TraceStore {
        val: Reg,
        mem: Reg,
        idx: List,
    },
    /// `--compare-traces` only: after a [`Inst::VStore`] with the same
    /// operands, records its `width` element stores.
    TraceVStore {
        val: Reg,
        mem: Reg,
        idx: List,
        width: u8,
    },
}

/// Instrumentation the decoder adds (none by default: a program decoded
/// without it runs exactly the instructions it always did).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Instrument {
    /// Loop events for the divergence profile ([`Inst::LoopEnter`],
    /// [`Inst::LoopIter`], [`Inst::LoopExit`]).
    pub loops: bool,
    /// Store records for trace comparison ([`Inst::TraceStore`],
    /// [`Inst::TraceVStore`]).
    pub stores: bool,
}

/// A loop op that carries profiling instructions.
#[derive(Clone, Debug)]
pub struct LoopInfo {
    /// The op's location.
    pub loc: Location,
    /// The op's name (`scf.for`, ...).
    pub name: &'static str,
}

/// One decoded function.
#[derive(Clone, Debug, Default)]
pub struct Func {
    /// Symbol name (`module::name` for `gpu.func`).
    pub name: String,
    /// Instructions.
    pub code: Vec<Inst>,
    /// The location of each instruction.
    pub locs: Vec<Location>,
    /// Register lists used by instructions.
    pub lists: Vec<Reg>,
    /// Number of registers.
    pub num_regs: u32,
    /// Initial register values of a frame (constants are preset here).
    pub init: Vec<u64>,
    /// Argument registers.
    pub params: Vec<Reg>,
    /// Argument types (`None` for scalars: their kind is in `param_kinds`).
    pub param_types: Vec<Option<MemTy>>,
    /// Argument scalar kinds (element kind for memrefs).
    pub param_kinds: Vec<Scalar>,
    /// Number of results.
    pub num_results: u32,
    /// Declarations without a body: the runner-utils function they name, if any.
    pub external: Option<Option<Extern>>,
    /// `gpu.func` kernel: workgroup and private attributions.
    pub workgroup: Vec<(Reg, MemTy)>,
    /// Private attributions of a `gpu.func`.
    pub private: Vec<(Reg, MemTy)>,
    /// Location of the function.
    pub loc: Location,
}

/// A `memref.global`.
#[derive(Clone, Debug)]
pub struct Global {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: MemTy,
    /// Initial elements (bits), if any; one element is a splat.
    pub init: Option<Vec<u64>>,
}

/// A decoded module.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Functions.
    pub funcs: Vec<Func>,
    /// Memref types referenced by `Alloc`.
    pub types: Vec<MemTy>,
    /// Launches.
    pub launches: Vec<LaunchInfo>,
    /// Subview/reinterpret infos.
    pub views: Vec<ViewInfo>,
    /// Globals.
    pub globals: Vec<Global>,
    /// Messages of `Trap` instructions.
    pub messages: Vec<String>,
    /// Loops instrumented for the divergence profile (by `LoopEnter` id).
    pub loops: Vec<LoopInfo>,
}

impl Program {
    /// The function of this symbol name.
    pub fn find(&self, name: &str) -> Option<u32> {
        self.funcs.iter().position(|f| f.name == name).map(|i| i as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::Inst;

    /// The profiling and tracing instructions are no larger than the others:
    /// adding them leaves every instruction of an ordinary run its size.
    #[test]
    fn instructions_stay_24_bytes() {
        assert_eq!(std::mem::size_of::<Inst>(), 24);
    }
}
