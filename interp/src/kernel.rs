//! Kernel mode: deterministic inputs for an entry function's memref
//! arguments, checksums, and the element-wise comparison of two runs.

use crate::exec::{Fault, Machine};
use crate::print::fmt_elem;
use crate::program::{Func, Scalar, Space};

/// One step of the splitmix64 generator.
pub fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The value of element `i` of argument `arg` for `seed`: floats in
/// [-1, 1) with 24 random bits (never all zero), integers in [-10, 10],
/// `index` in [0, 16), `i1` 0 or 1.
pub fn input_value(seed: u64, arg: usize, i: usize, elem: Scalar) -> u64 {
    let h = splitmix(splitmix(seed ^ ((arg as u64) << 40)) ^ i as u64);
    match elem {
        Scalar::F32 => {
            let v = ((h >> 40) as f32) / (1u64 << 23) as f32 - 1.0;
            v.to_bits() as u64
        }
        Scalar::F64 => (((h >> 11) as f64) / (1u64 << 52) as f64 - 1.0).to_bits(),
        Scalar::Index => h % 16,
        Scalar::Int(1) => {
            if h & 1 == 1 {
                u64::MAX
            } else {
                0
            }
        }
        Scalar::Int(_) => ((h % 21) as i64 - 10) as u64,
    }
}

/// Parses a scalar argument value given on the command line.
pub fn parse_scalar(text: &str, kind: Scalar) -> Option<u64> {
    let t = text.trim();
    match kind {
        Scalar::F32 => t.parse::<f32>().ok().map(|v| v.to_bits() as u64),
        Scalar::F64 => t.parse::<f64>().ok().map(f64::to_bits),
        Scalar::Int(1) => match t {
            "true" | "1" => Some(u64::MAX),
            "false" | "0" => Some(0),
            _ => None,
        },
        _ => t
            .parse::<i64>()
            .ok()
            .map(|v| crate::program::sext(v as u64, kind.shift())),
    }
}

/// Allocates and fills the arguments of `func`; returns the register values.
/// Memref arguments are filled element by element; scalar arguments get one
/// value of the same generator (`index` in [0, 16), integers in [-10, 10],
/// floats in [-1, 1)) unless `overrides` gives one (`(position, text)`).
pub fn make_inputs(m: &mut Machine, fidx: u32, seed: u64, overrides: &[(usize, String)]) -> Result<Vec<u64>, Fault> {
    let func: &Func = &m.prog.funcs[fidx as usize];
    let err = |msg: String| Fault {
        at: None,
        msg,
        notes: Vec::new(),
    };
    let mut vals = Vec::new();
    for (k, ty) in func.param_types.iter().enumerate() {
        let Some(ty) = ty else {
            let kind = func.param_kinds[k];
            let v = match overrides.iter().rev().find(|(i, _)| *i == k) {
                Some((_, text)) => parse_scalar(text, kind).ok_or_else(|| {
                    err(format!(
                        "--arg={k}:{text}: not a value of argument {k}'s type ({})",
                        crate::print::elem_name(kind)
                    ))
                })?,
                None => input_value(seed, k, 0, kind),
            };
            vals.push(v);
            continue;
        };
        if ty.shape.iter().any(|s| s.is_none()) || ty.strided.is_some() {
            return Err(err(format!(
                "argument {k} of @{} has a dynamic shape or a layout: kernel mode needs static identity memrefs",
                func.name
            )));
        }
        let sizes: Vec<i64> = ty.shape.iter().map(|s| s.unwrap_or(0)).collect();
        let d = m.mem.alloc(ty, sizes, Space::Global).map_err(err)?;
        let buf = m.mem.descs[d as usize].buf as usize;
        for (i, x) in m.mem.bufs[buf].data.iter_mut().enumerate() {
            *x = input_value(seed, k, i, ty.elem);
        }
        m.mem.mark_init(buf as u32);
        vals.push(d);
    }
    Ok(vals)
}

/// Elements of a memref value, row-major.
pub fn elements(m: &Machine, d: u64) -> Vec<u64> {
    let desc = &m.mem.descs[d as usize];
    let b = &m.mem.bufs[desc.buf as usize];
    m.mem
        .positions(desc)
        .into_iter()
        .map(|p| b.data.get(p as usize).copied().unwrap_or(0))
        .collect()
}

/// A description of an argument's type: `4x8xf32`.
pub fn shape_str(m: &Machine, d: u64, elem: Scalar) -> String {
    let desc = &m.mem.descs[d as usize];
    let mut s: String = desc.sizes.iter().map(|x| format!("{x}x")).collect();
    s.push_str(&crate::print::elem_name(elem));
    s
}

/// One line per argument: for a memref its shape, the sum of its elements and
/// a hash of their bits; for a scalar its value.
pub fn checksums(m: &Machine, args: &[u64], func: &Func) -> String {
    let mut out = String::new();
    for (k, (&d, &e)) in args.iter().zip(&func.param_kinds).enumerate() {
        if func.param_types[k].is_none() {
            out.push_str(&format!(
                "arg{k}: {} = {}\n",
                crate::print::elem_name(e),
                fmt_elem(d, e)
            ));
            continue;
        }
        let vals = elements(m, d);
        let mut sum = 0f64;
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &v in &vals {
            sum += match e {
                Scalar::F32 => f32::from_bits(v as u32) as f64,
                Scalar::F64 => f64::from_bits(v),
                _ => v as i64 as f64,
            };
            for byte in v.to_le_bytes() {
                hash = (hash ^ byte as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
        out.push_str(&format!(
            "arg{k}: memref<{}> sum = {} hash = 0x{hash:016x}\n",
            shape_str(m, d, e),
            crate::print::fmt_g(sum)
        ));
    }
    out
}

/// Compares element lists; returns the first differing position.
pub fn first_difference(a: &[u64], b: &[u64], elem: Scalar, rtol: f64, atol: f64) -> Option<usize> {
    let close = |x: f64, y: f64| {
        if x.is_nan() || y.is_nan() {
            return x.is_nan() && y.is_nan();
        }
        // Equal values (infinities of one sign included) are close; an
        // infinity is close only to itself.
        if x == y || rtol == 0.0 && atol == 0.0 || x.is_infinite() || y.is_infinite() {
            return x == y;
        }
        (x - y).abs() <= atol + rtol * y.abs()
    };
    if a.len() != b.len() {
        return Some(a.len().min(b.len()));
    }
    (0..a.len()).find(|&i| match elem {
        Scalar::F32 => !close(f32::from_bits(a[i] as u32) as f64, f32::from_bits(b[i] as u32) as f64),
        Scalar::F64 => !close(f64::from_bits(a[i]), f64::from_bits(b[i])),
        _ => a[i] != b[i],
    })
}

/// Multi-dimensional index of row-major position `i` in `sizes`.
pub fn unflatten(mut i: usize, sizes: &[i64]) -> Vec<i64> {
    let mut idx = vec![0i64; sizes.len()];
    for k in (0..sizes.len()).rev() {
        let n = sizes[k].max(1) as usize;
        idx[k] = (i % n) as i64;
        i /= n;
    }
    idx
}

/// An element as printed in a comparison report.
pub fn show(v: u64, elem: Scalar) -> String {
    match elem {
        Scalar::F32 => format!("{:e}", f32::from_bits(v as u32)),
        Scalar::F64 => format!("{:e}", f64::from_bits(v)),
        _ => fmt_elem(v, elem),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f64s(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn equal_infinities_compare_equal_under_a_tolerance() {
        let inf = f64::INFINITY;
        let a = f64s(&[1.0, inf, -inf]);
        assert_eq!(first_difference(&a, &a, Scalar::F64, 1e-5, 0.0), None);
        let b = f64s(&[1.0, -inf, -inf]);
        assert_eq!(first_difference(&a, &b, Scalar::F64, 1e-5, 0.0), Some(1));
        let c = f64s(&[1.0, 1e300, -inf]);
        assert_eq!(first_difference(&a, &c, Scalar::F64, 1e-5, 0.0), Some(1));
        let d = f64s(&[1.0 + 1e-9, inf, -inf]);
        assert_eq!(first_difference(&a, &d, Scalar::F64, 1e-5, 0.0), None);
        assert_eq!(first_difference(&a, &d, Scalar::F64, 0.0, 0.0), Some(0));
    }
}
