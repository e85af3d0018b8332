//! What a launch must look like for `swap-array-alloc`: the checks made
//! before anything changes.

use crate::affine::utils::memref_alias::underlying_memref;
use crate::affine::{AffineLoadOp, AffineStoreOp};
use crate::gpu::utils::phase_barriers::{analyze, PhaseAccesses};
use crate::gpu::{GpuBarrierOp, GpuLaunchOp};
use crate::memref::{MemrefLoadOp, MemrefStoreOp};
use crate::support::at;
use lf_ir::affine::AffineMap;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::view::OpView;
use lf_ir::{Body, Context, OpId, Value};
use std::collections::{HashMap, HashSet};

/// The element a load or store touches, as its map and operands (an
/// `affine` access) or its indices (a `memref` access): two accesses of one
/// memref value with equal keys touch the same element when one thread
/// runs both.
#[derive(Clone, PartialEq, Eq, Debug)]
enum ElementKey {
    Affine(AffineMap, Vec<Value>),
    Plain(Vec<Value>),
}

/// The element key of one of the four accesses, `None` for another op.
fn element_key(ctx: &Context, body: &Body, op: OpId) -> Option<ElementKey> {
    let ir = (ctx, body);
    if let Some(l) = AffineLoadOp::cast(&ir, op) {
        return Some(ElementKey::Affine(l.map(&ir).clone(), l.indices(&ir).to_vec()));
    }
    if let Some(s) = AffineStoreOp::cast(&ir, op) {
        return Some(ElementKey::Affine(s.map(&ir).clone(), s.indices(&ir).to_vec()));
    }
    if let Some(l) = MemrefLoadOp::cast(&ir, op) {
        return Some(ElementKey::Plain(l.indices(&ir).to_vec()));
    }
    MemrefStoreOp::cast(&ir, op).map(|s| ElementKey::Plain(s.indices(&ir).to_vec()))
}

/// One access to global memory: the top-level op holding it, whether it
/// writes, the memref value accessed and the element.
struct GlobalAccess {
    top: OpId,
    write: bool,
    memref: Value,
    key: ElementKey,
}

/// The memrefs each top-level op reads and writes (workgroup and global,
/// views traced to the memref they view), for the reordering's
/// dependences. Distinct function arguments are assumed not to alias (as
/// `gpu-map-loops` and MLIR assume).
pub type MemrefEffects = HashMap<OpId, (HashSet<Value>, HashSet<Value>)>;

/// Checks that `launch` is in the form the pass handles and returns its
/// workgroup accesses and the memrefs each top-level op touches; `Err`
/// says why the launch is left alone.
pub fn check(ctx: &Context, body: &Body, launch: GpuLaunchOp) -> Result<(PhaseAccesses, MemrefEffects), String> {
    let ir = (ctx, body);
    if !launch.private_attributions(&ir).is_empty() {
        return Err("it has private memory attributions".into());
    }
    let info = analyze(ctx, body, launch)?;
    let (effects, _) = memref_effects(ctx, body, launch, &info)?;
    Ok((info, effects))
}

/// The global memrefs whose accesses the barriers must order too, with
/// the top-level ops that read and write them: those written in one
/// top-level op and accessed at another element (or through another view)
/// in another, where a thread may read what another thread of its block
/// wrote (`__syncthreads` orders global memory within a block as well).
pub fn ordered_globals(ctx: &Context, body: &Body, launch: GpuLaunchOp) -> Result<MemrefEffects, String> {
    let info = analyze(ctx, body, launch)?;
    let (effects, ordered) = memref_effects(ctx, body, launch, &info)?;
    Ok(effects
        .into_iter()
        .map(|(top, (reads, writes))| {
            let keep =
                |set: HashSet<Value>| -> HashSet<Value> { set.into_iter().filter(|v| ordered.contains(v)).collect() };
            (top, (keep(reads), keep(writes)))
        })
        .collect())
}

/// The memrefs each top-level op touches, and the global ones that need
/// ordering (see [`ordered_globals`]).
fn memref_effects(
    ctx: &Context,
    body: &Body,
    launch: GpuLaunchOp,
    info: &PhaseAccesses,
) -> Result<(MemrefEffects, HashSet<Value>), String> {
    let ir = (ctx, body);
    let workgroup: HashSet<Value> = launch.workgroup_attributions(&ir).into_iter().collect();
    let mut effects = MemrefEffects::new();
    // The accesses to each global memref (traced through views).
    let mut global: HashMap<Value, Vec<GlobalAccess>> = HashMap::new();
    for &top in &info.tops {
        if GpuBarrierOp::isa(&ir, top) {
            continue;
        }
        let found = memory_effects(ctx, body, top).ok_or_else(|| {
            format!(
                "'{}'{} has memory effects the pass cannot see",
                ctx.op_name_str(body.op_name(top)),
                at(ctx, body, top)
            )
        })?;
        let entry = effects.entry(top).or_default();
        for e in found {
            let write = match e.effect {
                Effect::Read => false,
                Effect::Write => true,
                Effect::Alloc | Effect::Free => continue,
            };
            let (Some(memref), Some(key)) = (e.value, element_key(ctx, body, e.op)) else {
                return Err(format!(
                    "'{}'{} touches memory other than through loads and stores",
                    ctx.op_name_str(body.op_name(e.op)),
                    at(ctx, body, e.op)
                ));
            };
            let root = underlying_memref(ctx, body, memref);
            if write {
                entry.1.insert(root);
            } else {
                entry.0.insert(root);
            }
            if !workgroup.contains(&memref) {
                global.entry(root).or_default().push(GlobalAccess {
                    top,
                    write,
                    memref,
                    key,
                });
            }
        }
    }
    let mut ordered = HashSet::new();
    for (&root, list) in &global {
        let tops: HashSet<OpId> = list.iter().map(|a| a.top).collect();
        if tops.len() < 2 || !list.iter().any(|a| a.write) {
            continue;
        }
        if list.iter().any(|a| a.memref != list[0].memref || a.key != list[0].key) {
            ordered.insert(root);
        }
    }
    Ok((effects, ordered))
}
