//! `affine-loop-fusion`: fuses affine loop nests of one block, with
//! MLIR's name and options (`LoopFusion.cpp`): producer-consumer fusion
//! (a producer nest, or the slice of it that a consumer iteration needs,
//! computed inside the consumer at a chosen depth, with recomputation where
//! the slices overlap and a private buffer for a producer's output that
//! nothing else uses) and sibling fusion (two nests reading the same
//! memref run in one loop).
//!
//! Unlike MLIR, every fusion is proven legal with lf's exact dependence
//! analysis before it is done; a pair that cannot be proven legal is left
//! alone with a remark at the source nest (see `docs/design/fusion.md`).
//! Nests are indexed by the memrefs they touch, so the pass never looks at
//! all pairs of nests.

mod legality;
mod nests;
mod transform;

use crate::affine::AffineForOp;
use lf_ir::builder::Builder;
use lf_ir::diag::Diagnostic;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{BlockId, OpId};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `affine-loop-fusion`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-fusion",
    summary: "Fuse affine loop nests",
    description: "Fuses the affine loop nests of each block, as `mlir-opt --affine-loop-fusion` \
does, but only where lf's exact dependence analysis proves the fusion keeps the program's \
results. Producer-consumer fusion (`mode=producer`) moves a nest that writes a memref into a \
later nest that reads it, at the deepest depth that is legal and, without `maximal`, whose \
recomputation stays within `compute-tolerance`: either the whole producer loop body when the \
outer loops have the same bounds (no recomputation), or the slice of the producer each consumer \
iteration needs (recomputed where slices overlap). A memref written by the producer and used by \
nothing but the two nests becomes a private buffer of the fused nest, sized for one iteration of \
the fused loops. Sibling fusion (`mode=sibling`) puts a nest into an earlier nest with the same \
outer loops that reads a memref it reads. `mode=greedy` (the default) does both. A pair of nests \
that cannot be fused legally is left as it is, with a remark at the source nest saying why.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "compute-tolerance",
            kind: OptionKind::String,
            default: "0.3",
            help: "Fractional increase in additional computation tolerated while fusing",
        },
        PassOption {
            name: "fast-mem-space",
            kind: OptionKind::UInt,
            default: "0",
            help: "Faster memory space number to promote fusion buffers to",
        },
        PassOption {
            name: "local-buf-threshold",
            kind: OptionKind::UInt,
            default: "0",
            help: "Threshold size (KiB) for promoting local buffers to fast memory space",
        },
        PassOption {
            name: "maximal",
            kind: OptionKind::Bool,
            default: "false",
            help: "Enables maximal loop fusion",
        },
        PassOption {
            name: "mode",
            kind: OptionKind::Enum(&["greedy", "producer", "sibling"]),
            default: "greedy",
            help: "fusion mode to attempt",
        },
        PassOption {
            name: "fusion-maximal",
            kind: OptionKind::Bool,
            default: "false",
            help: "The same as maximal (MLIR's older name)",
        },
        PassOption {
            name: "fusion-fast-mem-space",
            kind: OptionKind::UInt,
            default: "0",
            help: "The same as fast-mem-space (MLIR's older name)",
        },
        PassOption {
            name: "fusion-local-buf-threshold",
            kind: OptionKind::UInt,
            default: "0",
            help: "The same as local-buf-threshold (MLIR's older name)",
        },
    ],
    create,
};

/// Which fusions the pass attempts (MLIR's `FusionMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusionMode {
    /// Producer-consumer, then sibling.
    Greedy,
    /// Producer-consumer only.
    ProducerConsumer,
    /// Sibling only.
    Sibling,
}

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let text = opts.str("compute-tolerance");
    let tolerance: f64 = text
        .trim()
        .trim_end_matches('f')
        .parse()
        .map_err(|_| format!("compute-tolerance: '{text}' is not a number"))?;
    if !tolerance.is_finite() || tolerance < 0.0 {
        return Err(format!("compute-tolerance: {text} must be a non-negative number"));
    }
    // MLIR 22's option names, or the older `fusion-` ones.
    let either = |name: &str, old: &str| {
        if opts.is_explicit(old) {
            opts.int(old)
        } else {
            opts.int(name)
        }
    };
    let fast_mem_space = either("fast-mem-space", "fusion-fast-mem-space");
    if fast_mem_space > i64::from(u32::MAX) {
        return Err(format!(
            "fast-mem-space: {fast_mem_space} does not fit an unsigned 32-bit integer"
        ));
    }
    let mode = match opts.str("mode") {
        "producer" => FusionMode::ProducerConsumer,
        "sibling" => FusionMode::Sibling,
        _ => FusionMode::Greedy,
    };
    Ok(Box::new(LoopFusion {
        tolerance,
        fast_mem_space: fast_mem_space as u32,
        local_buf_threshold: either("local-buf-threshold", "fusion-local-buf-threshold") as u64,
        maximal: opts.bool("maximal") || opts.bool("fusion-maximal"),
        mode,
    }))
}

/// The `affine-loop-fusion` pass.
pub struct LoopFusion {
    /// The additional computation tolerated (a fraction of the nests' cost).
    pub tolerance: f64,
    /// The memory space of private buffers small enough for it.
    pub fast_mem_space: u32,
    /// The size (KiB) up to which a private buffer goes to `fast_mem_space`
    /// (0: never).
    pub local_buf_threshold: u64,
    /// Fuse at the deepest legal depth whatever the cost.
    pub maximal: bool,
    /// Which fusions to attempt.
    pub mode: FusionMode,
}

impl Pass for LoopFusion {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut remarks: Vec<(OpId, String)> = Vec::new();
        let mut fused = 0u64;
        {
            let (ctx, body) = op.parts();
            let blocks = fusion_blocks(ctx, body, &regions);
            let mut b = Builder::new(ctx, body);
            for block in blocks {
                let mut state = nests::BlockState::new(&b, block);
                fused += state.run(self, &mut b, &mut remarks);
            }
        }
        let ctx = op.ctx();
        for (at, message) in remarks {
            let pos = op.body().op_loc(at).source_pos(ctx);
            op.emit(Diagnostic::remark(pos, message));
        }
        op.add_statistic("num-fused", "Loop nests fused into another", fused);
        if fused == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}

/// The blocks whose loop nests may be fused: the function's blocks and the
/// bodies of `affine.for` ops holding two or more `affine.for` ops, inner
/// blocks first (fusing an outer nest never invalidates an inner block
/// already done).
fn fusion_blocks(ctx: &lf_ir::Context, body: &lf_ir::Body, regions: &[lf_ir::RegionId]) -> Vec<BlockId> {
    let mut out = Vec::new();
    for &r in regions {
        for blk in body.region_blocks(r) {
            out.push(blk);
        }
    }
    let mut inner = Vec::new();
    walk_regions(body, regions, WalkOrder::PostOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        let ir = (ctx, b);
        if let Some(f) = AffineForOp::cast(&ir, op) {
            let blk = f.region_block(&ir);
            let n = b.block_ops(blk).filter(|&o| AffineForOp::isa(&ir, o)).count();
            if n >= 2 {
                inner.push(blk);
            }
        }
        WalkControl::Advance
    });
    inner.extend(out);
    inner
}
