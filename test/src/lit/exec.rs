//! Running one shell command: `bash -o pipefail -c`, its own process group, captured
//! output, and a deadline after which the whole group is killed.

use std::io::Read;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Output beyond this many bytes per stream is read and dropped.
const CAPTURE_LIMIT: usize = 4 << 20;

/// LLVM's `not`, as a shell function: succeeds iff the command exits with a non-zero
/// status that is not a crash. A crash is a signal (bash reports `128 + N`) or status
/// 101, Rust's panic status. Status 126/127 (cannot run, not found) also fail.
/// `not --crash CMD` succeeds iff CMD crashes.
pub const NOT_FUNCTION: &str = r#"not() {
  local crash=0
  if [ "$1" = "--crash" ]; then crash=1; shift; fi
  if [ $# -eq 0 ]; then echo "not: missing command" >&2; return 2; fi
  "$@"
  local s=$?
  if [ $s -eq 126 ] || [ $s -eq 127 ]; then return 1; fi
  local crashed=0
  if [ $s -gt 128 ] || [ $s -eq 101 ]; then crashed=1; fi
  if [ $crash -eq 1 ]; then [ $crashed -eq 1 ]; return; fi
  [ $s -ne 0 ] && [ $crashed -eq 0 ]
}
"#;

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It ran past its deadline; its process group was killed.
    TimedOut,
}

impl Status {
    /// Whether the command succeeded (exit status 0).
    pub fn success(self) -> bool {
        self == Status::Exited(0)
    }
}

/// The result of [`run_shell`].
#[derive(Debug, Clone)]
pub struct ExecResult {
    /// How the command ended.
    pub status: Status,
    /// Its standard output (lossily decoded, capped).
    pub stdout: String,
    /// Its standard error (lossily decoded, capped).
    pub stderr: String,
    /// Wall time.
    pub elapsed: Duration,
}

/// Runs `command` with `bash -o pipefail -c` in `cwd`, with `PATH` set to `path` (when
/// given), standard input from `/dev/null`, and [`NOT_FUNCTION`] defined. After `timeout`,
/// the command's process group is killed and the result is [`Status::TimedOut`].
pub fn run_shell(command: &str, cwd: &Path, path: Option<&str>, timeout: Duration) -> std::io::Result<ExecResult> {
    let start = Instant::now();
    // No core files in the test directories.
    let script = format!("ulimit -c 0 2>/dev/null\n{NOT_FUNCTION}{command}");
    let mut cmd = Command::new("bash");
    cmd.arg("-o")
        .arg("pipefail")
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    if let Some(p) = path {
        cmd.env("PATH", p);
    }
    let mut child = cmd.spawn()?;
    let pgid = child.id() as i32;
    let out_reader = spawn_reader(child.stdout.take().expect("piped stdout"));
    let err_reader = spawn_reader(child.stderr.take().expect("piped stderr"));
    let mut timed_out = false;
    let mut nap = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() >= timeout {
            timed_out = true;
            kill_group(pgid);
            break child.wait()?;
        }
        std::thread::sleep(nap.min(timeout.saturating_sub(start.elapsed())));
        nap = (nap * 2).min(Duration::from_millis(25));
    };
    // Stray background processes of the command would keep the pipes open.
    kill_group(pgid);
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let status = if timed_out {
        Status::TimedOut
    } else if let Some(code) = status.code() {
        Status::Exited(code)
    } else {
        Status::Signaled(status.signal().unwrap_or(0))
    };
    Ok(ExecResult {
        status,
        stdout,
        stderr,
        elapsed: start.elapsed(),
    })
}

fn kill_group(pgid: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; it has no memory effects.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

fn spawn_reader(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = CAPTURE_LIMIT.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// The name of a signal, for reports.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGINT => "SIGINT",
        _ => "signal",
    }
}
