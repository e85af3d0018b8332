//! Instrumentation around passes: IR dumps ([`IrDumper`]), wall time per
//! pass ([`TimingTree`]) and pass statistics ([`Statistics`]).

use crate::manager::RunOptions;
use crate::pass::{Pass, Statistic};
use crate::pipeline::Nesting;
use lf_ir::{Body, Context, OpId, OwnedOp};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// A node of the timing tree: a pass manager ("'func.func' Pipeline"), a
/// pass, or the verifier run after a pass.
#[derive(Clone, Debug)]
pub struct TimingNode {
    /// What was timed.
    pub name: String,
    /// The enclosing node.
    pub parent: Option<usize>,
    /// Wall time (for a group: the sum of its children).
    pub time: Duration,
}

/// Wall time per pass, as a tree that follows the pipeline's nesting.
#[derive(Clone, Debug, Default)]
pub struct TimingTree {
    nodes: Vec<TimingNode>,
}

impl TimingTree {
    /// Adds a node under `parent` (in pipeline order) and returns its index.
    pub fn add_node(&mut self, parent: Option<usize>, name: impl Into<String>) -> usize {
        self.nodes.push(TimingNode {
            name: name.into(),
            parent,
            time: Duration::ZERO,
        });
        self.nodes.len() - 1
    }

    /// Adds `time` to a node and its ancestors.
    pub fn add_time(&mut self, node: usize, time: Duration) {
        let mut cur = Some(node);
        while let Some(i) = cur {
            self.nodes[i].time += time;
            cur = self.nodes[i].parent;
        }
    }

    /// The nodes in pipeline order (parents before children), each with its depth.
    pub fn lines(&self) -> Vec<(usize, &str, Duration)> {
        let mut out = Vec::new();
        self.visit(None, 0, &mut out);
        out
    }

    fn visit<'a>(&'a self, parent: Option<usize>, depth: usize, out: &mut Vec<(usize, &'a str, Duration)>) {
        for (i, n) in self.nodes.iter().enumerate() {
            if n.parent == parent {
                out.push((depth, n.name.as_str(), n.time));
                self.visit(Some(i), depth + 1, out);
            }
        }
    }

    /// Total time of the top-level nodes.
    pub fn total(&self) -> Duration {
        self.nodes.iter().filter(|n| n.parent.is_none()).map(|n| n.time).sum()
    }
}

/// Statistics of each pass of a pipeline, summed over the ops it ran on.
#[derive(Clone, Debug, Default)]
pub struct Statistics {
    entries: Vec<(usize, &'static str, String, Vec<Statistic>)>,
}

impl Statistics {
    /// Adds the statistics of one run of pass number `index`.
    pub fn add(&mut self, index: usize, pass: &'static str, levels: &[&Nesting], stats: Vec<Statistic>) {
        let pos = match self.entries.iter().position(|e| e.0 == index) {
            Some(p) => p,
            None => {
                let mut label = String::new();
                for l in levels {
                    label.push_str(l.as_str());
                    label.push('(');
                }
                label.push_str(pass);
                label.push_str(&")".repeat(levels.len()));
                self.entries.push((index, pass, label, Vec::new()));
                self.entries.len() - 1
            }
        };
        let list = &mut self.entries[pos].3;
        for s in stats {
            match list.iter_mut().find(|x| x.name == s.name) {
                Some(x) => x.value += s.value,
                None => list.push(s),
            }
        }
    }

    /// The value of statistic `name` of the first pass named `pass`.
    pub fn get(&self, pass: &str, name: &str) -> Option<u64> {
        self.entries
            .iter()
            .find(|e| e.1 == pass)
            .and_then(|e| e.3.iter().find(|s| s.name == name))
            .map(|s| s.value)
    }

    /// The `--pass-statistics` report.
    pub fn report(&self) -> String {
        let mut out = String::new();
        out.push_str("===-------------------------------------------------------------------------===\n");
        out.push_str("                         ... Pass statistics report ...\n");
        out.push_str("===-------------------------------------------------------------------------===\n");
        for (_, _, label, stats) in &self.entries {
            out.push_str(label);
            out.push('\n');
            for s in stats {
                out.push_str(&format!("  (S) {} {} - {}\n", s.value, s.name, s.description));
            }
        }
        out
    }
}

/// Prints the IR around passes as the `--print-ir-*` options ask, as MLIR
/// prints it: a header `// -----// IR Dump After CSE (cse) //----- //`
/// (MLIR's name of the pass and its argument), then the op the pass ran on
/// (an op nested in another in MLIR's local scope: attributes and
/// locations where they are used, no aliases), then an empty line; with
/// [`RunOptions::print_module_scope`] the header names the op (`('func.func'
/// operation: @f)`) and the whole top-level op is printed.
pub struct IrDumper<'a> {
    opts: RunOptions,
    out: &'a mut dyn Write,
}

impl<'a> IrDumper<'a> {
    /// A dumper for these options writing to `out`.
    pub fn new(opts: &RunOptions, out: &'a mut dyn Write) -> IrDumper<'a> {
        IrDumper {
            opts: opts.clone(),
            out,
        }
    }

    /// Whether the IR is printed after `pass` (where it changed, with
    /// `--print-ir-after-change`, which alone selects every pass; in
    /// mlir-opt it only restricts `--mlir-print-ir-after(-all)`).
    fn wants_after(&self, pass: &str) -> bool {
        let selected = self.opts.print_after_all || self.opts.print_after.iter().any(|p| p == pass);
        selected || (self.opts.print_after_change && self.opts.print_after.is_empty())
    }

    fn wants_before(&self, pass: &str) -> bool {
        self.opts.print_before_all || self.opts.print_before.iter().any(|p| p == pass)
    }

    /// The op as a dump shows it: nested in another, in local scope.
    fn op_text(&self, ctx: &Context, body: &Body, op: OpId, nested: bool) -> String {
        let mut opts = self.opts.print_options.clone();
        opts.local_scope |= nested;
        lf_ir::op_to_string(ctx, body, op, &opts)
    }

    /// Writes one dump of `op` (or, at module scope, of `root`).
    fn dump(&mut self, ctx: &Context, root: &OwnedOp, when: &str, pass: &dyn Pass, target: (&Body, OpId, bool)) {
        let (body, op, nested) = target;
        let mut head = format!("// -----// IR Dump {when} {} ({})", pass.class_name(), pass.name());
        let text = if self.opts.print_module_scope {
            head.push_str(&format!(" ({})", describe_op(ctx, body, op)));
            self.op_text(ctx, &root.body, root.op, false)
        } else {
            self.op_text(ctx, body, op, nested)
        };
        let _ = write!(self.out, "{head} //----- //\n{text}\n");
    }

    /// Before a pass: dumps `--print-ir-before`; returns the text of each op
    /// when `--print-ir-after-change` needs it for comparison.
    pub fn before(
        &mut self,
        ctx: &Context,
        root: &OwnedOp,
        pass: &dyn Pass,
        ops: &[(Vec<OpId>, &Body, OpId)],
    ) -> Vec<Option<String>> {
        let dump = self.wants_before(pass.name());
        let keep = self.opts.print_after_change && self.wants_after(pass.name());
        if !dump && !keep {
            return vec![None; ops.len()];
        }
        ops.iter()
            .map(|(key, body, op)| {
                if dump {
                    self.dump(ctx, root, "Before", pass, (body, *op, key.len() > 1));
                }
                keep.then(|| self.op_text(ctx, body, *op, key.len() > 1))
            })
            .collect()
    }

    /// After a pass (number `index` of the pipeline): `--print-ir-after*`
    /// dumps and `--print-ir-tree-dir` files.
    pub fn after(
        &mut self,
        ctx: &Context,
        root: &OwnedOp,
        pass: &dyn Pass,
        index: usize,
        ops: &[(Vec<OpId>, &Body, OpId)],
        before: &[Option<String>],
    ) -> std::io::Result<()> {
        let wanted = self.wants_after(pass.name());
        let tree = self.opts.print_tree_dir.clone();
        if !wanted && tree.is_none() {
            return Ok(());
        }
        for (i, (key, body, op)) in ops.iter().enumerate() {
            let nested = key.len() > 1;
            let dump = wanted
                && (!self.opts.print_after_change
                    || before
                        .get(i)
                        .and_then(|b| b.as_ref())
                        .is_none_or(|b| *b != self.op_text(ctx, body, *op, nested)));
            if dump {
                self.dump(ctx, root, "After", pass, (body, *op, nested));
            }
            if let Some(dir) = &tree {
                let path = tree_path(ctx, root, dir, key, index, pass.name());
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                let opts = &self.opts.print_options;
                std::fs::write(&path, lf_ir::op_to_string(ctx, body, *op, opts))?;
            }
        }
        Ok(())
    }
}

/// `'func.func' operation: @f`, or `'builtin.module' operation`.
pub fn describe_op(ctx: &Context, body: &Body, op: OpId) -> String {
    let name = ctx.op_name_str(body.op_name(op));
    match lf_ir::symbols::symbol_name(ctx, body, op) {
        Some(s) => format!("'{name}' operation: @{}", ctx.ident_str(s)),
        None => format!("'{name}' operation"),
    }
}

/// `DIR/builtin_module_no-symbol-name/func_func_f/3_cse.lfir`.
fn tree_path(ctx: &Context, root: &OwnedOp, dir: &std::path::Path, key: &[OpId], index: usize, pass: &str) -> PathBuf {
    let mut path = dir.to_path_buf();
    let mut body = &root.body;
    for (i, &op) in key.iter().enumerate() {
        let name = ctx.op_name_str(body.op_name(op)).replace('.', "_");
        let sym = lf_ir::symbols::symbol_name(ctx, body, op)
            .map(|s| sanitize(ctx.ident_str(s)))
            .unwrap_or_else(|| "no-symbol-name".to_string());
        path.push(format!("{name}_{sym}"));
        if i + 1 < key.len() {
            match body.nested_body(op) {
                Some(nb) => body = nb,
                None => break,
            }
        }
    }
    path.push(format!("{index}_{pass}.lfir"));
    path
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
