//! Float arithmetic in each format's own precision, as MLIR's `APFloat`
//! does it: round-to-nearest-even, NaN operands propagated (made quiet), a
//! positive quiet NaN for invalid operations.
//!
//! `f32` and `f64` are computed natively. `f16` and `bf16` values are exact
//! in `f64`; `+ - * / sqrt` computed there and rounded once more to the
//! narrow format give the correctly rounded result (53 >= 2p + 2), and the
//! final rounding goes through round-to-odd so it is exact too.

use lf_ir::floatfmt::bits_to_f64;
use lf_ir::FloatKind;

/// Width of the significand field of a format.
fn mantissa_bits(kind: FloatKind) -> u32 {
    match kind {
        FloatKind::F16 => 10,
        FloatKind::BF16 => 7,
        FloatKind::F32 => 23,
        FloatKind::F64 => 52,
    }
}

fn exponent_mask(kind: FloatKind) -> u64 {
    let e = kind.width() - 1 - mantissa_bits(kind);
    ((1u64 << e) - 1) << mantissa_bits(kind)
}

/// Whether the bits are a NaN.
pub fn is_nan(kind: FloatKind, bits: u64) -> bool {
    let m = (1u64 << mantissa_bits(kind)) - 1;
    bits & exponent_mask(kind) == exponent_mask(kind) && bits & m != 0
}

/// Whether the sign bit is set.
pub fn is_negative(kind: FloatKind, bits: u64) -> bool {
    bits >> (kind.width() - 1) & 1 == 1
}

/// The NaN with the quiet bit set.
pub fn quiet(kind: FloatKind, bits: u64) -> u64 {
    bits | 1u64 << (mantissa_bits(kind) - 1)
}

/// The positive quiet NaN APFloat makes for invalid operations.
pub fn default_nan(kind: FloatKind) -> u64 {
    exponent_mask(kind) | 1u64 << (mantissa_bits(kind) - 1)
}

/// The value as an `f64` (exact).
pub fn to_f64(kind: FloatKind, bits: u64) -> f64 {
    bits_to_f64(kind, bits)
}

/// `v` rounded to `kind` (nearest, ties to even), as bits. NaNs keep their
/// sign and the top of their payload and become quiet.
pub fn round(kind: FloatKind, v: f64) -> u64 {
    match kind {
        FloatKind::F64 => v.to_bits(),
        FloatKind::F32 => (v as f32).to_bits() as u64,
        FloatKind::F16 | FloatKind::BF16 => {
            if v.is_nan() {
                let sign = u64::from(v.is_sign_negative()) << 15;
                let payload = (v.to_bits() >> (52 - mantissa_bits(kind))) & ((1 << mantissa_bits(kind)) - 1);
                return quiet(kind, sign | exponent_mask(kind) | payload);
            }
            let odd = round_to_odd_f32(v);
            match kind {
                FloatKind::F16 => f32_to_f16(odd) as u64,
                _ => {
                    let b = odd.to_bits();
                    let lsb = (b >> 16) & 1;
                    (((b as u64) + 0x7fff + lsb as u64) >> 16) & 0xffff
                }
            }
        }
    }
}

/// `x` rounded to IEEE half precision (nearest, ties to even).
fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let a = b & 0x7fff_ffff;
    if a >= 0x7f80_0000 {
        let nan = if a > 0x7f80_0000 {
            0x200 | ((a >> 13) & 0x3ff) as u16
        } else {
            0
        };
        return sign | 0x7c00 | nan;
    }
    let e = (a >> 23) as i32 - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    let round = |r: u32, rem: u32, half: u32| {
        if rem > half || (rem == half && r & 1 == 1) {
            r + 1
        } else {
            r
        }
    };
    if e <= 0 {
        let m = (a & 0x7f_ffff) | 0x80_0000;
        let shift = (14 - e) as u32;
        if shift >= 25 {
            return sign;
        }
        let r = round(m >> shift, m & ((1 << shift) - 1), 1 << (shift - 1));
        return sign | r as u16;
    }
    let m = a & 0x7f_ffff;
    let r = round(((e as u32) << 10) | (m >> 13), m & 0x1fff, 0x1000);
    sign | r as u16
}

/// `v` rounded to `f32` with round-to-odd: inexact results get an odd last
/// bit, so a second rounding to a format of at most 22 bits is exact.
fn round_to_odd_f32(v: f64) -> f32 {
    let r = v as f32;
    if r as f64 == v || !v.is_finite() {
        return r;
    }
    if r.is_infinite() {
        return f32::MAX.copysign(r);
    }
    let bits = r.to_bits();
    if bits & 1 == 1 {
        return r;
    }
    // Step one ulp toward `v` (away from or toward zero): the neighbour is odd.
    let toward_larger_magnitude = (v.abs()) > (r.abs() as f64);
    let nb = if toward_larger_magnitude { bits + 1 } else { bits - 1 };
    f32::from_bits(nb)
}

/// Binary float operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
    /// `a / b`
    Div,
    /// `fmod(a, b)` (APFloat's `mod`)
    Rem,
}

/// `a op b` in `kind`.
pub fn binary(kind: FloatKind, op: BinOp, a: u64, b: u64) -> u64 {
    if is_nan(kind, a) {
        return quiet(kind, a);
    }
    if is_nan(kind, b) {
        return quiet(kind, b);
    }
    let r = match kind {
        FloatKind::F32 => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
            };
            r.to_bits() as u64
        }
        _ => {
            let (x, y) = (to_f64(kind, a), to_f64(kind, b));
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
            };
            round(kind, r)
        }
    };
    if is_nan(kind, r) {
        default_nan(kind)
    } else {
        r
    }
}

/// `sqrt(a)` in `kind`.
pub fn sqrt(kind: FloatKind, a: u64) -> u64 {
    match kind {
        FloatKind::F32 => f32::from_bits(a as u32).sqrt().to_bits() as u64,
        FloatKind::F64 => f64::from_bits(a).sqrt().to_bits(),
        _ => round(kind, to_f64(kind, a).sqrt()),
    }
}

/// Rounds to an integral value, toward negative (`floor`) or positive (`ceil`) infinity.
pub fn round_integral(kind: FloatKind, a: u64, up: bool) -> u64 {
    if is_nan(kind, a) {
        return quiet(kind, a);
    }
    let x = to_f64(kind, a);
    let r = if up { x.ceil() } else { x.floor() };
    // Exact in every format (an integral value of at most the input's precision).
    match kind {
        FloatKind::F64 => r.to_bits(),
        _ => round(kind, r),
    }
}

/// `|a|`.
pub fn abs(kind: FloatKind, a: u64) -> u64 {
    a & !(1u64 << (kind.width() - 1))
}

/// `-a`.
pub fn neg(kind: FloatKind, a: u64) -> u64 {
    a ^ (1u64 << (kind.width() - 1))
}

/// `a < b` with `-0 < +0` (for the min/max folds).
fn less_signed_zero(kind: FloatKind, a: u64, b: u64) -> bool {
    let (x, y) = (to_f64(kind, a), to_f64(kind, b));
    if x == 0.0 && y == 0.0 {
        return is_negative(kind, a) && !is_negative(kind, b);
    }
    x < y
}

/// `maximumf`/`minimumf` (NaN-propagating, `-0 < +0`) or `maxnumf`/`minnumf`
/// (a NaN operand gives the other operand).
pub fn min_max(kind: FloatKind, a: u64, b: u64, max: bool, propagate_nan: bool) -> u64 {
    let (na, nb) = (is_nan(kind, a), is_nan(kind, b));
    if propagate_nan {
        if na {
            return quiet(kind, a);
        }
        if nb {
            return quiet(kind, b);
        }
    } else {
        if na {
            return if nb { quiet(kind, b) } else { b };
        }
        if nb {
            return a;
        }
    }
    if max {
        if less_signed_zero(kind, a, b) {
            b
        } else {
            a
        }
    } else if less_signed_zero(kind, b, a) {
        b
    } else {
        a
    }
}

/// Converts between formats when the value is exact in `to` (MLIR folds
/// `extf` always and `truncf` only then); `None` if it is not.
pub fn convert_exact(from: FloatKind, to: FloatKind, a: u64) -> Option<u64> {
    if is_nan(from, a) {
        // Keep the sign and the top of the payload, quiet.
        let sign = u64::from(is_negative(from, a)) << (to.width() - 1);
        let (mf, mt) = (mantissa_bits(from), mantissa_bits(to));
        let payload = a & ((1u64 << mf) - 1);
        let payload = if mt >= mf {
            payload << (mt - mf)
        } else {
            payload >> (mf - mt)
        };
        let nan = quiet(to, sign | exponent_mask(to) | payload);
        // A narrowing that loses payload bits is inexact.
        return (mt >= mf || payload << (mf - mt) == a & ((1u64 << mf) - 1)).then_some(nan);
    }
    let x = to_f64(from, a);
    let r = round(to, x);
    (to_f64(to, r) == x && is_negative(to, r) == is_negative(from, a)).then_some(r)
}

/// An integer (given as its magnitude and sign) rounded to `kind`
/// (APFloat's `convertFromAPInt`, ties to even).
pub fn from_int(kind: FloatKind, magnitude: u128, negative: bool) -> u64 {
    let precision = mantissa_bits(kind) + 1;
    let v = if magnitude == 0 {
        0.0
    } else {
        let n = 128 - magnitude.leading_zeros();
        let (m, shift) = if n <= precision {
            (magnitude, 0)
        } else {
            let s = n - precision;
            let mut m = magnitude >> s;
            let rem = magnitude & ((1u128 << s) - 1);
            let half = 1u128 << (s - 1);
            if rem > half || (rem == half && m & 1 == 1) {
                m += 1;
            }
            (m, s)
        };
        // `m` has at most `precision + 1` bits: exact in f64; the scale may overflow to inf.
        (m as f64) * 2f64.powi(shift as i32)
    };
    let v = if negative { -v } else { v };
    match kind {
        FloatKind::F64 => v.to_bits(),
        _ => round(kind, v),
    }
}

/// The value truncated toward zero, if it is finite; with its sign.
pub fn trunc_to_int(kind: FloatKind, a: u64) -> Option<f64> {
    let x = to_f64(kind, a);
    x.is_finite().then(|| x.trunc())
}
