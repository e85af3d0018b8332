//! A thread-safe uniquing table: equal values get the same `u32` id.
//!
//! Values live in an append-only [`boxcar::Vec`], so reading a value by id never
//! takes a lock and references stay valid for the table's lifetime. The hash
//! table keeps ids (no second copy of each value), each with 32 bits of its
//! value's hash: a growing table moves its entries by those bits without
//! reading the values (hashing an affine map again meant following its
//! pointers to nodes long out of the cache: a tenth of the time spent
//! parsing alias definitions went there).

use crossbeam_utils::CachePadded;
use hashbrown::HashTable;
use parking_lot::RwLock;
use std::hash::{BuildHasher, Hash};

type FxBuild = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// Number of independently locked parts of the hash table (threads that
/// intern at the same time mostly take different locks).
const SHARDS: usize = 16;

/// Slots of the per-thread cache of recent lookups (a power of two).
const FRONT_SLOTS: usize = 1024;

/// One remembered lookup: which table, the value's hash, its id.
#[derive(Copy, Clone)]
struct FrontEntry {
    table: usize,
    hash: u64,
    id: u32,
}

thread_local! {
    /// A direct-mapped cache in front of every [`Uniquer`], per thread: hot
    /// values (`f32`, `index`, a loop's map) are found without touching the
    /// shared locks, whose reader counts would otherwise bounce between
    /// cores. An entry is only a hint: the value at the id is compared
    /// before it is used, so entries of a table that is gone are harmless.
    static FRONT: [std::cell::Cell<FrontEntry>; FRONT_SLOTS] = const {
        [const { std::cell::Cell::new(FrontEntry { table: 0, hash: 0, id: 0 }) }; FRONT_SLOTS]
    };
}

/// The front-cache slot of a hash.
#[inline]
fn front_slot(hash: u64) -> usize {
    (hash ^ (hash >> 29)) as usize % FRONT_SLOTS
}

/// Uniques values of type `T` into dense `u32` ids.
pub(crate) struct Uniquer<T> {
    values: boxcar::Vec<T>,
    /// Each shard on cache lines of its own: a lock taken by one thread
    /// must not move the line of its neighbour, which another thread takes.
    tables: [CachePadded<RwLock<HashTable<Entry>>>; SHARDS],
    hasher: FxBuild,
}

/// An id in a hash table, with the bits its place there comes from.
#[derive(Copy, Clone)]
struct Entry {
    id: u32,
    /// The value's hash folded to 32 bits.
    hash: u32,
}

/// A value's hash folded to the 32 bits an [`Entry`] keeps.
#[inline]
fn fold(hash: u64) -> u32 {
    (hash ^ (hash >> 32)) as u32
}

/// The hash a table places an entry by: its folded bits spread over 64
/// (the tables take the low bits for the slot and the top 7 for the tag).
#[inline]
fn table_hash(folded: u32) -> u64 {
    u64::from(folded).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The shard of a hash: four bits of its high half (which the folded hash
/// a table places entries by mixes with the low half).
#[inline]
fn shard(hash: u64) -> usize {
    (hash >> 32) as usize % SHARDS
}

impl<T: Hash + Eq> Uniquer<T> {
    pub(crate) fn new() -> Self {
        Self {
            values: boxcar::Vec::new(),
            tables: std::array::from_fn(|_| CachePadded::new(RwLock::new(HashTable::new()))),
            hasher: FxBuild::default(),
        }
    }

    /// Returns the id of `value`, inserting it if it is new.
    pub(crate) fn intern(&self, value: T) -> u32 {
        let hash = self.hasher.hash_one(&value);
        if let Some(id) = self.front_hit(hash, |v| *v == value) {
            return id;
        }
        let id = self.intern_shared(hash, value);
        self.remember(hash, id);
        id
    }

    /// The id the calling thread's front cache holds for `hash` in this
    /// table, if the value there satisfies `is_it`.
    #[inline]
    fn front_hit(&self, hash: u64, is_it: impl FnOnce(&T) -> bool) -> Option<u32> {
        let hint = FRONT.with(|f| f[front_slot(hash)].get());
        let mine = hint.table == self as *const Self as usize && hint.hash == hash;
        (mine && self.values.get(hint.id as usize).is_some_and(is_it)).then_some(hint.id)
    }

    /// Notes in the calling thread's front cache that `hash` led to `id`.
    #[inline]
    fn remember(&self, hash: u64, id: u32) {
        let table = self as *const Self as usize;
        FRONT.with(|f| f[front_slot(hash)].set(FrontEntry { table, hash, id }));
    }

    /// Whether a table entry is for the value that hashes to `hash` (its
    /// kept bits are `fold(hash)`) and satisfies `is_it`.
    fn entry_is<'s>(&'s self, hash: u64, is_it: impl Fn(&T) -> bool + 's) -> impl Fn(&Entry) -> bool + 's {
        let folded = fold(hash);
        move |e: &Entry| e.hash == folded && is_it(&self.values[e.id as usize])
    }

    /// [`Uniquer::intern`] through the shared, locked tables.
    fn intern_shared(&self, hash: u64, value: T) -> u32 {
        if let Some(id) = self.find_shared(hash, |v| *v == value) {
            return id;
        }
        let folded = fold(hash);
        let mut table = self.tables[shard(hash)].write();
        if let Some(e) = table.find(table_hash(folded), self.entry_is(hash, |v| *v == value)) {
            return e.id;
        }
        let id = self.values.push(value) as u32;
        table.insert_unique(table_hash(folded), Entry { id, hash: folded }, |e| table_hash(e.hash));
        id
    }

    /// The id of the value that hashes to `hash` and satisfies `is_it`, in
    /// the shared tables.
    fn find_shared(&self, hash: u64, is_it: impl Fn(&T) -> bool) -> Option<u32> {
        self.tables[shard(hash)]
            .read()
            .find(table_hash(fold(hash)), self.entry_is(hash, is_it))
            .map(|e| e.id)
    }

    /// Looks up a value by a borrowed form of it (`&str` for `Box<str>`),
    /// without building a `T`. `Q` must hash as `T` does (as `str` and
    /// `Box<str>` do).
    pub(crate) fn lookup_borrowed<Q: ?Sized + Hash + Eq>(&self, q: &Q) -> Option<u32>
    where
        T: std::borrow::Borrow<Q>,
    {
        let hash = self.hasher.hash_one(q);
        if let Some(id) = self.front_hit(hash, |v| v.borrow() == q) {
            return Some(id);
        }
        let id = self.find_shared(hash, |v| v.borrow() == q)?;
        self.remember(hash, id);
        Some(id)
    }

    /// Looks a value up without inserting it.
    pub(crate) fn lookup(&self, value: &T) -> Option<u32> {
        self.find_shared(self.hasher.hash_one(value), |v| v == value)
    }

    /// The value with id `id`.
    #[inline]
    pub(crate) fn get(&self, id: u32) -> &T {
        &self.values[id as usize]
    }

    /// Number of values.
    pub(crate) fn len(&self) -> usize {
        self.values.count()
    }
}

#[cfg(test)]
mod tests {
    use super::Uniquer;

    /// Equal values get one id while the tables grow many times over (the
    /// entries are moved by their kept hash bits, never by hashing again),
    /// from several threads at once.
    #[test]
    fn ids_survive_growth_from_racing_threads() {
        let u: Uniquer<String> = Uniquer::new();
        let ids: Vec<Vec<u32>> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..4)
                .map(|t| {
                    let u = &u;
                    s.spawn(move || {
                        (0..20_000)
                            .map(|i| u.intern(format!("v{}", (i * 7 + t * 5_000) % 20_000)))
                            .collect::<Vec<u32>>()
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().expect("no panic")).collect()
        });
        assert_eq!(u.len(), 20_000);
        for (t, mine) in ids.iter().enumerate() {
            for (i, &id) in mine.iter().enumerate() {
                let v = format!("v{}", (i * 7 + t * 5_000) % 20_000);
                assert_eq!(u.get(id), &v);
                assert_eq!(u.lookup(&v), Some(id));
                assert_eq!(u.lookup_borrowed(v.as_str()), Some(id));
            }
        }
        assert_eq!(u.lookup(&"absent".to_string()), None);
    }
}
