//! A thread's memory of values computed for one [`Context`].
//!
//! Several hot paths remember, per thread, what they computed lately (a
//! dictionary attribute by its entry, an op shape the verifier passed, a
//! simplified map), so that they do not look it up again in a table every
//! thread shares. What they remember holds only for the context it was
//! computed in: a [`ContextMemo`] is tied to one context by its
//! [`Context::uid`] and forgets everything when used with another.

use crate::Context;
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// Values by key, for one context at a time (see the module docs). Meant to
/// live in a `thread_local!`.
pub struct ContextMemo<K, V> {
    /// The [`Context::uid`] of the context the entries belong to (0: none;
    /// real contexts count from 1).
    uid: u64,
    entries: FxHashMap<K, V>,
}

impl<K, V> Default for ContextMemo<K, V> {
    fn default() -> Self {
        ContextMemo {
            uid: 0,
            entries: FxHashMap::default(),
        }
    }
}

impl<K: Hash + Eq, V> ContextMemo<K, V> {
    /// The value remembered for `key` in `ctx`.
    pub fn get(&self, ctx: &Context, key: &K) -> Option<&V> {
        if self.uid == ctx.uid() {
            self.entries.get(key)
        } else {
            None
        }
    }

    /// Remembers `value` for `key` in `ctx`. Everything remembered is
    /// forgotten first when it was for another context, or when `limit`
    /// entries are already held (which bounds the memory).
    pub fn insert(&mut self, ctx: &Context, key: K, value: V, limit: usize) {
        if self.uid != ctx.uid() || self.entries.len() >= limit {
            self.entries.clear();
            self.uid = ctx.uid();
        }
        self.entries.insert(key, value);
    }
}
