//! A thread-safe uniquing table: equal values get the same `u32` id.
//!
//! Values live in an append-only [`boxcar::Vec`], so reading a value by id never
//! takes a lock and references stay valid for the table's lifetime. The hash
//! table keeps only ids (no second copy of each value).

use hashbrown::HashTable;
use parking_lot::RwLock;
use std::hash::{BuildHasher, Hash};

type FxBuild = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// Uniques values of type `T` into dense `u32` ids.
pub(crate) struct Uniquer<T> {
    values: boxcar::Vec<T>,
    table: RwLock<HashTable<u32>>,
    hasher: FxBuild,
}

impl<T: Hash + Eq> Uniquer<T> {
    pub(crate) fn new() -> Self {
        Self {
            values: boxcar::Vec::new(),
            table: RwLock::new(HashTable::new()),
            hasher: FxBuild::default(),
        }
    }

    /// Returns the id of `value`, inserting it if it is new.
    pub(crate) fn intern(&self, value: T) -> u32 {
        let hash = self.hasher.hash_one(&value);
        if let Some(&id) = self.table.read().find(hash, |&id| self.values[id as usize] == value) {
            return id;
        }
        let mut table = self.table.write();
        if let Some(&id) = table.find(hash, |&id| self.values[id as usize] == value) {
            return id;
        }
        let id = self.values.push(value) as u32;
        table.insert_unique(hash, id, |&other| self.hasher.hash_one(&self.values[other as usize]));
        id
    }

    /// Looks a value up without inserting it.
    pub(crate) fn lookup(&self, value: &T) -> Option<u32> {
        let hash = self.hasher.hash_one(value);
        self.table
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
