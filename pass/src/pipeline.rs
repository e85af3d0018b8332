//! Pipelines: the tree of nested pass managers, its textual syntax (MLIR's),
//! and the checks that turn mistakes into diagnostics.
//!
//! ```text
//! pipeline := element (',' element)*
//! element  := OP-NAME '(' pipeline? ')'        a nested pass manager
//!           | 'any' '(' pipeline? ')'          one for any isolated op
//!           | PASS-NAME ('{' options '}')?     a pass
//! ```
//!
//! The whole pipeline is one element naming the top-level op, as in
//! `builtin.module(func.func(cse,canonicalize{max-iterations=5}),symbol-dce)`.
//! Errors point into the text (file `<pass-pipeline>`, line 1), say what was
//! expected and suggest the nearest pass, option or op name.

use crate::options::OptionError;
use crate::pass::{Anchor, Pass, PassInfo, PassOptions};
use crate::registry::{PassRegistry, PipelineInfo};
use lf_diag::{Diagnostic, SourcePos};
use lf_ir::{Context, Traits};
use std::fmt;

/// The file name used in positions of pipeline errors.
pub const PIPELINE_FILE: &str = "<pass-pipeline>";

/// The ops a pass manager runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nesting {
    /// Ops with this name.
    Op(String),
    /// Any isolated-from-above op (`any(...)`).
    Any,
}

impl Nesting {
    /// The name as written in a pipeline.
    pub fn as_str(&self) -> &str {
        match self {
            Nesting::Op(n) => n,
            Nesting::Any => "any",
        }
    }

    /// Whether an op named `name` is run on.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Nesting::Op(n) => n == name,
            Nesting::Any => true,
        }
    }
}

/// One pass of a pipeline: the pass and the options it was built from.
pub struct PassEntry {
    /// The pass.
    pub pass: Box<dyn Pass>,
    /// Its options (defaults filled in), printed by `--dump-pass-pipeline`.
    pub options: PassOptions,
}

impl PassEntry {
    /// Builds a pass from its info and options.
    pub fn new(options: PassOptions) -> Result<PassEntry, String> {
        let pass = (options.info().create)(&options)?;
        Ok(PassEntry { pass, options })
    }

    /// The pass's registration record.
    pub fn info(&self) -> &'static PassInfo {
        self.options.info()
    }
}

/// An element of a pass manager.
pub enum PipelineItem {
    /// A pass run on the pass manager's ops.
    Pass(PassEntry),
    /// A nested pass manager run on the isolated ops directly inside them.
    Nested(OpPassManager),
}

/// A pass manager for one kind of op: passes and nested pass managers, in order.
pub struct OpPassManager {
    /// The ops it runs on.
    pub nesting: Nesting,
    /// Its elements.
    pub items: Vec<PipelineItem>,
}

impl OpPassManager {
    /// An empty pass manager for ops named `op` (`"any"` for any op).
    pub fn new(op: &str) -> OpPassManager {
        OpPassManager {
            nesting: if op == "any" {
                Nesting::Any
            } else {
                Nesting::Op(op.to_string())
            },
            items: Vec::new(),
        }
    }

    /// Appends a pass.
    pub fn add(&mut self, entry: PassEntry) -> &mut Self {
        self.items.push(PipelineItem::Pass(entry));
        self
    }

    /// Appends a pass by its info, with default options.
    pub fn add_default(&mut self, info: &'static PassInfo) -> Result<&mut Self, String> {
        let e = PassEntry::new(info.default_options())?;
        Ok(self.add(e))
    }

    /// The nested pass manager for `op` at the end of this one (created if
    /// the last element is not one for `op`).
    pub fn nest(&mut self, op: &str) -> &mut OpPassManager {
        let reuse = matches!(self.items.last(), Some(PipelineItem::Nested(pm)) if pm.nesting.as_str() == op);
        if !reuse {
            self.items.push(PipelineItem::Nested(OpPassManager::new(op)));
        }
        match self.items.last_mut() {
            Some(PipelineItem::Nested(pm)) => pm,
            _ => unreachable!("just pushed"),
        }
    }

    /// Number of passes, nested ones included.
    pub fn num_passes(&self) -> usize {
        self.items
            .iter()
            .map(|i| match i {
                PipelineItem::Pass(_) => 1,
                PipelineItem::Nested(pm) => pm.num_passes(),
            })
            .sum()
    }

    /// Whether the pipeline has no pass.
    pub fn is_empty(&self) -> bool {
        self.num_passes() == 0
    }

    /// The pipeline as `mlir-opt --dump-pass-pipeline` prints it: `Pass
    /// Manager with N passes:` (N: the elements of the top-level pass
    /// manager, a nested one counting as one), then the pipeline with one
    /// element a line, indented by nesting, and an empty line.
    pub fn dump_text(&self) -> String {
        let mut out = format!("Pass Manager with {} passes:\n", self.items.len());
        self.write_pretty(&mut out, 0);
        out.push_str("\n\n");
        out
    }

    /// MLIR's pretty form of the pipeline at indentation `depth`.
    fn write_pretty(&self, out: &mut String, depth: usize) {
        let indent = |out: &mut String, d: usize| out.push_str(&"  ".repeat(d));
        out.push_str(self.nesting.as_str());
        out.push_str("(\n");
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                out.push_str(",\n");
            }
            indent(out, depth + 1);
            match item {
                PipelineItem::Pass(e) => out.push_str(&e.to_string()),
                PipelineItem::Nested(pm) => pm.write_pretty(out, depth + 1),
            }
        }
        // An empty line is not indented.
        out.push('\n');
        indent(out, depth);
        out.push(')');
    }
}

impl fmt::Display for PassEntry {
    /// The pass as MLIR prints it in a pipeline: its argument and options
    /// ([`PassOptions::to_mlir_string`], the options lf adds to an MLIR
    /// pass left out while at their default).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            self.info().name,
            self.options.to_mlir_string(self.pass.lf_options())
        )
    }
}

impl fmt::Display for OpPassManager {
    /// The pipeline text on one line, as MLIR prints it: pasting it back
    /// into `--pass-pipeline` gives the same pipeline, and one of MLIR's
    /// passes only pastes into `mlir-opt`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.nesting.as_str())?;
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match item {
                PipelineItem::Pass(e) => write!(f, "{e}")?,
                PipelineItem::Nested(pm) => write!(f, "{pm}")?,
            }
        }
        f.write_str(")")
    }
}

/// A pipeline error at byte `offset` (width `len`) of the text.
fn err_at(text: &str, offset: usize, len: usize, msg: impl Into<String>) -> Box<Diagnostic> {
    let col = offset.min(text.len()) as u32 + 1;
    Box::new(Diagnostic::error(SourcePos::new(PIPELINE_FILE, 1, col), msg).with_width(len as u32))
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    ctx: &'a Context,
    registry: &'a PassRegistry,
    /// The ops of the pass managers being parsed, outermost first.
    enclosing: Vec<&'a str>,
    /// How many named pipelines are being expanded around this text.
    depth: usize,
}

/// The most named pipelines that may expand inside one another.
const MAX_PIPELINE_DEPTH: usize = 16;

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '$')
}

/// Parses a pipeline: one element naming the top-level op.
pub fn parse_pipeline(text: &str, ctx: &Context, registry: &PassRegistry) -> Result<OpPassManager, Box<Diagnostic>> {
    let mut p = Parser {
        text,
        pos: 0,
        ctx,
        registry,
        enclosing: Vec::new(),
        depth: 0,
    };
    p.skip_ws();
    if p.pos == text.len() {
        return Err(err_at(
            text,
            0,
            0,
            "empty pipeline: expected the top-level op and its passes, as in 'builtin.module(cse)'",
        ));
    }
    let (name, start) = p.name("the top-level op name, as in 'builtin.module(cse)'")?;
    p.skip_ws();
    if !p.eat('(') {
        let msg = if registry.lookup(name).is_some() {
            format!("a pipeline starts with the op it runs on: write 'builtin.module({name})' to run '{name}' on the module")
        } else {
            format!("a pipeline starts with the op it runs on, followed by '(': expected '{name}(...)'")
        };
        return Err(err_at(text, start, name.len(), msg));
    }
    let pm = p.nested_manager(name, start, None)?;
    p.skip_ws();
    if p.pos != text.len() {
        return Err(err_at(
            text,
            p.pos,
            1,
            "expected the end of the pipeline after the top-level op's ')'",
        ));
    }
    Ok(pm)
}

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        while let Some(c) = self.text[self.pos..].chars().next() {
            if !c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn name(&mut self, what: &str) -> Result<(&'a str, usize), Box<Diagnostic>> {
        let start = self.pos;
        while self.peek().is_some_and(is_name_char) {
            self.pos += 1;
        }
        if self.pos == start {
            let found = match self.peek() {
                Some(c) => format!("'{c}'"),
                None => "the end of the pipeline".to_string(),
            };
            return Err(err_at(self.text, start, 1, format!("expected {what}, found {found}")));
        }
        Ok((&self.text[start..self.pos], start))
    }

    /// After `OP(` was read: the elements up to the matching `)`.
    fn nested_manager(
        &mut self,
        op: &'a str,
        start: usize,
        parent: Option<&str>,
    ) -> Result<OpPassManager, Box<Diagnostic>> {
        self.check_nesting(op, start, parent)?;
        self.enclosing.push(op);
        let pm = self.manager_items(op);
        self.enclosing.pop();
        pm
    }

    /// The elements of `op`'s pass manager, up to its `)`.
    fn manager_items(&mut self, op: &'a str) -> Result<OpPassManager, Box<Diagnostic>> {
        let mut pm = OpPassManager::new(op);
        self.skip_ws();
        if self.eat(')') {
            return Ok(pm);
        }
        loop {
            self.skip_ws();
            let (name, nstart) = self.name("a pass name or an op name followed by '('")?;
            self.skip_ws();
            if self.eat('(') {
                let child = self.nested_manager(name, nstart, Some(op))?;
                pm.items.push(PipelineItem::Nested(child));
            } else if let (None, Some(info)) = (self.registry.lookup(name), self.registry.lookup_pipeline(name)) {
                let items = self.expand_pipeline(info, nstart, op)?;
                pm.items.extend(items);
            } else {
                let entry = self.pass(name, nstart, op)?;
                pm.items.push(PipelineItem::Pass(entry));
            }
            self.skip_ws();
            if self.eat(',') {
                continue;
            }
            if self.eat(')') {
                return Ok(pm);
            }
            let found = match self.peek() {
                Some(c) => format!("'{c}'"),
                None => "the end of the pipeline".to_string(),
            };
            return Err(err_at(
                self.text,
                self.pos,
                1,
                format!("expected ',' or ')' after '{name}' in the pipeline of '{op}', found {found}"),
            ));
        }
    }

    /// Checks that a pass manager may nest on `op` inside `parent`'s.
    fn check_nesting(&self, op: &str, start: usize, parent: Option<&str>) -> Result<(), Box<Diagnostic>> {
        if op == "any" {
            return Ok(());
        }
        let ctx = self.ctx;
        let def = ctx.registered_ops().into_iter().find(|d| d.name == op);
        let Some(def) = def else {
            let mut msg = if self.registry.lookup(op).is_some() {
                format!("'{op}' is a pass, not an op: a pass takes options in braces ('{op}{{...}}'), not parentheses")
            } else {
                format!("'{op}' is not a registered operation, so no pass manager can nest on it")
            };
            if self.registry.lookup(op).is_none() {
                let ops = ctx.registered_ops();
                if let Some(s) = crate::suggest::nearest(op, ops.iter().map(|d| d.name)) {
                    msg.push_str(&format!("; did you mean '{s}'?"));
                }
            }
            return Err(err_at(self.text, start, op.len(), msg));
        };
        if !def.has(Traits::ISOLATED_FROM_ABOVE) {
            return Err(err_at(
                self.text,
                start,
                op.len(),
                format!(
                    "'{op}' is not isolated from above, so passes cannot be nested on it; \
                     run them on the enclosing isolated op (such as 'func.func') instead"
                ),
            ));
        }
        if let Some(parent) = parent {
            if parent != "any" && !def.parents.is_empty() && !def.parents.contains(&parent) {
                return Err(err_at(
                    self.text,
                    start,
                    op.len(),
                    format!(
                        "'{op}' ops only appear directly inside {}, never inside '{parent}': \
                         nest as {parent}({}({op}(...)))",
                        def.parents
                            .iter()
                            .map(|p| format!("'{p}'"))
                            .collect::<Vec<_>>()
                            .join(" or "),
                        def.parents[0]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A pass name and its options; checks that it may run on `op`'s.
    fn pass(&mut self, name: &str, start: usize, op: &str) -> Result<PassEntry, Box<Diagnostic>> {
        let Some(info) = self.registry.lookup(name) else {
            let mut msg = format!("unknown pass '{name}'");
            if let Some(s) = self.registry.suggest(name) {
                msg.push_str(&format!("; did you mean '{s}'?"));
            } else if name.contains('.') {
                msg.push_str(&format!("; to nest passes on '{name}' ops, write '{name}(...)'"));
            } else {
                msg.push_str(" (--list-passes lists the passes)");
            }
            return Err(err_at(self.text, start, name.len(), msg));
        };
        let mut options = info.default_options();
        if self.eat('{') {
            self.options(info, &mut options)?;
        }
        if let Anchor::Op(anchor) = info.anchor {
            if anchor != op {
                let fix = self.anchor_fix(name, anchor, op);
                return Err(err_at(
                    self.text,
                    start,
                    name.len(),
                    format!(
                        "pass '{name}' runs on '{anchor}' ops, but it is placed in the pass manager of '{op}', \
                         where it would never run: {fix}"
                    ),
                ));
            }
        }
        PassEntry::new(options).map_err(|e| err_at(self.text, start, name.len(), format!("pass '{name}': {e}")))
    }

    /// The passes of the named pipeline `info`, found at `start` in the
    /// pass manager of `op`: its text parsed as elements of that manager
    /// (MLIR's `PassPipelineRegistration`: the pipeline expands in place).
    fn expand_pipeline(
        &mut self,
        info: &'static PipelineInfo,
        start: usize,
        op: &str,
    ) -> Result<Vec<PipelineItem>, Box<Diagnostic>> {
        let name = info.name;
        if self.peek() == Some('{') {
            return Err(err_at(
                self.text,
                self.pos,
                1,
                format!("pipeline '{name}' takes no options (it stands for '{}')", info.pipeline),
            ));
        }
        if let Anchor::Op(anchor) = info.anchor {
            if anchor != op && op != "any" {
                let fix = self.anchor_fix(name, anchor, op);
                return Err(err_at(
                    self.text,
                    start,
                    name.len(),
                    format!(
                        "pipeline '{name}' runs on '{anchor}' ops, but it is placed in the pass manager of '{op}', \
                         where it would never run: {fix}"
                    ),
                ));
            }
        }
        if self.depth >= MAX_PIPELINE_DEPTH {
            return Err(err_at(
                self.text,
                start,
                name.len(),
                format!(
                    "pipeline '{name}' expands into itself (or pipelines nest more than {MAX_PIPELINE_DEPTH} deep)"
                ),
            ));
        }
        let text = format!("{op}({})", info.pipeline);
        let mut p = Parser {
            text: &text,
            pos: op.len() + 1,
            ctx: self.ctx,
            registry: self.registry,
            enclosing: self.enclosing.clone(),
            depth: self.depth + 1,
        };
        let inner = p.manager_items(op).and_then(|pm| {
            p.skip_ws();
            if p.pos != text.len() {
                Err(err_at(&text, p.pos, 1, "expected the end of the pipeline"))
            } else {
                Ok(pm)
            }
        });
        match inner {
            Ok(pm) => Ok(pm.items),
            Err(d) => Err(err_at(
                self.text,
                start,
                name.len(),
                format!("in pipeline '{name}' (= '{}'): {}", info.pipeline, d.message),
            )),
        }
    }

    /// How to place pass `name`, which runs on `anchor` ops, found in the
    /// pass manager of `op` (the innermost of [`Parser::enclosing`]).
    fn anchor_fix(&self, name: &str, anchor: &str, op: &str) -> String {
        let flag = format!("use the flag --{name}, which nests it under its anchor");
        if op == "any" {
            return format!("move it out of 'any(...)' into '{anchor}(...)'");
        }
        // An enclosing pass manager runs on the anchor: move the pass out
        // to it (nesting the anchor again inside `op` would only reach
        // `anchor` ops nested in `op` ops, if there ever are any).
        if self.enclosing.contains(&anchor) {
            return format!("move it out of '{op}(...)' into the enclosing '{anchor}(...)', or {flag}");
        }
        // Nest the anchor inside `op`, with the ops it only appears in
        // (`gpu.func` in `gpu.module`); those go at the top level.
        let mut chain = vec![anchor];
        while chain.len() < 8 {
            let last = chain[chain.len() - 1];
            let parents = self
                .ctx
                .registered_ops()
                .into_iter()
                .find(|d| d.name == last)
                .map(|d| d.parents);
            match parents {
                Some(ps) if !ps.is_empty() && !ps.contains(&op) => chain.push(ps[0]),
                _ => break,
            }
        }
        let outer = if chain.len() > 1 {
            self.enclosing.first().copied().unwrap_or(op)
        } else {
            op
        };
        let mut text = format!("{outer}(");
        for a in chain.iter().rev() {
            text.push_str(a);
            text.push('(');
        }
        text.push_str(name);
        text.push_str(&")".repeat(chain.len() + 1));
        format!("write '{text}' or {flag}")
    }

    /// After `{`: `name[=value]` pairs up to the matching `}`.
    fn options(&mut self, info: &'static PassInfo, options: &mut PassOptions) -> Result<(), Box<Diagnostic>> {
        loop {
            self.skip_ws();
            if self.eat('}') {
                return Ok(());
            }
            if self.peek().is_none() {
                return Err(err_at(
                    self.text,
                    self.pos,
                    1,
                    format!("expected '}}' to close the options of pass '{}'", info.name),
                ));
            }
            let (oname, ostart) = self.name(&format!("an option name of pass '{}' or '}}'", info.name))?;
            let mut value = None;
            let mut vstart = self.pos;
            if self.eat('=') {
                vstart = self.pos;
                value = Some(self.option_value()?);
            }
            match options.set(oname, value) {
                Ok(()) => {}
                Err(OptionError::Unknown { suggestion }) => {
                    let mut msg = format!("pass '{}' has no option '{oname}'", info.name);
                    match suggestion {
                        Some(s) => msg.push_str(&format!("; did you mean '{s}'?")),
                        None if info.options.is_empty() => msg.push_str(" (it takes no options)"),
                        None => msg.push_str(&format!(
                            " (its options: {})",
                            info.options.iter().map(|o| o.name).collect::<Vec<_>>().join(", ")
                        )),
                    }
                    return Err(err_at(self.text, ostart, oname.len(), msg));
                }
                Err(OptionError::BadValue(e)) => {
                    let (at, len) = match value {
                        Some(v) => (vstart, v.len().max(1)),
                        None => (ostart, oname.len()),
                    };
                    return Err(err_at(
                        self.text,
                        at,
                        len,
                        format!("bad value for option '{oname}' of pass '{}': {e}", info.name),
                    ));
                }
            }
        }
    }

    /// An option value: up to whitespace or `}` outside quotes and braces.
    fn option_value(&mut self) -> Result<&'a str, Box<Diagnostic>> {
        let start = self.pos;
        let (mut depth, mut quoted) = (0i32, false);
        while let Some(c) = self.peek() {
            match c {
                '"' => quoted = !quoted,
                '{' if !quoted => depth += 1,
                '}' if !quoted && depth == 0 => break,
                '}' if !quoted => depth -= 1,
                c if c.is_whitespace() && !quoted && depth == 0 => break,
                _ => {}
            }
            self.pos += c.len_utf8();
        }
        if quoted {
            return Err(err_at(
                self.text,
                start,
                1,
                "unterminated string: expected a closing '\"'",
            ));
        }
        let v = &self.text[start..self.pos];
        // `{a,b}` around a list is accepted and dropped.
        Ok(v.strip_prefix('{').and_then(|s| s.strip_suffix('}')).unwrap_or(v))
    }
}

/// Builds the pipeline of shorthand pass flags (`lf-opt --cse --inline`):
/// each pass is nested under its anchor, found from the ops' declared
/// parents (`gpu.func` goes in `gpu.module`), starting at `root` (the
/// top-level op, `builtin.module`). Consecutive passes at the same level share
/// a pass manager.
pub fn pipeline_from_flags(ctx: &Context, root: &str, passes: Vec<PassOptions>) -> Result<OpPassManager, String> {
    let mut pm = OpPassManager::new(root);
    for options in passes {
        let info = options.info();
        let path = anchor_path(ctx, root, info.anchor)?;
        let mut cur = &mut pm;
        for level in &path {
            cur = cur.nest(level);
        }
        cur.add(PassEntry::new(options).map_err(|e| format!("pass '{}': {e}", info.name))?);
    }
    Ok(pm)
}

/// The ops between `root` and a pass's anchor (excluded/included): `[]`
/// for `any` or `root`, `["func.func"]` for a function pass in a module,
/// `["gpu.module", "gpu.func"]` for a GPU function pass.
pub fn anchor_path(ctx: &Context, root: &str, anchor: Anchor) -> Result<Vec<String>, String> {
    let Anchor::Op(target) = anchor else {
        return Ok(Vec::new());
    };
    let mut path = Vec::new();
    let mut cur = target;
    while cur != root {
        if path.len() > 8 || path.iter().any(|p: &String| p == cur) {
            return Err(format!("cannot find how '{target}' ops nest in '{root}'"));
        }
        path.push(cur.to_string());
        let def = ctx.registered_ops().into_iter().find(|d| d.name == cur);
        match def.and_then(|d| d.parents.first()) {
            Some(p) => cur = p,
            None => break,
        }
    }
    path.reverse();
    Ok(path)
}

/// The passes of the named pipeline `info` given as a flag (`--ihop-pre`):
/// its text parsed in a pass manager of its anchor and flattened into the
/// passes' options, which [`pipeline_from_flags`] nests under their own
/// anchors. A pipeline that nests pass managers of its own, or that has no
/// anchor ([`Anchor::Any`]), cannot be a flag.
pub fn pipeline_flag_passes(
    ctx: &Context,
    registry: &PassRegistry,
    info: &'static PipelineInfo,
) -> Result<Vec<PassOptions>, String> {
    let op = match info.anchor {
        Anchor::Op(a) => a,
        Anchor::Any => {
            return Err(format!(
                "pipeline '{}' runs on any op: name it inside --pass-pipeline instead of as a flag",
                info.name
            ))
        }
    };
    let text = format!("{op}({})", info.pipeline);
    let mut p = Parser {
        text: &text,
        pos: op.len() + 1,
        ctx,
        registry,
        enclosing: vec![op],
        depth: 1,
    };
    let pm = p
        .manager_items(op)
        .map_err(|d| format!("in pipeline '{}' (= '{}'): {}", info.name, info.pipeline, d.message))?;
    let mut out = Vec::new();
    for item in pm.items {
        match item {
            PipelineItem::Pass(e) => out.push(e.options),
            PipelineItem::Nested(_) => {
                return Err(format!(
                    "pipeline '{}' nests pass managers: name it inside --pass-pipeline instead of as a flag",
                    info.name
                ))
            }
        }
    }
    Ok(out)
}

/// Parses the options of a pass flag (`--canonicalize='max-iterations=5
/// top-down=false'`): the text inside the braces of a pipeline element.
/// Errors point into `text`, in a file named `--NAME`.
pub fn parse_options_text(info: &'static PassInfo, text: &str) -> Result<PassOptions, Box<Diagnostic>> {
    let ctx = Context::new();
    let registry = PassRegistry::new();
    let closed = format!("{text}}}");
    let mut p = Parser {
        text: &closed,
        pos: 0,
        ctx: &ctx,
        registry: &registry,
        enclosing: Vec::new(),
        depth: 0,
    };
    let mut options = info.default_options();
    p.options(info, &mut options).map_err(|mut d| {
        d.pos = d
            .pos
            .map(|pos| SourcePos::new(format!("--{}", info.name), 1, pos.col.min(text.len() as u32 + 1)));
        d
    })?;
    if p.pos != closed.len() {
        let mut d = err_at(
            text,
            p.pos - 1,
            1,
            format!("unexpected '}}' in the options of pass '{}'", info.name),
        );
        d.pos = d.pos.map(|pos| SourcePos::new(format!("--{}", info.name), 1, pos.col));
        return Err(d);
    }
    Ok(options)
}
