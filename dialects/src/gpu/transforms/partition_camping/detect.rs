//! Partition-camping detection (DIGEST §004.8): the byte stride between
//! blocks `bidx` and `bidx + 1` of every global access whose address
//! involves `bidx`.

use crate::gpu::analysis::kernel_access::{KernelAccess, MemorySpace, Term};

/// The verdict on one global access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The address involves `bidx`: the stride in bytes between the same
    /// thread of blocks `bidx` and `bidx + 1`, and whether it is a multiple
    /// of `partition_bytes * partitions` (camping).
    Stride {
        /// Bytes between the accesses of neighbouring blocks.
        bytes: i64,
        /// Whether neighbouring blocks hit the same partition.
        camping: bool,
    },
    /// The address does not involve `bidx` (no camping by the seed's rule).
    NoBlockX,
    /// Not analysed, with the reason.
    Skipped(String),
}

/// The verdict on `access` for `partitions` partitions of `partition_bytes`
/// bytes; `None` for accesses that are not global.
pub fn check(access: &KernelAccess, partition_bytes: i64, partitions: i64) -> Option<Verdict> {
    if access.space != MemorySpace::Global {
        return None;
    }
    if let Some(why) = access.unresolved() {
        return Some(Verdict::Skipped(format!("unresolved subscript ({why})")));
    }
    let Some(offset) = access.flat_offset() else {
        return Some(Verdict::Skipped(
            "the memref's layout or inner sizes are not static".into(),
        ));
    };
    let Some(elem) = access.element_bytes else {
        return Some(Verdict::Skipped("the element type has no size".into()));
    };
    let coef = offset.coef(Term::Block(0));
    if coef == 0 {
        return Some(Verdict::NoBlockX);
    }
    let Some(bytes) = coef.checked_mul(elem as i64) else {
        return Some(Verdict::Skipped("the stride overflows".into()));
    };
    Some(Verdict::Stride {
        bytes,
        camping: bytes % (partition_bytes * partitions) == 0,
    })
}
