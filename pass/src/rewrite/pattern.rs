//! Rewrite patterns and pattern sets.

use super::PatternRewriter;
use lf_ir::view::OpView;
use lf_ir::{Context, OpDef, OpId, OpName};
use rustc_hash::FxHashMap;

/// A rewrite: matches one op and, if it applies, changes the IR through the
/// rewriter. Patterns must only use the rewriter to change the IR.
pub trait RewritePattern: Send + Sync {
    /// A name for debugging, statistics and `disable-patterns`.
    fn name(&self) -> &str;
    /// The op the pattern applies to (`None`: any op), by its declaration:
    /// `Some(AffineForOp::def())`.
    fn root(&self) -> Option<&'static OpDef>;
    /// Higher benefit patterns are tried first (default 1).
    fn benefit(&self) -> u16 {
        1
    }
    /// Tries the pattern on `op`; returns whether it changed the IR. A
    /// pattern that returns `false` must not have changed anything. The
    /// drivers call it with the rewriter's insertion point before `op` and
    /// its location `op`'s.
    fn match_and_rewrite(&self, op: OpId, rw: &mut PatternRewriter<'_>) -> bool;
}

/// The signature of a pattern written as a function.
pub type PatternFn = fn(OpId, &mut PatternRewriter<'_>) -> bool;

/// A pattern made of a name, a root op and a function.
pub struct FnPattern {
    name: &'static str,
    root: Option<&'static OpDef>,
    benefit: u16,
    f: PatternFn,
}

impl FnPattern {
    /// A pattern applying `f` to ops declared by `root` (any op if `None`).
    pub const fn new(name: &'static str, root: Option<&'static OpDef>, f: PatternFn) -> FnPattern {
        FnPattern {
            name,
            root,
            benefit: 1,
            f,
        }
    }

    /// A pattern applying `f` to the ops of view type `V`
    /// (`FnPattern::on::<AffineForOp>("affine-for-bounds", f)`).
    pub fn on<V: OpView>(name: &'static str, f: PatternFn) -> FnPattern {
        FnPattern::new(name, Some(V::def()), f)
    }

    /// The same pattern with another benefit.
    pub const fn with_benefit(mut self, benefit: u16) -> FnPattern {
        self.benefit = benefit;
        self
    }
}

impl RewritePattern for FnPattern {
    fn name(&self) -> &str {
        self.name
    }
    fn root(&self) -> Option<&'static OpDef> {
        self.root
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
        (self.f)(op, rw)
    }
}

/// A set of patterns, indexed by root op name once frozen.
#[derive(Default)]
pub struct PatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
}

impl PatternSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a pattern.
    pub fn add(&mut self, p: impl RewritePattern + 'static) -> &mut Self {
        self.patterns.push(Box::new(p));
        self
    }

    /// Adds a boxed pattern.
    pub fn add_boxed(&mut self, p: Box<dyn RewritePattern>) -> &mut Self {
        self.patterns.push(p);
        self
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Keeps the patterns for which `keep(name)` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.patterns.retain(|p| keep(p.name()));
    }

    /// Indexes the patterns by root op name, highest benefit first (ties
    /// keep the order of addition). Each root's list already holds the
    /// patterns that match any op, merged in by benefit, so that matching
    /// an op reads one list.
    pub fn freeze(self, ctx: &Context) -> FrozenPatternSet {
        let mut rooted: FxHashMap<OpName, Vec<usize>> = FxHashMap::default();
        let mut any = Vec::new();
        for (i, p) in self.patterns.iter().enumerate() {
            match p.root() {
                Some(r) => rooted.entry(ctx.op_name(r.name)).or_default().push(i),
                None => any.push(i),
            }
        }
        let benefit = |i: usize| self.patterns[i].benefit();
        let key = |i: &usize| std::cmp::Reverse(benefit(*i));
        any.sort_by_key(key);
        let by_root = rooted
            .into_iter()
            .map(|(name, mut list)| {
                list.sort_by_key(key);
                (name, merge_by_benefit(&list, &any, benefit))
            })
            .collect();
        FrozenPatternSet {
            patterns: self.patterns,
            by_root,
            any,
        }
    }
}

/// Merges two lists of pattern indices sorted by decreasing benefit; on
/// equal benefit the rooted pattern comes first.
fn merge_by_benefit(rooted: &[usize], any: &[usize], benefit: impl Fn(usize) -> u16) -> Vec<usize> {
    let mut out = Vec::with_capacity(rooted.len() + any.len());
    let (mut i, mut j) = (0, 0);
    while i < rooted.len() || j < any.len() {
        let take_rooted = j >= any.len() || (i < rooted.len() && benefit(rooted[i]) >= benefit(any[j]));
        if take_rooted {
            out.push(rooted[i]);
            i += 1;
        } else {
            out.push(any[j]);
            j += 1;
        }
    }
    out
}

/// A [`PatternSet`] indexed for matching.
pub struct FrozenPatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
    /// For each root op name: its patterns and those of `any`, best first.
    by_root: FxHashMap<OpName, Vec<usize>>,
    /// The patterns that match any op, best first.
    any: Vec<usize>,
}

impl FrozenPatternSet {
    /// The patterns that may apply to an op named `name`, best first.
    pub fn for_op(&self, name: OpName) -> impl Iterator<Item = &dyn RewritePattern> {
        let list = self.by_root.get(&name).unwrap_or(&self.any);
        list.iter().map(move |&k| &*self.patterns[k])
    }

    /// Whether the set has no patterns.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never(_: OpId, _: &mut PatternRewriter<'_>) -> bool {
        false
    }

    static X: OpDef = OpDef::new("t.x");
    static Y: OpDef = OpDef::new("t.y");

    #[test]
    fn an_op_sees_its_patterns_and_the_any_op_ones_best_first() {
        let ctx = Context::new();
        let mut set = PatternSet::new();
        set.add(FnPattern::new("x1", Some(&X), never))
            .add(FnPattern::new("any2", None, never).with_benefit(2))
            .add(FnPattern::new("x3", Some(&X), never).with_benefit(3))
            .add(FnPattern::new("any1", None, never))
            .add(FnPattern::new("y1", Some(&Y), never))
            .add(FnPattern::new("x1b", Some(&X), never));
        let frozen = set.freeze(&ctx);
        let names =
            |op: &str| -> Vec<String> { frozen.for_op(ctx.op_name(op)).map(|p| p.name().to_string()).collect() };
        // Higher benefit first; on a tie the rooted patterns come first, each
        // list in the order of addition.
        assert_eq!(names("t.x"), ["x3", "any2", "x1", "x1b", "any1"]);
        assert_eq!(names("t.y"), ["any2", "y1", "any1"]);
        assert_eq!(names("t.z"), ["any2", "any1"]);
    }
}
