//! The `ihop-pre` pipeline: seed 003's pre-transformations of a loop nest
//! before it is mapped to a GPU (IHOP's stage 1): normalization, then
//! distribution, then interchange that makes the innermost loop's
//! accesses unit-stride.

use lf_pass::pass::Anchor;
use lf_pass::registry::PipelineInfo;

/// The registration record of `ihop-pre`. Its passes are looked up by name
/// when it is used (`affine-loop-normalize` comes from another part of
/// issue 27).
pub static IHOP_PRE: PipelineInfo = PipelineInfo {
    name: "ihop-pre",
    summary: "IHOP's loop pre-transformations (seed 003): normalize, distribute, interchange=auto",
    description: "Seed 003's stage 1 on affine loop nests: `affine-loop-normalize` (lower bound 0, \
step 1), `canonicalize` (folds the `affine.apply` of each normalized loop variable into the \
accesses, so that the bands stay perfect for interchange), `affine-loop-distribute` (one loop per group of dependent statements), then \
`affine-loop-interchange{auto=true}` (the legal order whose innermost loop's accesses are \
unit-stride). Every step keeps the program's results and declines, with a remark, what it cannot \
prove legal.",
    anchor: Anchor::Op("func.func"),
    pipeline: "affine-loop-normalize,canonicalize,affine-loop-distribute,affine-loop-interchange{auto=true}",
};
