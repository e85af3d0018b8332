//! Building one variant: the input parsed, the variant's pipeline run on it
//! in-process (as lf-opt runs `--pass-pipeline`), the result translated
//! as `lf-translate --profile-launches` does, and compiled.

use super::toolchain::{Backend, Toolchain};
use lf_diag::{Diagnostic, SourceMgr};
use lf_ir::Context;
use lf_pass::{PassManager, PassRegistry, RunOptions};
use lf_targets::{OpenClProfile, Options, Target};
use std::path::{Path, PathBuf};

/// The input program.
pub struct Input {
    /// Its file name (for diagnostics).
    pub name: String,
    /// Its text.
    pub text: String,
}

/// How variants are translated.
#[derive(Clone, Debug)]
pub struct TranslateOptions {
    /// The OpenCL profile whose rules are enforced (ignored for CUDA).
    pub profile: OpenClProfile,
}

/// A built variant.
pub struct Built {
    /// The executable.
    pub exe: PathBuf,
    /// The warnings and remarks of the passes and the emitter, one
    /// indented `file:line:col: severity: message` line each (empty when
    /// there are none).
    pub messages: String,
}

/// Why a variant could not be built: a short reason for the table, and the
/// rendered diagnostics or compiler output behind it.
#[derive(Debug)]
pub struct BuildFailure {
    /// One line: `pass pipeline failed: ...`, `translation failed: ...`, ...
    pub reason: String,
    /// The full messages (rendered diagnostics, compiler output).
    pub details: String,
}

/// Renders diagnostics against the input and the variant's pipeline text.
fn render(input: &Input, pipeline: &str, diags: &[Diagnostic]) -> String {
    let mut sm = SourceMgr::new();
    sm.add(input.name.as_str(), input.text.as_str());
    sm.add(lf_pass::pipeline::PIPELINE_FILE, pipeline);
    lf_diag::render_all(diags, &sm)
}

/// A failure from diagnostics: the first error's message is the reason.
fn failure(stage: &str, input: &Input, pipeline: &str, diags: &[Diagnostic]) -> BuildFailure {
    let first = diags.iter().find(|d| d.is_error()).or(diags.first());
    BuildFailure {
        reason: format!("{stage}: {}", first.map_or("(no message)", |d| d.message.as_str())),
        details: render(input, pipeline, diags),
    }
}

/// Parses the pipeline text of a variant; an error is the rendered
/// diagnostic (pointing into the text).
pub fn parse_pipeline(ctx: &Context, registry: &PassRegistry, pipeline: &str) -> Result<PassManager, String> {
    match lf_pass::parse_pipeline(pipeline, ctx, registry) {
        Ok(pm) => Ok(PassManager::new(pm, RunOptions::default())),
        Err(d) => {
            let mut sm = SourceMgr::new();
            sm.add(lf_pass::pipeline::PIPELINE_FILE, pipeline);
            Err(lf_diag::render_all(&[*d], &sm))
        }
    }
}

/// Runs `pipeline` on the input and emits the variant's source code with
/// launch profiling; returns the code and the warnings/remarks (see
/// [`Built::messages`]).
pub fn emit(
    input: &Input,
    registry: &PassRegistry,
    pipeline: &str,
    backend: Backend,
    topts: &TranslateOptions,
) -> Result<(String, String), BuildFailure> {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    let mut pm = parse_pipeline(&ctx, registry, pipeline).map_err(|details| BuildFailure {
        reason: "bad pass pipeline".to_string(),
        details,
    })?;
    let mut owned = lf_ir::parse_source(&ctx, &input.text, &input.name)
        .map_err(|d| failure("input does not parse", input, pipeline, &[*d]))?;
    lf_ir::verify(&ctx, &owned.body, owned.op).map_err(|d| failure("input is invalid", input, pipeline, &[*d]))?;
    // Pass output (IR dumps) is not asked for; a pass's own printing goes to stderr.
    let report = pm.run(&ctx, &mut owned, &mut std::io::stderr());
    if report.failed {
        return Err(failure("pass pipeline failed", input, pipeline, &report.diags));
    }
    let mut messages = report.diags;
    lf_dialects::gpu::transforms::gpu_kernel_outlining::outline_module(&ctx, &mut owned)
        .map_err(|d| failure("gpu-kernel-outlining failed", input, pipeline, &d))?;
    let opts = Options {
        profile: topts.profile,
        profile_launches: true,
        ..Options::new(match backend {
            Backend::OpenCl => Target::OpenCl,
            Backend::Cuda => Target::Cuda,
        })
    };
    let t = lf_targets::translate_with_warnings(&ctx, &owned.body, owned.op, &opts).map_err(|mut d| {
        lf_diag::sort_by_position(&mut d);
        failure("translation failed", input, pipeline, &d)
    })?;
    messages.extend(t.warnings);
    // One line each: a remark per loop nest and variant adds up.
    let short: String = messages
        .iter()
        .flat_map(|d| d.to_string().lines().map(|l| format!("  {l}\n")).collect::<Vec<_>>())
        .collect();
    Ok((t.code, short))
}

/// Builds variant number `index` (from 1) into `dir`: `variant-INDEX.c` or
/// `.cu` and the executable `variant-INDEX`.
pub fn build(
    input: &Input,
    registry: &PassRegistry,
    pipeline: &str,
    toolchain: &Toolchain,
    topts: &TranslateOptions,
    dir: &Path,
    index: usize,
) -> Result<Built, BuildFailure> {
    let (code, messages) = emit(input, registry, pipeline, toolchain.backend, topts)?;
    let src = dir.join(format!("variant-{index}.{}", toolchain.source_ext()));
    let exe = dir.join(format!("variant-{index}"));
    std::fs::write(&src, code).map_err(|e| BuildFailure {
        reason: format!("could not write {}", src.display()),
        details: e.to_string(),
    })?;
    toolchain.compile(&src, &exe).map_err(|details| BuildFailure {
        reason: "compilation failed".to_string(),
        details,
    })?;
    Ok(Built { exe, messages })
}
