//! The output of MLIR's runner-utils functions (`printMemrefF32`, `printF32`,
//! ...), byte for byte: C's `%g` for floats, the `printMemref` layout of
//! nested brackets. The base address prints as `0x0` (mlir-runner prints the
//! real pointer, which differs from run to run).

use crate::memory::Desc;
use crate::program::Scalar;

/// C's `printf("%g", v)` (precision 6), as glibc prints it.
pub fn fmt_g(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    const P: i32 = 6;
    let e = format!("{:.*e}", (P - 1) as usize, v);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    if !(-4..P).contains(&x) {
        let mant = trim_zeros(mant);
        format!("{mant}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs())
    } else {
        let s = format!("{:.*}", (P - 1 - x) as usize, v);
        trim_zeros(&s).to_string()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// The MLIR spelling of an element kind.
pub fn elem_name(e: Scalar) -> String {
    match e {
        Scalar::F32 => "f32".into(),
        Scalar::F64 => "f64".into(),
        Scalar::Index => "index".into(),
        Scalar::Int(w) => format!("i{w}"),
    }
}

/// One element as `std::ostream << value` prints it.
pub fn fmt_elem(bits: u64, elem: Scalar) -> String {
    match elem {
        Scalar::F32 => fmt_g(f32::from_bits(bits as u32) as f64),
        Scalar::F64 => fmt_g(f64::from_bits(bits)),
        Scalar::Int(1) => format!("{}", bits & 1),
        _ => format!("{}", bits as i64),
    }
}

/// `printMemref*`: the header line and the data, as mlir's runner utils print them.
pub fn print_memref(out: &mut String, d: &Desc, data: &[u64], elem: Scalar) {
    let rank = d.sizes.len();
    let list = |v: &[i64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    out.push_str(&format!(
        "Unranked Memref base@ = 0x0 rank = {rank} offset = {} sizes = [{}] strides = [{}] data = \n",
        d.offset,
        list(&d.sizes),
        list(&d.strides)
    ));
    if rank == 0 {
        out.push('[');
    }
    let get = |pos: i64| -> u64 { data.get(pos as usize).copied().unwrap_or(0) };
    print_rec(out, &get, elem, rank, rank, d.offset, &d.sizes, &d.strides);
    if rank == 0 {
        out.push(']');
    }
    out.push('\n');
}

#[allow(clippy::too_many_arguments)]
fn print_rec(
    out: &mut String,
    get: &dyn Fn(i64) -> u64,
    elem: Scalar,
    dim: usize,
    rank: usize,
    offset: i64,
    sizes: &[i64],
    strides: &[i64],
) {
    if dim == 0 {
        out.push_str(&fmt_elem(get(offset), elem));
        return;
    }
    // At least one element, as mlir-runner prints.
    out.push('[');
    for i in 0..sizes[0].max(1) {
        if i > 0 {
            out.push_str(", ");
            if dim > 1 {
                out.push('\n');
            }
            spaces(out, rank - dim + 1);
        }
        let at = offset + i * strides[0];
        print_rec(out, get, elem, dim - 1, rank, at, &sizes[1..], &strides[1..]);
    }
    out.push(']');
}

fn spaces(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push(' ');
    }
}

#[cfg(test)]
mod tests {
    use super::fmt_g;

    #[test]
    fn percent_g() {
        assert_eq!(fmt_g(23.3125), "23.3125");
        assert_eq!(fmt_g(28.0), "28");
        assert_eq!(fmt_g(1e6), "1e+06");
        assert_eq!(fmt_g(123456.0), "123456");
        assert_eq!(fmt_g(1234567.0), "1.23457e+06");
        assert_eq!(fmt_g(0.0001), "0.0001");
        assert_eq!(fmt_g(0.00001), "1e-05");
        assert_eq!(fmt_g(-0.5), "-0.5");
        assert_eq!(fmt_g(1.0 / 3.0), "0.333333");
        assert_eq!(fmt_g(f64::NAN), "nan");
        assert_eq!(fmt_g(f64::NEG_INFINITY), "-inf");
    }
}
