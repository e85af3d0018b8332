//! "Did you mean" suggestions: the nearest name by edit distance (shared
//! with the IR parser's, in [`lf_diag::suggest`]).

pub use lf_diag::suggest::{edit_distance, nearest};
