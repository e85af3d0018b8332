//! `canonicalize`: op folders plus canonicalization patterns, applied by the
//! greedy driver ([`lf_pass::rewrite::apply_patterns_greedily`]).
//!
//! The patterns are those the dialects registered in the context
//! ([`lf_pass::rewrite::canonicalization_patterns`]; lf's live in each
//! dialect's `ir/canonicalize` module). Folders come from the op
//! declarations ([`lf_ir::OpDef::fold`]); unused effect-free ops are erased
//! by the driver.

use lf_ir::Context;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::rewrite::{apply_patterns_greedily, canonicalization_patterns, FrozenPatternSet, GreedyConfig};
use lf_pass::AnalysisManager;

/// The registration record of `canonicalize`.
pub static INFO: PassInfo = PassInfo {
    name: "canonicalize",
    summary: "Canonicalize operations",
    description: "Folds ops (each op's declared folder: constant folding, `x + 0`, `x * 1`, \
`select` on a constant condition, ...) and applies canonicalization patterns until a fixed \
point: constants are uniqued and hoisted to the entry block of their function; unused \
effect-free ops are erased; `scf.if` on a constant condition is replaced by the branch taken; \
`scf.for` and `affine.for` loops with zero iterations are erased (results: their initial \
values) and loops with one iteration are replaced by their body; `affine.apply` chains are \
composed into the affine maps of their users (`affine.apply`, `affine.load`, `affine.store`, \
`affine.min`, `affine.max`), constant operands are folded into the maps, operands that are \
valid symbols become symbols, and maps are simplified, then, as MLIR's \
`simplifyMapWithOperands`, simplified with what the loops of their operands tell (a \
`floordiv`, `ceildiv` or `mod` by a constant folds when the constant bounds or the step of the \
`affine.for` whose induction variable it reads decide it); `affine.for` bounds whose operands \
are constants fold, `affine.apply` producers are composed into loop bounds and `affine.if` \
conditions too, results of a lower (upper) bound that can never be the maximum (minimum) are \
dropped; `affine.apply` of a constant becomes \
`arith.constant`; an allocation only stored into (`memref.store`) and deallocated is erased \
with those users; ops that only read memory are dead when unused, as in MLIR; an \
`affine.if` `else` that only yields goes, and an `affine.if` whose condition is trivially true \
or empty becomes the branch taken; `arith.cmpf` of an integer converted to float against a constant becomes \
`arith.cmpi` (or a constant) where the conversion cannot change the outcome; nested constant \
additions `(x + c1) + c2` become `x + (c1 + c2)`.\n\n\
Like MLIR's canonicalizer, the pass runs the greedy pattern driver to a fixed point or to \
`max-iterations`; with `test-convergence` not reaching the fixed point is an error \
(`canonicalizer failed to converge within N iterations`), otherwise a warning.\n\n\
The options are MLIR's, with MLIR's meanings (`max-iterations=-1`: no limit), and `fold`, \
lf's own. `region-simplify` is accepted and has no effect: lf does not simplify the region \
tree (MLIR's region simplification erases and merges blocks linked by branches, which lf's \
dialects do not have). `--dump-pass-pipeline` leaves `fold` out while it is `true`, so that \
the printed pipeline pastes into `mlir-opt`.\n\n\
Differences from `mlir-opt --canonicalize`: lf also removes zero- and one-trip `affine.for` \
loops with constant bounds (MLIR folds only zero-trip loops with results, and loops whose body \
only yields); it lacks some of MLIR's patterns (among them constant `memref.alloc` sizes \
folded into the type, and `arith.cmpf` of an integer converted to a float type other than \
`f32`/`f64` against a constant, which MLIR rewrites as `arith.cmpi` as lf does for `f32` and \
`f64`); the order of hoisted constants can differ. On the benchmark's 1M-op program that \
order is the only difference left: every function has the same ops, maps and operands as \
mlir-opt's (`bench/RESULTS.md`).",
    anchor: Anchor::Any,
    options: &[
        PassOption {
            name: "top-down",
            kind: OptionKind::Bool,
            default: "true",
            help: "Seed the worklist in general top-down order",
        },
        PassOption {
            name: "max-iterations",
            kind: OptionKind::Int,
            default: "10",
            help: "Max. iterations between applying patterns / simplifying regions (-1: no limit; 0 or less otherwise: no iteration)",
        },
        PassOption {
            name: "max-num-rewrites",
            kind: OptionKind::Int,
            default: "-1",
            help: "Max. number of pattern rewrites within an iteration (-1: no limit)",
        },
        PassOption {
            name: "region-simplify",
            kind: OptionKind::Enum(&["disabled", "normal", "aggressive"]),
            default: "normal",
            help: "Perform control flow optimizations to the region tree (accepted as MLIR's; no effect in lf)",
        },
        PassOption {
            name: "test-convergence",
            kind: OptionKind::Bool,
            default: "false",
            help: "Fail (error) if the fixed point is not reached",
        },
        PassOption {
            name: "fold",
            kind: OptionKind::Bool,
            default: "true",
            help: "Call op folders (lf's own option, not MLIR's)",
        },
        PassOption {
            name: "disable-patterns",
            kind: OptionKind::List(&OptionKind::String),
            default: "",
            help: "Labels of patterns that should be filtered out during application",
        },
        PassOption {
            name: "enable-patterns",
            kind: OptionKind::List(&OptionKind::String),
            default: "",
            help: "Labels of patterns that should be used during application, all other patterns are filtered out",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    // As MLIR's `GreedyRewriteConfig`: -1 is no limit, and 0 or another
    // negative bound runs no iteration.
    let max_iterations = match opts.int("max-iterations") {
        -1 => GreedyConfig::NO_LIMIT,
        n if n >= 1 => n.min(i64::from(GreedyConfig::NO_LIMIT - 1)) as u32,
        _ => 0,
    };
    let max = opts.int("max-num-rewrites");
    let config = GreedyConfig {
        top_down: opts.bool("top-down"),
        max_iterations,
        max_rewrites: (max >= 0).then_some(max as u64),
        fold: opts.bool("fold"),
        cse_constants: true,
        recurse_into_nested: true,
    };
    Ok(Box::new(Canonicalize {
        config,
        disabled: opts.strings("disable-patterns"),
        enabled: opts.strings("enable-patterns"),
        test_convergence: opts.bool("test-convergence"),
        frozen: std::sync::OnceLock::new(),
    }))
}

/// The `canonicalize` pass.
pub struct Canonicalize {
    config: GreedyConfig,
    disabled: Vec<String>,
    enabled: Vec<String>,
    test_convergence: bool,
    frozen: std::sync::OnceLock<FrozenPatternSet>,
}

impl Canonicalize {
    fn patterns(&self, ctx: &Context) -> &FrozenPatternSet {
        self.frozen.get_or_init(|| {
            let mut set = canonicalization_patterns(ctx);
            set.retain(|n| !self.disabled.iter().any(|d| d == n));
            if !self.enabled.is_empty() {
                set.retain(|n| self.enabled.iter().any(|d| d == n));
            }
            set.freeze(ctx)
        })
    }
}

impl Pass for Canonicalize {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn class_name(&self) -> std::borrow::Cow<'static, str> {
        // MLIR's name of the pass, in IR dump headers.
        "Canonicalizer".into()
    }

    fn lf_options(&self) -> &'static [&'static str] {
        &["fold"]
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let patterns = self.patterns(ctx);
        let regions = op.regions().to_vec();
        let loc = op.loc();
        let result = apply_patterns_greedily(ctx, op.body_mut(), &regions, patterns, &self.config);
        op.add_statistic("num-rewrites", "Patterns applied", result.num_rewrites);
        op.add_statistic("num-folds", "Ops folded", result.num_folds);
        op.add_statistic("num-dead", "Dead ops erased", result.num_dead);
        if !result.changed {
            am.preserve_all();
        }
        if let Some(mut d) = result.non_convergence(ctx, loc, "canonicalizer", &self.config) {
            if self.test_convergence {
                return Err(Box::new(d));
            }
            d.severity = lf_ir::diag::Severity::Warning;
            op.emit(d);
        }
        Ok(())
    }
}
