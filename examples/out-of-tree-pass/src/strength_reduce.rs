//! `strength-reduce`: multiplies, unsigned divisions and remainders by powers of two become shifts and masks.

use lf_dialects::arith::{
    ArithAndiOp, ArithConstantOp, ArithDivuiOp, ArithMuliOp, ArithRemuiOp, ArithShliOp, ArithShruiOp,
};
use lf_ir::view::OpView;
use lf_ir::{AttrData, OpDef, OpId, TypeData, Value};
use lf_pass::rewrite::RewritePattern;
use lf_pass::rewrite::{apply_patterns_greedily, constant_value, GreedyConfig, PatternRewriter, PatternSet};
use lf_pass::{AnalysisManager, Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};

/// The type of the `ops` option: a list of words.
const OPS: OptionKind = OptionKind::List(&OptionKind::Enum(&["muli", "divui", "remui"]));

/// The registration record: what pipelines, flags and `--list-passes` know.
pub static INFO: PassInfo = PassInfo {
    name: "strength-reduce",
    summary: "Replace integer multiplies, unsigned divisions and remainders by powers of two with shifts and masks",
    description: "`x * 2^k` -> `x << k`, `x / 2^k` -> `x >> k`, `x % 2^k` -> `x & (2^k - 1)` (unsigned `/` and `%`), \
for a constant on the right. Overflow flags are dropped. Statistic: `num-reduced`.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption { name: "ops", kind: OPS, default: "muli,divui,remui", help: "The ops to rewrite" },
        PassOption { name: "index-only", kind: OptionKind::Bool, default: "false", help: "Only index arithmetic" },
    ],
    create: |opts| Ok(Box::new(StrengthReduce { ops: opts.strings("ops"), index_only: opts.bool("index-only") })),
};

/// The pass, holding its options (lf has parsed and type-checked them).
struct StrengthReduce {
    ops: Vec<String>,
    index_only: bool,
}

impl Pass for StrengthReduce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let mut patterns = PatternSet::new();
        for rewrite in &REWRITES {
            if self.ops.iter().any(|o| o == rewrite.option) {
                patterns.add(PowerOfTwo { rewrite, index_only: self.index_only });
            }
        }
        let regions = op.regions().to_vec();
        let (ctx, body) = op.parts();
        let config = GreedyConfig { fold: false, cse_constants: false, ..GreedyConfig::default() }; // patterns only
        let result = apply_patterns_greedily(ctx, body, &regions, &patterns.freeze(ctx), &config);
        if let Some(diag) = result.non_convergence(ctx, op.loc(), "strength-reduce", &config) {
            return Err(Box::new(diag));
        }
        op.add_statistic("num-reduced", "Number of ops rewritten", result.num_rewrites);
        if !result.changed {
            am.preserve_all(); // nothing changed: cached analyses stay valid
        }
        Ok(())
    }
}

/// One rewrite: `from(x, 2^k)` becomes `to(x, k)`, or `to(x, 2^k - 1)` when `mask` is set.
struct Rewrite {
    option: &'static str,
    from: fn() -> &'static OpDef,
    to: fn(&mut PatternRewriter<'_>, Value, Value) -> Value,
    mask: bool,
}

static REWRITES: [Rewrite; 3] = [
    Rewrite {
        option: "muli",
        from: ArithMuliOp::def,
        to: |b, x, k| ArithShliOp::build(b, x, k).result(b),
        mask: false,
    },
    Rewrite {
        option: "divui",
        from: ArithDivuiOp::def,
        to: |b, x, k| ArithShruiOp::build(b, x, k).result(b),
        mask: false,
    },
    Rewrite {
        option: "remui",
        from: ArithRemuiOp::def,
        to: |b, x, m| ArithAndiOp::build(b, x, m).result(b),
        mask: true,
    },
];

/// A rewrite as a pattern, rooted at its `from` op.
struct PowerOfTwo {
    rewrite: &'static Rewrite,
    index_only: bool,
}

impl RewritePattern for PowerOfTwo {
    fn name(&self) -> &str {
        self.rewrite.option
    }
    fn root(&self) -> Option<&'static OpDef> {
        Some((self.rewrite.from)())
    }

    fn match_and_rewrite(&self, op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
        let (ctx, body) = (rw.ctx(), rw.body());
        let (x, ty) = (body.operand(op, 0), body.value_type(body.result(op, 0)));
        let width = match ctx.type_data(ty) {
            TypeData::Index => 64,
            TypeData::Integer { width, .. } if !self.index_only => *width,
            _ => return false, // a vector, or not `index` under index-only
        };
        let Some(AttrData::Integer { value, .. }) =
            constant_value(ctx, body, body.operand(op, 1)).map(|c| ctx.attr_data(c))
        else {
            return false;
        };
        let bits = (*value as u128) & (u128::MAX >> (128 - width)); // the constant as an unsigned number
        if !bits.is_power_of_two() || bits == 1 {
            return false; // `x * 1` and the like are the folders' job
        }
        let amount = if self.rewrite.mask { bits - 1 } else { bits.trailing_zeros().into() };
        // New ops go before `op`, at its location; every change goes through the rewriter.
        let amount = ArithConstantOp::int(rw, amount as i128, ty);
        let new = (self.rewrite.to)(rw, x, amount);
        rw.replace_op(op, &[new]);
        true
    }
}
