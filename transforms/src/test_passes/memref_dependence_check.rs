//! `test-memref-dependence-check`: MLIR's test pass of the affine
//! dependence analysis. Every pair of `affine.load`/`affine.store` ops of a
//! function (in walk order, source `i`, destination `j`, `i == j`
//! included) is checked at each depth from 1 to the number of common
//! loops + 1, and the answer is a remark on the source, word for word as
//! `mlir-opt --test-memref-dependence-check` prints it:
//! `dependence from I to J at depth D = false | true | [lb, ub]...`, or the
//! error `dependence check failed`.

use lf_diag::Diagnostic;
use lf_dialects::affine::analysis::{surrounding_ivs, DependenceAnalysis, DependenceResult, Precision};
use lf_dialects::affine::{AffineLoadOp, AffineStoreOp};
use lf_ir::interfaces::memory_effects;
use lf_ir::view::OpView;
use lf_pass::analysis::{for_each_op_in, AnalysisManager};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};

/// Registration of `test-memref-dependence-check`.
pub static MEMREF_DEPENDENCE_CHECK: PassInfo = PassInfo {
    name: "test-memref-dependence-check",
    summary: "Check dependences between all pairs of affine memref accesses (remarks as mlir-opt's)",
    description: "MLIR's test of the affine dependence analysis: for every pair of `affine.load`/`affine.store` ops \
of the function (source I, destination J, in walk order, I == J included) and every depth D from 1 to the number of \
`affine.for` loops around both plus one, a remark on the source: `dependence from I to J at depth D = false` (no \
dependence), `= true` (a dependence at the loop-independent depth or without common loops), or one `[lb, ub]` per \
common loop (the range of the destination's iteration minus the source's, `-inf`/`+inf` when unbounded); the error \
`dependence check failed` when the analysis cannot decide. With the default `precision=mlir` the output is \
identical to `mlir-opt --test-memref-dependence-check` (MLIR's Fourier-Motzkin answers, over-approximations \
included); `precision=exact` answers with exact integer arithmetic. `report-non-affine` adds a remark on each op \
that touches memory without being an affine access (memref.load/store, calls, unknown ops), saying why a \
dependence with the affine accesses is assumed (mlir-opt ignores those ops). It changes nothing and preserves \
every analysis.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "precision",
            kind: OptionKind::Enum(&["mlir", "exact"]),
            default: "mlir",
            help: "mlir: MLIR's answers (Fourier-Motzkin); exact: exact integer answers",
        },
        PassOption {
            name: "report-non-affine",
            kind: OptionKind::Bool,
            default: "false",
            help: "Also remark on ops that touch memory without being affine accesses",
        },
    ],
    create: |o| {
        Ok(Box::new(MemRefDependenceCheck {
            precision: if o.str("precision") == "exact" {
                Precision::Exact
            } else {
                Precision::MlirCompatible
            },
            report_non_affine: o.bool("report-non-affine"),
        }))
    },
};

struct MemRefDependenceCheck {
    precision: Precision,
    report_non_affine: bool,
}

/// MLIR's `getDirectionVectorStr`.
fn direction_string(result: &DependenceResult, common: usize, depth: usize) -> String {
    let DependenceResult::HasDependence { components } = result else {
        return "false".to_string();
    };
    if components.is_empty() || depth > common {
        return "true".to_string();
    }
    let mut s = String::new();
    for c in components {
        let lb = c.lb.map_or("-inf".to_string(), |v| v.to_string());
        let ub = c.ub.map_or("+inf".to_string(), |v| v.to_string());
        s.push_str(&format!("[{lb}, {ub}]"));
    }
    s
}

impl Pass for MemRefDependenceCheck {
    fn info(&self) -> &'static PassInfo {
        &MEMREF_DEPENDENCE_CHECK
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        // MLIR's domains for else blocks (which hide dependences), so that
        // the remarks are mlir-opt's; transformations never use these.
        let analysis = DependenceAnalysis {
            accesses: lf_dialects::affine::analysis::MemRefAccesses::with_mlir_else_domains(),
        };

        let ctx = op.ctx();
        let body = op.body();
        let regions = op.regions().to_vec();
        let mut accesses = Vec::new();
        let mut others = Vec::new();
        for_each_op_in(body, &regions, &mut |o, _| {
            let ir = (ctx, body);
            if AffineLoadOp::isa(&ir, o) || AffineStoreOp::isa(&ir, o) {
                accesses.push(o);
            } else if self.report_non_affine && body.regions(o).is_empty() {
                let touches = match memory_effects(ctx, body, o) {
                    None => true,
                    Some(e) => !e.is_empty(),
                };
                if touches {
                    others.push(o);
                }
            }
        });
        // MLIR's getNumCommonSurroundingLoops: affine.for and affine.parallel
        // induction variables.
        let loops: Vec<_> = accesses.iter().map(|&a| surrounding_ivs(ctx, body, a)).collect();
        let mut diags = Vec::new();
        for (i, &src) in accesses.iter().enumerate() {
            let pos = body.op_loc(src).source_pos(ctx);
            for (j, &dst) in accesses.iter().enumerate() {
                let common = loops[i].iter().zip(&loops[j]).take_while(|(a, b)| a == b).count();
                for d in 1..=common + 1 {
                    let r = analysis.accesses.check(ctx, body, src, dst, d, self.precision, true);
                    if let DependenceResult::Failure { reason } = &r {
                        diags.push(Diagnostic::error(pos.clone(), "dependence check failed"));
                        diags.push(Diagnostic::note(pos.clone(), format!("because {reason}")));
                    } else {
                        diags.push(Diagnostic::remark(
                            pos.clone(),
                            format!(
                                "dependence from {i} to {j} at depth {d} = {}",
                                direction_string(&r, common, d)
                            ),
                        ));
                    }
                }
            }
        }
        for &o in &others {
            let pos = body.op_loc(o).source_pos(ctx);
            for (j, &dst) in accesses.iter().enumerate() {
                if let DependenceResult::Failure { reason } =
                    analysis.accesses.check(ctx, body, o, dst, 1, self.precision, false)
                {
                    diags.push(Diagnostic::remark(
                        pos.clone(),
                        format!("dependence with access {j} assumed: {reason}"),
                    ));
                }
            }
        }
        for d in diags {
            op.emit(d);
        }
        am.preserve_all();
        Ok(())
    }
}
