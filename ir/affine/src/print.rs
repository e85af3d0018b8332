//! Printing of expressions, maps and sets, byte-identical to MLIR's
//! `AsmPrinter` inside `affine_map<...>` and `affine_set<...>`.

use std::fmt::{self, Write};

use crate::expr::{AffineExpr, BinaryOp, ExprView};
use crate::map::AffineMap;
use crate::set::IntegerSet;

/// Whether the enclosing context binds tighter than `+` (MLIR's
/// `BindingStrength`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strength {
    Weak,
    Strong,
}

/// Writes an integer without going through `fmt` machinery.
pub(crate) fn write_i64<W: Write + ?Sized>(out: &mut W, v: i64) -> fmt::Result {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        out.write_char('-')?;
    }
    // The buffer holds ASCII digits only.
    out.write_str(std::str::from_utf8(&buf[i..]).unwrap_or(""))
}

fn write_id<W: Write + ?Sized>(out: &mut W, prefix: char, pos: u32) -> fmt::Result {
    out.write_char(prefix)?;
    write_i64(out, pos as i64)
}

/// Prints `expr` with caller-chosen names for dimensions and symbols, using
/// MLIR's layout rules (as `AsmPrinter::printAffineExpr` with a
/// `printValueName` callback). `name(out, pos, is_symbol)` writes the name
/// of dimension `pos` (`is_symbol == false`) or symbol `pos`; for MLIR's
/// custom affine op syntax it would write e.g. `%i` or `symbol(%n)`.
///
/// ```
/// use lf_affine::{parse_affine_map, print_affine_expr_with};
/// use std::fmt::Write;
/// let map = parse_affine_map("(d0)[s0] -> (d0 + s0 * 2 - 1)").unwrap();
/// let mut s = String::new();
/// print_affine_expr_with(&mut s, &map.results()[0], &mut |out, pos, is_sym| {
///     if is_sym { write!(out, "symbol(%n{pos})") } else { write!(out, "%i{pos}") }
/// }).unwrap();
/// assert_eq!(s, "%i0 + symbol(%n0) * 2 - 1");
/// ```
pub fn print_affine_expr_with<W, F>(out: &mut W, expr: &AffineExpr, name: &mut F) -> fmt::Result
where
    W: Write + ?Sized,
    F: FnMut(&mut W, u32, bool) -> fmt::Result,
{
    print_expr(out, expr, Strength::Weak, name)
}

fn default_name<W: Write + ?Sized>(out: &mut W, pos: u32, is_symbol: bool) -> fmt::Result {
    write_id(out, if is_symbol { 's' } else { 'd' }, pos)
}

fn print_expr<W, F>(out: &mut W, expr: &AffineExpr, strength: Strength, name: &mut F) -> fmt::Result
where
    W: Write + ?Sized,
    F: FnMut(&mut W, u32, bool) -> fmt::Result,
{
    let (op, lhs, rhs) = match expr.view() {
        ExprView::Dim(p) => return name(out, p, false),
        ExprView::Symbol(p) => return name(out, p, true),
        ExprView::Constant(c) => return write_i64(out, c),
        ExprView::Binary(op, l, r) => (op, l, r),
    };
    let strong = strength == Strength::Strong;
    if strong {
        out.write_char('(')?;
    }
    if op != BinaryOp::Add {
        if op == BinaryOp::Mul && rhs.as_constant() == Some(-1) {
            // x * -1 prints as -x.
            out.write_char('-')?;
            print_expr(out, lhs, Strength::Strong, name)?;
        } else {
            print_expr(out, lhs, Strength::Strong, name)?;
            out.write_str(match op {
                BinaryOp::Mul => " * ",
                BinaryOp::FloorDiv => " floordiv ",
                BinaryOp::CeilDiv => " ceildiv ",
                _ => " mod ",
            })?;
            print_expr(out, rhs, Strength::Strong, name)?;
        }
    } else {
        print_add(out, lhs, rhs, name)?;
    }
    if strong {
        out.write_char(')')?;
    }
    Ok(())
}

/// The body of `lhs + rhs`, with MLIR's "pretty" subtraction forms.
fn print_add<W, F>(out: &mut W, lhs: &AffineExpr, rhs: &AffineExpr, name: &mut F) -> fmt::Result
where
    W: Write + ?Sized,
    F: FnMut(&mut W, u32, bool) -> fmt::Result,
{
    if let Some((rl, rr)) = rhs
        .as_binary()
        .and_then(|(op, l, r)| (op == BinaryOp::Mul).then_some((l, r)))
    {
        match rr.as_constant() {
            // x + y * -1 prints as x - y (parenthesised only if y is a sum).
            Some(-1) => {
                print_expr(out, lhs, Strength::Weak, name)?;
                out.write_str(" - ")?;
                let s = if rl.as_binary().map(|b| b.0) == Some(BinaryOp::Add) {
                    Strength::Strong
                } else {
                    Strength::Weak
                };
                return print_expr(out, rl, s, name);
            }
            // x + y * -c prints as x - y * c.
            Some(c) if c < -1 => {
                print_expr(out, lhs, Strength::Weak, name)?;
                out.write_str(" - ")?;
                print_expr(out, rl, Strength::Strong, name)?;
                out.write_str(" * ")?;
                return write_i64(out, c.wrapping_neg());
            }
            _ => {}
        }
    }
    // x + -c prints as x - c.
    if let Some(c) = rhs.as_constant().filter(|&c| c < 0) {
        print_expr(out, lhs, Strength::Weak, name)?;
        out.write_str(" - ")?;
        return write_i64(out, c.wrapping_neg());
    }
    print_expr(out, lhs, Strength::Weak, name)?;
    out.write_str(" + ")?;
    print_expr(out, rhs, Strength::Weak, name)
}

/// Writes `(d0, d1)[s0]` (the symbol list only when there are symbols).
fn print_dims_and_symbols<W: Write + ?Sized>(out: &mut W, num_dims: u32, num_symbols: u32) -> fmt::Result {
    out.write_char('(')?;
    for i in 0..num_dims {
        if i > 0 {
            out.write_str(", ")?;
        }
        write_id(out, 'd', i)?;
    }
    out.write_char(')')?;
    if num_symbols > 0 {
        out.write_char('[')?;
        for i in 0..num_symbols {
            if i > 0 {
                out.write_str(", ")?;
            }
            write_id(out, 's', i)?;
        }
        out.write_char(']')?;
    }
    Ok(())
}

impl fmt::Display for AffineExpr {
    /// Prints as MLIR does, with dimensions `d<i>` and symbols `s<i>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print_expr(f, self, Strength::Weak, &mut default_name)
    }
}

impl fmt::Display for AffineMap {
    /// Prints `(d0, d1)[s0] -> (d0 + s0, d1)` as MLIR does inside
    /// `affine_map<...>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print_dims_and_symbols(f, self.num_dims(), self.num_symbols())?;
        f.write_str(" -> (")?;
        for (i, e) in self.results().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            print_expr(f, e, Strength::Weak, &mut default_name)?;
        }
        f.write_char(')')
    }
}

impl fmt::Display for IntegerSet {
    /// Prints `(d0)[s0] : (d0 - s0 >= 0, d0 == 0)` as MLIR does inside
    /// `affine_set<...>`; the empty set prints as `(d0) : (1 == 0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print_dims_and_symbols(f, self.num_dims(), self.num_symbols())?;
        f.write_str(" : (")?;
        for (i, (e, &eq)) in self.constraints().iter().zip(self.eq_flags()).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            print_expr(f, e, Strength::Weak, &mut default_name)?;
            f.write_str(if eq { " == 0" } else { " >= 0" })?;
        }
        f.write_char(')')
    }
}
