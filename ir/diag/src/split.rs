//! `--split-input-file`: cutting a buffer into chunks at `// -----` lines.
//!
//! Behaviour of mlir-opt 22, which we follow:
//! - Positions in diagnostics are positions **in the original file** (line and
//!   column), not in the chunk, and snippets show the original line. A chunk
//!   keeps its place in the file: [`Chunk::offset`], [`Chunk::line`] and
//!   [`Chunk::col`] say where it starts, and [`Chunk::file_pos`] converts a
//!   chunk-relative position. Parse a chunk as a sub-range of the whole buffer
//!   (kept once in the [`crate::SourceMgr`]), and parse `expected-*` comments
//!   once for the whole file: one [`crate::Verifier`] checks all chunks, and
//!   reports what was not produced after the last chunk.
//! - The marker is found anywhere, not only at the start of a line:
//!   `x // -----` ends a chunk after `x `. The chunk after it starts right
//!   after the marker (usually with the rest of the marker's line).
//! - The text is cut at every occurrence of the marker without its last two
//!   characters (`// ---`). An occurrence is a marker when the piece after it
//!   (up to the next occurrence or the end) starts with those two characters
//!   (`--`) and has at least one more byte. `// ------` is a marker followed
//!   by `-`. Otherwise (`// ---`, `// ----`, `// -----` at the very end of the
//!   file, or the first of `// -----// -----`) the text stays in the chunk
//!   and mlir-opt warns `near miss with file split marker` at the byte after
//!   `// ---` ([`SplitFile::near_misses`]).
//! - A marker at the very start of the file does not split: the first chunk
//!   then starts after `// ---` (with `--`, which does not parse). An empty
//!   file has no chunks.
//! - The output of the chunks is joined with `// -----\n`
//!   ([`DEFAULT_OUTPUT_SPLIT_MARKER`]).

use std::sync::Arc;

use crate::diagnostic::{Diagnostic, SourcePos};

/// The marker mlir-opt splits at by default.
pub const DEFAULT_SPLIT_MARKER: &str = "// -----";

/// What mlir-opt prints between the outputs of two chunks (then a newline).
pub const DEFAULT_OUTPUT_SPLIT_MARKER: &str = "// -----";

/// One chunk of a split buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk's text (a slice of the original).
    pub text: &'a str,
    /// Byte offset of `text` in the original buffer.
    pub offset: usize,
    /// 1-based line of the original buffer on which the chunk starts.
    pub line: u32,
    /// 1-based byte column on that line at which the chunk starts.
    pub col: u32,
}

impl Chunk<'_> {
    /// Converts a 1-based (line, byte column) inside the chunk to the same
    /// place in the original file. Only the chunk's first line is shifted
    /// right, by `col - 1`.
    pub fn file_pos(&self, line: u32, col: u32) -> (u32, u32) {
        if line <= 1 {
            (self.line, self.col.saturating_add(col.saturating_sub(1)))
        } else {
            (self.line.saturating_add(line - 1), col)
        }
    }

    /// Converts a byte offset inside the chunk to an offset in the original.
    pub fn file_offset(&self, offset: usize) -> usize {
        self.offset + offset
    }
}

/// The chunks of a buffer and the near misses found while splitting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitFile<'a> {
    /// The chunks, in order.
    pub chunks: Vec<Chunk<'a>>,
    /// Byte offsets (in the original) where an almost-marker was seen; mlir-opt
    /// warns there.
    pub near_misses: Vec<usize>,
}

impl SplitFile<'_> {
    /// mlir-opt's warnings for the near misses: `FILE:LINE:COL: warning: near
    /// miss with file split marker`. `text` must be the buffer that was split.
    pub fn near_miss_warnings(&self, file: &str, text: &str) -> Vec<Diagnostic> {
        let file: Arc<str> = file.into();
        let mut out = Vec::new();
        let mut counter = LineCounter::new(text);
        for &off in &self.near_misses {
            let (line, col) = counter.advance_to(off);
            out.push(Diagnostic::warning(
                SourcePos::new(file.clone(), line, col),
                "near miss with file split marker",
            ));
        }
        out
    }
}

/// Splits `text` at `marker` the way `mlir-opt --split-input-file` does (see
/// the module documentation). An empty marker means no splitting: one chunk,
/// even for an empty text. A marker of one or two characters splits wherever
/// it occurs, with no near misses (mlir-opt does not define this case).
///
/// ```
/// use lf_diag::{split_input_file, DEFAULT_SPLIT_MARKER};
/// let text = "a\n// -----\nb\nc\n// -----\nd\n";
/// let chunks = split_input_file(text, DEFAULT_SPLIT_MARKER);
/// assert_eq!(chunks.len(), 3);
/// assert_eq!(chunks[1].text, "\nb\nc\n");
/// assert_eq!((chunks[1].line, chunks[1].col), (2, 9));
/// // Line 3 of the second chunk (`c`) is line 4 of the file.
/// assert_eq!(chunks[1].file_pos(3, 1), (4, 1));
/// ```
pub fn split_input_file<'a>(text: &'a str, marker: &str) -> Vec<Chunk<'a>> {
    split_input_file_checked(text, marker).chunks
}

/// Like [`split_input_file`], also reporting near misses.
pub fn split_input_file_checked<'a>(text: &'a str, marker: &str) -> SplitFile<'a> {
    let mut out = SplitFile::default();
    if marker.is_empty() {
        out.chunks.push(Chunk {
            text,
            offset: 0,
            line: 1,
            col: 1,
        });
        return out;
    }
    // The marker without its last two characters, and those characters. A
    // marker of one or two characters has no near misses.
    let cut = marker.char_indices().rev().nth(1).map_or(0, |(i, _)| i);
    let (prefix, suffix) = if cut == 0 { (marker, "") } else { marker.split_at(cut) };

    // Like LLVM's `split`: the text is cut at every (non-overlapping)
    // occurrence of the prefix; the piece after an occurrence must start with
    // the suffix and be longer than it for the occurrence to be a marker.
    let bytes = text.as_bytes();
    let hits: Vec<usize> = memchr::memmem::find_iter(bytes, prefix.as_bytes()).collect();
    // Chunk boundaries as byte ranges of `text`.
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut cur_start: usize = 0;
    for (k, &hit) in hits.iter().enumerate() {
        let after = hit + prefix.len();
        if k == 0 && hit == 0 {
            // mlir-opt: an empty first piece is replaced by the next piece
            // without checking for a marker.
            cur_start = after;
            continue;
        }
        let piece = &bytes[after..hits.get(k + 1).copied().unwrap_or(bytes.len())];
        if suffix.is_empty() || (piece.starts_with(suffix.as_bytes()) && piece.len() > suffix.len()) {
            ranges.push((cur_start, hit));
            cur_start = after + suffix.len();
        } else {
            out.near_misses.push(after);
        }
    }
    if cur_start < text.len() {
        ranges.push((cur_start, text.len()));
    }

    let mut counter = LineCounter::new(text);
    for (start, end) in ranges {
        let (line, col) = counter.advance_to(start);
        out.chunks.push(Chunk {
            text: &text[start..end],
            offset: start,
            line,
            col,
        });
    }
    out
}

/// Computes (line, col) of increasing offsets in one pass.
struct LineCounter<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u32,
    line_start: usize,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str) -> Self {
        LineCounter {
            bytes: text.as_bytes(),
            at: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// Offsets must not decrease between calls.
    fn advance_to(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.bytes.len()).max(self.at);
        for i in memchr::memchr_iter(b'\n', &self.bytes[self.at..offset]) {
            self.line += 1;
            self.line_start = self.at + i + 1;
        }
        self.at = offset;
        (self.line, (offset - self.line_start) as u32 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(chunks: &[Chunk<'a>]) -> Vec<&'a str> {
        chunks.iter().map(|c| c.text).collect()
    }

    fn split(text: &str) -> SplitFile<'_> {
        split_input_file_checked(text, DEFAULT_SPLIT_MARKER)
    }

    #[test]
    fn basic_and_line_mapping() {
        let text = "a\n\n// -----\n\nb\n// -----\nc\nd\n";
        let s = split(text);
        assert_eq!(texts(&s.chunks), ["a\n\n", "\n\nb\n", "\nc\nd\n"]);
        assert!(s.near_misses.is_empty());
        let c = &s.chunks;
        assert_eq!((c[0].line, c[0].col, c[0].offset), (1, 1, 0));
        assert_eq!((c[1].line, c[1].col, c[1].offset), (3, 9, 11));
        assert_eq!((c[2].line, c[2].col), (6, 9));
        // `b` is line 3 of chunk 1 and line 5 of the file; `d` line 3 of
        // chunk 2 and line 8 of the file.
        assert_eq!(c[1].file_pos(3, 1), (5, 1));
        assert_eq!(c[2].file_pos(3, 1), (8, 1));
        assert_eq!(c[1].file_pos(1, 1), (3, 9));
        for ch in c {
            assert_eq!(&text[ch.offset..ch.offset + ch.text.len()], ch.text);
        }
        assert_eq!(c[2].file_offset(1), text.rfind('c').unwrap());
    }

    #[test]
    fn marker_mid_line_and_trailing_text() {
        // mlir-opt-22: `x // -----` splits after `x `; `// ----- trailing`
        // leaves ` trailing` at the start of the next chunk (an error at
        // 5:10 in mlir-opt's report).
        let text = "x // -----\ny\n// ----- trailing\nz";
        let s = split(text);
        assert_eq!(texts(&s.chunks), ["x ", "\ny\n", " trailing\nz"]);
        assert_eq!((s.chunks[2].line, s.chunks[2].col), (3, 9));
        assert_eq!(s.chunks[2].file_pos(1, 2), (3, 10));
    }

    #[test]
    fn near_misses() {
        // Six dashes: a marker followed by `-`.
        let s = split("a\n// ------\nb\n");
        assert_eq!(texts(&s.chunks), ["a\n", "-\nb\n"]);
        assert!(s.near_misses.is_empty());
        // Four and three dashes: near misses, no split.
        for m in ["// ----", "// ---"] {
            let text = format!("a\n{m}\nb\n");
            let s = split(&text);
            assert_eq!(texts(&s.chunks), [text.as_str()]);
            assert_eq!(s.near_misses, [8]);
            let w = s.near_miss_warnings("t.mlir", &text);
            assert_eq!(
                w[0].to_string(),
                "t.mlir:2:7: warning: near miss with file split marker"
            );
        }
        // A full marker at the very end of the file is a near miss too.
        let text = "a\n// -----";
        let s = split(text);
        assert_eq!(texts(&s.chunks), [text]);
        assert_eq!(
            s.near_miss_warnings("t.mlir", text)[0].to_string(),
            "t.mlir:2:7: warning: near miss with file split marker"
        );
        // Two markers back to back: the first is a near miss.
        let text = "a\n// -----// -----\nb\n";
        let s = split(text);
        assert_eq!(texts(&s.chunks), ["a\n// -----", "\nb\n"]);
        assert_eq!(s.near_misses, [8]);
        // A marker followed by a newline at the end of the file: an empty-ish
        // last chunk.
        assert_eq!(texts(&split("a\n// -----\n").chunks), ["a\n", "\n"]);
    }

    #[test]
    fn leading_marker_and_empty() {
        // mlir-opt-22 reports `1:7: error: expected operation name in quotes`
        // here: the first chunk starts after `// ---`.
        let s = split("// -----\nb\n");
        assert_eq!(texts(&s.chunks), ["--\nb\n"]);
        assert_eq!((s.chunks[0].line, s.chunks[0].col), (1, 7));
        assert!(!s.chunks.is_empty() && s.near_misses.is_empty());
        assert!(split("").chunks.is_empty());
        assert_eq!(texts(&split("\n// -----\n\n// -----\n").chunks), ["\n", "\n\n", "\n"]);
        // No marker: one chunk.
        assert_eq!(texts(&split("abc").chunks), ["abc"]);
    }

    #[test]
    fn other_markers() {
        assert_eq!(texts(&split_input_file("a\n// =====\nb", "// =====")), ["a\n", "\nb"]);
        assert_eq!(texts(&split_input_file("a;b;;c", ";")), ["a", "b", "", "c"]);
        assert_eq!(texts(&split_input_file("abc", "")), ["abc"]);
        assert_eq!(texts(&split_input_file("", "")), [""]);
        assert_eq!(texts(&split_input_file("a;", ";")), ["a"]);
        // Multi-byte marker characters must not split a char.
        assert_eq!(texts(&split_input_file("a→ééb→ééc", "→éé")), ["a", "b", "c"]);
        assert_eq!(split_input_file_checked("a→éb→éé", "→éé").near_misses, [4, 10]);
        // As with LLVM's split, a suffix containing the prefix never matches.
        assert_eq!(texts(&split_input_file("a——éb", "——é")), ["a——éb"]);
    }

    #[test]
    fn crlf_lines() {
        let text = "a\r\n// -----\r\nb\r\n";
        let s = split(text);
        assert_eq!(texts(&s.chunks), ["a\r\n", "\r\nb\r\n"]);
        assert_eq!((s.chunks[1].line, s.chunks[1].col), (2, 9));
        assert_eq!(s.chunks[1].file_pos(2, 1), (3, 1));
    }
}
