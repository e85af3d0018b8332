//! Random chains of parallel loop nests, the input seed 000's fusion works
//! on (and its bad inputs): 1-D or 2-D nests over one shape, each storing
//! one array from reads of the input and of earlier (sometimes later)
//! arrays at constant offsets, with bounds that differ from nest to nest,
//! sometimes several nests writing one array, sometimes intermediate
//! arrays that are local allocations (dead after the chain), sometimes the
//! chain inside a time loop. Every access stays in bounds; the function
//! is `@k`, its memref arguments the input and the arrays.

use crate::affine_gen::Rng;
use std::fmt::Write;

/// One array access: the array and the offset per level.
struct Read {
    array: usize,
    offset: Vec<i64>,
}

/// A random chain; `seed` reproduces it.
pub fn chain(seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x51ed_270b);
    let depth = rng.range(1, 2) as usize;
    let n: i64 = if depth == 1 {
        rng.range(12, 70)
    } else {
        rng.range(6, 20)
    };
    let nests = rng.range(2, 5) as usize;
    let arrays = rng.range(2, nests as i64 + 1) as usize; // array 0 is the input
    let locals: Vec<bool> = (0..=arrays).map(|a| a > 0 && rng.chance(30)).collect();
    let shape = vec![n.to_string(); depth].join("x");
    let ty = format!("memref<{shape}xf32>");
    let ivs = ["%i", "%j"];
    let mut args = Vec::new();
    for (a, &local) in locals.iter().enumerate() {
        if !local {
            args.push(format!("%a{a}: {ty}"));
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "func.func @k({}) {{", args.join(", "));
    for (a, &local) in locals.iter().enumerate() {
        if local {
            let _ = writeln!(out, "  %a{a} = memref.alloc() : {ty}");
            // Defined before any read: the chain may read it before a nest writes it.
            let zero = "arith.constant 1.500000e+00 : f32";
            let _ = writeln!(out, "  %z{a} = {zero}");
            let _ = writeln!(out, "  affine.for %i = 0 to {n} {{");
            if depth == 1 {
                let _ = writeln!(out, "    affine.store %z{a}, %a{a}[%i] : {ty}");
            } else {
                let _ = writeln!(out, "    affine.for %j = 0 to {n} {{");
                let _ = writeln!(out, "      affine.store %z{a}, %a{a}[%i, %j] : {ty}");
                let _ = writeln!(out, "    }}");
            }
            let _ = writeln!(out, "  }}");
        }
    }
    let time_loop = rng.chance(25);
    let indent = if time_loop { "    " } else { "  " };
    if time_loop {
        let _ = writeln!(out, "  affine.for %t = 0 to 2 {{");
    }
    let half = "arith.constant 5.000000e-01 : f32";
    for k in 0..nests {
        let target = rng.range(1, arrays as i64) as usize;
        let lo: Vec<i64> = (0..depth).map(|_| rng.range(0, 3)).collect();
        let hi: Vec<i64> = (0..depth).map(|_| n - rng.range(0, 3)).collect();
        let reads: Vec<Read> = (0..rng.range(1, 3))
            .map(|_| Read {
                array: rng.range(0, arrays as i64) as usize,
                offset: (0..depth)
                    .map(|d| {
                        // lo + c >= 0 and hi - 1 + c <= n - 1.
                        let (min, max) = (-lo[d], n - hi[d]);
                        rng.range(min.max(-2), max.min(2))
                    })
                    .collect(),
            })
            .collect();
        let mut pad = indent.to_string();
        for d in 0..depth {
            let _ = writeln!(out, "{pad}affine.for {} = {} to {} {{", ivs[d], lo[d], hi[d]);
            pad.push_str("  ");
        }
        let _ = writeln!(out, "{pad}%h{k} = {half}");
        let mut acc = format!("%h{k}");
        for (r, read) in reads.iter().enumerate() {
            let index: Vec<String> = (0..depth)
                .map(|d| match read.offset[d] {
                    0 => ivs[d].to_string(),
                    c if c > 0 => format!("{} + {c}", ivs[d]),
                    c => format!("{} - {}", ivs[d], -c),
                })
                .collect();
            let _ = writeln!(
                out,
                "{pad}%r{k}_{r} = affine.load %a{}[{}] : {ty}",
                read.array,
                index.join(", ")
            );
            let _ = writeln!(out, "{pad}%s{k}_{r} = arith.addf {acc}, %r{k}_{r} : f32");
            acc = format!("%s{k}_{r}");
        }
        let _ = writeln!(out, "{pad}%v{k} = arith.mulf {acc}, %h{k} : f32");
        let index: Vec<&str> = ivs[..depth].to_vec();
        let _ = writeln!(out, "{pad}affine.store %v{k}, %a{target}[{}] : {ty}", index.join(", "));
        for _ in 0..depth {
            pad.truncate(pad.len() - 2);
            let _ = writeln!(out, "{pad}}}");
        }
    }
    if time_loop {
        let _ = writeln!(out, "  }}");
    }
    for (a, &local) in locals.iter().enumerate() {
        if local {
            if rng.chance(50) {
                // Read after the chain: the local array is live.
                let _ = writeln!(out, "  affine.for %i = 0 to {n} {{");
                let at = if depth == 1 {
                    "%i".to_string()
                } else {
                    "%i, %i".to_string()
                };
                let _ = writeln!(out, "    %l{a} = affine.load %a{a}[{at}] : {ty}");
                let _ = writeln!(out, "    affine.store %l{a}, %a0[{at}] : {ty}");
                let _ = writeln!(out, "  }}");
            }
            let _ = writeln!(out, "  memref.dealloc %a{a} : {ty}");
        }
    }
    let _ = writeln!(out, "  return\n}}");
    out
}
