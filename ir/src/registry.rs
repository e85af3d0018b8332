//! Operation definitions and the traits the core understands.
//!
//! An op is declared once as a `static` [`OpDef`]: its name, documentation,
//! traits, verifier and (optionally) custom syntax. The dialects crate declares
//! its ops this way; out-of-tree projects do the same and register them with
//! [`Context::register_op`](crate::Context::register_op).

use crate::ods::{ArgDef, AttrDef, CustomDirective, RegionDef, ResultNamesFn, TypeRule};
use crate::parser::{CustomParser, ParseResult};
use crate::printer::CustomPrinter;
use crate::{Attribute, Body, Context, OpId, Value};
use lf_diag::Diagnostic;

/// An interned operation name.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct OpName(pub(crate) u32);

/// What the context knows about an op name.
pub(crate) struct OpNameInfo {
    pub(crate) def: &'static OpDef,
    pub(crate) format: Option<&'static crate::ods::format::Format>,
    /// The effect kinds the declaration gives (computed once: the rewrite
    /// drivers ask for every op they visit).
    pub(crate) effect_kinds: Option<crate::interfaces::EffectKinds>,
}

/// Traits of an op, as a bit set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Traits(pub u32);

impl Traits {
    /// No traits.
    pub const NONE: Traits = Traits(0);
    /// The op ends a block.
    pub const TERMINATOR: Traits = Traits(1 << 0);
    /// Regions cannot use values defined above the op.
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(1 << 1);
    /// The op's single region holds a symbol table.
    pub const SYMBOL_TABLE: Traits = Traits(1 << 2);
    /// The op defines a symbol (`sym_name`).
    pub const SYMBOL: Traits = Traits(1 << 3);
    /// Blocks of the op's regions need no terminator.
    pub const NO_TERMINATOR: Traits = Traits(1 << 4);
    /// The op's regions are graph regions (no dominance between ops).
    pub const GRAPH_REGION: Traits = Traits(1 << 5);
    /// Each region has at most one block.
    pub const SINGLE_BLOCK: Traits = Traits(1 << 6);
    /// No side effects and speculatable.
    pub const PURE: Traits = Traits(1 << 7);
    /// A constant-like op (folds to an attribute).
    pub const CONSTANT_LIKE: Traits = Traits(1 << 8);
    /// Results have the same type as operands.
    pub const SAME_OPERANDS_AND_RESULT_TYPE: Traits = Traits(1 << 9);
    /// The op has memory effects: those its declaration gives on its
    /// operands and results ([`crate::ods::ArgDef::effects`]) and on other
    /// memory ([`OpDef::other_effects`]); unknown when it gives none (see
    /// [`crate::interfaces::memory_effects`]).
    pub const MEMORY_EFFECTS: Traits = Traits(1 << 10);
    /// Whether ops with this trait return to their parent (e.g. `func.return`).
    pub const RETURN_LIKE: Traits = Traits(1 << 11);
    /// Single-block regions whose terminator may be left out of the custom
    /// form when it has no operands (`scf.yield` in `scf.for`).
    pub const SINGLE_BLOCK_IMPLICIT_TERMINATOR: Traits = Traits(1 << 12);
    /// The op's two operands may be swapped (`arith.addi`): passes such as
    /// `cse` and `canonicalize` compare or reorder them.
    pub const COMMUTATIVE: Traits = Traits(1 << 13);
    /// The op's effects are those of the ops in its regions (MLIR's
    /// `RecursiveMemoryEffects`: `scf.for`, `affine.if`): it is effect-free,
    /// or only reads, when they all are.
    pub const RECURSIVE_MEMORY_EFFECTS: Traits = Traits(1 << 14);

    /// Whether all of `other`'s bits are set.
    #[inline]
    pub const fn contains(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
    /// Union of two sets.
    pub const fn with(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }
}

/// Verifies one op; returns a diagnostic describing the first problem.
pub type VerifyFn = fn(ctx: &Context, body: &Body, op: OpId) -> Result<(), Diagnostic>;
/// Parses the custom form of an op after its name.
pub type ParseFn = fn(p: &mut CustomParser<'_, '_>) -> ParseResult<()>;
/// Prints the custom form of an op after its name.
pub type PrintFn = fn(p: &mut CustomPrinter<'_, '_>, op: OpId) -> std::fmt::Result;

/// What one result of an op folds to.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FoldResult {
    /// A constant: the caller materializes it (e.g. as `arith.constant`).
    Attr(Attribute),
    /// An existing value (e.g. `x` for `x + 0`).
    Value(Value),
}

/// Folds an op without changing the IR, as MLIR's `fold` does. `operands`
/// holds the constant value of each operand where it is known (the value
/// attribute of a constant-like defining op) and `None` elsewhere. Returns
/// `None` when the op does not fold, else one [`FoldResult`] per result.
pub type FoldFn = fn(ctx: &Context, body: &Body, op: OpId, operands: &[Option<Attribute>]) -> Option<FoldResults>;

/// What an op folds to: one [`FoldResult`] per result (inline for one:
/// asking a constant for its value allocates nothing).
pub type FoldResults = smallvec::SmallVec<[FoldResult; 1]>;

/// MLIR's `SymbolUserOpInterface::verifySymbolUses`: checks the symbols op
/// `op` of `body` refers to. `table` is where they are looked up: an op of
/// a body (`(table_body, anchor)`) whose block's region is the region of
/// the nearest symbol table (the function holding `op`, or `op`'s ancestor
/// directly in a module); `None` where MLIR finds no symbol table (an
/// unregistered op with one region, which might be one, lies in between),
/// so that every lookup fails.
pub type SymbolUsesFn =
    fn(ctx: &Context, table: Option<(&Body, OpId)>, body: &Body, op: OpId) -> Result<(), Diagnostic>;

/// The single declaration of an operation.
#[derive(Debug)]
pub struct OpDef {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// Longer documentation (markdown).
    pub description: &'static str,
    /// Traits.
    pub traits: Traits,
    /// Names of the ops this op may be nested directly in (empty: anywhere).
    pub parents: &'static [&'static str],
    /// The op's own verifier.
    pub verify: Option<VerifyFn>,
    /// The part of the op's own verifier that reads only what the declared
    /// checks read: the op's name, its operand and result counts and types,
    /// its region and successor counts and its properties (no other op, no
    /// region contents, no discardable attribute). For a declared op it runs
    /// right after the declared checks and is remembered with them: an op
    /// that passed and has not changed since, or that equals one that
    /// passed, is not checked again (see [`crate::ods::verify`]). `verify`
    /// runs after it, every time.
    pub verify_local: Option<VerifyFn>,
    /// Checks that run once the op's regions have verified (MLIR's
    /// `verifyRegions`). For an op isolated from above they run on the
    /// thread that verified its body, so walking that body here costs no
    /// sequential time.
    pub verify_regions: Option<VerifyFn>,
    /// The check of the symbols the op refers to, run by the symbol table
    /// holding it ([`SymbolUsesFn`]): `builtin.module` checks its ops
    /// outside functions, `func.func` the ops of its body.
    pub verify_symbol_uses: Option<SymbolUsesFn>,
    /// Custom syntax parser.
    pub parse: Option<ParseFn>,
    /// Custom syntax printer.
    pub print: Option<PrintFn>,
    /// Whether the fields below declare the op's signature completely; the
    /// generic verifier ([`crate::ods::verify`]) checks declared ops against them.
    pub declared: bool,
    /// Operand groups, in order.
    pub operands: &'static [ArgDef],
    /// Result groups, in order.
    pub results: &'static [ArgDef],
    /// Inherent attributes (kept in the op's properties).
    pub attributes: &'static [AttrDef],
    /// Regions, in order.
    pub regions: &'static [RegionDef],
    /// Successor names, in order.
    pub successors: &'static [&'static str],
    /// Declarative assembly format in MLIR's notation; used when `parse` and
    /// `print` are not given.
    pub format: Option<&'static str>,
    /// How the format finds types that the syntax leaves out.
    pub type_rules: &'static [TypeRule],
    /// `custom<Name>(...)` directives the format uses.
    pub custom_directives: &'static [CustomDirective],
    /// Names suggested for the op's results when printing (`%c0`, `%cst`).
    pub result_names: Option<ResultNamesFn>,
    /// The op's folder (constant folding and identities such as `x + 0`).
    pub fold: Option<FoldFn>,
    /// The loop-like interface, for a loop ([`crate::interfaces::LoopLike`]).
    pub loop_like: Option<&'static crate::interfaces::LoopLike>,
    /// Memory effects on memory that no operand or result names (a
    /// barrier's, a call's): see [`crate::interfaces::memory_effects`].
    pub other_effects: crate::interfaces::Effects,
    /// Whether this effect-free op may run where it would not have run (a
    /// division only when its divisor is a constant that cannot trap);
    /// `None`: always (see [`crate::interfaces::is_speculatable`]).
    pub speculatable: Option<fn(&Context, &Body, OpId) -> bool>,
}

impl OpDef {
    /// A definition with only a name: no traits, no hooks. Use with struct
    /// update syntax: `OpDef { traits: ..., ..OpDef::new("d.op") }`.
    pub const fn new(name: &'static str) -> OpDef {
        OpDef {
            name,
            summary: "",
            description: "",
            traits: Traits::NONE,
            parents: &[],
            verify: None,
            verify_local: None,
            verify_regions: None,
            verify_symbol_uses: None,
            parse: None,
            print: None,
            declared: false,
            operands: &[],
            results: &[],
            attributes: &[],
            regions: &[],
            successors: &[],
            format: None,
            type_rules: &[],
            custom_directives: &[],
            result_names: None,
            fold: None,
            loop_like: None,
            other_effects: crate::interfaces::Effects::NONE,
            speculatable: None,
        }
    }

    /// Like [`OpDef::new`], for an op whose signature (operands, results,
    /// attributes, regions, successors) is declared in full.
    pub const fn declared(name: &'static str) -> OpDef {
        OpDef {
            declared: true,
            ..OpDef::new(name)
        }
    }

    /// The dialect namespace (text before the first `.`).
    pub fn dialect(&self) -> &'static str {
        self.name.split_once('.').map_or(self.name, |(d, _)| d)
    }

    /// Whether the op has a trait.
    #[inline]
    pub fn has(&self, t: Traits) -> bool {
        self.traits.contains(t)
    }
}
