//! Integer arithmetic at a given bit width, as MLIR's `APInt` does it, on
//! values stored the way lf stores integer attributes.

/// `v` as a signed number of `width` bits (`i1` `1` is `-1`).
pub fn sval(v: i128, width: u32) -> i128 {
    if width >= 128 {
        return v;
    }
    let shift = 128 - width;
    (v << shift) >> shift
}

/// `v` as an unsigned number of `width` bits.
pub fn uval(v: i128, width: u32) -> u128 {
    if width >= 128 {
        return v as u128;
    }
    (v as u128) & ((1u128 << width) - 1)
}

/// `v` truncated to `width` bits and stored as lf stores a signless integer
/// attribute: sign-extended, except `i1`, which is `0` or `1`.
pub fn store(v: i128, width: u32) -> i128 {
    if width == 1 {
        v & 1
    } else {
        sval(v, width)
    }
}

/// The smallest signed value of `width` bits.
pub fn smin(width: u32) -> i128 {
    if width >= 128 {
        i128::MIN
    } else {
        -(1i128 << (width - 1))
    }
}

/// The largest signed value of `width` bits.
pub fn smax(width: u32) -> i128 {
    if width >= 128 {
        i128::MAX
    } else {
        (1i128 << (width - 1)) - 1
    }
}

/// The largest unsigned value of `width` bits.
pub fn umax(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Signed division truncating toward zero; `None` on overflow (`MIN / -1`).
pub fn sdiv_ov(a: i128, b: i128, width: u32) -> Option<i128> {
    let (a, b) = (sval(a, width), sval(b, width));
    if a == smin(width) && b == -1 {
        return None;
    }
    a.checked_div(b)
}

/// Signed subtraction; `None` on overflow.
pub fn ssub_ov(a: i128, b: i128, width: u32) -> Option<i128> {
    let r = sval(a, width).checked_sub(sval(b, width))?;
    (smin(width)..=smax(width)).contains(&r).then_some(r)
}

/// Signed addition; `None` on overflow.
pub fn sadd_ov(a: i128, b: i128, width: u32) -> Option<i128> {
    let r = sval(a, width).checked_add(sval(b, width))?;
    (smin(width)..=smax(width)).contains(&r).then_some(r)
}

/// `arith.ceildivsi` as MLIR folds it: `None` on division by zero and when
/// any intermediate step (negations included) overflows.
pub fn ceildivsi(a: i128, b: i128, width: u32) -> Option<i128> {
    let (a, b) = (sval(a, width), sval(b, width));
    if b == 0 {
        return None;
    }
    if a == 0 {
        return Some(0);
    }
    // ceil(a, b) for a, b > 0: (a - 1) / b + 1.
    let ceil_nonneg = |a: i128, b: i128| -> Option<i128> {
        let q = sdiv_ov(ssub_ov(a, 1, width)?, b, width)?;
        sadd_ov(q, 1, width)
    };
    match (a > 0, b > 0) {
        (true, true) => ceil_nonneg(a, b),
        (false, false) => ceil_nonneg(ssub_ov(0, a, width)?, ssub_ov(0, b, width)?),
        (false, true) => {
            let div = sdiv_ov(ssub_ov(0, a, width)?, b, width)?;
            ssub_ov(0, div, width)
        }
        (true, false) => {
            let div = sdiv_ov(a, ssub_ov(0, b, width)?, width)?;
            ssub_ov(0, div, width)
        }
    }
}

/// `arith.floordivsi` as MLIR folds it (`APInt::sfloordiv_ov`).
pub fn floordivsi(a: i128, b: i128, width: u32) -> Option<i128> {
    let (a, b) = (sval(a, width), sval(b, width));
    if b == 0 {
        return None;
    }
    let q = sdiv_ov(a, b, width)?;
    if q.wrapping_mul(b) != a && (a < 0) != (b < 0) {
        return Some(q - 1);
    }
    Some(q)
}

/// `arith.ceildivui`: `None` on division by zero or overflow.
pub fn ceildivui(a: i128, b: i128, width: u32) -> Option<i128> {
    let (a, b) = (uval(a, width), uval(b, width));
    if b == 0 {
        return None;
    }
    let q = a / b;
    if a % b == 0 {
        return Some(q as i128);
    }
    if q == umax(width) {
        return None;
    }
    Some((q + 1) as i128)
}
