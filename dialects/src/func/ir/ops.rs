//! What the generated `func` views lack: a function's arguments and types,
//! and a builder that makes a function with its entry block.

use super::views::FuncFuncOp;
use lf_ir::builder::Builder;
use lf_ir::view::{Ir, OpView, ValueList};
use lf_ir::{BlockId, Type, TypeData};

impl FuncFuncOp {
    /// The input types of the function type.
    pub fn input_types<'c>(self, ir: &impl Ir<'c>) -> Vec<Type> {
        match ir.ctx().type_data(self.function_type(ir)) {
            TypeData::Function { inputs, .. } => inputs.to_vec(),
            _ => Vec::new(),
        }
    }
    /// The result types of the function type.
    pub fn result_types<'c>(self, ir: &impl Ir<'c>) -> Vec<Type> {
        match ir.ctx().type_data(self.function_type(ir)) {
            TypeData::Function { results, .. } => results.to_vec(),
            _ => Vec::new(),
        }
    }
    /// Whether the function is a declaration (no body).
    pub fn is_external<'c>(self, ir: &impl Ir<'c>) -> bool {
        let body = ir.body();
        body.regions_body(self.op()).region_is_empty(self.body(ir))
    }
    /// The entry block (in the function's nested body), if it has a body.
    pub fn entry_block<'c>(self, ir: &impl Ir<'c>) -> Option<BlockId> {
        let body = ir.body();
        body.regions_body(self.op()).entry_block(self.body(ir))
    }
    /// The arguments (block arguments of the entry block, in the function's
    /// nested body).
    pub fn arguments<'c>(self, ir: &impl Ir<'c>) -> ValueList {
        let body = ir.body();
        match self.entry_block(ir) {
            Some(b) => body.regions_body(self.op()).block_args(b).iter().copied().collect(),
            None => ValueList::new(),
        }
    }

    /// Creates `func.func @name` of type `inputs -> results` with an entry
    /// block whose arguments have the input types (fill it through a builder
    /// on the function's nested body: [`Builder::nested`]).
    pub fn build(b: &mut Builder<'_>, name: &str, inputs: &[Type], results: &[Type]) -> FuncFuncOp {
        let ctx = b.ctx();
        let ty = ctx.function_type(inputs, results);
        let f = FuncFuncOp::build_empty(b, name, ty);
        let region = f.body(b);
        let loc = b.loc();
        let nested = b
            .body_mut()
            .nested_body_mut(f.op())
            .expect("func.func has a nested body");
        let block = nested.create_block();
        for &t in inputs {
            nested.add_block_arg(block, t, loc);
        }
        nested.append_block(region, block);
        f
    }
}
