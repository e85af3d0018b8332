//! The `math` dialect: elementary functions on floats (and `absi` on
//! integers), with MLIR 22's syntax.

#[rustfmt::skip]
mod views;
pub use views::*;

pub mod fold;

use crate::arith::FASTMATH_DEFAULT;
use fold as F;
use lf_ir::ods::constraints::{FLOAT_LIKE, SIGNLESS_INTEGER_LIKE};
use lf_ir::ods::{ArgDef, AttrDef, TypeRule};
use lf_ir::{OpDef, Traits};

static FASTMATH: &[AttrDef] = &[FASTMATH_DEFAULT];
static SAME: &[TypeRule] = &[TypeRule::AllMatch(&["operand", "result"])];

/// Declares unary float ops `$operand (fastmath)? attr-dict : type($result)`.
macro_rules! unary_float_ops {
    ($(($stat:ident, $name:expr, $summary:expr, $fold:expr)),* $(,)?) => {
        $(
            #[doc = concat!("`", $name, "`: ", $summary, ".")]
            pub static $stat: OpDef = OpDef {
                fold: $fold,
                summary: $summary,
                description: concat!("Elementwise on vectors and tensors.\n\n```mlir\n%r = ", $name, " %x : f32\n```"),
                traits: Traits::PURE.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
                operands: &[ArgDef::one("operand", &FLOAT_LIKE)],
                results: &[ArgDef::one("result", &FLOAT_LIKE)],
                attributes: FASTMATH,
                format: Some("$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
                type_rules: SAME,
                ..OpDef::declared($name)
            };
        )*
    };
}

unary_float_ops!(
    (SQRT, "math.sqrt", "sqrt of the specified value", Some(F::fold_sqrt)),
    (
        RSQRT,
        "math.rsqrt",
        "reciprocal of sqrt (1 / sqrt of the specified value)",
        None
    ),
    (EXP, "math.exp", "base-e exponential of the specified value", None),
    (EXP2, "math.exp2", "base-2 exponential of the specified value", None),
    (LOG, "math.log", "base-e logarithm of the specified value", None),
    (LOG2, "math.log2", "base-2 logarithm of the specified value", None),
    (SIN, "math.sin", "sine of the specified value", None),
    (COS, "math.cos", "cosine of the specified value", None),
    (TANH, "math.tanh", "hyperbolic tangent of the specified value", None),
    (
        ABSF,
        "math.absf",
        "floating point absolute-value operation",
        Some(F::fold_absf)
    ),
    (FLOOR, "math.floor", "floor of the specified value", Some(F::fold_floor)),
    (CEIL, "math.ceil", "ceiling of the specified value", Some(F::fold_ceil)),
);

/// `math.absi`.
pub static ABSI: OpDef = OpDef {
    summary: "integer absolute-value operation",
    description: "The absolute value of a signed integer (the minimum value maps to itself).\n\n\
        ```mlir\n%r = math.absi %x : i32\n```",
    traits: Traits::PURE.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
    operands: &[ArgDef::one("operand", &SIGNLESS_INTEGER_LIKE)],
    results: &[ArgDef::one("result", &SIGNLESS_INTEGER_LIKE)],
    format: Some("$operand attr-dict `:` type($result)"),
    type_rules: SAME,
    fold: Some(F::fold_absi),
    ..OpDef::declared("math.absi")
};

/// `math.powf`.
pub static POWF: OpDef = OpDef {
    summary: "floating point raised to the power of operation",
    description: "`lhs` to the power `rhs`.\n\n```mlir\n%r = math.powf %x, %y : f32\n```",
    traits: Traits::PURE.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
    operands: &[ArgDef::one("lhs", &FLOAT_LIKE), ArgDef::one("rhs", &FLOAT_LIKE)],
    results: &[ArgDef::one("result", &FLOAT_LIKE)],
    attributes: FASTMATH,
    format: Some("$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
    type_rules: &[TypeRule::AllMatch(&["lhs", "rhs", "result"])],
    ..OpDef::declared("math.powf")
};

/// `math.fma`.
pub static FMA: OpDef = OpDef {
    summary: "floating point fused multipy-add operation",
    description: "`a * b + c` with a single rounding.\n\n```mlir\n%r = math.fma %a, %b, %c : f32\n```",
    traits: Traits::PURE.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
    operands: &[
        ArgDef::one("a", &FLOAT_LIKE),
        ArgDef::one("b", &FLOAT_LIKE),
        ArgDef::one("c", &FLOAT_LIKE),
    ],
    results: &[ArgDef::one("result", &FLOAT_LIKE)],
    attributes: FASTMATH,
    format: Some("$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
    type_rules: &[TypeRule::AllMatch(&["a", "b", "c", "result"])],
    ..OpDef::declared("math.fma")
};

/// All ops of the dialect.
pub static OPS: &[&OpDef] = &[
    &SQRT, &RSQRT, &EXP, &EXP2, &LOG, &LOG2, &SIN, &COS, &TANH, &ABSF, &FLOOR, &CEIL, &ABSI, &POWF, &FMA,
];

/// What the op reference says about the dialect.
pub const INTRO: &str = "Elementary mathematical functions, as in MLIR's `math` dialect. Float ops take \
    `fastmath` flags like `arith`'s.";
