//! Typed `u32` ids for entities stored in arenas.
//!
//! Every entity of the IR (operation, block, region, value, operand use) lives in
//! an arena of its [`Body`](crate::Body) and is named by a small `Copy` id, as in
//! Cranelift. Ids are only meaningful together with the body that made them.

/// Declares a typed entity id wrapping a `u32`.
macro_rules! entity_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The id's index in its arena.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// Makes an id from an arena index.
            #[inline]
            pub fn from_index(index: usize) -> Self {
                Self(index as u32)
            }
        }
    };
}

entity_id!(
    /// An operation in a body.
    OpId
);
entity_id!(
    /// A block in a body.
    BlockId
);
entity_id!(
    /// A region in a body.
    RegionId
);
entity_id!(
    /// An SSA value (an operation result or a block argument) in a body.
    Value
);
entity_id!(
    /// One operand slot of an operation: a use of a value.
    UseId
);

/// The "no entity" marker used inside packed storage.
pub(crate) const NONE: u32 = u32::MAX;

/// Converts a packed `u32` (with [`NONE`]) into an `Option` of an id.
#[inline]
pub(crate) fn opt<T>(raw: u32, make: fn(u32) -> T) -> Option<T> {
    if raw == NONE {
        None
    } else {
        Some(make(raw))
    }
}
