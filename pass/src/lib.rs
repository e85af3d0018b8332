//! lf-pass: lf's pass infrastructure. It depends on the IR core only: the
//! dialects' transforms and the generic transforms (`lf-transforms`) sit
//! above it.
//!
//! - [`pass`]: the [`Pass`] trait, [`PassInfo`] registration records, typed
//!   options, and [`PassTarget`], the handle a pass gets on its op. Start
//!   there to write a pass.
//! - [`PassRegistry`]: the passes pipelines and flags can name.
//! - [`pipeline`]: the textual pipeline syntax
//!   (`builtin.module(func.func(cse,canonicalize{max-iterations=5}))`).
//! - [`manager`]: nested pass managers that run a pipeline, in parallel on
//!   isolated ops, with instrumentation ([`instrument`]) and observers
//!   called between passes ([`observe`]).
//! - [`analysis`]: the analysis manager, dominance and loop nests.
//! - [`rewrite`]: pattern rewriting (greedy driver, dialect conversion,
//!   the canonicalization patterns registered per dialect).

pub mod analysis;
pub mod instrument;
pub mod manager;
pub mod observe;
pub mod options;
pub mod pass;
pub mod pipeline;
pub mod registry;
pub mod rewrite;
pub mod suggest;

pub use analysis::{Analysis, AnalysisManager, DominanceInfo, LoopNestInfo};
pub use manager::{PassManager, RunOptions, RunReport};
pub use observe::{ObservedPass, PassObserver};
pub use options::{OptionKind, OptionValue, PassOption, PassOptions};
pub use pass::{Anchor, OpRecord, Pass, PassInfo, PassResult, PassTarget};
pub use pipeline::parse_pipeline;
pub use pipeline::{OpPassManager, PassEntry};
pub use registry::PassRegistry;
