//! Brook+ (AMD Stream SDK 1.x, brcc 1.4): the syntax of lf's Brook+ subset,
//! its rule checker, and its translation to C++ against lf's emulation of the
//! Brook+ runtime (docs/design/brook.md).
//!
//! - [`syntax::parse`]: a `.br` file to kernels and host code.
//! - [`check::check`]: the Brook+ rules, as diagnostics naming the rule.
//! - [`cpp::to_cpp`]: a `.br` file to C++ that g++ builds against
//!   [`cpp::RUNTIME_HEADER`] (`brook/Stream.h`).

pub mod check;
pub mod cpp;
pub mod syntax;
