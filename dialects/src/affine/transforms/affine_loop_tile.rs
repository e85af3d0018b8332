//! `affine-loop-tile`: tiles the outermost perfect band of every loop nest
//! at the top of a function, as `mlir-opt --affine-loop-tile` does
//! (`LoopTiling.cpp`, `tilePerfectlyNested` in `Affine/Utils/LoopUtils.cpp`),
//! but only where tiling keeps every memory dependence.
//!
//! Tile sizes come from `tile-size` (every loop), else `tile-sizes` (one
//! per loop, the missing ones 4), else MLIR's cache model: the memory
//! footprint of the band's body ([`crate::affine::utils::memory_footprint`])
//! divided by `cache-size` KiB gives an excess factor `e`; every loop but
//! the last gets `floor(e^(1/n))`, the last the balance, and each size is
//! then lowered to a divisor of its loop's constant trip count (at most
//! half of it). An unknown footprint gives 4 per loop (lowered the same
//! way), a footprint that fits gives 1.

use crate::affine::analysis::DependenceAnalysis;
use crate::affine::utils::loop_bands::{non_rectangular_loop, top_level_bands};
use crate::affine::utils::memory_footprint::memory_footprint_bytes;
use crate::affine::utils::tile_separation::separate_full_tiles;
use crate::affine::utils::tiling::{tile_perfectly_nested, tile_sizes_fit};
use crate::affine::utils::tiling_legality::{mlir_tiling_valid, tiling_violation};
use crate::affine::utils::trip_count_bound::constant_trip_count;
use crate::affine::AffineForOp;
use lf_ir::diag::Diagnostic;
use lf_ir::view::{Ir, OpView};
use lf_ir::OpId;
use lf_pass::options::OptionValue;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// MLIR's tile size when none is given and the footprint is unknown.
pub const DEFAULT_TILE_SIZE: u64 = 4;

/// The registration record of `affine-loop-tile`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-tile",
    summary: "Tile affine loop nests",
    description: "Tiles the maximal perfect band of every `affine.for` nest at the top level of the \
function, as `mlir-opt --affine-loop-tile` does; the output is mlir-opt's. Each loop \
`for %i = lb to ub step s` of the band becomes a tile-space loop `for %it = lb to ub step s*t` \
(all of the band's tile-space loops first) and a point loop `for %ii = %it to UB step s` (then \
all the point loops), where `UB` is `%it + t*s` when `t` divides the trip count, \
`%it + tc*s` when the constant trip count `tc` is smaller than `t`, and `min(%it + t*s, ub)` \
otherwise.\n\n\
Tile sizes: `tile-size` for every loop; else `tile-sizes`, one per loop of the band (the \
missing ones 4, extra ones ignored); else MLIR's model: the band's memory footprint (the \
bounding boxes of the memref regions its accesses touch in one iteration of the outermost \
loop, in bytes) over `cache-size` KiB gives an excess factor `e` (no tiling, size 1, when \
it fits; size 1 too when `cache-size` is 0); every loop but the last gets `floor(e^(1/n))`, \
the last `e` divided by their product, and each size is lowered to the largest divisor of \
its loop's constant trip count that is at most half of it. An unknown footprint gives 4 per \
loop, lowered the same way.\n\n\
lf declines (the band is left as it is, with a remark at its outermost loop) where tiling \
could change the program: a dependence carried by a loop of the band whose distance along a \
deeper loop of the band may be negative (decided exactly with lf's dependence analysis), or \
a memory access inside the band that the analysis cannot see through (MLIR does not check \
and tiles anyway). Like MLIR, it also leaves bands alone whose loops carry values \
(`iter_args`) or whose bounds depend on an outer loop of the band (not a hyper-rectangle), \
with a remark. With `separate`, the point loops of each tile are versioned with an \
`affine.if` that holds when the tile is full (MLIR's `separateFullTiles`): the then block runs \
them with constant extents, the else block as tiled; where MLIR's separation fails (a point \
loop with a step other than 1), both keep the tiled loops, and lf says so in a remark.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "cache-size",
            kind: OptionKind::UInt,
            default: "512",
            help: "Set size of cache to tile for in KiB (default: 512)",
        },
        PassOption {
            name: "separate",
            kind: OptionKind::Bool,
            default: "false",
            help: "Separate full and partial tiles (default: false)",
        },
        PassOption {
            name: "tile-size",
            kind: OptionKind::UInt,
            default: "0",
            help: "Use this tile size for all loops",
        },
        PassOption {
            name: "tile-sizes",
            kind: OptionKind::List(&OptionKind::UInt),
            default: "",
            help: "List of tile sizes for each perfect nest (overridden by -tile-size)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let tile_size = opts.int("tile-size");
    if opts.is_explicit("tile-size") && tile_size == 0 {
        return Err("tile-size: a tile size must be at least 1, found 0".into());
    }
    if tile_size > i64::from(u32::MAX) {
        return Err(format!(
            "tile-size: {tile_size} does not fit an unsigned 32-bit integer"
        ));
    }
    let mut tile_sizes = Vec::new();
    for v in opts.list("tile-sizes") {
        let OptionValue::Int(n) = v else {
            return Err(format!("tile-sizes: expected integers, found {v}"));
        };
        if *n == 0 {
            return Err("tile-sizes: a tile size must be at least 1, found 0".into());
        }
        if *n > i64::from(u32::MAX) {
            return Err(format!("tile-sizes: {n} does not fit an unsigned 32-bit integer"));
        }
        tile_sizes.push(*n as u64);
    }
    Ok(Box::new(AffineLoopTile {
        tile_size: tile_size as u64,
        tile_sizes,
        cache_size_kib: opts.int("cache-size") as u64,
        separate: opts.bool("separate"),
    }))
}

/// The `affine-loop-tile` pass.
pub struct AffineLoopTile {
    /// The tile size of every loop (0: not given).
    pub tile_size: u64,
    /// Tile sizes per loop of a band (empty: not given).
    pub tile_sizes: Vec<u64>,
    /// The cache size the model tiles for, in KiB.
    pub cache_size_kib: u64,
    /// Whether full and partial tiles are separated.
    pub separate: bool,
}

impl AffineLoopTile {
    /// The tile sizes for `band` (MLIR's `LoopTiling::getTileSizes`).
    pub fn tile_sizes<'c>(&self, ir: &impl Ir<'c>, band: &[AffineForOp]) -> Vec<u64> {
        let n = band.len();
        if self.tile_size != 0 {
            return vec![self.tile_size; n];
        }
        if !self.tile_sizes.is_empty() {
            let mut s = self.tile_sizes.clone();
            s.resize(n, DEFAULT_TILE_SIZE);
            return s;
        }
        if self.cache_size_kib == 0 {
            return vec![1; n];
        }
        let Some(fp) = memory_footprint_bytes(ir, band[0]) else {
            let mut s = vec![DEFAULT_TILE_SIZE; n];
            adjust_to_divisors_of_trip_counts(ir, band, &mut s);
            return s;
        };
        let cache = self.cache_size_kib.saturating_mul(1024);
        let excess = fp.div_ceil(cache);
        if excess <= 1 {
            return vec![1; n];
        }
        let t = (excess as f64).powf(1.0 / n as f64).floor() as u32 as u64;
        let mut sizes = Vec::with_capacity(n);
        let mut product: u32 = 1;
        for i in 0..n {
            let s = if i + 1 < n {
                t
            } else {
                1u64.max((excess / u64::from(product)) as u32 as u64)
            };
            sizes.push(s);
            product = product.wrapping_mul(s as u32);
        }
        adjust_to_divisors_of_trip_counts(ir, band, &mut sizes);
        sizes
    }
}

/// Lowers each size to the largest divisor of its loop's constant trip
/// count that is at most half of it (MLIR's `adjustToDivisorsOfTripCounts`).
fn adjust_to_divisors_of_trip_counts<'c>(ir: &impl Ir<'c>, band: &[AffineForOp], sizes: &mut [u64]) {
    for (l, t) in band.iter().zip(sizes.iter_mut()) {
        let Some(tc) = constant_trip_count(ir, *l) else {
            continue;
        };
        if tc > 1 && *t > tc / 2 {
            *t = tc / 2;
        }
        while *t > 1 && tc % *t != 0 {
            *t -= 1;
        }
    }
}

/// What to do with one band.
enum Plan {
    Tile(Vec<AffineForOp>, Vec<u64>),
    Decline(OpId, String),
}

impl Pass for AffineLoopTile {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let deps = am.get::<DependenceAnalysis>(op);
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let plans: Vec<Plan> = {
            let ir = (ctx, op.body());
            top_level_bands(&ir, &regions)
                .into_iter()
                .map(|band| self.plan(&ir, &deps, band))
                .collect()
        };
        let mut tiled = 0u64;
        let mut remarks: Vec<(OpId, String)> = Vec::new();
        {
            let mut b = op.builder();
            for plan in plans {
                match plan {
                    Plan::Decline(at, why) => remarks.push((at, why)),
                    Plan::Tile(band, sizes) => {
                        let nest = tile_perfectly_nested(&mut b, &band, &sizes);
                        tiled += 1;
                        if self.separate {
                            if let Err(why) = separate_full_tiles(&mut b, &nest[band.len()..]) {
                                remarks.push((
                                    nest[band.len()].op(),
                                    format!("full and partial tiles not separated: {why}"),
                                ));
                            }
                        }
                    }
                }
            }
        }
        for (at, message) in remarks {
            let pos = op.body().op_loc(at).source_pos(ctx);
            op.emit(Diagnostic::remark(pos, message));
        }
        op.add_statistic("num-tiled", "Bands tiled", tiled);
        if tiled == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}

impl AffineLoopTile {
    fn plan(&self, ir: &(&lf_ir::Context, &lf_ir::Body), deps: &DependenceAnalysis, band: Vec<AffineForOp>) -> Plan {
        let root = band[0].op();
        if let Some((k, l)) = band.iter().enumerate().find(|(_, l)| !l.inits(ir).is_empty()) {
            let _ = l;
            return Plan::Decline(
                root,
                format!("not tiled: loop {} of the band carries values (iter_args)", k + 1),
            );
        }
        if let Some((k, _)) = non_rectangular_loop(ir, &band) {
            return Plan::Decline(
                root,
                format!(
                    "not tiled: the bounds of loop {} of the band depend on an outer loop of the band \
(not a hyper-rectangle)",
                    k + 1
                ),
            );
        }
        let sizes = self.tile_sizes(ir, &band);
        if !tile_sizes_fit(ir, &band, &sizes) {
            return Plan::Decline(
                root,
                "not tiled: a tile size times its loop's step overflows 64 bits".into(),
            );
        }
        if let Some(why) = tiling_violation(ir.0, ir.1, &deps.accesses, &band) {
            return Plan::Decline(root, format!("not tiled: {why}"));
        }
        if !mlir_tiling_valid(ir.0, ir.1, &deps.accesses, &band) {
            return Plan::Decline(
                root,
                "not tiled: MLIR's tiling validity check (isTilingValid) rejects the band (a dependence \
component in a range [lb, ub] with lb < ub < 0), and lf follows it"
                    .into(),
            );
        }
        Plan::Tile(band, sizes)
    }
}
