//! Affine expressions, maps and integer sets with MLIR's notation and
//! simplification rules.
//!
//! This crate reproduces MLIR 22's behaviour for
//! * building expressions ([`AffineExpr`]): the construction-time
//!   simplifications of MLIR's `AffineExpr` operators (constant folding,
//!   constants and symbols moved to the right, `x * c1 + x * c2` merged,
//!   `x - (x floordiv c) * c` recognised as `x mod c`, ...), see
//!   [`build`](crate::AffineExpr::binary);
//! * printing ([`std::fmt::Display`] on [`AffineExpr`], [`AffineMap`],
//!   [`IntegerSet`]), byte-identical to mlir-opt inside
//!   `affine_map<...>`/`affine_set<...>`;
//! * parsing ([`parse_affine_map`], [`parse_integer_set`],
//!   [`parse_affine_map_or_set`], [`parse_affine_exprs_of_ssa_ids`]), with
//!   MLIR's error messages;
//! * simplification by flattening ([`simplify_affine_expr`],
//!   [`AffineMap::simplify`]) and composition ([`AffineMap::compose`]);
//! * constant bounds of expressions from bounds of their inputs
//!   ([`affine_expr_bounds`]).
//!
//! It has no dependency on the rest of lf.
//!
//! ```
//! use lf_affine::{parse_affine_map, parse_integer_set};
//! let m = parse_affine_map("(d0, d1)[s0] -> (d0 + d0 * 2 - s0, (d1 + 1) floordiv 4)").unwrap();
//! assert_eq!(m.to_string(), "(d0, d1)[s0] -> (d0 * 3 - s0, (d1 + 1) floordiv 4)");
//! assert_eq!(m.evaluate(&[1, 7], &[2]), Some(vec![1, 2]));
//! let s = parse_integer_set("(d0)[s0] : (s0 - d0 - 2 >= 0)").unwrap();
//! assert_eq!(s.to_string(), "(d0)[s0] : (-d0 + s0 - 2 >= 0)");
//! ```

#![warn(missing_docs)]

mod bounds;
mod build;
mod eval;
mod expr;
mod lexer;
mod map;
mod parse;
mod print;
mod set;
mod shape;
mod simplify;
mod subst;

pub use bounds::affine_expr_bounds;
pub use eval::{ceil_div, floor_div, gcd, modulo};
pub use expr::{AffineExpr, AffineExprKind, BinaryOp, ExprView};
pub use map::AffineMap;
pub use parse::{
    parse_affine_exprs_of_ssa_id_ranges, parse_affine_exprs_of_ssa_ids, parse_affine_map, parse_affine_map_or_set,
    parse_affine_map_or_set_prefix, parse_affine_map_prefix, parse_integer_set, parse_integer_set_prefix,
    AffineMapOrSet, AffineParseError, MAX_EXPR_DEPTH, MAX_NESTING,
};
pub use print::print_affine_expr_with;
pub use set::IntegerSet;
pub use shape::ssa_list_shape;
pub use simplify::{expr_from_linear_form, linear_form, simplify_affine_expr, LinearForm};
