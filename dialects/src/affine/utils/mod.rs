//! Utilities of the `affine` dialect (MLIR's `Dialect/Affine/Utils` and
//! `Analysis/AffineStructures` helpers): composing and canonicalizing maps
//! with their operands, simplifying maps with what the operands' loops
//! tell, the rules for which values are valid dimensions and symbols, and
//! the rules for inlining calls into affine code.

pub mod inlining;
pub mod intervening_effects;
pub(crate) mod linear_maps;
pub mod loop_band;
pub mod loop_bands;
pub mod loop_slice;
pub mod loop_unroll;
pub mod loop_unroll_jam;
pub mod map_composition;
pub mod memory_footprint;
pub mod memref_alias;
pub mod operand_facts;
pub mod promote_single_iteration;
pub mod reduction_ops;
pub mod tile_separation;
pub mod tiling;
pub mod tiling_legality;
pub mod trip_count;
pub mod trip_count_bound;
pub mod validity;

pub use map_composition::{canonicalize_map_and_operands, map_attr, map_of};
pub use validity::{affine_scope_region, is_valid_dim, is_valid_symbol};
