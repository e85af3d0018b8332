//! The `arith` dialect: integer and float arithmetic, comparisons, casts and
//! constants, with MLIR 22's syntax, properties and verifier messages.

#[rustfmt::skip]
mod views;
pub use views::*;

pub mod canonicalize;
pub mod fold;
mod ops;

use crate::support::{i1_like, op_error, FlagsAttr};
use fold as F;
use lf_ir::attrs::AttrData;
use lf_ir::diag::Diagnostic;
use lf_ir::ods::constraints::*;
use lf_ir::ods::{prop, ArgDef, AttrConstraint, AttrDef, AttrKind, TypeRule};
use lf_ir::parser::{CustomParser, ParseResult};
use lf_ir::printer::CustomPrinter;
use lf_ir::{Attribute, Body, Context, OpDef, OpId, Traits, Type, TypeData};

/// `#arith.fastmath<...>` flags.
pub static FASTMATH: FlagsAttr = FlagsAttr {
    name: "arith::FastMathFlags",
    dialect: "arith",
    mnemonic: "fastmath",
    flags: &["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"],
    groups: &[("fast", 0x7f)],
    separator: ",",
};

/// `#arith.overflow<...>` flags.
pub static OVERFLOW: FlagsAttr = FlagsAttr {
    name: "arith::IntegerOverflowFlags",
    dialect: "arith",
    mnemonic: "overflow",
    flags: &["nsw", "nuw"],
    groups: &[],
    separator: ", ",
};

/// The `fastmath` attribute constraint.
pub static FASTMATH_ATTR: AttrConstraint = AttrConstraint {
    summary: "Floating point fast math flags",
    check: |ctx, a| FASTMATH.bits(ctx, a).is_some(),
    parse: Some(|p| FASTMATH.parse(p)),
    print: Some(|p, a| FASTMATH.print(p, a)),
    is_unit: false,
    kind: AttrKind::Flags(&FASTMATH),
};

/// The `overflowFlags` attribute constraint.
pub static OVERFLOW_ATTR: AttrConstraint = AttrConstraint {
    summary: "Integer overflow arith flags",
    check: |ctx, a| OVERFLOW.bits(ctx, a).is_some(),
    parse: Some(|p| OVERFLOW.parse(p)),
    print: Some(|p, a| OVERFLOW.print(p, a)),
    is_unit: false,
    kind: AttrKind::Flags(&OVERFLOW),
};

lf_ir::int_enum!(
    /// `arith.cmpi` predicates.
    CMPI_PREDICATE,
    CMPI_PREDICATE_ATTR,
    "arith::CmpIPredicate",
    "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9",
    64,
    [
        ("eq", 0),
        ("ne", 1),
        ("slt", 2),
        ("sle", 3),
        ("sgt", 4),
        ("sge", 5),
        ("ult", 6),
        ("ule", 7),
        ("ugt", 8),
        ("uge", 9)
    ]
);

lf_ir::int_enum!(
    /// `arith.cmpf` predicates.
    CMPF_PREDICATE,
    CMPF_PREDICATE_ATTR,
    "arith::CmpFPredicate",
    "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
    64,
    [
        ("false", 0),
        ("oeq", 1),
        ("ogt", 2),
        ("oge", 3),
        ("olt", 4),
        ("ole", 5),
        ("one", 6),
        ("ord", 7),
        ("ueq", 8),
        ("ugt", 9),
        ("uge", 10),
        ("ult", 11),
        ("ule", 12),
        ("une", 13),
        ("uno", 14),
        ("true", 15)
    ]
);

lf_ir::int_enum!(
    /// Rounding modes of `arith.truncf`.
    ROUNDING_MODE,
    ROUNDING_MODE_ATTR,
    "arith::RoundingMode",
    "Floating point rounding mode",
    32,
    [
        ("to_nearest_even", 0),
        ("downward", 1),
        ("upward", 2),
        ("toward_zero", 3),
        ("to_nearest_away", 4)
    ]
);

fn fastmath_none(ctx: &Context) -> Attribute {
    FASTMATH.attr(ctx, 0)
}

fn overflow_none(ctx: &Context) -> Attribute {
    OVERFLOW.attr(ctx, 0)
}

/// `fastmath`, default `none` (printed in the generic form, as MLIR does).
pub const FASTMATH_DEFAULT: AttrDef = AttrDef::with_default("fastmath", &FASTMATH_ATTR, fastmath_none);
/// `fastmath`, absent unless given.
pub const FASTMATH_OPTIONAL: AttrDef = AttrDef::optional("fastmath", &FASTMATH_ATTR);
const OVERFLOW_DEFAULT: AttrDef = AttrDef::with_default("overflowFlags", &OVERFLOW_ATTR, overflow_none);

static SAME_LHS_RHS_RESULT: &[TypeRule] = &[TypeRule::AllMatch(&["lhs", "rhs", "result"])];

/// Declares binary ops over one type (`SameOperandsAndResultType`).
/// The binary ops whose operands commute (MLIR's `Commutative` trait).
const COMMUTATIVE_OPS: &[&str] = &[
    "arith.addi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.maxsi",
    "arith.maxui",
    "arith.minsi",
    "arith.minui",
    "arith.addf",
    "arith.mulf",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
];

/// [`Traits::COMMUTATIVE`] for the ops in [`COMMUTATIVE_OPS`] (evaluated at
/// compile time in the op declarations).
const fn commutative_if(name: &str) -> Traits {
    let mut i = 0;
    while i < COMMUTATIVE_OPS.len() {
        if const_str_eq(COMMUTATIVE_OPS[i], name) {
            return Traits::COMMUTATIVE;
        }
        i += 1;
    }
    Traits::NONE
}

/// Integer divisions and remainders that trap on a zero divisor (and, when
/// signed, on `-1` with the smallest dividend): they may be hoisted only
/// when the divisor is a constant that cannot trap (MLIR's
/// `ConditionallySpeculatable`).
const SIGNED_DIVISIONS: &[&str] = &["arith.divsi", "arith.ceildivsi", "arith.floordivsi"];
const UNSIGNED_DIVISIONS: &[&str] = &["arith.divui", "arith.ceildivui", "arith.remsi", "arith.remui"];

/// The speculatability of the op named `name` (evaluated at compile time in
/// the op declarations).
const fn speculation_of(name: &str) -> Option<fn(&Context, &Body, OpId) -> bool> {
    let mut i = 0;
    while i < SIGNED_DIVISIONS.len() {
        if const_str_eq(SIGNED_DIVISIONS[i], name) {
            return Some(|ctx, body, op| divisor_cannot_trap(ctx, body, op, true));
        }
        i += 1;
    }
    let mut i = 0;
    while i < UNSIGNED_DIVISIONS.len() {
        if const_str_eq(UNSIGNED_DIVISIONS[i], name) {
            return Some(|ctx, body, op| divisor_cannot_trap(ctx, body, op, false));
        }
        i += 1;
    }
    None
}

/// Whether the divisor (operand 1) of a division is a constant other than
/// 0 (and, for signed division, other than -1).
fn divisor_cannot_trap(ctx: &Context, body: &Body, op: OpId, signed: bool) -> bool {
    if body.num_operands(op) < 2 {
        return false;
    }
    let divisor = lf_ir::constants::constant_value(ctx, body, body.operand(op, 1));
    match divisor.map(|a| ctx.attr_data(a)) {
        Some(AttrData::Integer { value: 0, .. }) => false,
        Some(AttrData::Integer { value: -1, .. }) => !signed,
        Some(AttrData::Integer { .. }) => true,
        _ => false,
    }
}

const fn const_str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

macro_rules! binary_ops {
    ($constraint:expr, $attrs:expr, $format:expr, $summary_prefix:expr, $ex_ty:expr, [$(($stat:ident, $name:expr, $summary:expr, $fold:expr)),* $(,)?]) => {
        $(
            #[doc = concat!("`", $name, "`: ", $summary, ".")]
            pub static $stat: OpDef = OpDef {
                fold: Some($fold),
                summary: $summary,
                description: concat!($summary_prefix, "\n\n```mlir\n%r = ", $name, " %a, %b : ", $ex_ty, "\n```"),
                traits: Traits::PURE.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE).with(commutative_if($name)),
                operands: &[ArgDef::one("lhs", $constraint), ArgDef::one("rhs", $constraint)],
                results: &[ArgDef::one("result", $constraint)],
                attributes: $attrs,
                format: Some($format),
                type_rules: SAME_LHS_RHS_RESULT,
                speculatable: speculation_of($name),
                ..OpDef::declared($name)
            };
        )*
    };
}

const INT_OVERFLOW_FORMAT: &str = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)";
const PLAIN_BINARY_FORMAT: &str = "$lhs `,` $rhs attr-dict `:` type($result)";
const FLOAT_BINARY_FORMAT: &str = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";

binary_ops!(
    &SIGNLESS_INTEGER_LIKE,
    &[OVERFLOW_DEFAULT],
    INT_OVERFLOW_FORMAT,
    "Integer arithmetic with wrap-around (two's complement) semantics. The optional \
     `overflow<nsw, nuw>` flags promise that no signed/unsigned overflow happens; the \
     result is poison if it does.",
    "i32",
    [
        (ADDI, "arith.addi", "integer addition operation", F::fold_addi),
        (SUBI, "arith.subi", "integer subtraction operation", F::fold_subi),
        (MULI, "arith.muli", "integer multiplication operation", F::fold_muli),
        (SHLI, "arith.shli", "integer left-shift", F::fold_shli),
    ]
);

static NO_ATTRS: &[AttrDef] = &[];

binary_ops!(
    &SIGNLESS_INTEGER_LIKE,
    NO_ATTRS,
    PLAIN_BINARY_FORMAT,
    "Integer operation on signless integers (or index), elementwise on vectors and tensors. \
     Division by zero and signed overflow of `divsi` are undefined behaviour.",
    "i32",
    [
        (DIVSI, "arith.divsi", "signed integer division operation", F::fold_divsi),
        (
            DIVUI,
            "arith.divui",
            "unsigned integer division operation",
            F::fold_divui
        ),
        (
            REMSI,
            "arith.remsi",
            "signed integer division remainder operation",
            F::fold_remsi
        ),
        (
            REMUI,
            "arith.remui",
            "unsigned integer division remainder operation",
            F::fold_remui
        ),
        (
            CEILDIVSI,
            "arith.ceildivsi",
            "signed ceil integer division operation",
            F::fold_ceildivsi
        ),
        (
            CEILDIVUI,
            "arith.ceildivui",
            "unsigned ceil integer division operation",
            F::fold_ceildivui
        ),
        (
            FLOORDIVSI,
            "arith.floordivsi",
            "signed floor integer division operation",
            F::fold_floordivsi
        ),
        (MAXSI, "arith.maxsi", "signed integer maximum operation", F::fold_maxsi),
        (
            MAXUI,
            "arith.maxui",
            "unsigned integer maximum operation",
            F::fold_maxui
        ),
        (MINSI, "arith.minsi", "signed integer minimum operation", F::fold_minsi),
        (
            MINUI,
            "arith.minui",
            "unsigned integer minimum operation",
            F::fold_minui
        ),
        (ANDI, "arith.andi", "integer binary and", F::fold_andi),
        (ORI, "arith.ori", "integer binary or", F::fold_ori),
        (XORI, "arith.xori", "integer binary xor", F::fold_xori),
        (SHRSI, "arith.shrsi", "signed integer right-shift", F::fold_shrsi),
        (SHRUI, "arith.shrui", "unsigned integer right-shift", F::fold_shrui),
    ]
);

static FASTMATH_DEFAULT_ONLY: &[AttrDef] = &[AttrDef::with_default("fastmath", &FASTMATH_ATTR, fastmath_none)];

binary_ops!(
    &FLOAT_LIKE,
    FASTMATH_DEFAULT_ONLY,
    FLOAT_BINARY_FORMAT,
    "IEEE floating-point operation, rounded to the result type; elementwise on vectors and \
     tensors. `fastmath<...>` flags relax IEEE semantics.",
    "f32",
    [
        (ADDF, "arith.addf", "floating point addition operation", F::fold_addf),
        (SUBF, "arith.subf", "floating point subtraction operation", F::fold_subf),
        (
            MULF,
            "arith.mulf",
            "floating point multiplication operation",
            F::fold_mulf
        ),
        (DIVF, "arith.divf", "floating point division operation", F::fold_divf),
        (
            REMF,
            "arith.remf",
            "floating point division remainder operation",
            F::fold_remf
        ),
        (
            MAXIMUMF,
            "arith.maximumf",
            "floating-point maximum operation (NaN-propagating)",
            F::fold_maximumf
        ),
        (
            MINIMUMF,
            "arith.minimumf",
            "floating-point minimum operation (NaN-propagating)",
            F::fold_minimumf
        ),
        (
            MAXNUMF,
            "arith.maxnumf",
            "floating-point maximum operation (IEEE maxNum)",
            F::fold_maxnumf
        ),
        (
            MINNUMF,
            "arith.minnumf",
            "floating-point minimum operation (IEEE minNum)",
            F::fold_minnumf
        ),
    ]
);

/// `arith.negf`.
pub static NEGF: OpDef = OpDef {
    summary: "floating point negation",
    description: "Flips the sign bit.\n\n```mlir\n%r = arith.negf %a : f32\n```",
    traits: Traits::PURE.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
    operands: &[ArgDef::one("operand", &FLOAT_LIKE)],
    results: &[ArgDef::one("result", &FLOAT_LIKE)],
    attributes: FASTMATH_DEFAULT_ONLY,
    format: Some("$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
    type_rules: &[TypeRule::AllMatch(&["operand", "result"])],
    fold: Some(F::fold_negf),
    ..OpDef::declared("arith.negf")
};

const CMP_DERIVED: TypeRule = TypeRule::Derived {
    target: "result",
    source: "lhs",
    derive: i1_like,
    description: "result type has i1 element type and same shape as operands",
};

/// `arith.cmpi`.
pub static CMPI: OpDef = OpDef {
    summary: "integer comparison operation",
    description: "Compares two integers (or index values) with a predicate: `eq`, `ne`, \
        `slt`, `sle`, `sgt`, `sge`, `ult`, `ule`, `ugt`, `uge`. The predicate is stored as \
        an `i64`.\n\n```mlir\n%b = arith.cmpi slt, %a, %c : i32\n```",
    traits: Traits::PURE,
    operands: &[
        ArgDef::one("lhs", &SIGNLESS_INTEGER_LIKE),
        ArgDef::one("rhs", &SIGNLESS_INTEGER_LIKE),
    ],
    results: &[ArgDef::one("result", &BOOL_LIKE)],
    attributes: &[AttrDef::required("predicate", &CMPI_PREDICATE_ATTR)],
    format: Some("$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"),
    type_rules: &[TypeRule::AllMatch(&["lhs", "rhs"]), CMP_DERIVED],
    fold: Some(F::fold_cmpi),
    ..OpDef::declared("arith.cmpi")
};

/// `arith.cmpf`.
pub static CMPF: OpDef = OpDef {
    summary: "floating-point comparison operation",
    description: "Compares two floats with an ordered (`o..`) or unordered (`u..`) \
        predicate, or `false`/`true`/`ord`/`uno`.\n\n```mlir\n%b = arith.cmpf olt, %a, %c : f32\n```",
    traits: Traits::PURE,
    operands: &[ArgDef::one("lhs", &FLOAT_LIKE), ArgDef::one("rhs", &FLOAT_LIKE)],
    results: &[ArgDef::one("result", &BOOL_LIKE)],
    attributes: &[
        AttrDef::required("predicate", &CMPF_PREDICATE_ATTR),
        AttrDef::with_default("fastmath", &FASTMATH_ATTR, fastmath_none),
    ],
    format: Some("$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)"),
    type_rules: &[TypeRule::AllMatch(&["lhs", "rhs"]), CMP_DERIVED],
    fold: Some(F::fold_cmpf),
    ..OpDef::declared("arith.cmpf")
};

/// `arith.select`.
pub static SELECT: OpDef = OpDef {
    summary: "select operation",
    description: "Chooses `true_value` where `condition` is true, else `false_value`. The \
        condition is an `i1`, or a vector/tensor of `i1` of the values' shape.\n\n\
        ```mlir\n%r = arith.select %c, %a, %b : i32\n%v = arith.select %m, %x, %y : vector<4xi1>, vector<4xf32>\n```",
    traits: Traits::PURE,
    operands: &[
        ArgDef::one("condition", &BOOL_LIKE),
        ArgDef::one("true_value", &ANY_TYPE),
        ArgDef::one("false_value", &ANY_TYPE),
    ],
    results: &[ArgDef::one("result", &ANY_TYPE)],
    type_rules: &[TypeRule::AllMatch(&["true_value", "false_value", "result"])],
    parse: Some(parse_select),
    print: Some(print_select),
    verify_local: Some(verify_select),
    fold: Some(F::fold_select),
    ..OpDef::declared("arith.select")
};

fn parse_select(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    let c = p.parse_operand()?;
    p.parse_literal(",")?;
    let a = p.parse_operand()?;
    p.parse_literal(",")?;
    let b = p.parse_operand()?;
    p.parse_optional_attr_dict()?;
    p.parse_literal(":")?;
    let first = p.parse_type()?;
    let (cond_ty, ty) = if p.parse_optional_literal(",") {
        (first, p.parse_type()?)
    } else {
        (p.ctx().common().i1, first)
    };
    p.add_operand(c, cond_ty)?;
    p.add_operand(a, ty)?;
    p.add_operand(b, ty)?;
    p.add_result_types(&[ty]);
    Ok(())
}

fn print_select(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let body = p.body();
    let ops: Vec<_> = body.operands(op).collect();
    p.write(" ");
    p.value_list(&ops);
    p.attr_dict_with_props(op, &[], false);
    p.write(" : ");
    let cond_ty = body.value_type(ops[0]);
    if cond_ty != p.ctx().common().i1 {
        p.ty(cond_ty);
        p.write(", ");
    }
    p.ty(body.value_type(body.result(op, 0)));
    Ok(())
}

fn verify_select(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let c = body.value_type(body.operand(op, 0));
    let r = body.value_type(body.result(op, 0));
    if c == ctx.common().i1 || i1_like(ctx, r) == Some(c) {
        return Ok(());
    }
    Err(op_error(
        ctx,
        body,
        op,
        "failed to verify that condition is signless i1 or has matching shape",
    ))
}

/// `arith.constant`.
pub static CONSTANT: OpDef = OpDef {
    summary: "integer or floating point constant",
    description: "Materializes a constant of an integer, index or float type, or a dense \
        vector/tensor constant. The result type is the value's type.\n\n```mlir\n\
        %c0 = arith.constant 0 : index\n%cst = arith.constant 1.5 : f32\n%true = arith.constant true\n```",
    traits: Traits::PURE.with(Traits::CONSTANT_LIKE),
    results: &[ArgDef::one("result", &ANY_TYPE)],
    attributes: &[AttrDef::required("value", &TYPED_ATTR)],
    parse: Some(parse_constant),
    print: Some(print_constant),
    verify_local: Some(verify_constant),
    result_names: Some(constant_result_name),
    fold: Some(F::fold_constant),
    ..OpDef::declared("arith.constant")
};

fn parse_constant(p: &mut CustomParser<'_, '_>) -> ParseResult<()> {
    p.parse_optional_attr_dict()?;
    let value = p.parse_attribute()?;
    let ctx = p.ctx();
    let ty = match ctx.attr_data(value) {
        AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } => *ty,
        AttrData::DenseElements { ty, .. } => *ty,
        _ => return Err(p.error("expected an integer, float or elements attribute")),
    };
    p.set_prop("value", value);
    p.add_result_types(&[ty]);
    Ok(())
}

fn print_constant(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    p.attr_dict_with_props(op, &["value"], false);
    if let Some(v) = prop(p.ctx(), p.body(), op, "value") {
        p.write(" ");
        p.attr(v);
    }
    Ok(())
}

fn verify_constant(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let Some(v) = prop(ctx, body, op, "value") else {
        return Ok(());
    };
    let r = body.value_type(body.result(op, 0));
    let vt = match ctx.attr_data(v) {
        AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } | AttrData::DenseElements { ty, .. } => *ty,
        _ => {
            return Err(op_error(
                ctx,
                body,
                op,
                "value must be an integer, float, or elements attribute",
            ))
        }
    };
    if vt != r {
        return Err(op_error(
            ctx,
            body,
            op,
            "failed to verify that all of {value, result} have same type",
        ));
    }
    if let TypeData::Integer { signedness, .. } = ctx.type_data(r) {
        if *signedness != lf_ir::Signedness::Signless {
            return Err(op_error(ctx, body, op, "integer return type must be signless"));
        }
    }
    Ok(())
}

/// Whether `arith.constant` can hold `value` as a constant of type `ty`
/// (MLIR's `ConstantOp::isBuildableWith`): an integer, float or dense
/// elements attribute of exactly that type, integers signless.
pub fn is_buildable_with(ctx: &Context, value: Attribute, ty: Type) -> bool {
    let vt = match ctx.attr_data(value) {
        AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } | AttrData::DenseElements { ty, .. } => *ty,
        _ => return false,
    };
    if vt != ty {
        return false;
    }
    !matches!(
        ctx.type_data(lf_ir::ods::constraints::element_or_self(ctx, ty)),
        TypeData::Integer { signedness, .. } if *signedness != lf_ir::Signedness::Signless
    )
}

/// Builds a detached `arith.constant` of `value` with result type `ty` at
/// `loc` in `body` (the dialect's `materializeConstant`, used by folding
/// drivers for [`lf_ir::FoldResult::Attr`]). The caller inserts it (e.g.
/// with [`Body::insert_op_before`]). `None` when the attribute cannot be an
/// `arith.constant` of that type (see [`is_buildable_with`]).
pub fn materialize_constant(
    ctx: &Context,
    body: &mut Body,
    value: Attribute,
    ty: Type,
    loc: lf_ir::Location,
) -> Option<OpId> {
    ArithConstantOp::materialize(ctx, value, ty, loc).map(|st| body.create_op(st))
}

/// `%c0`, `%c3_i32`, `%true`, `%cst`, as MLIR names constants.
fn constant_result_name(ctx: &Context, body: &Body, op: OpId) -> Option<String> {
    let v = prop(ctx, body, op, "value")?;
    match ctx.attr_data(v) {
        AttrData::Integer { value, ty } if *ty == ctx.common().i1 => {
            Some(if *value != 0 { "true" } else { "false" }.to_string())
        }
        AttrData::Integer { value, ty } if ctx.type_data(*ty).is_index() => Some(format!("c{value}")),
        AttrData::Integer { value, ty } => Some(format!("c{value}_{}", lf_ir::printer::type_to_string(ctx, *ty))),
        _ => Some("cst".to_string()),
    }
}

/// Declares a cast op `$in attr-dict : type($in) to type($out)`.
macro_rules! cast_ops {
    ($attrs:expr, $format:expr, [$(($stat:ident, $name:expr, $summary:expr, $from:expr, $to:expr, $fold:expr)),* $(,)?]) => {
        $(
            #[doc = concat!("`", $name, "`: ", $summary, ".")]
            pub static $stat: OpDef = OpDef {
                fold: Some($fold),
                summary: $summary,
                description: concat!("Elementwise on vectors and tensors.\n\n```mlir\n%r = ", $name, " %a : T to U\n```"),
                traits: Traits::PURE,
                operands: &[ArgDef::one("in", $from)],
                results: &[ArgDef::one("out", $to)],
                attributes: $attrs,
                format: Some($format),
                verify_local: Some(verify_cast),
                ..OpDef::declared($name)
            };
        )*
    };
}

const CAST_FORMAT: &str = "$in attr-dict `:` type($in) `to` type($out)";

cast_ops!(
    NO_ATTRS,
    CAST_FORMAT,
    [
        (
            EXTSI,
            "arith.extsi",
            "integer sign extension operation",
            &SIGNLESS_FIXED_INTEGER_LIKE,
            &SIGNLESS_FIXED_INTEGER_LIKE,
            F::fold_extsi
        ),
        (
            EXTUI,
            "arith.extui",
            "integer zero extension operation",
            &SIGNLESS_FIXED_INTEGER_LIKE,
            &SIGNLESS_FIXED_INTEGER_LIKE,
            F::fold_extui
        ),
        (
            SITOFP,
            "arith.sitofp",
            "cast from integer type to floating-point",
            &SIGNLESS_FIXED_INTEGER_LIKE,
            &FLOAT_LIKE,
            F::fold_sitofp
        ),
        (
            UITOFP,
            "arith.uitofp",
            "cast from unsigned integer type to floating-point",
            &SIGNLESS_FIXED_INTEGER_LIKE,
            &FLOAT_LIKE,
            F::fold_uitofp
        ),
        (
            FPTOSI,
            "arith.fptosi",
            "cast from floating-point type to integer type",
            &FLOAT_LIKE,
            &SIGNLESS_FIXED_INTEGER_LIKE,
            F::fold_fptosi
        ),
        (
            FPTOUI,
            "arith.fptoui",
            "cast from floating-point type to integer type",
            &FLOAT_LIKE,
            &SIGNLESS_FIXED_INTEGER_LIKE,
            F::fold_fptoui
        ),
        (
            INDEX_CAST,
            "arith.index_cast",
            "cast between index and integer types",
            &SIGNLESS_INTEGER_LIKE,
            &SIGNLESS_INTEGER_LIKE,
            F::fold_index_cast
        ),
        (
            INDEX_CASTUI,
            "arith.index_castui",
            "unsigned cast between index and integer types",
            &SIGNLESS_INTEGER_LIKE,
            &SIGNLESS_INTEGER_LIKE,
            F::fold_index_castui
        ),
        (
            BITCAST,
            "arith.bitcast",
            "bitcast between values of equal bit width",
            &SIGNLESS_INTEGER_OR_FLOAT_LIKE,
            &SIGNLESS_INTEGER_OR_FLOAT_LIKE,
            F::fold_bitcast
        ),
    ]
);

static FASTMATH_OPTIONAL_ONLY: &[AttrDef] = &[AttrDef::optional("fastmath", &FASTMATH_ATTR)];

cast_ops!(
    FASTMATH_OPTIONAL_ONLY,
    "$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)",
    [(
        EXTF,
        "arith.extf",
        "cast from floating-point to wider floating-point",
        &FLOAT_LIKE,
        &FLOAT_LIKE,
        F::fold_extf
    )]
);

static TRUNCI_ATTRS: &[AttrDef] = &[AttrDef::with_default("overflowFlags", &OVERFLOW_ATTR, overflow_none)];

cast_ops!(
    TRUNCI_ATTRS,
    "$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)",
    [(
        TRUNCI,
        "arith.trunci",
        "integer truncation operation",
        &SIGNLESS_FIXED_INTEGER_LIKE,
        &SIGNLESS_FIXED_INTEGER_LIKE,
        F::fold_trunci
    )]
);

static TRUNCF_ATTRS: &[AttrDef] = &[
    AttrDef::optional("roundingmode", &ROUNDING_MODE_ATTR),
    AttrDef::optional("fastmath", &FASTMATH_ATTR),
];

cast_ops!(
    TRUNCF_ATTRS,
    "$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)",
    [(
        TRUNCF,
        "arith.truncf",
        "cast from floating-point to narrower floating-point",
        &FLOAT_LIKE,
        &FLOAT_LIKE,
        F::fold_truncf
    )]
);

/// Bit width of a scalar (element) type, `None` for index.
fn scalar_width(ctx: &Context, t: lf_ir::Type) -> Option<u32> {
    match ctx.type_data(element_or_self(ctx, t)) {
        TypeData::Integer { width, .. } => Some(*width),
        TypeData::Float(k) => Some(k.width()),
        _ => None,
    }
}

fn shape_of(ctx: &Context, t: lf_ir::Type) -> Option<Vec<i64>> {
    ctx.type_data(t).shape().map(<[i64]>::to_vec)
}

fn verify_cast(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic> {
    let name = ctx.op_name_str(body.op_name(op));
    let a = body.value_type(body.operand(op, 0));
    let r = body.value_type(body.result(op, 0));
    if shape_of(ctx, a) != shape_of(ctx, r)
        || std::mem::discriminant(ctx.type_data(a)) != std::mem::discriminant(ctx.type_data(r))
            && (ctx.type_data(a).shape().is_some() || ctx.type_data(r).shape().is_some())
    {
        return Err(op_error(
            ctx,
            body,
            op,
            "requires the same shape for all operands and results",
        ));
    }
    let (wa, wr) = (scalar_width(ctx, a), scalar_width(ctx, r));
    let incompatible = match name {
        "arith.extsi" | "arith.extui" | "arith.extf" => wr <= wa,
        "arith.trunci" | "arith.truncf" => wr >= wa,
        "arith.bitcast" => wa != wr,
        "arith.index_cast" | "arith.index_castui" => {
            ctx.type_data(element_or_self(ctx, a)).is_index() == ctx.type_data(element_or_self(ctx, r)).is_index()
        }
        _ => false,
    };
    if incompatible {
        let show = |t| lf_ir::printer::type_to_string(ctx, t);
        return Err(op_error(
            ctx,
            body,
            op,
            format!(
                "operand type '{}' and result type '{}' are cast incompatible",
                show(a),
                show(r)
            ),
        ));
    }
    Ok(())
}

/// All ops of the dialect.
pub static OPS: &[&OpDef] = &[
    &ADDI,
    &SUBI,
    &MULI,
    &SHLI,
    &DIVSI,
    &DIVUI,
    &REMSI,
    &REMUI,
    &CEILDIVSI,
    &CEILDIVUI,
    &FLOORDIVSI,
    &MAXSI,
    &MAXUI,
    &MINSI,
    &MINUI,
    &ANDI,
    &ORI,
    &XORI,
    &SHRSI,
    &SHRUI,
    &ADDF,
    &SUBF,
    &MULF,
    &DIVF,
    &REMF,
    &MAXIMUMF,
    &MINIMUMF,
    &MAXNUMF,
    &MINNUMF,
    &NEGF,
    &CMPI,
    &CMPF,
    &SELECT,
    &CONSTANT,
    &EXTSI,
    &EXTUI,
    &SITOFP,
    &UITOFP,
    &FPTOSI,
    &FPTOUI,
    &INDEX_CAST,
    &INDEX_CASTUI,
    &BITCAST,
    &EXTF,
    &TRUNCI,
    &TRUNCF,
];

/// What the op reference says about the dialect.
pub const INTRO: &str = "Integer and floating-point arithmetic on scalars, vectors and tensors, as in MLIR's \
    `arith` dialect. Integers are signless: the operation decides how bits are interpreted.";
