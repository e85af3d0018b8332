//! lf IR core.
