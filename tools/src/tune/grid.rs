//! The tuning grid: `--grid NAME=V1:V2:...` variables, the cartesian
//! product of their values, and the substitution of `$NAME` (or `${NAME}`)
//! in the pipeline text.
//!
//! Values are separated by `:` because a value may hold commas
//! (`block-sizes=32,1`); a value is any non-empty text without `:`.
//! Errors point into the flags: the `--grid` flags are the lines of the
//! pseudo-file [`GRID_FILE`] (the first flag is line 1), and the pipeline is
//! [`lf_pass::pipeline::PIPELINE_FILE`].

use lf_diag::{Diagnostic, SourceMgr, SourcePos};
use lf_pass::pipeline::PIPELINE_FILE;

/// The name diagnostics give the `--grid` flags (one line per flag).
pub const GRID_FILE: &str = "<--grid>";

/// One variable of the grid and the values it takes, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// The name, used as `$NAME` in the pipeline.
    pub name: String,
    /// Its values, in the order given.
    pub values: Vec<String>,
}

/// All variables, in the order of the `--grid` flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    /// The variables.
    pub vars: Vec<Variable>,
}

/// One point of the grid: a value for every variable, in the grid's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// `(name, value)` per variable.
    pub values: Vec<(String, String)>,
}

impl Point {
    /// `NAME=VALUE` per variable, separated by spaces (`B=32,1 F=2`).
    pub fn label(&self) -> String {
        let parts: Vec<String> = self.values.iter().map(|(n, v)| format!("{n}={v}")).collect();
        parts.join(" ")
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Whether `c` may start (`first`) or continue a variable name.
fn name_char(c: char, first: bool) -> bool {
    c == '_' || c.is_ascii_alphabetic() || (!first && c.is_ascii_digit())
}

/// A source manager holding the `--grid` flags (one per line) and the
/// pipeline, for rendering the diagnostics of this module.
pub fn sources(specs: &[String], pipeline: &str) -> SourceMgr {
    let mut sm = SourceMgr::new();
    sm.add(GRID_FILE, specs.join("\n"));
    sm.add(PIPELINE_FILE, pipeline);
    sm
}

impl Grid {
    /// Parses the `--grid` flags (`NAME=V1:V2:...` each). An error points
    /// at the offending flag ([`GRID_FILE`], line = the flag's position).
    pub fn parse(specs: &[String]) -> Result<Grid, Box<Diagnostic>> {
        let mut grid = Grid::default();
        for (i, spec) in specs.iter().enumerate() {
            let line = i as u32 + 1;
            let at = |col: usize| SourcePos::new(GRID_FILE, line, col as u32 + 1);
            let Some((name, values)) = spec.split_once('=') else {
                return Err(Box::new(Diagnostic::error(
                    at(0),
                    format!("--grid '{spec}': expected NAME=VALUE1:VALUE2:... (values separated by ':')"),
                )));
            };
            let mut chars = name.chars();
            let valid = chars.next().is_some_and(|c| name_char(c, true)) && chars.all(|c| name_char(c, false));
            if !valid {
                return Err(Box::new(
                    Diagnostic::error(
                        at(0),
                        format!("--grid: '{name}' is not a variable name (letters, digits and '_', not starting with a digit)"),
                    )
                    .with_width(name.len().max(1) as u32),
                ));
            }
            if grid.vars.iter().any(|v| v.name == name) {
                return Err(Box::new(
                    Diagnostic::error(at(0), format!("--grid: variable '{name}' is given twice"))
                        .with_width(name.len() as u32),
                ));
            }
            let mut parsed = Vec::new();
            let mut col = name.len() + 1;
            for v in values.split(':') {
                if v.is_empty() {
                    return Err(Box::new(Diagnostic::error(
                        at(col),
                        format!("--grid {name}: empty value (values are separated by ':')"),
                    )));
                }
                if parsed.iter().any(|p| p == v) {
                    return Err(Box::new(
                        Diagnostic::error(at(col), format!("--grid {name}: value '{v}' is given twice"))
                            .with_width(v.len() as u32),
                    ));
                }
                parsed.push(v.to_string());
                col += v.len() + 1;
            }
            grid.vars.push(Variable {
                name: name.to_string(),
                values: parsed,
            });
        }
        Ok(grid)
    }

    /// Every point of the cartesian product, the first variable varying
    /// slowest (so the first point takes every variable's first value).
    /// A grid without variables has one point, with no values.
    pub fn points(&self) -> Vec<Point> {
        let mut points = vec![Point { values: Vec::new() }];
        for var in &self.vars {
            points = points
                .into_iter()
                .flat_map(|p| {
                    var.values.iter().map(move |v| {
                        let mut values = p.values.clone();
                        values.push((var.name.clone(), v.clone()));
                        Point { values }
                    })
                })
                .collect();
        }
        points
    }

    /// Checks that the pipeline uses every variable and only variables of
    /// the grid (see [`substitute`] for the syntax).
    pub fn check_pipeline(&self, specs: &[String], pipeline: &str) -> Result<(), Box<Diagnostic>> {
        let refs = references(pipeline)?;
        for (col, name) in &refs {
            if !self.vars.iter().any(|v| &v.name == name) {
                return Err(Box::new(
                    Diagnostic::error(
                        SourcePos::new(PIPELINE_FILE, 1, *col as u32 + 1),
                        format!("the pipeline uses ${name}, which no --grid flag defines"),
                    )
                    .with_width(name.len() as u32 + 1),
                ));
            }
        }
        for (i, var) in self.vars.iter().enumerate() {
            if !refs.iter().any(|(_, n)| n == &var.name) {
                let width = specs.get(i).map_or(0, |s| s.len() as u32);
                return Err(Box::new(
                    Diagnostic::error(
                        SourcePos::new(GRID_FILE, i as u32 + 1, 1),
                        format!(
                            "--grid variable '{}' is not used in the pipeline (write ${} where its value goes)",
                            var.name, var.name
                        ),
                    )
                    .with_width(width),
                ));
            }
        }
        Ok(())
    }
}

/// The variable references of `pipeline`: `(byte offset of the '$', name)`.
/// `$NAME` takes the longest name; `${NAME}` delimits it; `$$` is a `$`.
fn references(pipeline: &str) -> Result<Vec<(usize, String)>, Box<Diagnostic>> {
    let mut refs = Vec::new();
    let bytes = pipeline.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        let start = i;
        let rest = &pipeline[i + 1..];
        if rest.starts_with('$') {
            i += 2;
            continue;
        }
        let (name, len) = if let Some(braced) = rest.strip_prefix('{') {
            match braced.find('}') {
                Some(end) => (&braced[..end], end + 2),
                None => ("", 0),
            }
        } else {
            let end = rest
                .char_indices()
                .find(|&(k, c)| !name_char(c, k == 0))
                .map_or(rest.len(), |(k, _)| k);
            (&rest[..end], end)
        };
        let mut chars = name.chars();
        let valid = chars.next().is_some_and(|c| name_char(c, true)) && chars.all(|c| name_char(c, false));
        if !valid {
            return Err(Box::new(Diagnostic::error(
                SourcePos::new(PIPELINE_FILE, 1, start as u32 + 1),
                "'$' must be followed by a variable name ($NAME or ${NAME}; '$$' for a '$')",
            )));
        }
        refs.push((start, name.to_string()));
        i = start + 1 + len;
    }
    Ok(refs)
}

/// The pipeline text of `point`: every `$NAME` and `${NAME}` replaced by the
/// variable's value, `$$` by `$`. A reference to a variable the point lacks
/// is an error (checked first by [`Grid::check_pipeline`]).
pub fn substitute(pipeline: &str, point: &Point) -> Result<String, Box<Diagnostic>> {
    let refs = references(pipeline)?;
    let mut out = String::new();
    let mut last = 0;
    for (start, name) in refs {
        out.push_str(&pipeline[last..start].replace("$$", "$"));
        let Some(v) = point.value(&name) else {
            return Err(Box::new(Diagnostic::error(
                SourcePos::new(PIPELINE_FILE, 1, start as u32 + 1),
                format!("the pipeline uses ${name}, which no --grid flag defines"),
            )));
        };
        out.push_str(v);
        let braced = pipeline[start + 1..].starts_with('{');
        last = start + 1 + name.len() + if braced { 2 } else { 0 };
    }
    out.push_str(&pipeline[last..].replace("$$", "$"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn values_may_hold_commas_and_the_product_varies_the_last_variable_fastest() {
        let g = Grid::parse(&specs(&["B=32,1:64,1", "F=1:2:4"])).unwrap();
        let labels: Vec<String> = g.points().iter().map(Point::label).collect();
        assert_eq!(
            labels,
            [
                "B=32,1 F=1",
                "B=32,1 F=2",
                "B=32,1 F=4",
                "B=64,1 F=1",
                "B=64,1 F=2",
                "B=64,1 F=4"
            ]
        );
        assert_eq!(Grid::default().points().len(), 1);
    }

    #[test]
    fn bad_flags_point_at_the_flag() {
        let e = Grid::parse(&specs(&["B=1", "F"])).unwrap_err();
        assert_eq!(e.pos, Some(SourcePos::new(GRID_FILE, 2, 1)));
        let e = Grid::parse(&specs(&["B=1::2"])).unwrap_err();
        assert_eq!(e.pos, Some(SourcePos::new(GRID_FILE, 1, 5)));
        assert!(e.message.contains("empty value"), "{}", e.message);
        assert!(Grid::parse(&specs(&["1B=1"])).is_err());
        assert!(Grid::parse(&specs(&["B=1", "B=2"])).is_err());
        assert!(Grid::parse(&specs(&["B=1:1"])).is_err());
        assert!(Grid::parse(&specs(&["B="])).is_err());
    }

    #[test]
    fn substitution_takes_the_longest_name_braces_and_dollar_dollar() {
        let g = Grid::parse(&specs(&["B=32,1", "BX=7"])).unwrap();
        let p = &g.points()[0];
        let text = "a{b=$B c=$BX d=${B}X e=$$B}";
        g.check_pipeline(&specs(&["B=32,1", "BX=7"]), text).unwrap();
        assert_eq!(substitute(text, p).unwrap(), "a{b=32,1 c=7 d=32,1X e=$B}");
    }

    #[test]
    fn the_pipeline_must_use_exactly_the_grid_variables() {
        let s = specs(&["B=1", "F=2"]);
        let g = Grid::parse(&s).unwrap();
        let e = g.check_pipeline(&s, "x{a=$B b=$G}").unwrap_err();
        assert_eq!(e.pos, Some(SourcePos::new(PIPELINE_FILE, 1, 10)));
        let e = g.check_pipeline(&s, "x{a=$B}").unwrap_err();
        assert_eq!(e.pos, Some(SourcePos::new(GRID_FILE, 2, 1)));
        assert!(g.check_pipeline(&s, "x{a=$ b}").is_err());
        assert!(g.check_pipeline(&s, "x{a=${B b}").is_err());
    }
}
