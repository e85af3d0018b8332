//! lf-ir: the IR core of lf.
//!
//! - [`Context`]: uniqued [`Type`]s and [`Attribute`]s, interned [`Ident`]s and
//!   the registry of [`OpDef`]s.
//! - [`Body`]: arena storage of operations, blocks, regions and values; ops
//!   that are isolated from above own a nested body (see [`body`]).
//! - [`parse_source`] and [`print_op`]: MLIR's textual syntax.
//! - [`verify()`]: structural and dominance verification.
//! - [`view`]: typed op views (generated from the op declarations by
//!   [`ods::views`]) and [`builder::Builder`], through which passes read,
//!   create and change ops.

pub mod attrs;
pub mod body;
pub mod builder;
pub mod builtin;
pub mod clone;
mod compact;
pub mod constants;
pub mod context;
pub mod context_memo;
mod declared_ok;
pub mod dominance;
mod entity;
pub mod floatfmt;
pub mod interfaces;
pub mod location;
pub mod ods;
mod order;
pub mod parser;
pub mod printer;
pub mod registry;
pub mod symbols;
pub mod types;
mod uniquer;
pub mod verify;
pub mod view;
pub mod walk;

/// Affine expressions, maps and integer sets (the `lf-affine` crate).
pub use lf_affine as affine;
/// Diagnostics (the `lf-diag` crate).
pub use lf_diag as diag;

pub use attrs::{AttrData, Attribute, DenseValues, DictEntries, LocationData};
pub use body::{Body, OperationState, ValueDef};
pub use context::{CommonTypes, Context, Ident};
pub use entity::{BlockId, OpId, RegionId, UseId, Value};
pub use location::Location;
pub use parser::{parse_source, parse_source_with, OwnedOp, ParseOptions, ProgressHook};
pub use printer::{op_to_string, print_op, PrintOptions};
pub use registry::{FoldFn, FoldResult, FoldResults, OpDef, OpName, Traits};
pub use types::{FloatKind, Signedness, Type, TypeData, DYNAMIC};
pub use verify::{verify, verify_isolated_op, verify_nested_body};
