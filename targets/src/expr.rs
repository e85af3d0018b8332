//! C expressions: affine expressions over named operands, literals, and the
//! parenthesization rules used when expressions are inlined.

use lf_ir::affine::AffineExpr;
use lf_ir::affine::{BinaryOp, ExprView};

/// Precedence levels of the C expressions we build.
const ADD: u8 = 1;
const MUL: u8 = 2;
const ATOM: u8 = 3;

/// Wraps `e` in parentheses unless it is a plain identifier, number or call.
pub fn paren(e: &str) -> String {
    if is_atom(e) {
        e.to_string()
    } else {
        format!("({e})")
    }
}

/// Whether `e` can be used as an operand without parentheses.
pub fn is_atom(e: &str) -> bool {
    let plain = e.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    if plain {
        return true;
    }
    // A call or an indexing: `f(...)`, `a[...]` with balanced brackets at the end only.
    let Some(open) = e.find(['(', '[']) else {
        return false;
    };
    if open == 0
        || !e[..open]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        return false;
    }
    let mut depth = 0i32;
    for (i, c) in e.char_indices().skip(open) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 && i != e.len() - 1 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// How an affine expression writes floor division, ceiling division and
/// modulo (whose C operators round toward zero).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DivStyle {
    /// Calls of the `lf_floordiv`/`lf_ceildiv`/`lf_mod` helpers on `int`.
    Helpers,
    /// Calls of the `int64_t` helpers (`lf_floordiv64`, ...), for host code.
    Helpers64,
    /// Inline conditional expressions on `int`, for languages without
    /// helper functions (Brook+ kernels). The divisor must be a positive
    /// constant, as in every affine map; a symbolic divisor falls back to
    /// the helpers (which the caller then reports).
    Inline,
}

/// An affine expression in C; `dims` and `syms` are the C expressions of its
/// operands. Floor division and modulo of possibly negative values are
/// written as `style` says.
pub fn affine(e: &AffineExpr, dims: &[String], syms: &[String], style: DivStyle) -> String {
    affine_prec(e, dims, syms, style).0
}

/// `floordiv`, `ceildiv` or `mod` of `a` by the positive constant `c` in
/// plain C (`/` and `%` round toward zero): `a` is repeated, so it must be
/// free of side effects.
fn inline_division(op: BinaryOp, a: &str, c: i64) -> String {
    let a = paren(a);
    match op {
        BinaryOp::FloorDiv => format!("({a} >= 0 ? {a} / {c} : ({a} - {}) / {c})", c - 1),
        BinaryOp::CeilDiv => format!("({a} > 0 ? ({a} + {}) / {c} : {a} / {c})", c - 1),
        _ => format!("({a} % {c} + {c}) % {c}"),
    }
}

fn affine_prec(e: &AffineExpr, dims: &[String], syms: &[String], style: DivStyle) -> (String, u8) {
    match e.view() {
        ExprView::Dim(i) => operand(&dims[i as usize]),
        ExprView::Symbol(i) => operand(&syms[i as usize]),
        ExprView::Constant(c) => {
            if c < 0 {
                (format!("({c})"), ATOM)
            } else {
                (c.to_string(), ATOM)
            }
        }
        ExprView::Binary(BinaryOp::Add, l, r) => {
            let (ls, _) = affine_prec(l, dims, syms, style);
            // a + (-c) -> a - c;  a + x * (-c) -> a - x * c
            if let Some(c) = r.as_constant() {
                if c < 0 {
                    return (format!("{ls} - {}", -c), ADD);
                }
            }
            if let Some((BinaryOp::Mul, x, k)) = r.as_binary() {
                if let Some(c) = k.as_constant() {
                    if c < 0 {
                        let (xs, xp) = affine_prec(x, dims, syms, style);
                        let xs = if xp < MUL { format!("({xs})") } else { xs };
                        let term = if c == -1 { xs } else { format!("{xs} * {}", -c) };
                        return (format!("{ls} - {term}"), ADD);
                    }
                }
            }
            let (rs, rp) = affine_prec(r, dims, syms, style);
            let rs = if rp <= ADD { format!("({rs})") } else { rs };
            (format!("{ls} + {rs}"), ADD)
        }
        ExprView::Binary(BinaryOp::Mul, l, r) => {
            let (ls, lp) = affine_prec(l, dims, syms, style);
            let (rs, rp) = affine_prec(r, dims, syms, style);
            if r.as_constant() == Some(-1) {
                let ls = if lp < ATOM { format!("({ls})") } else { ls };
                return (format!("-{ls}"), MUL);
            }
            let ls = if lp < MUL { format!("({ls})") } else { ls };
            let rs = if rp <= MUL { format!("({rs})") } else { rs };
            (format!("{ls} * {rs}"), MUL)
        }
        ExprView::Binary(op, l, r) => {
            let (ls, _) = affine_prec(l, dims, syms, style);
            let (rs, _) = affine_prec(r, dims, syms, style);
            let f = match op {
                BinaryOp::Mod => "lf_mod",
                BinaryOp::FloorDiv => "lf_floordiv",
                _ => "lf_ceildiv",
            };
            if style == DivStyle::Inline {
                if let Some(c) = r.as_constant().filter(|c| *c > 0) {
                    return (inline_division(op, &ls, c), ATOM);
                }
            }
            let sfx = if style == DivStyle::Helpers64 { "64" } else { "" };
            (format!("{f}{sfx}({ls}, {rs})"), ATOM)
        }
    }
}

fn operand(s: &str) -> (String, u8) {
    if is_atom(s) {
        (s.to_string(), ATOM)
    } else {
        (format!("({s})"), ATOM)
    }
}

/// A C literal for an `f32` or `f64` value.
pub fn float_literal(v: f64, single: bool) -> String {
    if v.is_nan() {
        return "NAN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "INFINITY".into()
        } else {
            "(-INFINITY)".into()
        };
    }
    let mut s = if single {
        format!("{:?}", v as f32)
    } else {
        format!("{v:?}")
    };
    if !s.contains(['.', 'e', 'E']) {
        s.push_str(".0");
    }
    if single {
        s.push('f');
    }
    if s.starts_with('-') {
        format!("({s})")
    } else {
        s
    }
}

/// Helper functions for affine division and modulo, valid in C, C++, CUDA
/// and OpenCL C (`qual` is the function qualifier, e.g. `static inline`).
pub fn affine_helpers(qual: &str, ty: &str) -> String {
    let qual = if qual.is_empty() {
        String::new()
    } else {
        format!("{qual} ")
    };
    let sfx = if ty == "int" { "" } else { "64" };
    format!(
        "{qual}{ty} lf_floordiv{sfx}({ty} a, {ty} b) {{ {ty} q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q; }}\n\
         {qual}{ty} lf_ceildiv{sfx}({ty} a, {ty} b) {{ {ty} q = a / b; return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q; }}\n\
         {qual}{ty} lf_mod{sfx}({ty} a, {ty} b) {{ {ty} r = a % b; return r < 0 ? r + (b < 0 ? -b : b) : r; }}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lf_ir::affine::AffineExpr;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn affine_expressions_read_like_c() {
        let (d0, d1) = (AffineExpr::dim(0), AffineExpr::dim(1));
        let s0 = AffineExpr::symbol(0);
        let dims = names(&["by", "tx"]);
        let syms = names(&["n"]);
        let e = d0.mul_const(16).add(&d1).sub(&s0);
        assert_eq!(affine(&e, &dims, &syms, DivStyle::Helpers), "by * 16 + tx - n");
        let e = d0.add(&d1).modulo_const(4);
        assert_eq!(affine(&e, &dims, &syms, DivStyle::Helpers), "lf_mod(by + tx, 4)");
        assert_eq!(affine(&e, &dims, &syms, DivStyle::Helpers64), "lf_mod64(by + tx, 4)");
        let e = d0.add(&d1).mul_const(8);
        assert_eq!(affine(&e, &dims, &syms, DivStyle::Helpers), "(by + tx) * 8");
        let e = d1.add_const(-1);
        assert_eq!(affine(&e, &dims, &syms, DivStyle::Helpers), "tx - 1");
        let e = d0.floor_div_const(2).add(&d1.ceil_div_const(3));
        assert_eq!(
            affine(&e, &dims, &syms, DivStyle::Helpers),
            "lf_floordiv(by, 2) + lf_ceildiv(tx, 3)"
        );
        // Operands that are expressions themselves are parenthesized.
        let dims = names(&["a + b", "c"]);
        assert_eq!(affine(&d0.mul(&d1), &dims, &syms, DivStyle::Helpers), "(a + b) * c");
    }

    #[test]
    fn inline_divisions_round_toward_minus_infinity() {
        let x = AffineExpr::dim(0);
        let dims = names(&["x"]);
        assert_eq!(
            affine(&x.floor_div_const(4), &dims, &[], DivStyle::Inline),
            "(x >= 0 ? x / 4 : (x - 3) / 4)"
        );
        assert_eq!(
            affine(&x.modulo_const(4), &dims, &[], DivStyle::Inline),
            "(x % 4 + 4) % 4"
        );
        // The C expressions agree with the mathematical definitions.
        for a in -9i64..=9 {
            let floor = if a >= 0 { a / 4 } else { (a - 3) / 4 };
            let ceil = if a > 0 { (a + 3) / 4 } else { a / 4 };
            assert_eq!(floor, a.div_euclid(4));
            assert_eq!(ceil, -((-a).div_euclid(4)));
            assert_eq!((a % 4 + 4) % 4, a.rem_euclid(4));
        }
    }

    #[test]
    fn float_literals_round_trip() {
        assert_eq!(float_literal(0.25, true), "0.25f");
        assert_eq!(float_literal(2.0, false), "2.0");
        assert_eq!(float_literal(-1.5, true), "(-1.5f)");
        assert_eq!(float_literal(1e-7, true), "1e-7f");
        assert_eq!(float_literal(f64::INFINITY, true), "INFINITY");
        assert_eq!(float_literal(f64::NAN, false), "NAN");
        let v = 1.37f32;
        let lit = float_literal(v as f64, true);
        assert_eq!(lit.trim_end_matches('f').parse::<f32>().unwrap(), v);
    }

    #[test]
    fn atoms() {
        assert!(is_atom("thread_id_x"));
        assert!(is_atom("lf_mod(a + b, 4)"));
        assert!(is_atom("arg0[i * 8 + j]"));
        assert!(!is_atom("a + b"));
        assert!(!is_atom("f(a) + g(b)"));
    }
}
