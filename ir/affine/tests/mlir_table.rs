//! Table-driven comparison with MLIR.
//!
//! Every expected string in this file was produced by mlir-opt 22.1.8
//! (Debian `mlir-22-tools`): printing cases by running
//! `mlir-opt-22 --allow-unregistered-dialect --mlir-print-local-scope` on
//! `"test.op"() {m = affine_map<INPUT>} : () -> ()` (or `affine_set<...>`),
//! simplification cases by adding `-affine-simplify-structures` with the op
//! inside a `func.func`, and error cases from the reported column (minus the
//! column where the map text starts).

use lf_affine::{parse_affine_map, parse_affine_map_or_set, AffineMapOrSet};

/// What mlir-opt prints when it reads its own output back.
#[derive(Clone, Copy, Debug)]
enum Back {
    /// The same text.
    Same,
    /// Different text: MLIR prints `a + (b + c)` as `a + b + c`, which
    /// reads back as `(a + b) + c` and may then simplify further.
    Reread(&'static str),
    /// mlir-opt rejects it: `-9223372036854775808` is negation applied to a
    /// constant that does not fit in `i64` ("constant too large for index"),
    /// and so does lf.
    Rejected,
}
use Back::*;

/// (input inside `affine_map<>`/`affine_set<>`, what mlir-opt prints, what
/// it prints after reading that back).
const PRINT_CASES: &[(&str, &str, Back)] = &[
    (
        "(d0, d1)[s0] -> (d0 + d0 * 2 - s0, (d1 + 1) floordiv 4)",
        "(d0, d1)[s0] -> (d0 * 3 - s0, (d1 + 1) floordiv 4)",
        Same,
    ),
    ("(d0)[s0] : (s0 - d0 - 2 >= 0)", "(d0)[s0] : (-d0 + s0 - 2 >= 0)", Same),
    ("(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0, d1)", Same),
    ("(d0, d1, d2) -> (d2, d0, d1)", "(d0, d1, d2) -> (d2, d0, d1)", Same),
    ("() -> (0)", "() -> (0)", Same),
    ("() -> ()", "() -> ()", Same),
    ("(d0) -> ()", "(d0) -> ()", Same),
    ("()[s0] -> (s0)", "()[s0] -> (s0)", Same),
    (
        "()[s0, s1] -> (s1 + s0, s1 * s0)",
        "()[s0, s1] -> (s0 + s1, s0 * s1)",
        Same,
    ),
    (
        "(i, j)[N] -> (i + j * 2 - N)",
        "(d0, d1)[s0] -> (d0 + d1 * 2 - s0)",
        Same,
    ),
    (
        "(d0) -> (d0 - 1, -d0, d0 * -2, (d0 + 1) * 2, d0 mod 4)",
        "(d0) -> (d0 - 1, -d0, d0 * -2, (d0 + 1) * 2, d0 mod 4)",
        Same,
    ),
    (
        "(d0) -> ((d0 floordiv 2) floordiv 3, -(d0 floordiv 2), -(-d0))",
        "(d0) -> ((d0 floordiv 2) floordiv 3, -(d0 floordiv 2), d0)",
        Same,
    ),
    (
        "(d0, d1) -> (d0 - d1, d0 - (d1 + 2), d0 - d1 * 3, -(d0 + d1))",
        "(d0, d1) -> (d0 - d1, d0 - (d1 + 2), d0 - d1 * 3, -(d0 + d1))",
        Same,
    ),
    (
        "(d0, d1) -> (d0 - (d1 mod 2), d0 - d1 floordiv 2)",
        "(d0, d1) -> (d0 - d1 mod 2, d0 - d1 floordiv 2)",
        Same,
    ),
    (
        "(d0, d1)[s0] -> (d0 + -1, d0 + d1 * -1, d0 + (d1 + 1) * -1, d0 floordiv -1)",
        "(d0, d1)[s0] -> (d0 - 1, d0 - d1, d0 - (d1 + 1), d0 floordiv -1)",
        Same,
    ),
    (
        "(d0, d1)[s0] -> (d0 - d1 * s0, d0 - (d1 + 1) * s0, d0 + (d1 + 1) * -3)",
        "(d0, d1)[s0] -> (d0 - d1 * s0, d0 - (d1 + 1) * s0, d0 - (d1 + 1) * 3)",
        Same,
    ),
    (
        "(d0) -> (2 + d0, 3 + (d0 + 1), (d0 + 2) + 3)",
        "(d0) -> (d0 + 2, d0 + 4, d0 + 5)",
        Same,
    ),
    (
        "(d0, d1) -> ((d0 + 2) + d1, d1 + d0, d1 + d0 + 1)",
        "(d0, d1) -> (d0 + d1 + 2, d0 + d1, d0 + d1 + 1)",
        Same,
    ),
    (
        "(d0, d1, d2) -> (d2 + d1 + d0, d2 + (d1 + d0), (d1 + 1) + (d0 + 1))",
        "(d0, d1, d2) -> (d1 + d2 + d0, d2 + d0 + d1, d1 + d0 + 1 + 1)",
        Reread("(d0, d1, d2) -> (d1 + d2 + d0, d0 + d2 + d1, d0 + d1 + 2)"),
    ),
    (
        "(d0)[s0] -> (s0 + d0, s0 * d0, 2 * s0, (s0 * 2) * d0)",
        "(d0)[s0] -> (d0 + s0, d0 * s0, s0 * 2, d0 * (s0 * 2))",
        Same,
    ),
    (
        "(d0)[s0] -> (d0 * 2 * 3, d0 * 2 * s0, s0 * 2 * s0)",
        "(d0)[s0] -> (d0 * 6, (d0 * s0) * 2, (s0 * s0) * 2)",
        Same,
    ),
    (
        "(d0) -> (d0 * 1, d0 * 0, d0 + 0, 0 + d0, 1 * d0)",
        "(d0) -> (d0, 0, d0, d0, d0)",
        Same,
    ),
    (
        "(d0) -> (d0 floordiv 1, d0 ceildiv 1, d0 mod 1)",
        "(d0) -> (d0, d0, 0)",
        Same,
    ),
    (
        "(d0) -> ((d0 * 4) floordiv 2, (d0 * 4) ceildiv 2, (d0 * 3) ceildiv 2, (d0 * 4) mod 2)",
        "(d0) -> (d0 * 2, d0 * 2, (d0 * 3) ceildiv 2, 0)",
        Same,
    ),
    (
        "(d0) -> ((d0 * 4) ceildiv -2, (d0 * 4) floordiv -2)",
        "(d0) -> (d0 * -2, d0 * -2)",
        Same,
    ),
    (
        "(d0, d1) -> ((d0 * 4 + d1) floordiv 2, (d1 + d0 * 4) floordiv 2, (d0 * 4 + d1) floordiv -2)",
        "(d0, d1) -> (d0 * 2 + d1 floordiv 2, d1 floordiv 2 + d0 * 2, d0 * -2 + d1 floordiv -2)",
        Same,
    ),
    (
        "(d0, d1) -> ((d0 * 4 + d1) ceildiv 2)",
        "(d0, d1) -> ((d0 * 4 + d1) ceildiv 2)",
        Same,
    ),
    (
        "(d0, d1) -> ((d0 * 4 + d1) mod 2, (d1 + d0 * 4) mod 2, (d0 * 4 + d1) mod -2)",
        "(d0, d1) -> (d1 mod 2, d1 mod 2, (d0 * 4 + d1) mod -2)",
        Same,
    ),
    (
        "(d0) -> (d0 mod 4 mod 2, d0 mod 2 mod 4)",
        "(d0) -> (d0 mod 2, (d0 mod 2) mod 4)",
        Same,
    ),
    (
        "(d0) -> ((((d0 * 4) mod 8) floordiv 2) mod 2, ((d0 * 4) mod 8) floordiv 2)",
        "(d0) -> (0, ((d0 * 4) mod 8) floordiv 2)",
        Same,
    ),
    (
        "(d0) -> (7 floordiv 2, -7 floordiv 2, 7 floordiv -2, 7 ceildiv 2, -7 ceildiv 2, 7 mod 3, -7 mod 3)",
        "(d0) -> (3, -4, -4, 4, -3, 1, 2)",
        Same,
    ),
    (
        "(d0) -> (7 mod -3, 5 mod 0, 5 floordiv 0, d0 floordiv 0, d0 mod 0, d0 ceildiv 0)",
        "(d0) -> (7 mod -3, 5 mod 0, 5 floordiv 0, d0 floordiv 0, d0 mod 0, d0 ceildiv 0)",
        Same,
    ),
    (
        "(d0) -> (9223372036854775807 + 1, 9223372036854775807 * 2)",
        "(d0) -> (9223372036854775807 + 1, 9223372036854775807 * 2)",
        Same,
    ),
    (
        "(d0) -> (-9223372036854775807 - 1, d0 - (-9223372036854775807 - 1), d0 * (-9223372036854775807 - 1))",
        "(d0) -> (-9223372036854775808, d0 - -9223372036854775808, d0 * -9223372036854775808)",
        Rejected,
    ),
    (
        "(d0) -> ((-9223372036854775807 - 1) floordiv -1, (-9223372036854775807 - 1) mod -1)",
        "(d0) -> (-9223372036854775808 floordiv -1, -9223372036854775808 mod -1)",
        Rejected,
    ),
    (
        "(d0) -> ((d0 * 9223372036854775807) * 2, (d0 + 9223372036854775807) + 1, d0 * 9223372036854775807 + d0)",
        "(d0) -> (d0 * -2, d0 - -9223372036854775808, d0 * -9223372036854775808)",
        Rejected,
    ),
    (
        "(d0)[s0] -> (d0 - (d0 floordiv s0) * s0, d0 - (d0 floordiv 4) * 4, d0 + (d0 floordiv -4) * 4)",
        "(d0)[s0] -> (d0 mod s0, d0 mod 4, d0 + (d0 floordiv -4) * 4)",
        Same,
    ),
    (
        "(d0, d1, d2) -> (d2 + (d0 + 153) - d1 floordiv 91, d0 + d2 - (d2 floordiv 4) * 4)",
        "(d0, d1, d2) -> (d2 + d0 - d1 floordiv 91 + 153, d0 + d2 mod 4)",
        Reread("(d0, d1, d2) -> (d0 + d2 - d1 floordiv 91 + 153, d0 + d2 mod 4)"),
    ),
    (
        "(d0)[s0] -> (-d0 + 628 + (s0 + 9) - (d0 + s0) floordiv 2)",
        "(d0)[s0] -> (-d0 + -((d0 + s0) floordiv 2) + s0 + 9 + 628)",
        Reread("(d0)[s0] -> (-d0 - (d0 + s0) floordiv 2 + s0 + 637)"),
    ),
    (
        "(d0) -> (d0 * 2 + d0 * -2, d0 * 3 - d0 * 3 + 1, d0 + d0)",
        "(d0) -> (0, 1, d0 * 2)",
        Same,
    ),
    (
        "(d0)[s0] -> ((d0 * 4) mod s0, (s0 * 4) mod 2, (s0 * 4) floordiv 2, s0 floordiv 2 * 2)",
        "(d0)[s0] -> ((d0 * 4) mod s0, 0, s0 * 2, (s0 floordiv 2) * 2)",
        Same,
    ),
    (
        "(d0)[s0, s1] -> (d0 floordiv s0, d0 ceildiv (s0 + s1), d0 mod (s0 * 2), (d0 * s0) floordiv s0)",
        "(d0)[s0, s1] -> (d0 floordiv s0, d0 ceildiv (s0 + s1), d0 mod (s0 * 2), (d0 * s0) floordiv s0)",
        Same,
    ),
    (
        "(d0)[s0] -> (d0 * s0 + d0 * s0, d0 * (s0 + 1), (d0 + 1) * s0)",
        "(d0)[s0] -> ((d0 * s0) * 2, d0 * (s0 + 1), (d0 + 1) * s0)",
        Same,
    ),
    (
        "(d0) -> (- - d0, - -3, --3, -(3), -(d0 - 1))",
        "(d0) -> (d0, 3, 3, -3, -(d0 - 1))",
        Same,
    ),
    ("(d0) -> (0x10, 0xff * d0)", "(d0) -> (16, d0 * 255)", Same),
    (
        "(floordiv, mod)[ceildiv] -> (floordiv mod ceildiv + mod)",
        "(d0, d1)[s0] -> (d0 mod s0 + d1)",
        Same,
    ),
    ("(d0.x, a$b) -> (d0.x + a$b)", "(d0, d1) -> (d0 + d1)", Same),
    ("(i1) -> (i1)", "(d0) -> (d0)", Same),
    (
        "(d0, d1) -> ((d0 + d1) * 4 floordiv 2, (d0 + d1) floordiv 2 * 4)",
        "(d0, d1) -> ((d0 + d1) * 2, ((d0 + d1) floordiv 2) * 4)",
        Same,
    ),
    (
        "(d0, d1) -> (((d0 + d1) * 3) mod 6 + d0 floordiv 5 * 7)",
        "(d0, d1) -> (((d0 + d1) * 3) mod 6 + (d0 floordiv 5) * 7)",
        Same,
    ),
    (
        "(d0, d1) -> (d0 * 2 + d1 * 3 + 4, d0 * 2 - d1 * 3 - 4)",
        "(d0, d1) -> (d0 * 2 + d1 * 3 + 4, d0 * 2 - d1 * 3 - 4)",
        Same,
    ),
    (
        "(d0)[s0] -> ((d0 + s0) * -1, (d0 - s0) * -2, -(d0 * s0))",
        "(d0)[s0] -> (-(d0 + s0), (d0 - s0) * -2, -(d0 * s0))",
        Same,
    ),
    (
        "(d0) -> (d0 * -1 + 1, 1 - d0, -1 - d0)",
        "(d0) -> (-d0 + 1, -d0 + 1, -d0 - 1)",
        Same,
    ),
    (
        "(d0) -> (d0 floordiv 2 * 2 - d0, d0 - d0 floordiv 2 * 2)",
        "(d0) -> ((d0 floordiv 2) * 2 - d0, d0 mod 2)",
        Same,
    ),
    (
        "(d0) -> ((d0 + 3) floordiv 4 - (d0 + 3) ceildiv 4)",
        "(d0) -> ((d0 + 3) floordiv 4 - (d0 + 3) ceildiv 4)",
        Same,
    ),
    (
        "(d0, d1, d2, d3) -> (d0 + d1 + d2 + d3, d3 * 2 + d2 + d1 * 3 + d0)",
        "(d0, d1, d2, d3) -> (d0 + d1 + d2 + d3, d3 * 2 + d2 + d1 * 3 + d0)",
        Same,
    ),
    ("(d0) : (d0 >= 0)", "(d0) : (d0 >= 0)", Same),
    ("(d0) : (d0 == 0)", "(d0) : (d0 == 0)", Same),
    ("(d0) : ()", "(d0) : (0 == 0)", Same),
    ("(d0) : (1 == 0)", "(d0) : (1 == 0)", Same),
    ("(d0) : (0 >= 0)", "(d0) : (0 >= 0)", Same),
    ("(d0)[s0] : (d0 * s0 >= 0)", "(d0)[s0] : (d0 * s0 >= 0)", Same),
    (
        "(d0) : (d0 <= 0, 0 <= d0, 3 >= d0 + 2)",
        "(d0) : (-d0 >= 0, d0 >= 0, -(d0 + 2) + 3 >= 0)",
        Same,
    ),
    ("(d0) : (d0 > = 0, d0 = = 0)", "(d0) : (d0 >= 0, d0 == 0)", Same),
    (
        "(d0, d1)[s0] : (d0 - s0 >= 0, d1 == 0, -d0 + s0 - 1 >= 0)",
        "(d0, d1)[s0] : (d0 - s0 >= 0, d1 == 0, -d0 + s0 - 1 >= 0)",
        Same,
    ),
    (
        "(d0, d1)[s0, s1] : (d0 + d1 - s0 == s1, d0 * 2 <= s1 floordiv 2)",
        "(d0, d1)[s0, s1] : (d0 + d1 - s0 - s1 == 0, d0 * -2 + s1 floordiv 2 >= 0)",
        Same,
    ),
    (
        "(d0, d1) : (d0 mod 2 == 0, d1 - d0 >= 1, d0 + d1 <= 10)",
        "(d0, d1) : (d0 mod 2 == 0, d1 - d0 - 1 >= 0, -(d0 + d1) + 10 >= 0)",
        Same,
    ),
    (
        "(i, j)[N] : (i >= 0, N - i - 1 >= 0, j - i >= 0, i * 2 + j == N)",
        "(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 - d0 >= 0, d0 * 2 + d1 - s0 == 0)",
        Same,
    ),
    ("()[s0] : (s0 - 1 >= 0)", "()[s0] : (s0 - 1 >= 0)", Same),
    (
        "(d0) : (d0 - d0 >= 0, d0 floordiv 4 >= d0 ceildiv 4)",
        "(d0) : (0 >= 0, d0 floordiv 4 - d0 ceildiv 4 >= 0)",
        Same,
    ),
];

/// (map, what `-affine-simplify-structures` makes of it).
const SIMPLIFY_CASES: &[(&str, &str)] = &[
    ("(d0, d1)[s0] -> ((d0 * 4 + d1) floordiv 2, (d0 * 6 + 3) mod 4 + d0 floordiv 3, d0 - (d0 floordiv 8) * 8, (d0 + 7) ceildiv 4 * 4, d0 * s0 + d0 * s0)", "(d0, d1)[s0] -> (d0 * 2 + d1 floordiv 2, d0 * 6 - ((d0 * 6 + 3) floordiv 4) * 4 + d0 floordiv 3 + 3, d0 mod 8, ((d0 + 7) ceildiv 4) * 4, (d0 * s0) * 2)"),
    ("(d0, d1) -> ((d0 * 4 + d1 * 2) floordiv 2 + (d0 * 6 + 3) mod 4)", "(d0, d1) -> (d0 * 8 + d1 - ((d0 * 6 + 3) floordiv 4) * 4 + 3)"),
    ("(d0, d1) -> (d1 + d0, (d0 + d1) - d1, d0 * 2 + d1 - d0 * 2)", "(d0, d1) -> (d0 + d1, d0, d1)"),
    ("(d0) -> ((d0 * 2 + 1) floordiv 2, (d0 * 8 + 4) mod 2, (d0 * 2) mod 8)", "(d0) -> (d0, 0, d0 * 2 - (d0 floordiv 4) * 8)"),
    ("(d0) -> ((d0 + 3) floordiv 4 - (d0 + 3) ceildiv 4, d0 mod 4 + (d0 floordiv 4) * 4)", "(d0) -> ((d0 + 3) floordiv 4 - (d0 + 3) ceildiv 4, d0)"),
    ("(d0, d1) -> ((d0 floordiv 2) floordiv 3, (d0 ceildiv 2) ceildiv 3, (d0 mod 6) mod 3)", "(d0, d1) -> ((d0 floordiv 2) floordiv 3, (d0 ceildiv 2) ceildiv 3, d0 mod 3)"),
    ("(d0, d1, d2) -> (d2 * 3 + d0 - d1 + d2 - d0 * 2 + 7 - 3)", "(d0, d1, d2) -> (-d0 - d1 + d2 * 4 + 4)"),
    ("(d0)[s0, s1] -> (s1 + s0 * 2 + d0 - s1, (s0 + d0) floordiv 2 + (d0 + s0) floordiv 2)", "(d0)[s0, s1] -> (d0 + s0 * 2, ((d0 + s0) floordiv 2) * 2)"),
    ("(d0) -> ((d0 * 6) floordiv 4, (d0 * 6) ceildiv 4, (d0 * 6) mod 4)", "(d0) -> ((d0 * 3) floordiv 2, (d0 * 3) ceildiv 2, d0 * 6 - ((d0 * 3) floordiv 2) * 4)"),
    ("(d0, d1) -> (((d0 + d1) floordiv 2) * 2 + (d0 + d1) mod 2)", "(d0, d1) -> (d0 + d1)"),
    ("(d0)[s0] -> ((d0 * s0) floordiv s0, ((d0 * s0) floordiv 4) floordiv s0, (d0 * s0) mod s0)", "(d0)[s0] -> (d0, d0 floordiv 4, 0)"),
    ("(d0, d1)[s0] -> (d0 * s0 + d1 + s0 + d0 + 3, d1 * s0 + d0 * s0 + s0 * s0 + s0 mod 4)", "(d0, d1)[s0] -> (d0 + d0 * s0 + s0 + d1 + 3, d0 * s0 + s0 + s0 * s0 - (s0 floordiv 4) * 4 + d1 * s0)"),
    ("()[s0, s1] -> ((s0 - s0 mod s1) mod s1, s0 * s1 + s1 * s0)", "()[s0, s1] -> (0, (s0 * s1) * 2)"),
    ("(d0) -> (d0 floordiv 0, d0 mod -2, (d0 * 2) floordiv -2)", "(d0) -> (d0 floordiv 0, d0 mod -2, -d0)"),
    ("(d0, d1) -> (d0 - d0, 5, d1 * 0 + 3)", "(d0, d1) -> (0, 5, 3)"),
    ("(d0, d1, d2) -> ((d0 * 64 + d1 * 8 + d2) floordiv 8, (d0 * 64 + d1 * 8 + d2) mod 8)", "(d0, d1, d2) -> (d0 * 8 + d1 + d2 floordiv 8, d2 mod 8)"),
    ("(d0, d1) -> ((d0 + d1 * 16) floordiv 16 * 16 + (d0 + d1 * 16) mod 16)", "(d0, d1) -> (d0 + d1 * 16)"),
    ("(d0) -> ((d0 floordiv 4) * 4 + d0 mod 4, (d0 ceildiv 4) * 4)", "(d0) -> (d0, (d0 ceildiv 4) * 4)"),
    ("(d0)[s0] -> ((d0 + s0 * 4) floordiv 4, (d0 * 4 + s0 * 4) mod 8)", "(d0)[s0] -> (d0 floordiv 4 + s0, d0 * 4 + ((d0 + s0) floordiv 2) * -8 + s0 * 4)"),
    ("(d0, d1) -> ((d0 * 3 + d1 * 6) floordiv 9, (d0 * 3 + d1 * 6) ceildiv 9)", "(d0, d1) -> ((d0 + d1 * 2) floordiv 3, (d0 + d1 * 2) ceildiv 3)"),
];

/// (input, byte offset, message) of the first error mlir-opt reports.
const ERROR_CASES: &[(&str, usize, &str)] = &[
    (
        "(d0) -> (d0 * d0)",
        12,
        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
    ),
    (
        "(d0) -> (d0 floordiv d0)",
        12,
        "non-affine expression: right operand of floordiv has to be either a constant or symbolic",
    ),
    (
        "(d0) -> (d0 mod d0)",
        12,
        "non-affine expression: right operand of mod has to be either a constant or symbolic",
    ),
    (
        "(d0) -> (d0 ceildiv d0)",
        12,
        "non-affine expression: right operand of ceildiv has to be either a constant or symbolic",
    ),
    ("(d0) -> (d1)", 9, "use of undeclared identifier"),
    ("(d0) -> (9223372036854775808)", 9, "constant too large for index"),
    ("(d0) -> (18446744073709551616)", 9, "constant too large for index"),
    ("(d0) -> (d0 +)", 13, "missing right operand of binary operator"),
    ("(d0) -> (+ d0)", 9, "missing left operand of binary operator"),
    ("(d0) -> (* d0)", 9, "missing left operand of binary operator"),
    ("(d0) -> (d0", 11, "expected ')' in affine map range"),
    ("(d0, d0) -> (d0)", 5, "redefinition of identifier 'd0'"),
    ("(d0) -> (d0 * )", 14, "missing right operand of binary operator"),
    (
        "(d0) : (d0)",
        10,
        "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
    ),
    ("(d0) : (d0 >= 1", 15, "expected ')' in integer set constraint list"),
    ("(d0) -> (d0 1)", 11, "expected ')' in affine map range"),
    ("(d0) (d0)", 4, "expected '->' or ':'"),
    ("(d0 -> (d0)", 3, "expected ')' in dimensional identifier list"),
    ("(d0)[ -> (d0)", 5, "expected bare identifier"),
    ("(1) -> (d0)", 1, "expected bare identifier"),
    ("(d0) -> (,)", 9, "expected affine expression"),
    ("(d0) -> (d0,)", 12, "expected affine expression"),
    ("(d0) -> (%x)", 9, "unexpected ssa identifier"),
    ("(d0) -> (symbol(d0))", 16, "unexpected ssa identifier"),
    ("(d0) -> (symbol d0)", 15, "expected '(' at start of SSA symbol"),
    ("(d0) -> (1.5)", 9, "expected affine expression"),
    ("(d0) -> (-)", 10, "expected affine expression"),
    (
        "(d0) -> (d0 * d0 * 2)",
        17,
        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
    ),
    (
        "(d0) -> (d0 * 2 * d0 * d0)",
        21,
        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
    ),
    (
        "(d0) -> (d0 * d0 + 1)",
        12,
        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
    ),
    (
        "(d0) -> ((d0 + 1) * (d0 + 2))",
        18,
        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
    ),
    ("(d0) -> (())", 10, "no expression inside parentheses"),
    ("(d0) -> ((d0)", 13, "expected ')' in affine map range"),
    ("(d0) -> (d0))", 12, "expected '>' in affine map"),
    (
        "(d0) : (d0 > 0)",
        13,
        "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
    ),
    (
        "(d0) : (d0 = 0)",
        13,
        "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
    ),
    ("(d0) : (d0 <= )", 14, "expected affine expression"),
    (
        "(d0) : (d0 < 0)",
        13,
        "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
    ),
    (
        "(d0)[s0] -> (d0 mod (s0 + d0))",
        16,
        "non-affine expression: right operand of mod has to be either a constant or symbolic",
    ),
    ("(d0)[s0, s0] -> (d0)", 9, "redefinition of identifier 's0'"),
    ("(d0)[d0] -> (d0)", 5, "redefinition of identifier 'd0'"),
    ("(d0) -> d0", 7, "expected '(' in affine map range"),
    ("(d0) -> ", 7, "expected '(' in affine map range"),
    ("(d0)", 4, "expected '->' or ':'"),
    ("()", 2, "expected '->' or ':'"),
    ("(d0) -> (d0 floordiv)", 20, "missing right operand of binary operator"),
    ("(d0) -> (d0 - - )", 16, "missing right operand of binary operator"),
    ("(d0) : (d0 >= 0,)", 16, "expected affine expression"),
    ("(d0) : (d0 == 0 0)", 15, "expected ')' in integer set constraint list"),
    ("(d0)[s0 -> (d0)", 7, "expected ']' in symbol list"),
    ("[s0] -> (s0)", 0, "expected '(' in dimensional identifier list"),
    ("(d0) -> (0x)", 10, "expected ')' in affine map range"),
    (
        "(d0)[s0] -> ((d0 - (d0 + 1)) * d0)",
        29,
        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
    ),
    (
        "(d0)[s0] -> (s0 * d0 * d0)",
        21,
        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
    ),
    (
        "(d0)[s0] -> (d0 * s0 * d0)",
        21,
        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
    ),
    ("(d0) -> (mod)", 9, "use of undeclared identifier"),
    ("(d0) -> (floordiv)", 9, "use of undeclared identifier"),
    (
        "(mod) -> (mod mod mod)",
        14,
        "non-affine expression: right operand of mod has to be either a constant or symbolic",
    ),
    ("(d0) -> (d0 ceildiv ceildiv)", 19, "use of undeclared identifier"),
];

fn print(text: &str) -> String {
    match parse_affine_map_or_set(text) {
        Ok(AffineMapOrSet::Map(m)) => m.to_string(),
        Ok(AffineMapOrSet::Set(s)) => s.to_string(),
        Err(e) => panic!("{text:?} does not parse: {e}"),
    }
}

#[test]
fn printing_matches_mlir_opt() {
    assert!(PRINT_CASES.len() >= 60);
    for (input, expected, reread) in PRINT_CASES {
        assert_eq!(print(input), *expected, "input: {input}");
        match reread {
            Same => assert_eq!(print(expected), *expected, "reading back: {expected}"),
            Reread(again) => assert_eq!(print(expected), *again, "reading back: {expected}"),
            Rejected => assert_eq!(
                parse_affine_map_or_set(expected).map_err(|e| e.message),
                Err("constant too large for index".to_string()),
                "reading back: {expected}"
            ),
        }
    }
}

#[test]
fn simplification_matches_mlir_opt() {
    for (input, expected) in SIMPLIFY_CASES {
        let map = parse_affine_map(input).unwrap();
        assert_eq!(map.simplify().to_string(), *expected, "input: {input}");
        // Simplifying again changes nothing.
        let again = parse_affine_map(expected).unwrap().simplify();
        assert_eq!(again.to_string(), *expected, "resimplifying: {expected}");
    }
}

#[test]
fn errors_match_mlir_opt() {
    for (input, offset, message) in ERROR_CASES {
        let err = parse_affine_map_or_set(input).expect_err(input);
        assert_eq!(
            (err.offset, err.message.as_str()),
            (*offset, *message),
            "input: {input}"
        );
    }
}
