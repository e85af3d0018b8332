//! Utilities of the `affine` dialect (MLIR's `Dialect/Affine/Utils` and
//! `Analysis/AffineStructures` helpers): composing and canonicalizing maps
//! with their operands, simplifying maps with what the operands' loops
//! tell, the rules for which values are valid dimensions and symbols, and
//! the rules for inlining calls into affine code.

pub mod inlining;
pub(crate) mod linear_maps;
pub mod map_composition;
pub mod operand_facts;
pub mod validity;

pub use map_composition::{canonicalize_map_and_operands, map_attr, map_of};
pub use validity::{affine_scope_region, is_valid_dim, is_valid_symbol};
pub mod loop_bands;
pub mod memory_footprint;
pub mod single_iteration;
pub mod tiling;
pub mod tiling_legality;
pub mod trip_count;
