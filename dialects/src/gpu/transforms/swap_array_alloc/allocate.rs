//! The free-queue allocation of DIGEST §000.6: definitions walk the
//! top-level ops in order; a definition takes an array from the free queue
//! of its type (shape and element type) or a new one, and after the op the
//! arrays whose last use it was go back to their queue (allocation before
//! release). The number of arrays of a type is the largest number of its
//! buffers live at once.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// One buffer's live range over the top-level ops: its first and last
/// access (positions), and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveRange<T> {
    /// The type: buffers share arrays only within one type.
    pub ty: T,
    /// The position of the first top-level op that accesses it.
    pub first: usize,
    /// The position of the last one.
    pub last: usize,
}

/// The array (an index into the returned count) of each buffer, and how
/// many arrays there are. Arrays are numbered in order of creation.
pub fn allocate<T: Copy + Eq + Hash>(ranges: &[LiveRange<T>]) -> (Vec<usize>, usize) {
    let mut array = vec![usize::MAX; ranges.len()];
    let mut free: HashMap<T, VecDeque<usize>> = HashMap::new();
    let mut count = 0;
    let end = ranges.iter().map(|r| r.last + 1).max().unwrap_or(0);
    for k in 0..end {
        for (i, r) in ranges.iter().enumerate().filter(|(_, r)| r.first == k) {
            array[i] = match free.get_mut(&r.ty).and_then(|q| q.pop_front()) {
                Some(a) => a,
                None => {
                    count += 1;
                    count - 1
                }
            };
        }
        for (i, r) in ranges.iter().enumerate().filter(|(_, r)| r.last == k) {
            free.entry(r.ty).or_default().push_back(array[i]);
        }
    }
    (array, count)
}

/// The number of arrays [`allocate`] needs for `ranges`.
pub fn array_count<T: Copy + Eq + Hash>(ranges: &[LiveRange<T>]) -> usize {
    allocate(ranges).1
}

#[cfg(test)]
mod tests {
    use super::{allocate, LiveRange};

    fn r(first: usize, last: usize) -> LiveRange<u8> {
        LiveRange { ty: 0, first, last }
    }

    #[test]
    fn chain_of_four_needs_two() {
        // A defined at 0 read at 1; B at 1 read at 2; C at 2, read at 3; D at 3 read at 4.
        let (arrays, count) = allocate(&[r(0, 1), r(1, 2), r(2, 3), r(3, 4)]);
        assert_eq!(count, 2);
        assert_eq!(arrays, vec![0, 1, 0, 1]);
    }

    #[test]
    fn allocation_before_release() {
        // B is defined by the op that reads A last: they cannot share.
        assert_eq!(allocate(&[r(0, 1), r(1, 2)]).1, 2);
        // C is defined after A's last read: it reuses A's array.
        assert_eq!(allocate(&[r(0, 1), r(1, 3), r(2, 3)]).0, vec![0, 1, 0]);
    }

    #[test]
    fn types_do_not_share() {
        let a = LiveRange {
            ty: 0u8,
            first: 0,
            last: 1,
        };
        let b = LiveRange {
            ty: 1u8,
            first: 2,
            last: 3,
        };
        assert_eq!(allocate(&[a, b]).1, 2);
    }

    #[test]
    fn count_is_max_live() {
        // Three live at op 2.
        assert_eq!(allocate(&[r(0, 2), r(1, 3), r(2, 4), r(3, 5), r(5, 6)]).1, 3);
    }
}
