//! The verifier every declared op gets from its declaration, with MLIR's
//! messages: counts of operands, results, regions and successors; type and
//! attribute constraints; the type rules.

use super::format::GroupTypes;
use super::{
    dict_get, group_named, operand_group_range, result_group_range, segment_sizes, ArgDef, Arity, GroupRef, TypeRule,
};
use crate::printer::type_to_string;
use crate::registry::Traits;
use crate::{Body, Context, OpDef, OpId, Type};
use lf_diag::Diagnostic;

/// Checks an op against its declaration, then runs its `verify_local`
/// hook. Runs before the op's own `verify` hook.
///
/// The outcome depends only on the declaration and on what [`PassedOp`]
/// holds of the op (its name, counts, properties and types). Each thread
/// remembers the ops that passed lately ([`PassedOps`]): an op equal to
/// one of them in all of these passes at once.
///
/// An op that passed and has not changed since (its body keeps a bit for
/// it, see [`crate::declared_ok`]) is not looked at again: after a pass,
/// only the ops it created or changed are.
pub fn verify_declared(ctx: &Context, body: &Body, op: OpId, def: &OpDef) -> Result<(), Diagnostic> {
    let epoch = ctx.verify_epoch();
    if body.declared_ok.holds(op.0, epoch) {
        return Ok(());
    }
    let hash = passed_hash(body, op);
    if !PASSED.with_borrow(|p| p.holds(ctx, hash, def, body, op)) {
        verify_declared_uncached(ctx, body, op, def)?;
        // Reads nothing [`PassedOp`] does not hold, so it is remembered too.
        if let Some(f) = def.verify_local {
            f(ctx, body, op)?;
        }
        PASSED.with_borrow_mut(|p| p.remember(ctx, hash, def, body, op));
    }
    body.declared_ok.set(op.0, epoch);
    Ok(())
}

/// [`verify_declared`] without the memory of the ops that passed.
///
/// Everything but the attribute constraints depends only on what
/// [`StructureKey`] holds (the op's name, its operand and result types,
/// its region and successor counts, its segment sizes). Each thread
/// remembers the keys that passed: for an op whose key passed before, only
/// the attributes are checked (an error among them is the first the full
/// check would report, as everything checked before them passed).
fn verify_declared_uncached(ctx: &Context, body: &Body, op: OpId, def: &OpDef) -> Result<(), Diagnostic> {
    let key = StructureKey::of(ctx, body, op, def);
    if STRUCTURES_OK.with_borrow(|ok| ok.get(ctx, &key).is_some()) {
        return check_attributes(ctx, body, op, def)
            .map_err(|msg| Diagnostic::error(body.op_loc(op).source_pos(ctx), format!("'{}' op {msg}", def.name)));
    }
    verify_declared_fully(ctx, body, op, def)?;
    STRUCTURES_OK.with_borrow_mut(|ok| ok.insert(ctx, key, (), STRUCTURES_REMEMBERED));
    Ok(())
}

/// What [`verify_declared`]'s checks other than the attribute constraints
/// depend on.
#[derive(PartialEq, Eq, Hash)]
struct StructureKey {
    /// The declaration checked against (a name can be registered anew).
    def: *const OpDef,
    name: crate::OpName,
    regions: u32,
    successors: u32,
    operands: u32,
    /// `operandSegmentSizes` and `resultSegmentSizes`, where they are read
    /// (more than one group of operands or results that is not single).
    segments: [Option<crate::Attribute>; 2],
    /// Operand types, then result types.
    types: smallvec::SmallVec<[Type; 8]>,
}

impl StructureKey {
    fn of(ctx: &Context, body: &Body, op: OpId, def: &OpDef) -> Self {
        let segment = |groups: &[ArgDef], name: &str| {
            (groups.iter().filter(|g| g.arity != Arity::Single).count() > 1)
                .then(|| dict_get(ctx, body.op_props(op), name))
                .flatten()
        };
        StructureKey {
            def,
            name: body.op_name(op),
            regions: body.num_regions(op) as u32,
            successors: body.successors(op).len() as u32,
            operands: body.num_operands(op) as u32,
            segments: [
                segment(def.operands, "operandSegmentSizes"),
                segment(def.results, "resultSegmentSizes"),
            ],
            types: body
                .operands(op)
                .chain(body.results(op))
                .map(|v| body.value_type(v))
                .collect(),
        }
    }
}

/// How many [`StructureKey`]s each thread remembers (cleared when full).
const STRUCTURES_REMEMBERED: usize = 1 << 14;

thread_local! {
    /// The structures that passed [`verify_declared_fully`] on this thread.
    static STRUCTURES_OK: std::cell::RefCell<crate::context_memo::ContextMemo<StructureKey, ()>> =
        std::cell::RefCell::default();
}

/// Everything [`verify_declared`] reads of an op: its name, region,
/// successor and operand counts, properties (uniqued, so compared by
/// identity) and operand and result types.
struct PassedOp {
    /// The declaration it passed (a name can be registered anew).
    def: *const OpDef,
    name: crate::OpName,
    regions: u32,
    successors: u32,
    operands: u32,
    props: Option<crate::Attribute>,
    types: smallvec::SmallVec<[Type; 8]>,
}

impl PassedOp {
    fn of(def: &OpDef, body: &Body, op: OpId) -> Self {
        PassedOp {
            def,
            name: body.op_name(op),
            regions: body.num_regions(op) as u32,
            successors: body.successors(op).len() as u32,
            operands: body.num_operands(op) as u32,
            props: body.op_props(op),
            types: op_types(body, op).collect(),
        }
    }

    /// Whether `op` is this one, as far as [`verify_declared`] can tell.
    fn matches(&self, def: &OpDef, body: &Body, op: OpId) -> bool {
        std::ptr::eq(self.def, def)
            && self.name == body.op_name(op)
            && self.props == body.op_props(op)
            && self.operands as usize == body.num_operands(op)
            && self.regions as usize == body.num_regions(op)
            && self.successors as usize == body.successors(op).len()
            && self.types.iter().copied().eq(op_types(body, op))
    }
}

/// The operand types, then the result types of `op`.
fn op_types(body: &Body, op: OpId) -> impl Iterator<Item = Type> + '_ {
    body.operands(op).chain(body.results(op)).map(|v| body.value_type(v))
}

/// The hash of what [`PassedOp`] holds of `op`, computed without building one.
fn passed_hash(body: &Body, op: OpId) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    body.op_name(op).hash(&mut h);
    body.op_props(op).hash(&mut h);
    (body.num_operands(op), body.num_regions(op), body.successors(op).len()).hash(&mut h);
    for t in op_types(body, op) {
        t.hash(&mut h);
    }
    h.finish()
}

/// How many ops that passed each thread remembers (a power of two).
const PASSED_SLOTS: usize = 1 << 12;

/// The ops that passed [`verify_declared`] lately on a thread, direct-mapped
/// by [`passed_hash`]: most ops of a program repeat another's name,
/// properties and types (`affine.load` of one map and memref type), and a
/// slot is read and written without hashing a key or growing a table.
/// Slots are boxed: a table of the ops themselves (about 450 KB) cost each
/// thread a hundred page faults to clear, more than a small run verifies.
#[derive(Default)]
struct PassedOps {
    /// The [`Context::uid`] the slots hold ops of (0: none).
    uid: u64,
    slots: Vec<Option<Box<PassedOp>>>,
}

impl PassedOps {
    fn holds(&self, ctx: &Context, hash: u64, def: &OpDef, body: &Body, op: OpId) -> bool {
        self.uid == ctx.uid()
            && self.slots[hash as usize % PASSED_SLOTS]
                .as_ref()
                .is_some_and(|p| p.matches(def, body, op))
    }

    fn remember(&mut self, ctx: &Context, hash: u64, def: &OpDef, body: &Body, op: OpId) {
        if self.uid != ctx.uid() {
            self.slots.clear();
            self.slots.resize_with(PASSED_SLOTS, || None);
            self.uid = ctx.uid();
        }
        let passed = PassedOp::of(def, body, op);
        match &mut self.slots[hash as usize % PASSED_SLOTS] {
            Some(slot) => **slot = passed,
            empty => *empty = Some(Box::new(passed)),
        }
    }
}

thread_local! {
    /// This thread's [`PassedOps`].
    static PASSED: std::cell::RefCell<PassedOps> = std::cell::RefCell::default();
}

/// The attribute constraints of [`verify_declared`]: required attributes
/// present, present ones satisfying their constraint.
fn check_attributes(ctx: &Context, body: &Body, op: OpId, def: &OpDef) -> Result<(), String> {
    for a in def.attributes {
        match dict_get(ctx, body.op_props(op), a.name) {
            None if !a.optional => return Err(format!("requires attribute '{}'", a.name)),
            Some(v) if !(a.constraint.check)(ctx, v) => {
                return Err(format!(
                    "attribute '{}' failed to satisfy constraint: {}",
                    a.name, a.constraint.summary
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Every check of [`verify_declared`], in MLIR's order.
fn verify_declared_fully(ctx: &Context, body: &Body, op: OpId, def: &OpDef) -> Result<(), Diagnostic> {
    let err = |msg: String| Diagnostic::error(body.op_loc(op).source_pos(ctx), format!("'{}' op {msg}", def.name));
    // Counts (MLIR's NOperands / NResults / NRegions traits).
    count_check(def.operands, body.num_operands(op), "operand").map_err(err)?;
    count_check(def.results, body.num_results(op), "result").map_err(err)?;
    let nreg = body.num_regions(op);
    if nreg != def.regions.len() {
        return Err(err(match def.regions.len() {
            0 => "requires zero regions".into(),
            1 => "requires one region".into(),
            n => format!("expected {n} regions"),
        }));
    }
    let nsucc = body.successors(op).len();
    if nsucc != def.successors.len() {
        let n = def.successors.len();
        let plural = if n == 1 { "" } else { "s" };
        return Err(err(format!("requires {n} successor{plural} but found {nsucc}")));
    }
    if def.has(Traits::SAME_OPERANDS_AND_RESULT_TYPE) {
        let mut tys = body.operands(op).chain(body.results(op)).map(|v| body.value_type(v));
        if let Some(first) = tys.next() {
            if tys.any(|t| t != first) {
                return Err(err("requires the same type for all operands and results".into()));
            }
        }
    }
    // Segment sizes.
    let mut sizes: [super::SegmentSizes; 2] = Default::default();
    for (k, (groups, total, prop_name)) in [
        (def.operands, body.num_operands(op), "operandSegmentSizes"),
        (def.results, body.num_results(op), "resultSegmentSizes"),
    ]
    .into_iter()
    .enumerate()
    {
        let Some(found) = segment_sizes(ctx, body.op_props(op), prop_name, groups, total) else {
            let non_single = groups.iter().filter(|g| g.arity != Arity::Single).count();
            if non_single > 1 && dict_get(ctx, body.op_props(op), prop_name).is_none() {
                return Err(err(format!("requires attribute '{prop_name}'")));
            }
            return Err(err(format!(
                "'{prop_name}' attribute does not match the number of {}s",
                if prop_name.starts_with("operand") {
                    "operand"
                } else {
                    "result"
                }
            )));
        };
        sizes[k] = found;
    }
    let [operand_sizes, result_sizes] = sizes;
    check_attributes(ctx, body, op, def).map_err(err)?;
    // Operand and result types.
    let mut i = 0;
    for (arg, n) in def.operands.iter().zip(&operand_sizes) {
        for _ in 0..*n {
            let t = body.value_type(body.operand(op, i));
            check_type(ctx, arg, t).map_err(|s| err(format!("operand #{i} must be {s}")))?;
            i += 1;
        }
    }
    let mut i = 0;
    for (arg, n) in def.results.iter().zip(&result_sizes) {
        for _ in 0..*n {
            let t = body.value_type(body.result(op, i));
            check_type(ctx, arg, t).map_err(|s| err(format!("result #{i} must be {s}")))?;
            i += 1;
        }
    }
    // Type rules.
    for rule in def.type_rules {
        match rule {
            TypeRule::AllMatch(names) => {
                let tys: GroupTypes = names.iter().flat_map(|n| group_types(ctx, body, op, def, n)).collect();
                if tys.windows(2).any(|w| w[0] != w[1]) {
                    return Err(err(format!(
                        "failed to verify that all of {{{}}} have same type",
                        names.join(", ")
                    )));
                }
            }
            TypeRule::Derived {
                target,
                source,
                derive,
                description,
            } => {
                let Some(s) = group_types(ctx, body, op, def, source).first().copied() else {
                    continue;
                };
                let want = derive(ctx, s);
                for t in group_types(ctx, body, op, def, target) {
                    if want != Some(t) {
                        return Err(err(format!("failed to verify that {description}")));
                    }
                }
            }
        }
    }
    Ok(())
}

fn check_type(ctx: &Context, arg: &ArgDef, t: Type) -> Result<(), String> {
    if (arg.constraint.check)(ctx, t) {
        return Ok(());
    }
    let prefix = if arg.arity == Arity::Variadic {
        "variadic of "
    } else {
        ""
    };
    Err(format!(
        "{prefix}{}, but got '{}'",
        arg.constraint.summary,
        type_to_string(ctx, t)
    ))
}

fn group_types(ctx: &Context, body: &Body, op: OpId, def: &OpDef, name: &str) -> GroupTypes {
    match group_named(def, name) {
        Some(GroupRef::Operand(g)) => operand_group_range(ctx, body, op, def, g)
            .map(|i| body.value_type(body.operand(op, i)))
            .collect(),
        Some(GroupRef::Result(g)) => result_group_range(ctx, body, op, def, g)
            .map(|i| body.value_type(body.result(op, i)))
            .collect(),
        None => GroupTypes::new(),
    }
}

/// MLIR's messages for a wrong number of operands or results.
fn count_check(groups: &[ArgDef], n: usize, what: &str) -> Result<(), String> {
    let fixed = groups.iter().filter(|g| g.arity == Arity::Single).count();
    let optional = groups.iter().filter(|g| g.arity == Arity::Optional).count();
    let variadic = groups.iter().any(|g| g.arity == Arity::Variadic);
    if variadic {
        if n < fixed {
            return Err(format!("expected {fixed} or more {what}s, but found {n}"));
        }
        return Ok(());
    }
    if optional > 0 {
        if n < fixed || n > fixed + optional {
            return Err(format!(
                "expected between {fixed} and {} {what}s, but found {n}",
                fixed + optional
            ));
        }
        return Ok(());
    }
    if n == fixed {
        return Ok(());
    }
    Err(match fixed {
        0 => format!("requires zero {what}s"),
        1 if what == "operand" => "requires a single operand".into(),
        1 => "requires one result".into(),
        _ => format!("expected {fixed} {what}s, but found {n}"),
    })
}
