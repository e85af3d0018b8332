//! A thread-safe uniquing table: equal values get the same `u32` id.
//!
//! Values live in an append-only [`boxcar::Vec`], so reading a value by id never
//! takes a lock and references stay valid for the table's lifetime. The hash
//! table keeps only ids (no second copy of each value).

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
    tables: [RwLock<HashTable<u32>>; SHARDS],
    hasher: FxBuild,
}

/// The shard of a hash: bits that the tables themselves do not use (they
/// take the low bits for the slot and the top 7 for the tag).
#[inline]
fn shard(hash: u64) -> usize {
    (hash >> 32) as usize % SHARDS
}

impl<T: Hash + Eq> Uniquer<T> {
    pub(crate) fn new() -> Self {
        Self {
            values: boxcar::Vec::new(),
            tables: std::array::from_fn(|_| RwLock::new(HashTable::new())),
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

    /// [`Uniquer::intern`] through the shared, locked tables.
    fn intern_shared(&self, hash: u64, value: T) -> u32 {
        let shard = &self.tables[shard(hash)];
        if let Some(&id) = shard.read().find(hash, |&id| self.values[id as usize] == value) {
            return id;
        }
        let mut table = shard.write();
        if let Some(&id) = table.find(hash, |&id| self.values[id as usize] == value) {
            return id;
        }
        let id = self.values.push(value) as u32;
        table.insert_unique(hash, id, |&other| self.hasher.hash_one(&self.values[other as usize]));
        id
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
        let id = self.tables[shard(hash)]
            .read()
            .find(hash, |&id| self.values[id as usize].borrow() == q)
            .copied()?;
        self.remember(hash, id);
        Some(id)
    }

    /// Looks a value up without inserting it.
    pub(crate) fn lookup(&self, value: &T) -> Option<u32> {
        let hash = self.hasher.hash_one(value);
        self.tables[shard(hash)]
            .read()
            .find(hash, |&id| self.values[id as usize] == *value)
            .copied()
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
