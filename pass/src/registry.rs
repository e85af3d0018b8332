//! The [`PassRegistry`]: the passes and the named pipelines that pipelines
//! and flags can name.

use crate::pass::{Anchor, PassInfo};

/// A registered pipeline (MLIR's `PassPipelineRegistration`): a name that
/// stands for a list of passes. Named inside `--pass-pipeline`, it expands
/// in place into its passes; as a flag (`--NAME`), into its passes as flags.
#[derive(Debug)]
pub struct PipelineInfo {
    /// The name (`ihop-pre`).
    pub name: &'static str,
    /// One line for `--list-passes` and the docs.
    pub summary: &'static str,
    /// Longer documentation (markdown) for `docs/passes.md`.
    pub description: &'static str,
    /// The op the pipeline's passes run on: it may only be named in that
    /// op's pass manager.
    pub anchor: Anchor,
    /// The passes, as written inside the anchor's pass manager:
    /// `cse,canonicalize{max-iterations=5}`. They are looked up when the
    /// pipeline is used, so a pipeline may be registered before its passes.
    pub pipeline: &'static str,
}

/// A set of registered passes and pipelines, looked up by name.
#[derive(Default, Clone)]
pub struct PassRegistry {
    passes: Vec<&'static PassInfo>,
    pipelines: Vec<&'static PipelineInfo>,
}

impl PassRegistry {
    /// An empty registry.
    pub fn new() -> PassRegistry {
        PassRegistry::default()
    }

    /// Registers a pass; a pass with the same name replaces the earlier one
    /// (so an out-of-tree tool can override a pass).
    pub fn register(&mut self, info: &'static PassInfo) {
        match self.passes.iter_mut().find(|p| p.name == info.name) {
            Some(slot) => *slot = info,
            None => self.passes.push(info),
        }
    }

    /// The pass named `name`.
    pub fn lookup(&self, name: &str) -> Option<&'static PassInfo> {
        self.passes.iter().copied().find(|p| p.name == name)
    }

    /// Registers a named pipeline; one with the same name replaces the
    /// earlier one.
    pub fn register_pipeline(&mut self, info: &'static PipelineInfo) {
        match self.pipelines.iter_mut().find(|p| p.name == info.name) {
            Some(slot) => *slot = info,
            None => self.pipelines.push(info),
        }
    }

    /// The pipeline named `name` (a pass of that name is looked up first
    /// by the pipeline parser and the flags).
    pub fn lookup_pipeline(&self, name: &str) -> Option<&'static PipelineInfo> {
        self.pipelines.iter().copied().find(|p| p.name == name)
    }

    /// All named pipelines, sorted by name.
    pub fn all_pipelines(&self) -> Vec<&'static PipelineInfo> {
        let mut v = self.pipelines.clone();
        v.sort_by_key(|p| p.name);
        v
    }

    /// All passes, sorted by name.
    pub fn all(&self) -> Vec<&'static PassInfo> {
        let mut v = self.passes.clone();
        v.sort_by_key(|p| p.name);
        v
    }

    /// The registered name nearest to `name` (a likely typo), if any.
    pub fn suggest(&self, name: &str) -> Option<&'static str> {
        crate::suggest::nearest(
            name,
            self.passes
                .iter()
                .map(|p| p.name)
                .chain(self.pipelines.iter().map(|p| p.name)),
        )
    }

    /// The `--list-passes` text: each pass with its anchor, summary and options.
    pub fn list_text(&self) -> String {
        let mut out = String::from("Available passes (anchor in brackets; options with type, default and help):\n");
        for p in self.all() {
            out.push_str(&format!("  {} [{}]\n      {}\n", p.name, p.anchor.as_str(), p.summary));
            for o in p.options {
                out.push_str(&format!(
                    "      {}={} (default: {})  {}\n",
                    o.name,
                    o.kind.describe(),
                    if o.default.is_empty() { "\"\"" } else { o.default },
                    o.help
                ));
            }
        }
        if !self.pipelines.is_empty() {
            out.push_str("Available pass pipelines (anchor in brackets; the passes they stand for):\n");
            for p in self.all_pipelines() {
                out.push_str(&format!(
                    "  {} [{}]\n      {}\n      = {}\n",
                    p.name,
                    p.anchor.as_str(),
                    p.summary,
                    p.pipeline
                ));
            }
        }
        out
    }

    /// The markdown of `docs/passes.md`.
    pub fn docs_markdown(&self) -> String {
        let mut out = String::from(
            "# Passes\n\n<!-- Generated from the pass registry: `LF_UPDATE_DOCS=1 cargo test -p lf-transforms --test pass_docs`; \
             the test `transforms/tests/pass_docs.rs` checks that it is up to date. -->\n\n\
             Each pass below can be named in a pipeline (`--pass-pipeline='builtin.module(func.func(cse))'`) \
             or given as a flag (`lf-opt --cse`), which nests it under its anchor. \
             See the user guide's section on pipelines for the syntax.\n\n\
             | pass | anchor | summary |\n|---|---|---|\n",
        );
        for p in self.all() {
            out.push_str(&format!(
                "| [`{}`](#{}) | `{}` | {} |\n",
                p.name,
                p.name,
                p.anchor.as_str(),
                p.summary
            ));
        }
        for p in self.all() {
            out.push_str(&format!(
                "\n## `{}`\n\n{}\n\nAnchor: `{}`.\n",
                p.name,
                p.summary,
                p.anchor.as_str()
            ));
            if !p.description.is_empty() {
                out.push_str(&format!("\n{}\n", p.description.trim_end()));
            }
            if !p.options.is_empty() {
                out.push_str("\n| option | type | default | help |\n|---|---|---|---|\n");
                for o in p.options {
                    out.push_str(&format!(
                        "| `{}` | `{}` | `{}` | {} |\n",
                        o.name,
                        o.kind.describe(),
                        if o.default.is_empty() { "\"\"" } else { o.default },
                        o.help
                    ));
                }
            }
        }
        if !self.pipelines.is_empty() {
            out.push_str(
                "\n# Pass pipelines\n\nA registered pipeline stands for a list of passes: name it in a \
                 pipeline (`--pass-pipeline='builtin.module(func.func(ihop-pre))'`), where it expands in place, \
                 or give it as a flag (`lf-opt --ihop-pre`).\n",
            );
            for p in self.all_pipelines() {
                out.push_str(&format!(
                    "\n## `{}`\n\n{}\n\nAnchor: `{}`. Passes: `{}`.\n",
                    p.name,
                    p.summary,
                    p.anchor.as_str(),
                    p.pipeline
                ));
                if !p.description.is_empty() {
                    out.push_str(&format!("\n{}\n", p.description.trim_end()));
                }
            }
        }
        out
    }
}
