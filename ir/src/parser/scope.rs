//! SSA value and block name scopes of the parser.
//!
//! Each isolated-from-above region (each [`Body`](crate::Body)) has its own
//! [`IsolatedScope`]: names from outside are invisible in it. Inside, names
//! defined in a region are dropped when the region closes, so sibling regions
//! may reuse them. Uses before definitions create placeholder values that are
//! replaced when the definition is seen.

use crate::{BlockId, Type, Value};
use lf_diag::SourcePos;
use rustc_hash::FxHashMap;

/// A defined name: a group of `count` consecutive values starting at `first`
/// (an op's results) or a single block argument.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Definition {
    pub(crate) first: Value,
    pub(crate) count: u32,
    /// Block arguments are not consecutive: `count` is 1 for them.
    pub(crate) pos: SourcePosLite,
}

/// A compact line/column pair (the file is the parser's).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct SourcePosLite {
    pub(crate) line: u32,
    pub(crate) col: u32,
}

/// A use before definition.
pub(crate) struct ForwardRef {
    pub(crate) placeholder: Value,
    pub(crate) ty: Type,
    pub(crate) pos: SourcePos,
}

/// Block names of one region.
#[derive(Default)]
pub(crate) struct BlockScope<'a> {
    pub(crate) blocks: FxHashMap<&'a str, (BlockId, bool, SourcePos)>,
}

/// Names visible in one isolated region tree.
#[derive(Default)]
pub(crate) struct IsolatedScope<'a> {
    pub(crate) values: FxHashMap<&'a str, Definition>,
    /// Names defined in the open regions, in order of definition (one list
    /// for all regions: no allocation per region).
    region_names: Vec<&'a str>,
    /// Where each open region's names start in `region_names` (innermost
    /// last).
    region_starts: Vec<usize>,
    /// Uses before definition, by (name, result number).
    pub(crate) forward: FxHashMap<(&'a str, u32), ForwardRef>,
    /// Block scopes of the open regions.
    pub(crate) block_scopes: Vec<BlockScope<'a>>,
    /// Placeholders resolved so far, with the position of their first use:
    /// an op still being parsed (its operands taken before its regions) may
    /// hold one, if its region defined the name (MLIR rejects that use).
    pub(crate) resolved: FxHashMap<Value, SourcePos>,
}

impl<'a> IsolatedScope<'a> {
    /// Opens a region.
    pub(crate) fn push_region(&mut self) {
        self.region_starts.push(self.region_names.len());
        self.block_scopes.push(BlockScope::default());
    }

    /// Records `name` as defined in the innermost open region (if any).
    pub(crate) fn note_defined(&mut self, name: &'a str) {
        if !self.region_starts.is_empty() {
            self.region_names.push(name);
        }
    }

    /// Closes a region, forgetting the names it defined. Returns its block scope.
    pub(crate) fn pop_region(&mut self) -> BlockScope<'a> {
        if let Some(start) = self.region_starts.pop() {
            for n in self.region_names.drain(start..) {
                self.values.remove(n);
            }
        }
        self.block_scopes.pop().unwrap_or_default()
    }
}
