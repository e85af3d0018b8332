//! Named source buffers and byte offset <-> (line, column) mapping.
//!
//! Lines and columns are 1-based. A line ends at `\n` (a `\r` before it is
//! part of the line's bytes but not of [`SourceMgr::line_text`]). Columns count
//! **bytes**, as mlir-opt does: on the line `"é" x`, `x` is at column 6, not 5.
//! Tabs count as one byte.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::diagnostic::SourcePos;

/// Identifies a buffer inside one [`SourceMgr`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct FileId(u32);

impl FileId {
    /// The buffer's index in its `SourceMgr` (0 for the first one added).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One named buffer with a lazily built index of line starts.
#[derive(Debug)]
struct SourceFile {
    name: Arc<str>,
    text: Arc<str>,
    /// Byte offset at which each line starts; `line_starts[0] == 0`. Built once,
    /// on first use (a 50 MB buffer takes a few milliseconds, with `memchr`).
    line_starts: OnceLock<Vec<usize>>,
}

impl SourceFile {
    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let bytes = self.text.as_bytes();
            let mut starts = Vec::with_capacity(bytes.len() / 32 + 1);
            starts.push(0);
            starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
            starts
        })
    }
}

/// Holds named source buffers and maps positions inside them.
///
/// `SourceMgr` is `Send + Sync`; build it, then share it (`&SourceMgr` or
/// `Arc<SourceMgr>`) with parsers, passes and the renderer.
///
/// ```
/// use lf_diag::SourceMgr;
/// let mut sm = SourceMgr::new();
/// let id = sm.add("a.mlir", "x\r\n\"é\" y\n");
/// assert_eq!(sm.line_col(id, 8), (2, 6)); // `y`: columns count bytes
/// assert_eq!(sm.offset(id, 2, 6), Some(8));
/// assert_eq!(sm.line_text(id, 1), Some("x"));
/// assert_eq!(sm.find("a.mlir"), Some(id));
/// ```
#[derive(Debug, Default)]
pub struct SourceMgr {
    files: Vec<SourceFile>,
    by_name: HashMap<Arc<str>, FileId>,
}

impl SourceMgr {
    /// An empty source manager.
    pub fn new() -> SourceMgr {
        SourceMgr::default()
    }

    /// Adds a buffer and returns its id. If a buffer with the same name was
    /// added before, [`SourceMgr::find`] returns the new one from now on.
    pub fn add(&mut self, name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).expect("more than 2^32 source buffers"));
        let name = name.into();
        self.by_name.insert(name.clone(), id);
        self.files.push(SourceFile {
            name,
            text: text.into(),
            line_starts: OnceLock::new(),
        });
        id
    }

    /// The most recently added buffer called `name`.
    pub fn find(&self, name: &str) -> Option<FileId> {
        self.by_name.get(name).copied()
    }

    /// Number of buffers.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no buffer was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// All buffer ids, in the order they were added.
    pub fn ids(&self) -> impl Iterator<Item = FileId> + '_ {
        (0..self.files.len()).map(|i| FileId(i as u32))
    }

    /// Whether `id` names a buffer of this manager.
    pub fn contains(&self, id: FileId) -> bool {
        id.index() < self.files.len()
    }

    fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.index()]
    }

    /// The buffer's name. Panics if `id` comes from another manager.
    pub fn name(&self, id: FileId) -> &Arc<str> {
        &self.file(id).name
    }

    /// The buffer's text. Panics if `id` comes from another manager.
    pub fn text(&self, id: FileId) -> &Arc<str> {
        &self.file(id).text
    }

    /// Number of lines: one more than the number of `\n` bytes (so a buffer
    /// ending in `\n` has an empty last line, as in mlir-opt's view).
    pub fn line_count(&self, id: FileId) -> u32 {
        self.file(id).line_starts().len() as u32
    }

    /// The 1-based (line, byte column) of a byte offset. An offset past the end
    /// is clamped to the end of the buffer.
    pub fn line_col(&self, id: FileId, offset: usize) -> (u32, u32) {
        let f = self.file(id);
        let offset = offset.min(f.text.len());
        let starts = f.line_starts();
        // The last line start <= offset; starts[0] == 0, so idx >= 0.
        let idx = starts.partition_point(|&s| s <= offset) - 1;
        (idx as u32 + 1, (offset - starts[idx]) as u32 + 1)
    }

    /// The [`SourcePos`] of a byte offset (clamped like [`SourceMgr::line_col`]).
    pub fn pos(&self, id: FileId, offset: usize) -> SourcePos {
        let (line, col) = self.line_col(id, offset);
        SourcePos {
            file: self.name(id).clone(),
            line,
            col,
        }
    }

    /// Byte range of a 1-based line, without its `\n` (nor a `\r` before it).
    pub fn line_range(&self, id: FileId, line: u32) -> Option<std::ops::Range<usize>> {
        let f = self.file(id);
        let starts = f.line_starts();
        let idx = (line as usize).checked_sub(1)?;
        let start = *starts.get(idx)?;
        let mut end = starts.get(idx + 1).map_or(f.text.len(), |&next| next - 1);
        if end > start && f.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        Some(start..end)
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, id: FileId, line: u32) -> Option<&str> {
        let r = self.line_range(id, line)?;
        // Line boundaries are next to ASCII bytes, hence char boundaries.
        Some(&self.text(id)[r])
    }

    /// The byte offset of a 1-based (line, byte column). `None` when the line
    /// does not exist; a column past the end of the line is clamped to the
    /// position of the line's `\n` (or the end of the buffer), so that
    /// `offset(line_col(o)) == o` for every offset `o` of the buffer. Column 0
    /// counts as 1. The result may fall inside a multi-byte character when
    /// the column does.
    pub fn offset(&self, id: FileId, line: u32, col: u32) -> Option<usize> {
        let f = self.file(id);
        let starts = f.line_starts();
        let idx = (line as usize).checked_sub(1)?;
        let start = *starts.get(idx)?;
        let end = starts.get(idx + 1).map_or(f.text.len(), |&next| next - 1);
        Some(start.saturating_add(col.max(1) as usize - 1).min(end))
    }

    /// Finds the buffer and byte offset a position refers to; `None` when its
    /// file is not a buffer of this manager or its line does not exist.
    pub fn resolve(&self, pos: &SourcePos) -> Option<(FileId, usize)> {
        let id = self.find(&pos.file)?;
        Some((id, self.offset(id, pos.line, pos.col)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sm(text: &str) -> (SourceMgr, FileId) {
        let mut sm = SourceMgr::new();
        let id = sm.add("t.mlir", text);
        (sm, id)
    }

    #[test]
    fn offsets_and_lines_lf() {
        let (sm, id) = sm("ab\ncd\n\nef");
        assert_eq!(sm.line_count(id), 4);
        assert_eq!(sm.line_col(id, 0), (1, 1));
        assert_eq!(sm.line_col(id, 2), (1, 3)); // the '\n' itself
        assert_eq!(sm.line_col(id, 3), (2, 1));
        assert_eq!(sm.line_col(id, 6), (3, 1));
        assert_eq!(sm.line_col(id, 7), (4, 1));
        assert_eq!(sm.line_col(id, 9), (4, 3)); // end of buffer
        assert_eq!(sm.line_col(id, 1000), (4, 3)); // clamped
        for off in 0..=9 {
            let (l, c) = sm.line_col(id, off);
            assert_eq!(sm.offset(id, l, c), Some(off), "offset {off}");
        }
        assert_eq!(sm.line_text(id, 3), Some(""));
        assert_eq!(sm.line_text(id, 4), Some("ef"));
        assert_eq!(sm.line_text(id, 5), None);
        assert_eq!(sm.line_text(id, 0), None);
        assert_eq!(sm.offset(id, 1, 99), Some(2)); // clamped to the line end
        assert_eq!(sm.offset(id, 1, 0), Some(0));
        assert_eq!(sm.offset(id, 5, 1), None);
    }

    #[test]
    fn crlf() {
        let (sm, id) = sm("ab\r\ncd\r\n");
        assert_eq!(sm.line_count(id), 3);
        assert_eq!(sm.line_col(id, 2), (1, 3)); // '\r'
        assert_eq!(sm.line_col(id, 3), (1, 4)); // '\n'
        assert_eq!(sm.line_col(id, 4), (2, 1));
        assert_eq!(sm.line_col(id, 5), (2, 2));
        assert_eq!(sm.line_text(id, 1), Some("ab"));
        assert_eq!(sm.line_text(id, 2), Some("cd"));
        assert_eq!(sm.line_text(id, 3), Some(""));
        assert_eq!(sm.offset(id, 2, 2), Some(5));
        assert_eq!(sm.offset(id, 2, 50), Some(7)); // clamped to the '\n'
        assert_eq!(sm.offset(id, 1, 3), Some(2));
        assert_eq!(sm.offset(id, 1, 4), Some(3));
    }

    #[test]
    fn utf8_columns_are_bytes() {
        // mlir-opt-22 reports the op after "test.é€" at column 50, where a
        // char count would give 47: columns are byte based.
        let line = "func.func @f() { %0 = \"test.é€\"() : () -> i32 \"func.return\"(%0) : (i32) -> () }";
        let (sm, id) = sm(line);
        let off = line.find("\"func.return").unwrap();
        assert_eq!(sm.line_col(id, off), (1, 50));
        assert_eq!(sm.offset(id, 1, 50), Some(off));
        // Tabs are one byte too.
        let (sm, id) = self::sm("\tx");
        assert_eq!(sm.line_col(id, 1), (1, 2));
    }

    #[test]
    fn names() {
        let mut sm = SourceMgr::new();
        assert!(sm.is_empty());
        let a = sm.add("a", "1");
        let b = sm.add("b", "2");
        assert_eq!(sm.find("a"), Some(a));
        assert_eq!(sm.find("b"), Some(b));
        assert_eq!(sm.find("c"), None);
        let a2 = sm.add("a", "3");
        assert_eq!(sm.find("a"), Some(a2));
        assert_eq!(&**sm.text(a), "1");
        assert_eq!(&**sm.name(b), "b");
        assert_eq!(sm.len(), 3);
        assert_eq!(sm.ids().collect::<Vec<_>>(), vec![a, b, a2]);
        assert!(sm.contains(a2));
        let p = SourcePos::new("b", 1, 2);
        assert_eq!(sm.resolve(&p), Some((b, 1)));
        assert_eq!(sm.resolve(&SourcePos::new("zz", 1, 1)), None);
        assert_eq!(sm.pos(b, 1), p);
    }

    #[test]
    fn empty_buffer() {
        let (sm, id) = sm("");
        assert_eq!(sm.line_count(id), 1);
        assert_eq!(sm.line_col(id, 0), (1, 1));
        assert_eq!(sm.line_col(id, 5), (1, 1));
        assert_eq!(sm.line_text(id, 1), Some(""));
        assert_eq!(sm.offset(id, 1, 3), Some(0));
    }

    #[test]
    fn big_buffer_is_fast() {
        // 50 MB, ~1.6M lines: the index is built once, lookups are O(log n).
        let line = "  %0 = \"test.op\"(%a, %b) : (i32, i32) -> i32\n";
        let text = line.repeat(50_000_000 / line.len());
        let n = text.len();
        let (sm, id) = sm(&text);
        let t = std::time::Instant::now();
        let lines = sm.line_count(id);
        assert_eq!(lines as usize, n / line.len() + 1);
        let mut acc = 0u64;
        for i in (0..n).step_by(997) {
            let (l, c) = sm.line_col(id, i);
            acc += u64::from(l + c);
            assert_eq!(sm.offset(id, l, c), Some(i));
        }
        assert!(acc > 0);
        // Generous bound so debug builds on a loaded machine pass.
        assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
        assert_eq!(sm.line_col(id, n - 1), (lines - 1, line.len() as u32));
    }
}
