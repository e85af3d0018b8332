//! Conversions between float values, their bits in each format, and text.

use crate::types::FloatKind;

/// Rounds an `f64` to `kind` and returns its bits in that format.
pub fn f64_to_bits(kind: FloatKind, v: f64) -> u64 {
    match kind {
        FloatKind::F16 => half::f16::from_f64(v).to_bits() as u64,
        FloatKind::BF16 => half::bf16::from_f64(v).to_bits() as u64,
        FloatKind::F32 => (v as f32).to_bits() as u64,
        FloatKind::F64 => v.to_bits(),
    }
}

/// The value of bits in format `kind`, widened to `f64` (exact).
pub fn bits_to_f64(kind: FloatKind, bits: u64) -> f64 {
    match kind {
        FloatKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        FloatKind::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        FloatKind::F32 => f32::from_bits(bits as u32) as f64,
        FloatKind::F64 => f64::from_bits(bits),
    }
}

/// Parses decimal text into bits of `kind` with correct rounding.
pub fn parse_decimal(kind: FloatKind, text: &str) -> Option<u64> {
    match kind {
        FloatKind::F32 => text.parse::<f32>().ok().map(|v| v.to_bits() as u64),
        FloatKind::F64 => text.parse::<f64>().ok().map(|v| v.to_bits()),
        _ => text.parse::<f64>().ok().map(|v| f64_to_bits(kind, v)),
    }
}

/// Number of hex digits MLIR prints for a hex float of `kind`.
pub fn hex_digits(kind: FloatKind) -> usize {
    (kind.width() / 4) as usize
}

/// Formats a float the way MLIR prints float attributes: `1.000000e+00` when
/// six significant digits read back to the same value, else the shortest
/// decimal that reads back exactly, else (inf, nan) hex bits like `0x7F800000`.
pub fn format_float(kind: FloatKind, bits: u64) -> String {
    let v = bits_to_f64(kind, bits);
    if !v.is_finite() {
        return format!("0x{:0width$X}", bits, width = hex_digits(kind));
    }
    let sci = format_sci6(v);
    if parse_decimal(kind, &sci) == Some(bits) {
        return sci;
    }
    let shortest = shortest_decimal(kind, bits);
    if parse_decimal(kind, &shortest) == Some(bits) {
        return shortest;
    }
    format!("0x{:0width$X}", bits, width = hex_digits(kind))
}

/// `d.dddddde±XX` with six digits after the point, as C's `%e`.
fn format_sci6(v: f64) -> String {
    let s = format!("{v:.6e}");
    // Rust prints `1.000000e0`; C prints `1.000000e+00`.
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mant}e{sign}{:02}", exp.abs())
}

/// The shortest decimal that round-trips in `kind`, in MLIR's style
/// (a `.` is always present; exponents in `E` form as APFloat prints them).
fn shortest_decimal(kind: FloatKind, bits: u64) -> String {
    let s = match kind {
        FloatKind::F32 => format!("{:?}", f32::from_bits(bits as u32)),
        FloatKind::F64 => format!("{:?}", f64::from_bits(bits)),
        FloatKind::F16 => format!("{:?}", half::f16::from_bits(bits as u16).to_f32()),
        FloatKind::BF16 => format!("{:?}", half::bf16::from_bits(bits as u16).to_f32()),
    };
    if let Some((m, e)) = s.split_once('e') {
        let m = if m.contains('.') {
            m.to_string()
        } else {
            format!("{m}.0")
        };
        format!("{m}E{e}")
    } else if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_mlir() {
        assert_eq!(
            format_float(FloatKind::F32, f64_to_bits(FloatKind::F32, 1.0)),
            "1.000000e+00"
        );
        assert_eq!(
            format_float(FloatKind::F64, f64_to_bits(FloatKind::F64, 0.5)),
            "5.000000e-01"
        );
        assert_eq!(
            format_float(FloatKind::F64, f64_to_bits(FloatKind::F64, -2.5e-10)),
            "-2.500000e-10"
        );
        assert_eq!(
            format_float(FloatKind::F32, f32::INFINITY.to_bits() as u64),
            "0x7F800000"
        );
        let b = f64_to_bits(FloatKind::F64, 0.123456789);
        assert_eq!(parse_decimal(FloatKind::F64, &format_float(FloatKind::F64, b)), Some(b));
    }
}
