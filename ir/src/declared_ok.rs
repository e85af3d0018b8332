//! Which ops of a body passed the checks of their declaration since they
//! last changed.
//!
//! [`crate::ods::verify::verify_declared`] depends only on an op's
//! declaration, name, operand, result, region and successor counts,
//! properties and operand and result types. A body keeps one bit per op
//! saying that the op passed those checks and none of these has changed
//! since: every [`Body`](crate::Body) method that changes one of them clears
//! the op's bit (operands set or replaced, properties or attributes set, a
//! value's type changed, a nested body installed). Verifying IR again after
//! a pass (`--verify-each`) then skips the declared checks of the ops the
//! pass left alone, without hashing them. A copy made by
//! [`crate::clone::clone_op`] whose operands have the original's types
//! takes the original's bit (it has the same name, counts, properties and
//! types), so the copies an unrolling makes are not checked again either.
//!
//! The bits hold for one context in one registration state
//! ([`Context::verify_epoch`](crate::Context::verify_epoch)), which the
//! first op to pass claims for the body; under any other epoch they are
//! neither read nor set. Bits are set through a shared reference (the
//! verifier holds `&Body`) with a plain load and store of the word: two
//! threads setting bits of one word at once can lose one, which only means
//! that op is checked again; bits are cleared only through `&mut`.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One bit per op id (see the module docs).
#[derive(Default)]
pub(crate) struct DeclaredOk {
    /// The verify epoch the bits hold for; 0 while unclaimed.
    epoch: AtomicU64,
    words: Vec<AtomicU64>,
}

impl DeclaredOk {
    /// Makes room for the bit of op `id` (called as ops are created).
    #[inline]
    pub(crate) fn grow_to(&mut self, id: u32) {
        let word = id as usize / 64;
        if word >= self.words.len() {
            self.words.resize_with(word + 1, || AtomicU64::new(0));
        }
    }

    /// Whether op `id` passed under `epoch` and has not changed since.
    #[inline]
    pub(crate) fn holds(&self, id: u32, epoch: u64) -> bool {
        self.epoch.load(Relaxed) == epoch
            && self
                .words
                .get(id as usize / 64)
                .is_some_and(|w| w.load(Relaxed) >> (id % 64) & 1 == 1)
    }

    /// Notes that op `id` passed under `epoch` (nothing if the bits hold for
    /// another epoch).
    pub(crate) fn set(&self, id: u32, epoch: u64) {
        // The epoch is claimed once; after that a load tells (no atomic
        // read-modify-write for every op that passes).
        let mine = match self.epoch.load(Relaxed) {
            0 => match self.epoch.compare_exchange(0, epoch, Relaxed, Relaxed) {
                Ok(_) => true,
                Err(held) => held == epoch,
            },
            held => held == epoch,
        };
        if let (true, Some(w)) = (mine, self.words.get(id as usize / 64)) {
            let bits = w.load(Relaxed);
            let bit = 1u64 << (id % 64);
            if bits & bit == 0 {
                w.store(bits | bit, Relaxed);
            }
        }
    }

    /// Gives op `to` the bit of op `from` (a copy of it with the same
    /// name, counts, properties and types passes exactly when it does).
    #[inline]
    pub(crate) fn copy_bit(&mut self, from: u32, to: u32) {
        let passed = self
            .words
            .get_mut(from as usize / 64)
            .is_some_and(|w| *w.get_mut() >> (from % 64) & 1 == 1);
        match self.words.get_mut(to as usize / 64) {
            Some(w) if passed => *w.get_mut() |= 1u64 << (to % 64),
            _ => self.clear(to),
        }
    }

    /// Forgets that op `id` passed (it changed).
    #[inline]
    pub(crate) fn clear(&mut self, id: u32) {
        if let Some(w) = self.words.get_mut(id as usize / 64) {
            *w.get_mut() &= !(1u64 << (id % 64));
        }
    }

    /// Renumbers the bits after a compaction: `op_map[old]` is the new id of
    /// op `old` (or [`crate::entity::NONE`] for an erased one).
    pub(crate) fn renumber(&mut self, op_map: &[u32], ops: usize) {
        let mut words: Vec<AtomicU64> = (0..ops.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        for (old, &new) in op_map.iter().enumerate() {
            let was = self
                .words
                .get_mut(old / 64)
                .is_some_and(|w| *w.get_mut() >> (old % 64) & 1 == 1);
            if was && new != crate::entity::NONE {
                *words[new as usize / 64].get_mut() |= 1u64 << (new % 64);
            }
        }
        self.words = words;
    }
}

impl Clone for DeclaredOk {
    fn clone(&self) -> Self {
        DeclaredOk {
            epoch: AtomicU64::new(self.epoch.load(Relaxed)),
            words: self.words.iter().map(|w| AtomicU64::new(w.load(Relaxed))).collect(),
        }
    }
}

impl std::fmt::Debug for DeclaredOk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let passed: u32 = self.words.iter().map(|w| w.load(Relaxed).count_ones()).sum();
        write!(
            f,
            "DeclaredOk {{ epoch: {}, passed: {passed} }}",
            self.epoch.load(Relaxed)
        )
    }
}
