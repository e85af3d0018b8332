//! The `lf-opt` driver: read, parse, verify, print.

use clap::Parser as ClapParser;
use lf_diag::{Diagnostic, SourceMgr, SourcePos, Verifier, VerifyMode};
use lf_ir::{Context, ParseOptions, PrintOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Command-line options of lf-opt.
#[derive(ClapParser, Debug)]
#[command(
    name = "lf-opt",
    version,
    about = "Parse, verify, transform and print lf IR (MLIR syntax).",
    long_about = "lf-opt reads IR in MLIR's textual syntax (.lfir), verifies it and prints it back, \
in the custom form by default or in MLIR's generic form. Errors are reported with the source \
line and a caret; the exit status is 1 and no output file is written when anything fails.\n\n\
Example: lf-opt examples/fig3_chain.lfir --print-op-generic -o out.lfir"
)]
pub struct OptArgs {
    /// Input file ('-' or nothing for standard input).
    #[arg(default_value = "-")]
    pub input: String,
    /// Output file ('-' for standard output). Written only if everything succeeds.
    #[arg(short = 'o', default_value = "-")]
    pub output: String,
    /// Print every op in MLIR's generic form.
    #[arg(long = "print-op-generic", visible_alias = "mlir-print-op-generic")]
    pub print_op_generic: bool,
    /// Print locations (`loc(...)`), as aliases defined at the end.
    #[arg(long = "print-debuginfo", visible_alias = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// Accept ops, attributes and types of dialects lf does not know.
    #[arg(long = "allow-unregistered-dialect")]
    pub allow_unregistered_dialect: bool,
    /// Process each chunk between `// -----` lines separately.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,
    /// Check diagnostics against `// expected-error {{...}}` comments instead of printing them.
    #[arg(long = "verify-diagnostics")]
    pub verify_diagnostics: bool,
    /// Skip the verifier (for debugging lf itself).
    #[arg(long = "no-verify", hide = true)]
    pub no_verify: bool,
}

/// Entry point of `lf-opt`: returns the process exit code.
pub fn main() -> i32 {
    let args = OptArgs::parse();
    main_with(Context::new(), args)
}

/// Runs lf-opt with a given context (which may have extra ops registered).
pub fn main_with(ctx: Context, args: OptArgs) -> i32 {
    // Deeply nested input recurses; give the work a large stack.
    let handle = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(&ctx, &args));
    match handle.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("lf-opt: internal error (please report this with the input that caused it)");
            2
        }
    }
}

fn run(ctx: &Context, args: &OptArgs) -> i32 {
    ctx.set_allow_unregistered_dialects(args.allow_unregistered_dialect);
    let (name, bytes) = match read_input(&args.input) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("lf-opt: error: could not open input file '{}': {e}", args.input);
            return 1;
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let raw = e.into_bytes();
            let lossy = String::from_utf8_lossy(&raw).into_owned();
            let before = &raw[..valid];
            let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let col = (valid - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)) as u32 + 1;
            let mut sm = SourceMgr::new();
            sm.add(name.as_str(), lossy);
            let d = Diagnostic::error(SourcePos::new(name.as_str(), line, col), "input is not valid UTF-8");
            let _ = lf_diag::emit_to_stderr(&[d], &sm);
            return 1;
        }
    };
    // The source manager (a copy of the text) is only needed for diagnostics.
    let source_mgr = || {
        let mut sm = SourceMgr::new();
        sm.add(name.as_str(), text.as_str());
        sm
    };
    let opts = PrintOptions {
        generic: args.print_op_generic,
        debuginfo: args.print_debuginfo,
    };
    let chunks: Vec<(&str, u32)> = if args.split_input_file {
        let split = lf_diag::split_input_file_checked(&text, lf_diag::DEFAULT_SPLIT_MARKER);
        let warnings = split.near_miss_warnings(&name, &text);
        if !warnings.is_empty() && !args.verify_diagnostics {
            let _ = lf_diag::emit_to_stderr(&warnings, &source_mgr());
        }
        split.chunks.iter().map(|c| (c.text, c.line)).collect()
    } else {
        vec![(text.as_str(), 1)]
    };
    let mut outputs: Vec<Vec<u8>> = Vec::new();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut failed = false;
    for (chunk, first_line) in &chunks {
        match process(ctx, chunk, &name, *first_line, &opts, !args.no_verify) {
            Ok(out) => outputs.push(out),
            Err(d) => {
                failed = true;
                diags.push(*d);
            }
        }
    }
    if args.verify_diagnostics {
        let sm = source_mgr();
        let mut v = Verifier::new(VerifyMode::All);
        v.add_all(&sm);
        v.check_all(diags.iter());
        let problems = v.finish();
        if !problems.is_empty() {
            let _ = lf_diag::emit_to_stderr(&problems, &sm);
            return 1;
        }
        failed = false;
    } else if !diags.is_empty() {
        let _ = lf_diag::emit_to_stderr(&diags, &source_mgr());
    }
    if failed {
        return 1;
    }
    let separator = format!("{}\n", lf_diag::DEFAULT_OUTPUT_SPLIT_MARKER);
    match write_output(&args.output, &outputs, separator.as_bytes()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("lf-opt: error: could not write output file '{}': {e}", args.output);
            1
        }
    }
}

/// Parses, verifies and prints one buffer.
fn process(
    ctx: &Context,
    text: &str,
    name: &str,
    first_line: u32,
    opts: &PrintOptions,
    verify: bool,
) -> Result<Vec<u8>, Box<Diagnostic>> {
    let owned = lf_ir::parse_source_with(ctx, text, name, &ParseOptions { first_line })?;
    if verify {
        lf_ir::verify(ctx, &owned.body, owned.op)?;
    }
    let mut out = Vec::with_capacity(text.len() + text.len() / 4);
    lf_ir::print_op(ctx, &owned.body, owned.op, opts, &mut out)
        .map_err(|e| Box::new(Diagnostic::error(None, format!("write error: {e}"))))?;
    Ok(out)
}

fn read_input(input: &str) -> std::io::Result<(String, Vec<u8>)> {
    if input == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v)?;
        Ok(("<stdin>".to_string(), v))
    } else {
        Ok((input.to_string(), std::fs::read(input)?))
    }
}

/// Writes the output atomically: a temporary file next to the target, renamed
/// into place, so a failure never leaves a partial file.
fn write_output(output: &str, parts: &[Vec<u8>], separator: &[u8]) -> std::io::Result<()> {
    let write_all = |w: &mut dyn Write| -> std::io::Result<()> {
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                w.write_all(separator)?;
            }
            w.write_all(p)?;
        }
        w.flush()
    };
    if output == "-" {
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        return write_all(&mut lock);
    }
    let path = PathBuf::from(output);
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    write_all(tmp.as_file_mut())?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}
