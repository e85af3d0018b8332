//! Operation definitions and the traits the core understands.
//!
//! An op is declared once as a `static` [`OpDef`]: its name, documentation,
//! traits, verifier and (optionally) custom syntax. The dialects crate declares
//! its ops this way; out-of-tree projects do the same and register them with
//! [`Context::register_op`](crate::Context::register_op).

use crate::parser::{CustomParser, ParseResult};
use crate::printer::CustomPrinter;
use crate::{Body, Context, OpId};
use lf_diag::Diagnostic;

/// An interned operation name.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct OpName(pub(crate) u32);

/// What the context knows about an op name.
pub(crate) struct OpNameInfo {
    pub(crate) def: Option<&'static OpDef>,
}

impl OpNameInfo {
    pub(crate) fn unregistered(_name: &str) -> Self {
        OpNameInfo { def: None }
    }
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
    /// The op reads or writes memory.
    pub const MEMORY_EFFECTS: Traits = Traits(1 << 10);
    /// Whether ops with this trait return to their parent (e.g. `func.return`).
    pub const RETURN_LIKE: Traits = Traits(1 << 11);

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
    /// Custom syntax parser.
    pub parse: Option<ParseFn>,
    /// Custom syntax printer.
    pub print: Option<PrintFn>,
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
            parse: None,
            print: None,
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
