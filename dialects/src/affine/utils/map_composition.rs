//! Composing and canonicalizing affine maps with their operands (MLIR's
//! `composeAffineMapAndOperands` and `canonicalizeMapAndOperands`): the
//! `affine.apply` ops that produce operands are folded into the map,
//! constant operands folded, dimensions that are valid symbols promoted,
//! duplicate and unused operands dropped, and the map simplified. The
//! canonicalization patterns of the affine ops use these; so can loop passes
//! that build maps from operands.
//!
//! Most affine ops of a program need no operand substitution (no
//! `affine.apply` or constant operand, no promotable or repeated operand);
//! for them the result depends on the map alone, and the simplified map is
//! computed once per map attribute and context ([`Context::extension`]).

use super::linear_maps;
use crate::affine::AffineApplyOp;
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::attrs::AttrData;
use lf_ir::constants::constant_value;
use lf_ir::view::OpView;
use lf_ir::{Attribute, Body, Context, OpId, Value};
use smallvec::SmallVec;

/// The affine map held by an attribute.
pub fn map_of(ctx: &Context, a: Option<Attribute>) -> Option<&AffineMap> {
    match ctx.attr_data(a?) {
        AttrData::AffineMap(m) => Some(m),
        _ => None,
    }
}

/// The map attribute of a map.
pub fn map_attr(ctx: &Context, m: AffineMap) -> Attribute {
    ctx.get_attr(AttrData::AffineMap(m))
}

/// Whether `v` may be an affine symbol here: defined at the top level of an
/// affine scope (function arguments and top-level values, and the ids,
/// sizes and top-level values of a `gpu.launch`: MLIR's `isTopLevelValue`).
pub(crate) fn is_top_level_symbol(ctx: &Context, body: &Body, v: Value) -> bool {
    if !ctx.type_data(body.value_type(v)).is_index() {
        return false;
    }
    super::validity::is_top_level_of_its_scope(ctx, body, v)
}

/// The `affine.apply` that defines `v`, if one does.
pub(crate) fn apply_producer(ctx: &Context, body: &Body, v: Value) -> Option<OpId> {
    body.defining_op(v)
        .filter(|&o| lf_ir::view::is_op(ctx, body, o, AffineApplyOp::def()))
}

pub(crate) fn const_index(ctx: &Context, body: &Body, v: Value) -> Option<i64> {
    match ctx.attr_data(constant_value(ctx, body, v)?) {
        AttrData::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// Composes `affine.apply` producers into `map` (fully, as MLIR's
/// `composeAffineMapAndOperands`: the producers' operands are appended
/// after the existing dimensions and symbols), folds constant operands,
/// promotes dimensions that are valid symbols to symbols (appended after
/// the symbols), merges duplicate operands, drops unused ones and
/// simplifies. Returns the new map and operands, or `None` if nothing changes.
///
/// When the map and the producers are linear, this is done on their
/// coefficients ([`super::affine_linear`]), with the same result.
pub fn canonicalize_map_and_operands(
    ctx: &Context,
    body: &Body,
    map: &AffineMap,
    operands: &[Value],
) -> Option<(AffineMap, Vec<Value>)> {
    if operands.len() != map.num_inputs() as usize {
        return None;
    }
    match linear_maps::canonicalize_linear(ctx, body, map, operands) {
        Some(linear) => linear.map(|c| (c.map, c.operands)),
        None => canonicalize_on_trees(ctx, body, map, operands),
    }
}

/// [`canonicalize_map_and_operands`] by substituting and simplifying
/// expression trees (any map; `operands` are as many as its inputs).
fn canonicalize_on_trees(
    ctx: &Context,
    body: &Body,
    map: &AffineMap,
    operands: &[Value],
) -> Option<(AffineMap, Vec<Value>)> {
    let nd = map.num_dims() as usize;
    let mut dims: Vec<Value> = operands[..nd].to_vec();
    let mut syms: Vec<Value> = operands[nd..].to_vec();
    let mut results: Vec<AffineExpr> = map.results().to_vec();
    compose_producers(ctx, body, &mut dims, &mut syms, |step| {
        // The producer's dims and symbols, renumbered after the lists as they were.
        let dim_r: Vec<AffineExpr> = (0..step.map.num_dims())
            .map(|k| {
                let at = (step.dims_at + k as usize) as u32;
                if step.is_dim {
                    AffineExpr::dim(at)
                } else {
                    AffineExpr::symbol(at)
                }
            })
            .collect();
        let sym_r: Vec<AffineExpr> = (0..step.map.num_symbols())
            .map(|k| AffineExpr::symbol((step.syms_at + k as usize) as u32))
            .collect();
        let replacement = step.map.result(0).replace_dims_and_symbols(&dim_r, &sym_r);
        let mut dr: Vec<AffineExpr> = (0..step.num_dims as u32).map(AffineExpr::dim).collect();
        let mut sr: Vec<AffineExpr> = (0..step.num_syms as u32).map(AffineExpr::symbol).collect();
        if step.is_dim {
            dr[step.pos] = replacement;
        } else {
            sr[step.pos] = replacement;
        }
        results = results.iter().map(|r| r.replace_dims_and_symbols(&dr, &sr)).collect();
        Some(())
    })?;
    let r = renumber_operands(ctx, body, &results, &dims, &syms);
    let (nd2, ns2) = (r.dims.len() as u32, r.syms.len() as u32);
    let (new_map, used_d, used_s) = simplify_and_find_unused(&results, &r.dim_repl, &r.sym_repl, nd2, ns2);
    let mut out: Vec<Value> = keep_used(&r.dims, &used_d);
    out.extend(keep_used(&r.syms, &used_s));
    if new_map == *map && out == operands {
        return None;
    }
    Some((new_map, out))
}

/// One step of [`compose_producers`]: the operand at `pos` of the dims
/// (`is_dim`) or of the symbols is the result of an `affine.apply` of
/// `map`, whose operands were just appended: its dims at `dims_at` of the
/// dims (at `dims_at` of the symbols when `is_dim` is false, as a symbol's
/// producer has only symbols), its symbols at `syms_at` of the symbols.
pub(crate) struct CompositionStep<'m> {
    pub is_dim: bool,
    pub pos: usize,
    pub map: &'m AffineMap,
    pub dims_at: usize,
    pub syms_at: usize,
    /// The lengths of the dims and symbols, with the appended operands.
    pub num_dims: usize,
    pub num_syms: usize,
}

/// The operand walk of MLIR's `composeAffineMapAndOperands`: visits the
/// `dims` then the `syms` (the operands appended on the way too), and for
/// each one produced by a single-result `affine.apply` (for a symbol, one
/// whose operands are all valid symbols or constants), appends the
/// producer's operands and calls `substitute` to rewrite the map's results.
/// `None` when `substitute` gives up.
pub(crate) fn compose_producers(
    ctx: &Context,
    body: &Body,
    dims: &mut Vec<Value>,
    syms: &mut Vec<Value>,
    mut substitute: impl FnMut(&CompositionStep<'_>) -> Option<()>,
) -> Option<()> {
    let symbolic = |v: &Value| is_top_level_symbol(ctx, body, *v) || const_index(ctx, body, *v).is_some();
    let mut pos = 0;
    let mut budget = 4096usize;
    while pos < dims.len() + syms.len() && budget > 0 {
        budget -= 1;
        let is_dim = pos < dims.len();
        let v = if is_dim { dims[pos] } else { syms[pos - dims.len()] };
        pos += 1;
        let Some(apply) = apply_producer(ctx, body, v) else {
            continue;
        };
        let m = AffineApplyOp::from_op_unchecked(apply).map(&(ctx, body));
        let ops: Vec<Value> = body.operands(apply).collect();
        if m.num_results() != 1 || ops.len() != m.num_inputs() as usize {
            continue;
        }
        if !is_dim && !ops.iter().all(symbolic) {
            continue;
        }
        let and = m.num_dims() as usize;
        let dims_at = if is_dim { dims.len() } else { syms.len() };
        if is_dim {
            dims.extend_from_slice(&ops[..and]);
        } else {
            // For a symbol position, the producer's dims become symbols.
            syms.extend_from_slice(&ops[..and]);
        }
        let syms_at = syms.len();
        syms.extend_from_slice(&ops[and..]);
        let p = pos - 1;
        substitute(&CompositionStep {
            is_dim,
            pos: if is_dim { p } else { p - dims.len() },
            map: m,
            dims_at,
            syms_at,
            num_dims: dims.len(),
            num_syms: syms.len(),
        })?;
    }
    Some(())
}

/// How the dims and symbols of a map or set map to new operands: MLIR's
/// `canonicalizeMapOrSetAndOperands`, before any simplification.
pub(crate) struct OperandRenumbering {
    /// What each old dim becomes: a new dim, a symbol (a promoted valid
    /// symbol), or a constant (a constant operand, or unused).
    pub dim_repl: Vec<AffineExpr>,
    /// What each old symbol becomes: a new symbol or a constant.
    pub sym_repl: Vec<AffineExpr>,
    /// The new dim operands.
    pub dims: Vec<Value>,
    /// The new symbol operands: the kept old ones, then the promoted dims.
    pub syms: Vec<Value>,
}

/// What a dim or symbol operand becomes after [`renumber_positions`].
#[derive(Clone, Copy)]
pub(crate) enum Renumbered {
    /// Folded in: a constant operand's value, or 0 for an unused one.
    Constant(i64),
    /// The new dim at this position.
    Dim(u32),
    /// The new symbol at this position.
    Symbol(u32),
}

/// What [`renumber_positions`] gives.
pub(crate) struct Positions {
    /// What each old dim becomes.
    pub dim_to: SmallVec<[Renumbered; 8]>,
    /// What each old symbol becomes.
    pub sym_to: SmallVec<[Renumbered; 8]>,
    /// The new dim operands.
    pub dims: Vec<Value>,
    /// The new symbol operands: the kept old ones, then the promoted dims.
    pub syms: Vec<Value>,
}

/// The renumbering rules of [`renumber_operands`], on which dims and
/// symbols are used (`used_d`, `used_s`): unused and constant operands fold
/// in, the symbols are numbered first, then the dims, and dims that are
/// valid symbols become symbols after them; each value gets one position.
pub(crate) fn renumber_positions(
    ctx: &Context,
    body: &Body,
    dims: &[Value],
    syms: &[Value],
    used_d: &[bool],
    used_s: &[bool],
) -> Positions {
    let (mut new_dims, mut new_syms) = (Vec::new(), Vec::new());
    let sym_to = syms
        .iter()
        .zip(used_s)
        .map(|(&v, &used)| match const_index(ctx, body, v) {
            _ if !used => Renumbered::Constant(0),
            Some(c) => Renumbered::Constant(c),
            None => Renumbered::Symbol(index_of(&mut new_syms, v)),
        })
        .collect();
    let mut promoted: SmallVec<[usize; 4]> = SmallVec::new();
    let mut dim_to: SmallVec<[Renumbered; 8]> = dims
        .iter()
        .zip(used_d)
        .enumerate()
        .map(|(i, (&v, &used))| match const_index(ctx, body, v) {
            _ if !used => Renumbered::Constant(0),
            Some(c) => Renumbered::Constant(c),
            None if is_top_level_symbol(ctx, body, v) => {
                promoted.push(i);
                Renumbered::Constant(0)
            }
            None => Renumbered::Dim(index_of(&mut new_dims, v)),
        })
        .collect();
    for i in promoted {
        dim_to[i] = Renumbered::Symbol(index_of(&mut new_syms, dims[i]));
    }
    Positions {
        dim_to,
        sym_to,
        dims: new_dims,
        syms: new_syms,
    }
}

/// Renumbers the `dims` and `syms` operands of `exprs` (a map's results or
/// a set's constraints) by [`renumber_positions`]: only the dims and
/// symbols `exprs` use are numbered, in order (composing can leave an
/// operand unused, and it must not take a position before the used ones).
pub(crate) fn renumber_operands(
    ctx: &Context,
    body: &Body,
    exprs: &[AffineExpr],
    dims: &[Value],
    syms: &[Value],
) -> OperandRenumbering {
    let mut used_d = vec![false; dims.len()];
    let mut used_s = vec![false; syms.len()];
    for e in exprs {
        e.mark_used_dims(&mut used_d);
        e.mark_used_symbols(&mut used_s);
    }
    let p = renumber_positions(ctx, body, dims, syms, &used_d, &used_s);
    let expr = |r: &Renumbered| match *r {
        Renumbered::Constant(c) => AffineExpr::constant(c),
        Renumbered::Dim(j) => AffineExpr::dim(j),
        Renumbered::Symbol(j) => AffineExpr::symbol(j),
    };
    OperandRenumbering {
        dim_repl: p.dim_to.iter().map(expr).collect(),
        sym_repl: p.sym_to.iter().map(expr).collect(),
        dims: p.dims,
        syms: p.syms,
    }
}

/// The values of `list` whose flag in `used` is set.
fn keep_used(list: &[Value], used: &[bool]) -> Vec<Value> {
    list.iter().zip(used).filter(|(_, u)| **u).map(|(v, _)| *v).collect()
}

/// The last steps of [`canonicalize_map_and_operands`]: substitutes
/// `dim_repl`/`sym_repl` into `results`, simplifies over `nd` dimensions and
/// `ns` symbols, and drops the dimensions and symbols no result uses.
/// Returns the map and which of the `nd` dimensions and `ns` symbols it kept.
///
/// Simplifying after a renumbering can lose another variable (a term that
/// cancels only once its neighbours are gone), so dropping and simplifying
/// repeat until every variable left is used: the map returned is a fixed
/// point, which canonicalizing again leaves as it is.
fn simplify_and_find_unused(
    results: &[AffineExpr],
    dim_repl: &[AffineExpr],
    sym_repl: &[AffineExpr],
    nd: u32,
    ns: u32,
) -> (AffineMap, Vec<bool>, Vec<bool>) {
    let mut results: Vec<AffineExpr> = results
        .iter()
        .map(|r| r.replace_dims_and_symbols(dim_repl, sym_repl).simplify(nd, ns))
        .collect();
    // Which of the original variables are kept, and the current ones'
    // positions among the originals.
    let mut kept_d = vec![true; nd as usize];
    let mut kept_s = vec![true; ns as usize];
    let (mut cur_nd, mut cur_ns) = (nd, ns);
    // Each round drops at least one variable, so this ends.
    loop {
        let mut used_d = vec![false; cur_nd as usize];
        let mut used_s = vec![false; cur_ns as usize];
        for r in &results {
            r.mark_used_dims(&mut used_d);
            r.mark_used_symbols(&mut used_s);
        }
        if used_d.iter().chain(&used_s).all(|u| *u) {
            return (AffineMap::new(cur_nd, cur_ns, results), kept_d, kept_s);
        }
        narrow(&mut kept_d, &used_d);
        narrow(&mut kept_s, &used_s);
        let (d_map, nd2) = renumber(&used_d, AffineExpr::dim);
        let (s_map, ns2) = renumber(&used_s, AffineExpr::symbol);
        results = results
            .iter()
            .map(|r| r.replace_dims_and_symbols(&d_map, &s_map).simplify(nd2, ns2))
            .collect();
        (cur_nd, cur_ns) = (nd2, ns2);
    }
}

/// Clears the flags in `kept` (over the original variables) whose current
/// variable (the n-th set flag) is unused in `used`.
fn narrow(kept: &mut [bool], used: &[bool]) {
    let mut current = kept.iter_mut().filter(|k| **k);
    for u in used {
        if let Some(k) = current.next() {
            *k = *u;
        }
    }
}

/// The substitution that renumbers the used variables densely (an unused
/// one maps to whatever: no result mentions it), and how many are kept.
fn renumber(used: &[bool], make: fn(u32) -> AffineExpr) -> (Vec<AffineExpr>, u32) {
    let mut kept = 0u32;
    let map = used
        .iter()
        .map(|u| {
            let e = make(kept);
            kept += u32::from(*u);
            e
        })
        .collect();
    (map, kept)
}

/// What [`canonicalize_map_and_operands`] makes of a map whose operands need
/// no substitution (see [`operands_need_no_substitution`]): the simplified
/// map and which dimensions and symbols it keeps; `None` if the map is
/// already canonical.
///
/// Kept small (bit sets, no allocation): the caches below hold one entry
/// per distinct map of the program, hundreds of thousands on the
/// benchmark's 1M-op file. Maps with more than [`MAX_CACHED_INPUTS`]
/// dimensions or symbols are not cached.
#[derive(Clone, Copy)]
struct SimplifiedMap {
    map: Attribute,
    /// Bit `i`: dimension `i` is kept.
    used_dims: u64,
    /// Bit `i`: symbol `i` is kept.
    used_syms: u64,
}

/// The most dimensions (and, separately, symbols) of a map whose
/// [`SimplifiedMap`] is cached.
const MAX_CACHED_INPUTS: u32 = 64;

/// `used` as a bit set (bit `i` set when `used[i]`).
fn bit_set(used: &[bool]) -> u64 {
    used.iter()
        .enumerate()
        .filter(|(_, u)| **u)
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

/// The values of `list` whose bit is set in `used`.
fn keep_marked(list: &[Value], used: u64) -> impl Iterator<Item = Value> + '_ {
    list.iter()
        .enumerate()
        .filter(move |(i, _)| used >> i & 1 == 1)
        .map(|(_, v)| *v)
}

/// [`SimplifiedMap`]s by map attribute, per context: the same few maps
/// recur on most ops of a program, and simplifying them is the costly part
/// of canonicalizing an affine op.
#[derive(Default)]
struct SimplifiedMaps(parking_lot::RwLock<rustc_hash::FxHashMap<Attribute, Option<SimplifiedMap>>>);

/// A thread's [`SimplifiedMap`]s for one context.
type LocalSimplifiedMaps = lf_ir::context_memo::ContextMemo<Attribute, Option<SimplifiedMap>>;

/// The most [`SimplifiedMap`]s a thread's copy holds before it starts over.
const LOCAL_SIMPLIFIED_LIMIT: usize = 1 << 14;

thread_local! {
    /// Each thread's copy of the [`SimplifiedMap`]s it used, for the context
    /// with the given [`Context::uid`]: looking a map up in the shared table
    /// takes two locks and touches reference counts that every thread
    /// shares, which costs more than the lookup when functions are
    /// canonicalized in parallel.
    static LOCAL_SIMPLIFIED: std::cell::RefCell<LocalSimplifiedMaps> = std::cell::RefCell::default();
}

/// The canonical form of the map attribute `attr` (holding `map`) for
/// operands that need no substitution, computed once per context (and
/// copied once per thread). The map has at most [`MAX_CACHED_INPUTS`]
/// dimensions and as many symbols.
fn simplified_map(ctx: &Context, attr: Attribute, map: &AffineMap) -> Option<SimplifiedMap> {
    let local = LOCAL_SIMPLIFIED.with_borrow(|m| m.get(ctx, &attr).copied());
    if let Some(found) = local {
        return found;
    }
    let cache = ctx.extension::<SimplifiedMaps>();
    let shared = cache.0.read().get(&attr).copied();
    let simplified = shared.unwrap_or_else(|| {
        let (nd, ns) = (map.num_dims(), map.num_symbols());
        let dims: Vec<AffineExpr> = (0..nd).map(AffineExpr::dim).collect();
        let syms: Vec<AffineExpr> = (0..ns).map(AffineExpr::symbol).collect();
        let (new_map, used_d, used_s) = simplify_and_find_unused(map.results(), &dims, &syms, nd, ns);
        let unchanged = new_map == *map && used_d.iter().chain(&used_s).all(|u| *u);
        let simplified = (!unchanged).then(|| SimplifiedMap {
            map: map_attr(ctx, new_map),
            used_dims: bit_set(&used_d),
            used_syms: bit_set(&used_s),
        });
        cache.0.write().insert(attr, simplified);
        simplified
    });
    remember_locally(ctx, attr, simplified);
    simplified
}

/// Records `simplified` in this thread's copy of the [`SimplifiedMap`]s.
fn remember_locally(ctx: &Context, attr: Attribute, simplified: Option<SimplifiedMap>) {
    // Bounded: the copy serves the maps of the functions a thread works on
    // now; an unbounded one held every distinct map of the program on every
    // thread (6 MB each at 1M ops), a copy of the shared table.
    LOCAL_SIMPLIFIED.with_borrow_mut(|m| m.insert(ctx, attr, simplified, LOCAL_SIMPLIFIED_LIMIT));
}

/// Whether [`canonicalize_map_and_operands`] would leave the operands as
/// they are before simplifying: none is produced by `affine.apply` or is a
/// constant, no dimension operand is a valid symbol, and none repeats. The
/// result then depends on the map alone.
fn operands_need_no_substitution(ctx: &Context, body: &Body, num_dims: usize, operands: &[Value]) -> bool {
    operands.iter().enumerate().all(|(i, &v)| {
        apply_producer(ctx, body, v).is_none()
            && const_index(ctx, body, v).is_none()
            && (i >= num_dims || !is_top_level_symbol(ctx, body, v))
            && !operands[..i].contains(&v)
    })
}

/// The position of `v` in `list`, appending it if absent.
pub(crate) fn index_of(list: &mut Vec<Value>, v: Value) -> u32 {
    match list.iter().position(|x| *x == v) {
        Some(i) => i as u32,
        None => {
            list.push(v);
            (list.len() - 1) as u32
        }
    }
}

/// [`canonicalize_map_and_operands`] of `map`, held by `attr`, as a map
/// attribute; `None` if nothing changes. When the operands need no
/// substitution, the answer depends on the map alone and is remembered
/// (see [`simplified_map`]).
pub(crate) fn canonical_form(
    ctx: &Context,
    body: &Body,
    attr: Attribute,
    map: &AffineMap,
    operands: &[Value],
) -> Option<(Attribute, Vec<Value>)> {
    if operands.len() != map.num_inputs() as usize {
        return None;
    }
    let cacheable = map.num_dims() <= MAX_CACHED_INPUTS && map.num_symbols() <= MAX_CACHED_INPUTS;
    if cacheable && operands_need_no_substitution(ctx, body, map.num_dims() as usize, operands) {
        simplified_map(ctx, attr, map).map(|s| {
            let (dims, syms) = operands.split_at(map.num_dims() as usize);
            let kept = keep_marked(dims, s.used_dims)
                .chain(keep_marked(syms, s.used_syms))
                .collect();
            (s.map, kept)
        })
    } else if let Some(linear) = linear_maps::canonicalize_linear(ctx, body, map, operands) {
        // A map rebuilt from linear forms is canonical: when its operands
        // need no substitution next time (the usual case, on the second
        // sweep, which runs on this thread), the lookup finds it so instead
        // of simplifying it again. Only this thread's copy learns it: the
        // shared table's write lock, taken for every composition, cost the
        // other thread more than it saved.
        linear.map(|c| {
            let attr = map_attr(ctx, c.map);
            remember_locally(ctx, attr, None);
            (attr, c.operands)
        })
    } else {
        canonicalize_on_trees(ctx, body, map, operands).map(|(m, ops)| (map_attr(ctx, m), ops))
    }
}
