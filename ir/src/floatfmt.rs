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

/// Formats a float the way MLIR prints float attributes (`printFloatValue`): APFloat's
/// `toString` with six digits of precision in scientific form (`1.000000e+00`, digits
/// truncated as APFloat does) when that reads back to the same value; else APFloat's
/// default `toString` (`5.99999978E-8`, `0.1`) when it has a `.`; else (inf, nan, and
/// values like `1234567` whose default form has no `.`) the hex bits like `0x7F800000`.
pub fn format_float(kind: FloatKind, bits: u64) -> String {
    let v = bits_to_f64(kind, bits);
    if v.is_finite() {
        let sci = ap_to_string(kind, bits, 6, 0, false);
        if parse_decimal(kind, &sci) == Some(bits) {
            return sci;
        }
        let default = ap_to_string(kind, bits, 0, 3, true);
        if default.contains('.') {
            return default;
        }
    }
    format!("0x{:0width$X}", bits, width = hex_digits(kind))
}

/// The number of exponent and fraction bits of `kind`.
fn layout(kind: FloatKind) -> (u32, u32) {
    match kind {
        FloatKind::F16 => (5, 10),
        FloatKind::BF16 => (8, 7),
        FloatKind::F32 => (8, 23),
        FloatKind::F64 => (11, 52),
    }
}

/// LLVM's `APFloat::toString(Str, FormatPrecision, FormatMaxPadding, TruncateZero)` of a
/// finite value, reimplemented: the exact decimal expansion of the value, cut down to
/// about `precision` digits (0: enough to round-trip) first by truncation and then by
/// rounding half up, written in scientific form unless `max_padding` zeros suffice.
fn ap_to_string(kind: FloatKind, bits: u64, precision: u32, max_padding: u32, truncate_zero: bool) -> String {
    let (ebits, fbits) = layout(kind);
    let width = 1 + ebits + fbits;
    let negative = (bits >> (width - 1)) & 1 == 1;
    let biased = ((bits >> fbits) & ((1 << ebits) - 1)) as i32;
    let frac = bits & ((1u64 << fbits) - 1);
    let bias = (1i32 << (ebits - 1)) - 1;
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if biased == 0 && frac == 0 {
        if max_padding != 0 {
            out.push('0');
        } else if truncate_zero {
            out.push_str("0.0E+0");
        } else {
            out.push_str("0.0");
            for _ in 1..precision {
                out.push('0');
            }
            out.push_str("e+00");
        }
        return out;
    }
    // value = significand * 2^exp, significand < 2^(fbits + 1).
    let (mut significand, mut exp) = if biased == 0 {
        (frac, 1 - bias - fbits as i32)
    } else {
        (frac | (1u64 << fbits), biased - bias - fbits as i32)
    };
    let semantics_precision = fbits + 1;
    let precision = if precision == 0 {
        2 + semantics_precision * 59 / 196
    } else {
        precision
    };
    let tz = significand.trailing_zeros();
    significand >>= tz;
    exp += tz as i32;
    // Now as decimal: value = n * 10^exp.
    let mut n = BigUint::from_u64(significand);
    if exp > 0 {
        n.shl(exp as u32);
        exp = 0;
    } else if exp < 0 {
        for _ in 0..-exp {
            n.mul_small(5);
        }
    }
    // Drop digits that cannot matter, by truncation.
    let bits_required = (precision * 196).div_ceil(59);
    let active = n.bit_len();
    if active > bits_required {
        let removable = (active - bits_required) * 59 / 196;
        if removable > 0 {
            exp += removable as i32;
            for _ in 0..removable {
                n.divrem_small(10);
            }
        }
    }
    // Decimal digits, least significant first, without trailing zeros.
    let mut digits: Vec<u8> = Vec::new();
    while !n.is_zero() {
        let d = n.divrem_small(10) as u8;
        if digits.is_empty() && d == 0 {
            exp += 1;
        } else {
            digits.push(b'0' + d);
        }
    }
    // Round to `precision` digits, half up.
    let len = digits.len();
    if len > precision as usize {
        let mut first = len - precision as usize;
        if digits[first - 1] < b'5' {
            while first < len && digits[first] == b'0' {
                first += 1;
            }
            exp += first as i32;
            digits.drain(..first);
        } else {
            let mut i = first;
            while i < len && digits[i] == b'9' {
                first += 1;
                i += 1;
            }
            if i < len {
                digits[i] += 1;
            }
            exp += first as i32;
            if first == len {
                digits = vec![b'1'];
            } else {
                digits.drain(..first);
            }
        }
    }
    let nd = digits.len();
    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp as u32 > max_padding || nd as u32 + exp as u32 > precision
    } else {
        let msd = exp + nd as i32 - 1;
        msd < 0 && (-msd) as u32 > max_padding
    };
    let digit = |i: usize| digits[nd - 1 - i] as char;
    if scientific {
        let mut e = exp + nd as i32 - 1;
        out.push(digit(0));
        out.push('.');
        if nd == 1 && truncate_zero {
            out.push('0');
        } else {
            (1..nd).for_each(|i| out.push(digit(i)));
        }
        if !truncate_zero && precision as usize > nd - 1 {
            (0..precision as usize - nd + 1).for_each(|_| out.push('0'));
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if e >= 0 { '+' } else { '-' });
        e = e.abs();
        if !truncate_zero && e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
        return out;
    }
    if exp >= 0 {
        (0..nd).for_each(|i| out.push(digit(i)));
        (0..exp).for_each(|_| out.push('0'));
        return out;
    }
    let whole = exp + nd as i32;
    let mut i = 0;
    if whole > 0 {
        while i < whole as usize {
            out.push(digit(i));
            i += 1;
        }
        out.push('.');
    } else {
        out.push_str("0.");
        (0..-whole).for_each(|_| out.push('0'));
    }
    (i..nd).for_each(|i| out.push(digit(i)));
    out
}

/// A small unsigned big integer (little-endian 32-bit limbs) for [`ap_to_string`].
struct BigUint(Vec<u32>);

impl BigUint {
    fn from_u64(v: u64) -> Self {
        BigUint(vec![v as u32, (v >> 32) as u32])
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn bit_len(&self) -> u32 {
        match self.0.iter().rposition(|&l| l != 0) {
            Some(i) => i as u32 * 32 + (32 - self.0[i].leading_zeros()),
            None => 0,
        }
    }

    fn shl(&mut self, s: u32) {
        let (limbs, bits) = ((s / 32) as usize, s % 32);
        if bits > 0 {
            let mut carry = 0u32;
            for l in self.0.iter_mut() {
                let next = *l >> (32 - bits);
                *l = (*l << bits) | carry;
                carry = next;
            }
            self.0.push(carry);
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    fn mul_small(&mut self, k: u32) {
        let mut carry = 0u64;
        for l in self.0.iter_mut() {
            let v = *l as u64 * k as u64 + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// Divides in place, returning the remainder.
    fn divrem_small(&mut self, k: u32) -> u32 {
        let mut rem = 0u64;
        for l in self.0.iter_mut().rev() {
            let v = (rem << 32) | *l as u64;
            *l = (v / k as u64) as u32;
            rem = v % k as u64;
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        rem as u32
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
