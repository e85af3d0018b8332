//! IHOP's static coalescing cost model (DIGEST §003.6): the memory time of
//! one access per thread, in cache lines read from global memory, for a
//! block shape and the access's coefficients along the counters mapped to
//! x, y and z.
//!
//! The unambiguous entries of the seed's 2-D and 3-D `t` tables are
//! implemented as printed (with `|a|` wherever a coefficient divides the
//! line size). The "two small coefficients" entries (`t22`, `t122`,
//! `t212`, `t221`, `t222`, `t223`), whose printed formulas are garbled,
//! count by enumeration how many threads of one block touch the block's
//! first cache line, as the digest recommends. A 1-D nest uses the 2-D
//! row with `a1 = 0` and `b1 = 1` (`t1 = 0`, `t2 = 1/min(CS/a0, b0)`,
//! `t3 = 1`).

/// The type of one coefficient of an access's linearized offset along a
/// mapped counter (the seed's types 1, 2 and 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coef {
    /// Type 1: the offset does not depend on the counter.
    Zero,
    /// Type 2: a literal `c` with `0 < |c| < CS` (stored as `|c|`).
    Small(u64),
    /// Type 3: `|c| >= CS`, or not known at compile time.
    Large,
}

impl Coef {
    /// The type of the coefficient `c` (`None`: unknown) for a line of
    /// `cs` elements. `|c| = CS`, which the seed leaves open, is large.
    pub fn classify(c: Option<i64>, cs: u64) -> Coef {
        match c {
            Some(0) => Coef::Zero,
            Some(c) if c.unsigned_abs() < cs => Coef::Small(c.unsigned_abs()),
            _ => Coef::Large,
        }
    }

    /// The seed's type number (1, 2 or 3).
    pub fn type_number(self) -> u8 {
        match self {
            Coef::Zero => 1,
            Coef::Small(_) => 2,
            Coef::Large => 3,
        }
    }

    /// How many consecutive indices along a block side of `extent`
    /// threads stay inside the first line, counting from index 0, when the
    /// other sides stay at 0 (for the enumeration).
    fn magnitude(self) -> Option<u64> {
        match self {
            Coef::Zero => Some(0),
            Coef::Small(a) => Some(a),
            Coef::Large => None,
        }
    }
}

/// The cost per thread of one access: `coefs[d]` is the coefficient along
/// the counter mapped to block dimension `d` (x, y, z; 1 to 3 of them),
/// `block` the block sizes along x, y, z (unused ones 1), `cs` the line
/// size in elements.
pub fn thread_cost(coefs: &[Coef], block: [u64; 3], cs: u64) -> f64 {
    match *coefs {
        [a0] => t2d(a0, Coef::Zero, [block[0], 1], cs),
        [a0, a1] => t2d(a0, a1, [block[0], block[1]], cs),
        [a0, a1, a2] => t3d(a0, a1, a2, block, cs),
        _ => 0.0,
    }
}

fn inv(x: u64) -> f64 {
    1.0 / x.max(1) as f64
}

/// The 2-D table, `t_kj` with `k` the type of `a0` and `j` that of `a1`.
pub fn t2d(a0: Coef, a1: Coef, b: [u64; 2], cs: u64) -> f64 {
    use Coef::*;
    let bv = b[0] * b[1];
    match (a0, a1) {
        (Zero, Zero) => 0.0,
        (Zero, Small(a1)) => inv((cs / a1 * b[0]).min(bv)),
        (Zero, Large) => inv(b[0]),
        (Small(a0), Zero) => inv((cs / a0 * b[1]).min(bv)),
        (Small(_), Small(_)) => inv(threads_on_first_line(&[a0, a1], &b, cs)),
        (Small(a0), Large) => inv((cs / a0).min(b[0])),
        (Large, Zero) => inv(b[1]),
        (Large, _) => 1.0,
    }
}

/// The 3-D table, `t_kjm` with `k`, `j`, `m` the types of `a0`, `a1`, `a2`.
pub fn t3d(a0: Coef, a1: Coef, a2: Coef, b: [u64; 3], cs: u64) -> f64 {
    use Coef::*;
    let bv = b[0] * b[1] * b[2];
    let enumerate = || inv(threads_on_first_line(&[a0, a1, a2], &b, cs));
    match (a0, a1, a2) {
        (Zero, Zero, Zero) => 0.0,
        (Zero, Zero, Small(a2)) => inv((cs / a2 * b[0] * b[1]).min(bv)),
        (Zero, Zero, Large) => inv(b[0] * b[1]),
        (Zero, Small(a1), Zero) => inv((cs / a1 * b[0] * b[2]).min(bv)),
        (Zero, Small(_), Small(_)) => enumerate(),
        (Zero, Small(a1), Large) => inv((cs / a1 * b[0]).min(b[0] * b[1])),
        (Zero, Large, Zero) => inv(b[0] * b[2]),
        (Zero, Large, _) => inv(b[0]),
        (Small(a0), Zero, Zero) => inv((cs / a0 * b[1] * b[2]).min(bv)),
        (Small(_), Zero, Small(_)) => enumerate(),
        (Small(a0), Zero, Large) => inv((cs / a0 * b[1]).min(b[0] * b[1])),
        (Small(_), Small(_), _) => enumerate(),
        (Small(a0), Large, Zero) => inv((cs / a0 * b[2]).min(b[0] * b[2])),
        (Small(a0), Large, _) => inv((cs / a0).min(b[0])),
        (Large, Zero, Zero) => inv(b[1] * b[2]),
        (Large, Zero, _) => inv(b[1]),
        (Large, Small(_), Zero) | (Large, Large, Zero) => inv(b[2]),
        (Large, _, _) => 1.0,
    }
}

/// How many threads of one block touch the block's first cache line: the
/// threads `(x, y, z)` whose offset `|a0|·x + |a1|·y + |a2|·z` is below
/// `cs` (a large coefficient keeps its side at index 0, as the seed's
/// simplification has it: a large stride on a lower dimension stops
/// sharing along it). At least 1 (the first thread).
pub fn threads_on_first_line(coefs: &[Coef], block: &[u64], cs: u64) -> u64 {
    fn count(coefs: &[Coef], block: &[u64], budget: u64) -> u64 {
        let Some((&c, rest)) = coefs.split_first() else {
            return 1;
        };
        let extent = block[0];
        let rest_block = &block[1..];
        match c.magnitude() {
            None => count(rest, rest_block, budget),
            Some(0) => extent * count(rest, rest_block, budget),
            Some(a) => (0..extent)
                .map_while(|i| budget.checked_sub(i * a).filter(|&left| left > 0))
                .map(|left| count(rest, rest_block, left))
                .sum(),
        }
    }
    // Thread (x, y, z) is on the first line when its offset is < cs, i.e.
    // when the "budget" cs - offset stays positive.
    count(coefs, block, cs).max(1)
}

#[cfg(test)]
mod tests {
    use super::Coef::{Large, Small, Zero};
    use super::*;

    const CS: u64 = 32;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn coefficient_types_follow_the_seed() {
        assert_eq!(Coef::classify(Some(0), CS), Zero);
        assert_eq!(Coef::classify(Some(-3), CS), Small(3));
        assert_eq!(Coef::classify(Some(31), CS), Small(31));
        assert_eq!(Coef::classify(Some(32), CS), Large, "|c| = CS is large");
        assert_eq!(Coef::classify(Some(1000), CS), Large);
        assert_eq!(Coef::classify(None, CS), Large, "unknown is large");
    }

    #[test]
    fn two_d_unambiguous_entries() {
        let b = [16, 16];
        assert!(close(t2d(Zero, Zero, b, CS), 0.0), "t11");
        // t12 = 1/min((CS/a1)·b0, BV)
        assert!(close(t2d(Zero, Small(4), b, CS), 1.0 / 128.0), "t12");
        assert!(close(t2d(Zero, Small(1), b, CS), 1.0 / 256.0), "t12 capped by BV");
        assert!(close(t2d(Zero, Large, b, CS), 1.0 / 16.0), "t13 = 1/b0");
        // t21 = 1/min((CS/a0)·b1, BV)
        assert!(close(t2d(Small(8), Zero, b, CS), 1.0 / 64.0), "t21");
        // t23 = 1/min(CS/a0, b0)
        assert!(close(t2d(Small(1), Large, b, CS), 1.0 / 16.0), "t23 limited by b0");
        assert!(
            close(t2d(Small(2), Large, [64, 4], CS), 1.0 / 16.0),
            "t23 limited by CS/a0"
        );
        assert!(close(t2d(Large, Zero, b, CS), 1.0 / 16.0), "t31 = 1/b1");
        assert!(close(t2d(Large, Small(1), b, CS), 1.0), "t32");
        assert!(close(t2d(Large, Large, b, CS), 1.0), "t33");
    }

    #[test]
    fn two_small_coefficients_count_threads_on_the_first_line() {
        // The digest's check: a0 = 1, a1 = b0 = 4, CS = 32 gives 32 threads.
        assert!(close(t2d(Small(1), Small(4), [4, 64], CS), 1.0 / 32.0));
        // Rows overlapping: a0 = 1, a1 = 2, b = 8x32: offsets x + 2y < 32.
        let n: u64 = (0..32u64).map(|y| (32u64.saturating_sub(2 * y)).min(8)).sum();
        assert!(close(t2d(Small(1), Small(2), [8, 32], CS), 1.0 / n as f64));
    }

    #[test]
    fn three_d_unambiguous_entries() {
        let b = [8, 4, 8]; // BV = 256
        assert!(close(t3d(Zero, Zero, Zero, b, CS), 0.0), "t111");
        assert!(
            close(t3d(Zero, Zero, Small(16), b, CS), 1.0 / 64.0),
            "t112 = 1/min((CS/a2)b0b1, BV)"
        );
        assert!(close(t3d(Zero, Zero, Large, b, CS), 1.0 / 32.0), "t113 = 1/(b0 b1)");
        assert!(
            close(t3d(Zero, Small(16), Zero, b, CS), 1.0 / 128.0),
            "t121 = 1/min((CS/a1)b0b2, BV)"
        );
        assert!(
            close(t3d(Zero, Small(16), Large, b, CS), 1.0 / 16.0),
            "t123 = 1/min((CS/a1)b0, b0b1)"
        );
        assert!(close(t3d(Zero, Large, Zero, b, CS), 1.0 / 64.0), "t131 = 1/(b0 b2)");
        assert!(close(t3d(Zero, Large, Small(1), b, CS), 1.0 / 8.0), "t132 = 1/b0");
        assert!(close(t3d(Zero, Large, Large, b, CS), 1.0 / 8.0), "t133 = 1/b0");
        assert!(
            close(t3d(Small(4), Zero, Zero, b, CS), 1.0 / 256.0),
            "t211 = 1/min((CS/a0)b1b2, BV)"
        );
        assert!(
            close(t3d(Small(16), Zero, Large, b, CS), 1.0 / 8.0),
            "t213 = 1/min((CS/a0)b1, b0b1)"
        );
        assert!(
            close(t3d(Small(16), Large, Zero, b, CS), 1.0 / 16.0),
            "t231 = 1/min((CS/a0)b2, b0b2)"
        );
        assert!(
            close(t3d(Small(16), Large, Small(2), b, CS), 1.0 / 2.0),
            "t232 = 1/min(CS/a0, b0)"
        );
        assert!(
            close(t3d(Small(1), Large, Large, b, CS), 1.0 / 8.0),
            "t233 = 1/min(CS/a0, b0)"
        );
        assert!(close(t3d(Large, Zero, Zero, b, CS), 1.0 / 32.0), "t311 = 1/(b1 b2)");
        assert!(close(t3d(Large, Zero, Small(1), b, CS), 1.0 / 4.0), "t312 = 1/b1");
        assert!(close(t3d(Large, Zero, Large, b, CS), 1.0 / 4.0), "t313 = 1/b1");
        assert!(close(t3d(Large, Small(1), Zero, b, CS), 1.0 / 8.0), "t321 = 1/b2");
        assert!(close(t3d(Large, Small(1), Small(1), b, CS), 1.0), "t322");
        assert!(close(t3d(Large, Small(1), Large, b, CS), 1.0), "t323");
        assert!(close(t3d(Large, Large, Zero, b, CS), 1.0 / 8.0), "t331 = 1/b2");
        assert!(close(t3d(Large, Large, Small(1), b, CS), 1.0), "t332");
        assert!(close(t3d(Large, Large, Large, b, CS), 1.0), "t333");
    }

    #[test]
    fn three_d_enumerated_entries() {
        // t222, dense: a0 = 1, a1 = b0, a2 = b0·b1: the first line holds
        // CS consecutive threads.
        assert!(close(t3d(Small(1), Small(4), Small(16), [4, 4, 16], CS), 1.0 / 32.0));
        // t223: a large a2 keeps z at 0: the xy-plane's threads below CS.
        assert!(close(t3d(Small(1), Small(8), Large, [8, 8, 4], CS), 1.0 / 32.0));
        // t122: a0 = 0 shares along x: b0 · (threads of the yz-plane).
        assert!(close(
            t3d(Zero, Small(1), Small(4), [2, 4, 32], CS),
            2.0f64.recip() / 32.0
        ));
    }

    #[test]
    fn one_d_uses_the_first_row() {
        assert!(close(thread_cost(&[Zero], [256, 1, 1], CS), 0.0));
        assert!(close(thread_cost(&[Small(1)], [256, 1, 1], CS), 1.0 / 32.0));
        assert!(close(thread_cost(&[Small(2)], [8, 1, 1], CS), 1.0 / 8.0));
        assert!(close(thread_cost(&[Large], [256, 1, 1], CS), 1.0));
    }
}
