//! The result of a tuning run: one row per variant, the markdown table and
//! the `best:` line.

use std::fmt::Write;

/// How a variant fared.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Built, ran, and printed the reference output.
    Ok,
    /// Ran, but printed something else (the first difference).
    Wrong(String),
    /// Could not be built or run (the reason).
    Failed(String),
}

/// One variant's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The value of each grid variable, in the grid's order.
    pub values: Vec<String>,
    /// `NAME=VALUE ...` (see [`crate::tune::grid::Point::label`]).
    pub label: String,
    /// Median and minimum kernel time in ms, when it ran.
    pub times: Option<crate::tune::measure::Stats>,
    /// The outcome.
    pub status: Status,
}

/// The row with the smallest median time among the `Ok` ones (the first
/// such on a tie).
pub fn best(rows: &[Row]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, r) in rows.iter().enumerate() {
        if let (Status::Ok, Some(t)) = (&r.status, r.times) {
            if best.is_none_or(|(_, b)| t.median_ms < b) {
                best = Some((i, t.median_ms));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// `baseline / t` as `1.23x`, or `-` when either is missing or zero.
fn speedup(baseline: Option<f64>, t: Option<f64>) -> String {
    match (baseline, t) {
        (Some(b), Some(t)) if b > 0.0 && t > 0.0 => format!("{:.2}x", b / t),
        _ => "-".to_string(),
    }
}

/// A markdown table cell: `|` escaped, newlines as spaces.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The markdown table: a column per variable, kernel ms median and min,
/// speedup of the median over the first variant's, and the status.
pub fn table(names: &[String], rows: &[Row]) -> String {
    let mut out = String::new();
    let mut header: Vec<String> = names.iter().map(|n| cell(n)).collect();
    header.extend(["kernel ms (median)", "kernel ms (min)", "speedup", "status"].map(String::from));
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(header.len()));
    let baseline = rows.first().and_then(|r| r.times).map(|t| t.median_ms);
    for r in rows {
        let mut cells: Vec<String> = r.values.iter().map(|v| format!("`{}`", cell(v))).collect();
        let (median, min) = match r.times {
            Some(t) => (format!("{:.3}", t.median_ms), format!("{:.3}", t.min_ms)),
            None => ("-".to_string(), "-".to_string()),
        };
        cells.push(median);
        cells.push(min);
        cells.push(speedup(baseline, r.times.map(|t| t.median_ms)));
        cells.push(match &r.status {
            Status::Ok => "ok".to_string(),
            Status::Wrong(d) => format!("WRONG: {}", cell(d)),
            Status::Failed(d) => format!("failed: {}", cell(d)),
        });
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

/// `best: LABEL (1.90x over FIRST)`, or a line saying there is none.
pub fn best_line(rows: &[Row]) -> String {
    let Some(b) = best(rows) else {
        return "best: none (no variant ran and printed the reference output)".to_string();
    };
    let r = &rows[b];
    let label = if r.label.is_empty() {
        "(the only variant)"
    } else {
        &r.label
    };
    let first = &rows[0];
    match (b, first.times) {
        (0, _) => format!("best: {label} (the first variant)"),
        (_, Some(f)) => format!(
            "best: {label} ({} over {})",
            speedup(Some(f.median_ms), r.times.map(|t| t.median_ms)),
            first.label
        ),
        (_, None) => format!(
            "best: {label} (median {:.3} ms; the first variant, {}, has no time)",
            r.times.map_or(0.0, |t| t.median_ms),
            first.label
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::measure::Stats;

    fn row(v: &str, median: Option<f64>, status: Status) -> Row {
        Row {
            values: vec![v.to_string()],
            label: format!("F={v}"),
            times: median.map(|m| Stats {
                median_ms: m,
                min_ms: m / 2.0,
            }),
            status,
        }
    }

    #[test]
    fn the_best_is_the_fastest_ok_variant() {
        let rows = [
            row("1", Some(2.0), Status::Ok),
            row("2", Some(0.5), Status::Wrong("line 1".into())),
            row("4", Some(1.0), Status::Ok),
            row("8", None, Status::Failed("compilation failed".into())),
        ];
        assert_eq!(best(&rows), Some(2));
        assert_eq!(best_line(&rows), "best: F=4 (2.00x over F=1)");
        let t = table(&["F".to_string()], &rows);
        assert_eq!(
            t,
            "| F | kernel ms (median) | kernel ms (min) | speedup | status |\n\
             |---|---|---|---|---|\n\
             | `1` | 2.000 | 1.000 | 1.00x | ok |\n\
             | `2` | 0.500 | 0.250 | 4.00x | WRONG: line 1 |\n\
             | `4` | 1.000 | 0.500 | 2.00x | ok |\n\
             | `8` | - | - | - | failed: compilation failed |\n"
        );
        assert!(best_line(&rows[1..2]).starts_with("best: none"));
        assert_eq!(best_line(&rows[..1]), "best: F=1 (the first variant)");
    }
}
