//! The pass API: what a pass is, how it is registered, what it may touch.
//!
//! # Writing a pass
//!
//! A pass is a type implementing [`Pass`] plus one `static` [`PassInfo`] that
//! describes it (name, summary, description, anchor, options) and builds it
//! from parsed options. Register the info with
//! [`PassRegistry::register`](crate::PassRegistry::register); from then on
//! it can be named in pipelines (`func.func(my-pass{level=2})`), as an
//! `lf-opt --my-pass` flag, and it appears in `--list-passes` and
//! `docs/passes.md`.
//!
//! ```ignore
//! use lf_pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget, AnalysisManager};
//!
//! pub static INFO: PassInfo = PassInfo {
//!     name: "my-pass",
//!     summary: "One line shown by --list-passes",
//!     description: "Longer markdown text for docs/passes.md.",
//!     anchor: Anchor::Op("func.func"),
//!     options: &[PassOption {
//!         name: "level",
//!         kind: OptionKind::Int,
//!         default: "1",
//!         help: "How hard to try",
//!     }],
//!     create: |opts| Ok(Box::new(MyPass { level: opts.int("level") })),
//! };
//!
//! struct MyPass { level: i64 }
//!
//! impl Pass for MyPass {
//!     fn info(&self) -> &'static PassInfo { &INFO }
//!     fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
//!         let dom = am.get::<lf_pass::DominanceInfo>(op);   // cached analysis
//!         let (ctx, body) = op.parts();                         // &Context, &mut Body
//!         // ... walk `op.regions()` in `body`, rewrite ...
//!         op.add_statistic("num-changed", "Number of ops changed", 1);
//!         am.preserve::<lf_pass::DominanceInfo>();           // if still valid
//!         Ok(())
//!     }
//! }
//! ```
//!
//! # What a pass sees
//!
//! [`Pass::run`] gets a [`PassTarget`]: the one op the pass is anchored on
//! (a `func.func`, a `builtin.module`, ...). Such ops are isolated from
//! above, so they own a nested [`Body`] holding their regions and
//! everything in them; the target hands out `&mut` to that body only. The
//! op's own record (name, location, attributes, properties) lives in the
//! parent body, which the pass never sees: the target carries a copy of the
//! name and location and the attribute/property dictionaries, which the pass
//! may read and replace ([`PassTarget::set_attrs`], [`PassTarget::set_props`]);
//! the pass manager writes changed dictionaries back after the pass.
//!
//! So a pass cannot reach sibling ops (other functions), and passes on
//! sibling ops run in parallel (rayon, `--threads=N`) with no locking. The
//! [`Context`] is shared (`&Context`, uniquing is internally synchronized).
//! A pass anchored on `builtin.module` sees the whole module, functions
//! included (a function's body is the nested body of its op in the module's
//! body: [`Body::nested_body_mut`]).
//!
//! # Results, diagnostics, statistics
//!
//! `run` returns `Err(diagnostic)` to fail (the pipeline stops and lf-opt
//! exits with status 1); [`PassTarget::emit`] reports warnings and remarks
//! without failing. Statistics ([`PassTarget::add_statistic`]) are summed
//! over all ops the pass ran on and printed by `--pass-statistics`.
//!
//! # Analyses
//!
//! [`AnalysisManager::get`](crate::AnalysisManager::get) computes an
//! analysis of the target on first use and caches it. After the pass, every
//! cached analysis of the op (and of ops nested in it) is dropped unless the
//! pass called [`preserve`](crate::AnalysisManager::preserve) for it or
//! [`preserve_all`](crate::AnalysisManager::preserve_all) (a pass that
//! changed nothing should call `preserve_all`).

use crate::analysis::AnalysisManager;
pub use crate::options::{OptionKind, OptionValue, PassOption, PassOptions};
use lf_diag::Diagnostic;
use lf_ir::{Attribute, Body, Context, Ident, Location, OpName, RegionId};

/// What a pass returns: `Err` fails the pipeline with a diagnostic.
pub type PassResult = Result<(), Box<Diagnostic>>;

/// Builds a pass from its parsed options (defaults filled in, types checked);
/// an `Err` message is shown to the user as a bad option value.
pub type PassCtor = fn(&PassOptions) -> Result<Box<dyn Pass>, String>;

/// The ops a pass runs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Only ops with this name (`func.func`, `builtin.module`, `gpu.func`).
    Op(&'static str),
    /// Any op the pass manager runs on (an op-agnostic pass such as `cse`).
    Any,
}

impl Anchor {
    /// The anchor as written in docs and `--list-passes` (`any` for [`Anchor::Any`]).
    pub fn as_str(self) -> &'static str {
        match self {
            Anchor::Op(n) => n,
            Anchor::Any => "any",
        }
    }

    /// Whether a pass with this anchor may run on ops named `op`.
    pub fn accepts(self, op: &str) -> bool {
        match self {
            Anchor::Op(n) => n == op,
            Anchor::Any => true,
        }
    }
}

/// The registration record of a pass: everything the registry, the pipeline
/// parser, `--list-passes` and the docs know about it. Declare it as a
/// `static` next to the pass.
pub struct PassInfo {
    /// The pass argument as written in pipelines and flags (`cse`, `symbol-dce`).
    pub name: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// Longer description (markdown), shown in `docs/passes.md`.
    pub description: &'static str,
    /// The ops the pass runs on.
    pub anchor: Anchor,
    /// Options, in the order they are printed.
    pub options: &'static [PassOption],
    /// Builds the pass from its options.
    pub create: PassCtor,
}

impl std::fmt::Debug for PassInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PassInfo")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl PassInfo {
    /// The options with every default value.
    ///
    /// # Panics
    /// If a declared default does not parse as its option's type (a bug in
    /// the declaration; the registry's tests catch it).
    pub fn default_options(&'static self) -> PassOptions {
        PassOptions::defaults(self).unwrap_or_else(|e| panic!("pass '{}': bad default: {e}", self.name))
    }

    /// Builds the pass with its default options.
    pub fn create_default(&'static self) -> Result<Box<dyn Pass>, String> {
        (self.create)(&self.default_options())
    }

    /// The declared option named `name`.
    pub fn option(&self, name: &str) -> Option<&'static PassOption> {
        self.options.iter().find(|o| o.name == name)
    }
}

/// A pass. See the module docs for how to write one.
pub trait Pass: Send + Sync {
    /// The registration record (name, summary, anchor, options).
    fn info(&self) -> &'static PassInfo;

    /// Runs the pass on one anchored op. Called concurrently on sibling ops
    /// (hence `&self`: keep per-run state local).
    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult;

    /// The pass argument (`cse`).
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// One-line summary.
    fn summary(&self) -> &'static str {
        self.info().summary
    }

    /// Longer description.
    fn description(&self) -> &'static str {
        self.info().description
    }

    /// The ops the pass runs on.
    fn anchor(&self) -> Anchor {
        self.info().anchor
    }

    /// The pass's name in IR dump headers (`// -----// IR Dump After
    /// CSE (cse) //----- //`): for a pass that is MLIR's, MLIR's name of
    /// it (`CSE`, `Canonicalizer`); by default the argument in CamelCase
    /// (`test-print-loop-nest`: `TestPrintLoopNest`).
    fn class_name(&self) -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Owned(camel_case(self.info().name))
    }

    /// The options lf adds to the MLIR pass it implements (`fold` of
    /// `canonicalize`): a printed pipeline (`--dump-pass-pipeline`) shows
    /// them only when they are not at their default, so that a pipeline of
    /// MLIR's passes pastes into `mlir-opt`. None by default.
    fn lf_options(&self) -> &'static [&'static str] {
        &[]
    }
}

/// `test-print-loop-nest` as `TestPrintLoopNest`.
fn camel_case(name: &str) -> String {
    name.split(['-', '_'])
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// One statistic of one pass run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statistic {
    /// Short name (`num-cse'd`).
    pub name: &'static str,
    /// What it counts.
    pub description: &'static str,
    /// The count.
    pub value: u64,
}

/// The op a pass runs on: its nested body (mutable), a copy of its own
/// record (name, location, attributes, properties), and the shared context.
/// See the module docs.
pub struct PassTarget<'a> {
    ctx: &'a Context,
    body: &'a mut Body,
    name: OpName,
    loc: Location,
    attrs: Option<Attribute>,
    props: Option<Attribute>,
    regions: Vec<RegionId>,
    record_changed: bool,
    diags: Vec<Diagnostic>,
    stats: Vec<Statistic>,
    outputs: Vec<PassOutput>,
}

/// Text a pass writes for the user (a report, a graph) rather than IR:
/// to stderr, or to a file. The pass manager writes the outputs of one pass
/// in the order of the ops it ran on, whatever the threads (see
/// [`PassTarget::write_output`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassOutput {
    /// The file to write (`None`: stderr).
    pub path: Option<std::path::PathBuf>,
    /// The text.
    pub text: String,
}

impl<'a> PassTarget<'a> {
    /// A target for an op whose record is given by parts and whose regions
    /// (ids in `body`) are `regions`. The pass manager builds these; tests of
    /// a single pass may too.
    pub fn new(ctx: &'a Context, body: &'a mut Body, record: OpRecord) -> PassTarget<'a> {
        PassTarget {
            ctx,
            body,
            name: record.name,
            loc: record.loc,
            attrs: record.attrs,
            props: record.props,
            regions: record.regions,
            record_changed: false,
            diags: Vec::new(),
            stats: Vec::new(),
            outputs: Vec::new(),
        }
    }

    /// The shared context (not tied to the borrow of `self`).
    #[inline]
    pub fn ctx(&self) -> &'a Context {
        self.ctx
    }

    /// The body holding the op's regions and everything in them.
    #[inline]
    pub fn body(&self) -> &Body {
        self.body
    }

    /// The body, mutably.
    #[inline]
    pub fn body_mut(&mut self) -> &mut Body {
        self.body
    }

    /// The context and the body, mutably, at once.
    #[inline]
    pub fn parts(&mut self) -> (&'a Context, &mut Body) {
        (self.ctx, self.body)
    }

    /// The op's regions (ids in [`PassTarget::body`]).
    #[inline]
    pub fn regions(&self) -> &[RegionId] {
        &self.regions
    }

    /// The op's name.
    #[inline]
    pub fn op_name(&self) -> OpName {
        self.name
    }

    /// The op's name as text (`func.func`).
    pub fn op_name_str(&self) -> &'a str {
        self.ctx.op_name_str(self.name)
    }

    /// The op's location.
    #[inline]
    pub fn loc(&self) -> Location {
        self.loc
    }

    /// The op's discardable attributes (a dictionary), if any.
    #[inline]
    pub fn attrs(&self) -> Option<Attribute> {
        self.attrs
    }

    /// The op's properties (inherent attributes, a dictionary), if any.
    #[inline]
    pub fn props(&self) -> Option<Attribute> {
        self.props
    }

    /// Replaces the op's discardable attribute dictionary.
    pub fn set_attrs(&mut self, attrs: Option<Attribute>) {
        if attrs != self.attrs {
            self.attrs = attrs;
            self.record_changed = true;
        }
    }

    /// Replaces the op's properties dictionary.
    pub fn set_props(&mut self, props: Option<Attribute>) {
        if props != self.props {
            self.props = props;
            self.record_changed = true;
        }
    }

    /// The attribute `name`, looked up in the properties, then in the
    /// discardable attributes.
    pub fn attr(&self, name: &str) -> Option<Attribute> {
        for dict in [self.props, self.attrs].into_iter().flatten() {
            for (k, v) in self.ctx.attr_data(dict).dict_entries() {
                if self.ctx.ident_str(*k) == name {
                    return Some(*v);
                }
            }
        }
        None
    }

    /// The op's symbol name (`sym_name`), if it has one.
    pub fn symbol_name(&self) -> Option<Ident> {
        match self.attr("sym_name").map(|a| self.ctx.attr_data(a)) {
            Some(lf_ir::AttrData::String { value, .. }) => Some(self.ctx.intern(value)),
            _ => None,
        }
    }

    /// A builder over the op's body whose remarks
    /// ([`lf_ir::builder::Builder::remark`]) this pass reports.
    pub fn builder(&mut self) -> lf_ir::builder::Builder<'_> {
        lf_ir::builder::Builder::new(self.ctx, self.body).with_diagnostics(&mut self.diags)
    }

    /// Reports a non-fatal diagnostic (warning, remark); use the `Err` of
    /// [`PassResult`] for errors.
    pub fn emit(&mut self, diag: Diagnostic) {
        self.diags.push(diag);
    }

    /// Writes `text` to stderr (`path` `None`) or to the file `path`. The
    /// pass manager writes, after the pass has run on every op, the texts in
    /// the order of the ops (not of the threads that ran them); the texts
    /// for one file are concatenated, and the file is created (or replaced)
    /// once per pass run.
    pub fn write_output(&mut self, path: Option<std::path::PathBuf>, text: String) {
        self.outputs.push(PassOutput { path, text });
    }

    /// Adds `value` to the statistic `name` of this pass.
    pub fn add_statistic(&mut self, name: &'static str, description: &'static str, value: u64) {
        match self.stats.iter_mut().find(|s| s.name == name) {
            Some(s) => s.value += value,
            None => self.stats.push(Statistic {
                name,
                description,
                value,
            }),
        }
    }

    /// Ends the run: the op record (if a pass changed it), the diagnostics
    /// and the statistics.
    pub fn finish(self) -> TargetOutcome {
        TargetOutcome {
            record: self.record_changed.then_some((self.attrs, self.props)),
            diags: self.diags,
            stats: self.stats,
            outputs: self.outputs,
        }
    }
}

/// A copy of an anchored op's own record, taken from its parent body.
#[derive(Clone, Debug)]
pub struct OpRecord {
    /// Name.
    pub name: OpName,
    /// Location.
    pub loc: Location,
    /// Discardable attributes.
    pub attrs: Option<Attribute>,
    /// Properties.
    pub props: Option<Attribute>,
    /// Region ids (in the op's nested body).
    pub regions: Vec<RegionId>,
}

impl OpRecord {
    /// The record of `op` of `body`.
    pub fn of(body: &Body, op: lf_ir::OpId) -> OpRecord {
        OpRecord {
            name: body.op_name(op),
            loc: body.op_loc(op),
            attrs: body.op_attrs(op),
            props: body.op_props(op),
            regions: body.regions(op).to_vec(),
        }
    }
}

/// What a pass run on one op left behind (see [`PassTarget::finish`]).
#[derive(Debug, Default)]
pub struct TargetOutcome {
    /// New `(attrs, props)` of the op, if the pass changed them.
    pub record: Option<(Option<Attribute>, Option<Attribute>)>,
    /// Non-fatal diagnostics.
    pub diags: Vec<Diagnostic>,
    /// Statistics.
    pub stats: Vec<Statistic>,
    /// Text for the user ([`PassTarget::write_output`]).
    pub outputs: Vec<PassOutput>,
}
