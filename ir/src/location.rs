//! Source locations attached to operations and block arguments.

use crate::attrs::{AttrData, Attribute, LocationData};
use crate::{Context, Ident};
use lf_diag::SourcePos;

/// An op's location, stored inline: the common `file:line:col` case needs no
/// uniqued attribute (a million-op file has a million distinct locations).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Location {
    /// `loc(unknown)`.
    #[default]
    Unknown,
    /// `loc("file":line:col)`.
    FileLineCol {
        /// File name.
        file: Ident,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
    },
    /// Any other location attribute (name, call site, fused).
    Attr(Attribute),
}

impl Location {
    /// Converts a location attribute into a `Location`.
    pub fn from_attr(ctx: &Context, attr: Attribute) -> Location {
        match ctx.attr_data(attr) {
            AttrData::Location(LocationData::Unknown) => Location::Unknown,
            AttrData::Location(LocationData::FileLineCol { file, line, col }) => Location::FileLineCol {
                file: *file,
                line: *line,
                col: *col,
            },
            _ => Location::Attr(attr),
        }
    }

    /// The location as a uniqued attribute.
    pub fn to_attr(self, ctx: &Context) -> Attribute {
        match self {
            Location::Unknown => ctx.common().unknown_loc,
            Location::FileLineCol { file, line, col } => ctx.file_loc(file, line, col),
            Location::Attr(a) => a,
        }
    }

    /// The first `file:line:col` this location contains, for diagnostics.
    pub fn source_pos(self, ctx: &Context) -> Option<SourcePos> {
        match self {
            Location::Unknown => None,
            Location::FileLineCol { file, line, col } => Some(SourcePos::new(ctx.ident_str(file), line, col)),
            Location::Attr(a) => attr_source_pos(ctx, a, 0),
        }
    }
}

/// A [`Location`] in 12 bytes, as ops store it: `file:line:col` as is, the
/// other kinds marked by a file id no identifier gets.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PackedLoc {
    file: u32,
    a: u32,
    b: u32,
}

const UNKNOWN_FILE: u32 = u32::MAX;
const ATTR_FILE: u32 = u32::MAX - 1;

impl PackedLoc {
    #[inline]
    pub(crate) fn new(l: Location) -> PackedLoc {
        match l {
            Location::Unknown => PackedLoc {
                file: UNKNOWN_FILE,
                a: 0,
                b: 0,
            },
            Location::FileLineCol { file, line, col } => {
                debug_assert!(file.0 < ATTR_FILE, "identifier id out of range");
                PackedLoc {
                    file: file.0,
                    a: line,
                    b: col,
                }
            }
            Location::Attr(attr) => PackedLoc {
                file: ATTR_FILE,
                a: attr.0,
                b: 0,
            },
        }
    }

    #[inline]
    pub(crate) fn get(self) -> Location {
        match self.file {
            UNKNOWN_FILE => Location::Unknown,
            ATTR_FILE => Location::Attr(Attribute(self.a)),
            file => Location::FileLineCol {
                file: Ident(file),
                line: self.a,
                col: self.b,
            },
        }
    }
}

fn attr_source_pos(ctx: &Context, attr: Attribute, depth: u32) -> Option<SourcePos> {
    if depth > 64 {
        return None;
    }
    match ctx.attr_data(attr) {
        AttrData::Location(LocationData::FileLineCol { file, line, col }) => {
            Some(SourcePos::new(ctx.ident_str(*file), *line, *col))
        }
        AttrData::Location(LocationData::Name { child: Some(c), .. }) => attr_source_pos(ctx, *c, depth + 1),
        AttrData::Location(LocationData::CallSite { callee, .. }) => attr_source_pos(ctx, *callee, depth + 1),
        AttrData::Location(LocationData::Fused { locations, .. }) => {
            locations.iter().find_map(|l| attr_source_pos(ctx, *l, depth + 1))
        }
        _ => None,
    }
}
