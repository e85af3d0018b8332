//! The options of `thread-granularity` and how they combine: the factor
//! `F` is `vector-width` `v` times `output-streams` `m` (seed 002's
//! `double2` x streams, DIGEST §002.3).

use lf_pass::pass::{OptionKind, PassOption, PassOptions};

/// The declared options.
pub(super) static OPTIONS: &[PassOption] = &[
    PassOption {
        name: "factor",
        kind: OptionKind::UInt,
        default: "1",
        help: "Points computed per thread (vector-width x output-streams); 1 leaves the kernel unchanged",
    },
    PassOption {
        name: "dim",
        kind: OptionKind::Enum(&["x", "y", "z"]),
        default: "x",
        help: "The launch dimension whose threads are coarsened",
    },
    PassOption {
        name: "vector-width",
        kind: OptionKind::UInt,
        default: "1",
        help: "Neighbouring points per stream (1, 2 or 4: the lanes of a Brook+ double2/float4)",
    },
    PassOption {
        name: "output-streams",
        kind: OptionKind::UInt,
        default: "1",
        help: "Chunks of the dimension a thread computes one point group in (1 to 8)",
    },
];

/// The most output streams a Brook+ kernel may have.
pub const MAX_STREAMS: i64 = 8;

/// The resolved options: `factor == vector_width * streams`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Granularity {
    /// The launch dimension (0 = x, 1 = y, 2 = z).
    pub dim: usize,
    /// Points per thread.
    pub factor: i64,
    /// Lanes `v`: neighbouring points of one chunk.
    pub vector_width: i64,
    /// Streams `m`: chunks of the dimension.
    pub streams: i64,
}

impl Granularity {
    /// Combines the options: `factor` alone means `v = 1, m = F`;
    /// `factor` and `vector-width` mean `m = F / v`; `factor` and
    /// `output-streams` mean `v = F / m`; without `factor`, `F = v * m`.
    pub fn from_options(opts: &PassOptions) -> Result<Granularity, String> {
        let dim = match opts.str("dim") {
            "y" => 1,
            "z" => 2,
            _ => 0,
        };
        let (f, v, m) = (opts.int("factor"), opts.int("vector-width"), opts.int("output-streams"));
        let (fx, vx, mx) = (
            opts.is_explicit("factor"),
            opts.is_explicit("vector-width"),
            opts.is_explicit("output-streams"),
        );
        if ![1, 2, 4].contains(&v) {
            return Err(format!("vector-width: 1, 2 or 4 (found {v})"));
        }
        if f < 1 || m < 1 {
            return Err("factor and output-streams: at least 1".into());
        }
        let (v, m) = match (fx, vx, mx) {
            (false, _, _) | (true, true, true) => (v, m),
            (true, false, false) => (1, f),
            (true, true, false) => {
                if f % v != 0 {
                    return Err(format!("factor {f} is not a multiple of vector-width {v}"));
                }
                (v, f / v)
            }
            (true, false, true) => {
                if f % m != 0 || ![1, 2, 4].contains(&(f / m)) {
                    return Err(format!(
                        "factor {f} is not output-streams {m} times a vector-width of 1, 2 or 4"
                    ));
                }
                (f / m, m)
            }
        };
        if fx && v * m != f {
            return Err(format!(
                "factor {f} differs from vector-width {v} x output-streams {m} = {}",
                v * m
            ));
        }
        if m > MAX_STREAMS {
            return Err(format!(
                "output-streams {m}: Brook+ allows at most {MAX_STREAMS} output streams per kernel"
            ));
        }
        Ok(Granularity {
            dim,
            factor: v * m,
            vector_width: v,
            streams: m,
        })
    }

    /// The name of the dimension.
    pub fn axis(&self) -> &'static str {
        ["x", "y", "z"][self.dim]
    }
}
