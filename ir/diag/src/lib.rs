//! Diagnostics for lf: source buffers, diagnostics, rendering with source
//! snippets, `--verify-diagnostics` and `--split-input-file`, following
//! mlir-opt 22's behaviour.
//!
//! - [`SourceMgr`] holds named buffers and maps byte offsets to 1-based
//!   (line, byte column) and back.
//! - [`Diagnostic`] (with [`Severity`] and [`SourcePos`]) is the value every
//!   user-caused error becomes; [`DiagEngine`] collects them from any thread.
//! - [`render()`] / [`emit_to_stderr`] print them with codespan-reporting (the
//!   format is documented on [`render()`]).
//! - [`parse_expected`] reads `// expected-error @+1 {{...}}` comments and
//!   [`verify()`] / [`Verifier`] check emitted diagnostics against them.
//! - [`split_input_file`] cuts a buffer at `// -----` markers, keeping
//!   positions in the original file.
//! - [`suggest::nearest`] picks the "did you mean" of an unknown name.
//!
//! A tool's `--verify-diagnostics --split-input-file` loop:
//!
//! ```
//! use lf_diag::*;
//! let text = "// expected-error @+1 {{bad}}\nbad op\n// -----\ngood op\n";
//! let mut sm = SourceMgr::new();
//! let file = sm.add("t.mlir", text);
//! let engine = DiagEngine::new();
//! for chunk in split_input_file(text, DEFAULT_SPLIT_MARKER) {
//!     // A parser would report in file coordinates, using `chunk.offset`.
//!     if let Some(i) = chunk.text.find("bad op") {
//!         engine.emit(Diagnostic::error(sm.pos(file, chunk.offset + i), "bad op here"));
//!     }
//! }
//! let mut v = Verifier::new(VerifyMode::All);
//! v.add_all(&sm);
//! v.check_all(&engine.take());
//! let failures = v.finish();
//! assert!(failures.is_empty(), "{}", render_all(&failures, &sm));
//! ```

#![warn(missing_docs)]

pub mod diagnostic;
pub mod engine;
pub mod expect;
pub mod render;
pub mod source;
pub mod split;
pub mod suggest;
pub mod verify;

pub use diagnostic::{Diagnostic, Severity, SourcePos, UNKNOWN_POS};
pub use engine::{sort_by_position, DiagEngine};
pub use expect::{parse_expected, Expectations, ExpectedDiag};
pub use render::{emit_to_stderr, render, render_all, render_with, stderr_wants_color, write_all, RenderOptions};
pub use source::{FileId, SourceMgr};
pub use split::{
    split_input_file, split_input_file_checked, Chunk, SplitFile, DEFAULT_OUTPUT_SPLIT_MARKER, DEFAULT_SPLIT_MARKER,
};
pub use verify::{verify, verify_with, Verifier, VerifyMode};

/// Re-export of the terminal color crate used by [`write_all`].
pub use codespan_reporting::term::termcolor;
