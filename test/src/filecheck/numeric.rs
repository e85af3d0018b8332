//! Numeric substitution blocks: `[[#%x,VAR:]]`, `[[#VAR+1]]`, `[[#@LINE-2]]`, `add(A,B)`.

use std::collections::HashSet;

/// The matching format of a numeric value (`%u`, `%d`, `%x`, `%X`, with `#` and precision).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NumFormat {
    pub conv: Conv,
    /// Minimum number of digits (0: no minimum).
    pub precision: usize,
    /// `#`: hex values carry a `0x` prefix.
    pub alt: bool,
}

/// Conversion specifier of a [`NumFormat`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conv {
    Unsigned,
    Signed,
    HexLower,
    HexUpper,
}

impl Default for NumFormat {
    fn default() -> Self {
        NumFormat {
            conv: Conv::Unsigned,
            precision: 0,
            alt: false,
        }
    }
}

impl NumFormat {
    /// Regex matching any value printed in this format.
    pub fn wildcard(&self) -> String {
        let (first, digit) = match self.conv {
            Conv::Unsigned | Conv::Signed => ("[1-9]", "[0-9]"),
            Conv::HexLower => ("[1-9a-f]", "[0-9a-f]"),
            Conv::HexUpper => ("[1-9A-F]", "[0-9A-F]"),
        };
        let sign = if self.conv == Conv::Signed { "-?" } else { "" };
        let prefix = if self.alt { "0x" } else { "" };
        if self.precision > 0 {
            format!("{prefix}{sign}(?:{first}{digit}*)?{digit}{{{}}}", self.precision)
        } else {
            format!("{prefix}{sign}{digit}+")
        }
    }

    /// Prints `value` in this format, or says why it cannot be.
    pub fn format(&self, value: i128) -> Result<String, String> {
        if value < 0 && self.conv != Conv::Signed {
            return Err(format!(
                "unable to represent numeric value {value} in an unsigned format"
            ));
        }
        let mag = value.unsigned_abs();
        let digits = match self.conv {
            Conv::Unsigned | Conv::Signed => mag.to_string(),
            Conv::HexLower => format!("{mag:x}"),
            Conv::HexUpper => format!("{mag:X}"),
        };
        let pad = self.precision.saturating_sub(digits.len());
        let sign = if value < 0 { "-" } else { "" };
        let prefix = if self.alt { "0x" } else { "" };
        Ok(format!("{prefix}{sign}{}{digits}", "0".repeat(pad)))
    }

    /// Reads back a value matched by [`NumFormat::wildcard`].
    pub fn parse(&self, text: &str) -> Option<i128> {
        let text = if self.alt { text.strip_prefix("0x")? } else { text };
        let (neg, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let radix = match self.conv {
            Conv::HexLower | Conv::HexUpper => 16,
            _ => 10,
        };
        let v = i128::from_str_radix(digits, radix).ok()?;
        Some(if neg { -v } else { v })
    }
}

/// A numeric expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expr {
    Literal(i128),
    Var(String),
    /// `@LINE`: the check line's number.
    Line,
    Binary(Box<Expr>, Op, Box<Expr>),
    Call(Func, Vec<Expr>),
}

/// `+` or `-`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Add,
    Sub,
}

/// The functions FileCheck knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Func {
    Add,
    Div,
    Max,
    Min,
    Mul,
    Sub,
}

/// Why an expression has no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EvalError {
    Undefined(String),
    Other(String),
}

impl Expr {
    /// Evaluates the expression; `lookup` gives a numeric variable's value and format.
    pub fn eval(&self, line: usize, lookup: &dyn Fn(&str) -> Option<(i128, NumFormat)>) -> Result<i128, EvalError> {
        let checked = |v: Option<i128>| {
            v.filter(|v| *v >= i64::MIN as i128 && *v <= u64::MAX as i128)
                .ok_or_else(|| EvalError::Other("numeric expression overflows".into()))
        };
        match self {
            Expr::Literal(v) => Ok(*v),
            Expr::Line => Ok(line as i128),
            Expr::Var(name) => lookup(name)
                .map(|(v, _)| v)
                .ok_or_else(|| EvalError::Undefined(name.clone())),
            Expr::Binary(a, op, b) => {
                let (a, b) = (a.eval(line, lookup)?, b.eval(line, lookup)?);
                checked(match op {
                    Op::Add => a.checked_add(b),
                    Op::Sub => a.checked_sub(b),
                })
            }
            Expr::Call(f, args) => {
                let vals = args
                    .iter()
                    .map(|a| a.eval(line, lookup))
                    .collect::<Result<Vec<_>, _>>()?;
                let (a, b) = (vals[0], vals[1]);
                checked(match f {
                    Func::Add => a.checked_add(b),
                    Func::Sub => a.checked_sub(b),
                    Func::Mul => a.checked_mul(b),
                    Func::Div => {
                        if b == 0 {
                            return Err(EvalError::Other("division by zero".into()));
                        }
                        a.checked_div(b)
                    }
                    Func::Max => Some(a.max(b)),
                    Func::Min => Some(a.min(b)),
                })
            }
        }
    }

    /// Names of the variables the expression reads, in order of appearance.
    pub fn vars(&self, out: &mut Vec<String>) {
        match self {
            Expr::Var(v) => out.push(v.clone()),
            Expr::Binary(a, _, b) => {
                a.vars(out);
                b.vars(out);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.vars(out)),
            Expr::Literal(_) | Expr::Line => {}
        }
    }
}

/// The parsed contents of a `[[#...]]` block (or a legacy `[[@LINE+N]]`).
#[derive(Debug, Clone)]
pub(crate) struct NumBlock {
    pub format: Option<NumFormat>,
    pub def: Option<String>,
    pub expr: Option<Expr>,
    /// The expression's text, for "with ... equal to ..." notes.
    pub expr_text: String,
}

/// Parses the text after `[[#`. `defined_here` holds the numeric variables defined earlier
/// in the same directive, which an expression may not use.
pub(crate) fn parse_block(text: &str, defined_here: &HashSet<String>) -> Result<NumBlock, String> {
    let mut s = text.trim_start();
    let mut format = None;
    if let Some(rest) = s.strip_prefix('%') {
        let comma = rest
            .find(',')
            .ok_or_else(|| "invalid matching format specification in expression".to_string())?;
        format = Some(parse_format(rest[..comma].trim())?);
        s = rest[comma + 1..].trim_start();
    }
    // A definition: NAME followed by ':'.
    let mut def = None;
    let name_len = var_name_len(s);
    if name_len > 0 && !s.starts_with('@') {
        let after = s[name_len..].trim_start();
        if let Some(rest) = after.strip_prefix(':') {
            def = Some(s[..name_len].to_string());
            s = rest;
        }
    }
    let mut s = s.trim();
    if let Some(rest) = s.strip_prefix("==") {
        s = rest.trim();
        if s.is_empty() {
            return Err("empty numeric expression should not have a constraint".into());
        }
    }
    let expr = if s.is_empty() {
        None
    } else {
        let mut p = ExprParser { s, pos: 0 };
        let e = p.expr()?;
        p.skip_ws();
        if p.pos != s.len() {
            return Err(format!("unexpected characters at end of expression '{}'", &s[p.pos..]));
        }
        let mut used = Vec::new();
        e.vars(&mut used);
        if let Some(v) = used.iter().find(|v| defined_here.contains(*v)) {
            return Err(format!(
                "numeric variable '{v}' defined earlier in the same CHECK directive"
            ));
        }
        Some(e)
    };
    Ok(NumBlock {
        format,
        def,
        expr,
        expr_text: s.to_string(),
    })
}

/// Parses a legacy `@LINE`, `@LINE+N` or `@LINE-N` string substitution.
pub(crate) fn parse_legacy_line(text: &str) -> Result<NumBlock, String> {
    let rest = text
        .strip_prefix("@LINE")
        .ok_or_else(|| format!("invalid pseudo variable '{text}'"))?;
    let expr = if rest.is_empty() {
        Expr::Line
    } else {
        let (op, num) = match rest.as_bytes()[0] {
            b'+' => (Op::Add, &rest[1..]),
            b'-' => (Op::Sub, &rest[1..]),
            _ => return Err(format!("invalid @LINE expression '{text}'")),
        };
        let n: i128 = num.parse().map_err(|_| format!("invalid @LINE offset in '{text}'"))?;
        Expr::Binary(Box::new(Expr::Line), op, Box::new(Expr::Literal(n)))
    };
    Ok(NumBlock {
        format: None,
        def: None,
        expr: Some(expr),
        expr_text: text.to_string(),
    })
}

fn parse_format(spec: &str) -> Result<NumFormat, String> {
    let mut f = NumFormat::default();
    let mut s = spec;
    if let Some(rest) = s.strip_prefix('#') {
        f.alt = true;
        s = rest;
    }
    if let Some(rest) = s.strip_prefix('.') {
        let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
        f.precision = rest[..digits]
            .parse()
            .map_err(|_| "invalid precision in format specifier".to_string())?;
        s = &rest[digits..];
    }
    f.conv = match s {
        "u" => Conv::Unsigned,
        "d" => Conv::Signed,
        "x" => Conv::HexLower,
        "X" => Conv::HexUpper,
        _ => return Err(format!("invalid format specifier in expression '%{spec}'")),
    };
    if f.alt && !matches!(f.conv, Conv::HexLower | Conv::HexUpper) {
        return Err("alternate form only supported for hex values".into());
    }
    Ok(f)
}

/// Length of the variable name (`$`? then `[A-Za-z_][A-Za-z0-9_]*`) at the start of `s`, or 0.
pub(crate) fn var_name_len(s: &str) -> usize {
    let b = s.as_bytes();
    let start = usize::from(b.first() == Some(&b'$'));
    match b.get(start) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return 0,
    }
    start
        + b[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count()
}

struct ExprParser<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> ExprParser<'a> {
    fn skip_ws(&mut self) {
        while self.s[self.pos..].starts_with([' ', '\t']) {
            self.pos += 1;
        }
    }

    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let mut lhs = self.operand()?;
        loop {
            self.skip_ws();
            let op = match self.rest().as_bytes().first() {
                Some(b'+') => Op::Add,
                Some(b'-') => Op::Sub,
                _ => return Ok(lhs),
            };
            self.pos += 1;
            let rhs = self.operand()?;
            lhs = Expr::Binary(Box::new(lhs), op, Box::new(rhs));
        }
    }

    fn operand(&mut self) -> Result<Expr, String> {
        self.skip_ws();
        let rest = self.rest();
        if rest.starts_with('(') {
            self.pos += 1;
            let e = self.expr()?;
            self.skip_ws();
            if !self.rest().starts_with(')') {
                return Err("missing ')' at end of nested expression".into());
            }
            self.pos += 1;
            return Ok(e);
        }
        if let Some(after) = rest.strip_prefix("@LINE") {
            if var_name_len(after) == 0 || after.starts_with('$') {
                self.pos += 5;
                return Ok(Expr::Line);
            }
        }
        let bytes = rest.as_bytes();
        if bytes.first().is_some_and(|c| c.is_ascii_digit())
            || (bytes.first() == Some(&b'-') && bytes.get(1).is_some_and(|c| c.is_ascii_digit()))
        {
            let neg = bytes[0] == b'-';
            let body = &rest[usize::from(neg)..];
            let (radix, digits_at) = if body.starts_with("0x") || body.starts_with("0X") {
                (16, 2)
            } else {
                (10, 0)
            };
            let len = body[digits_at..]
                .bytes()
                .take_while(|c| c.is_ascii_digit() || (radix == 16 && c.is_ascii_hexdigit()))
                .count();
            let v = i128::from_str_radix(&body[digits_at..digits_at + len], radix)
                .map_err(|_| format!("invalid literal in expression '{rest}'"))?;
            self.pos += usize::from(neg) + digits_at + len;
            return Ok(Expr::Literal(if neg { -v } else { v }));
        }
        let len = var_name_len(rest);
        if len == 0 {
            return Err(format!("invalid operand format '{rest}'"));
        }
        let name = &rest[..len];
        self.pos += len;
        self.skip_ws();
        if self.rest().starts_with('(') {
            let func = match name {
                "add" => Func::Add,
                "div" => Func::Div,
                "max" => Func::Max,
                "min" => Func::Min,
                "mul" => Func::Mul,
                "sub" => Func::Sub,
                _ => return Err(format!("call to undefined function '{name}'")),
            };
            self.pos += 1;
            let mut args = vec![self.expr()?];
            loop {
                self.skip_ws();
                if self.rest().starts_with(',') {
                    self.pos += 1;
                    args.push(self.expr()?);
                } else if self.rest().starts_with(')') {
                    self.pos += 1;
                    break;
                } else {
                    return Err("missing ')' at end of call expression".into());
                }
            }
            if args.len() != 2 {
                return Err(format!("function '{name}' takes 2 arguments but {} given", args.len()));
            }
            return Ok(Expr::Call(func, args));
        }
        if name.starts_with('$') {
            return Err(format!("invalid numeric variable name '{name}'"));
        }
        Ok(Expr::Var(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> Option<(i128, NumFormat)> {
        None
    }

    #[test]
    fn formats_and_wildcards() {
        let hex = NumFormat {
            conv: Conv::HexUpper,
            precision: 4,
            alt: true,
        };
        assert_eq!(hex.format(0xfe).unwrap(), "0x00FE");
        assert_eq!(hex.parse("0x00FE"), Some(0xfe));
        assert!(regex::Regex::new(&format!("^{}$", hex.wildcard()))
            .unwrap()
            .is_match("0x00FE"));
        assert!(!regex::Regex::new(&format!("^{}$", hex.wildcard()))
            .unwrap()
            .is_match("0xFE"));
        assert!(NumFormat::default().format(-1).is_err());
    }

    #[test]
    fn parses_blocks() {
        let b = parse_block("%x,ADDR:", &HashSet::new()).unwrap();
        assert_eq!(b.def.as_deref(), Some("ADDR"));
        assert!(b.expr.is_none());
        let b = parse_block("REG+1", &HashSet::new()).unwrap();
        let look = |n: &str| (n == "REG").then_some((5, NumFormat::default()));
        assert_eq!(b.expr.unwrap().eval(1, &look), Ok(6));
        let b = parse_block("max(3, @LINE) - 1", &HashSet::new()).unwrap();
        assert_eq!(b.expr.unwrap().eval(10, &none), Ok(9));
        let here: HashSet<String> = ["X".to_string()].into();
        assert!(parse_block("X+1", &here).is_err());
        assert_eq!(
            parse_legacy_line("@LINE-2").unwrap().expr.unwrap().eval(7, &none),
            Ok(5)
        );
    }
}
