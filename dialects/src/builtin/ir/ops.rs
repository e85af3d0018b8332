//! What the generated `builtin` views lack: a module's block and a builder
//! of an empty module.

use super::views::BuiltinModuleOp;
use lf_ir::builder::Builder;
use lf_ir::view::OpView;

impl BuiltinModuleOp {
    /// Creates an empty `builtin.module` (its block in its nested body) at
    /// the builder's insertion point.
    pub fn build(b: &mut Builder<'_>) -> BuiltinModuleOp {
        let m = BuiltinModuleOp::build_empty(b);
        let region = m.body_region(b);
        let nested = b
            .body_mut()
            .nested_body_mut(m.op())
            .expect("a module has a nested body");
        let block = nested.create_block();
        nested.append_block(region, block);
        m
    }
}
