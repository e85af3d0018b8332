//! Running a built variant and timing it: each run's time is the sum of the
//! `lf-profile: launch KERNEL ms=T` lines the program prints to stderr
//! (`lf-translate --profile-launches`); over several runs, the median and
//! the minimum.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The prefix of a launch-time line.
const PROFILE_PREFIX: &str = "lf-profile: launch ";

/// What one run of a variant gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// What the program printed on stdout.
    pub stdout: Vec<u8>,
    /// The sum of its kernel launch times, in milliseconds.
    pub kernel_ms: f64,
    /// How many launches it timed.
    pub launches: usize,
}

/// The median and minimum of a variant's run times.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Stats {
    /// Median in milliseconds (the mean of the two middle runs for an even count).
    pub median_ms: f64,
    /// Minimum in milliseconds.
    pub min_ms: f64,
}

/// The launch count and summed milliseconds of the `lf-profile` lines of
/// `stderr`; a line with the prefix whose time does not parse is an error.
pub fn parse_profile(stderr: &str) -> Result<(usize, f64), String> {
    let mut count = 0;
    let mut total = 0.0;
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix(PROFILE_PREFIX) else {
            continue;
        };
        let ms = rest
            .rsplit_once(" ms=")
            .and_then(|(_, t)| t.trim().parse::<f64>().ok())
            .filter(|t| t.is_finite() && *t >= 0.0)
            .ok_or_else(|| format!("malformed profile line '{line}'"))?;
        count += 1;
        total += ms;
    }
    Ok((count, total))
}

/// The median and minimum of `times` (`None` when empty).
pub fn stats(times: &[f64]) -> Option<Stats> {
    let mut v = times.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median_ms = match n {
        0 => return None,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    };
    Some(Stats {
        median_ms,
        min_ms: v[0],
    })
}

/// The last lines of a run's stderr (without profile lines), for a message.
fn tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with(PROFILE_PREFIX) && !l.trim().is_empty())
        .collect();
    lines[lines.len().saturating_sub(4)..].join(" / ")
}

/// Runs `exe` once, its output going to files next to it (`exe.N.out`,
/// `exe.N.err`, so a large output cannot block it); a run longer than
/// `timeout` is killed. A non-zero exit status or a timeout is an error.
pub fn run_once(exe: &Path, n: usize, timeout: Duration) -> Result<Run, String> {
    let out_path = exe.with_extension(format!("{n}.out"));
    let err_path = exe.with_extension(format!("{n}.err"));
    let file = |p: &Path| std::fs::File::create(p).map_err(|e| format!("could not create {}: {e}", p.display()));
    let mut child = Command::new(exe)
        .stdin(Stdio::null())
        .stdout(file(&out_path)?)
        .stderr(file(&err_path)?)
        .spawn()
        .map_err(|e| format!("could not run {}: {e}", exe.display()))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("run timed out after {} s", timeout.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("could not wait for {}: {e}", exe.display())),
        }
    };
    let stdout = std::fs::read(&out_path).map_err(|e| format!("could not read {}: {e}", out_path.display()))?;
    let stderr = std::fs::read(&err_path).map_err(|e| format!("could not read {}: {e}", err_path.display()))?;
    let stderr = String::from_utf8_lossy(&stderr);
    if !status.success() {
        return Err(format!("run exited with {status}: {}", tail(&stderr)));
    }
    let (launches, kernel_ms) = parse_profile(&stderr)?;
    Ok(Run {
        stdout,
        kernel_ms,
        launches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_lines_are_summed_and_other_lines_ignored() {
        let err = "lf-profile: launch k0 ms=0.250000\nsomething else\nlf-profile: launch k1 ms=1.5\n";
        assert_eq!(parse_profile(err).unwrap(), (2, 1.75));
        assert_eq!(parse_profile("").unwrap(), (0, 0.0));
        assert!(parse_profile("lf-profile: launch k ms=abc\n").is_err());
        assert!(parse_profile("lf-profile: launch k\n").is_err());
    }

    #[test]
    fn median_and_min() {
        let s = stats(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((s.median_ms, s.min_ms), (2.0, 1.0));
        let s = stats(&[4.0, 1.0, 2.0, 3.0]).unwrap();
        assert_eq!((s.median_ms, s.min_ms), (2.5, 1.0));
        assert_eq!(stats(&[]), None);
    }
}
