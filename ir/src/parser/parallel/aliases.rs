//! Alias definitions parsed in parallel.
//!
//! A file printed in the generic form names every affine map and integer
//! set with an alias at its top (83k definitions, 6 MB, in the benchmark's
//! 1M-op file), and the definitions must be parsed before anything that
//! uses them: on one thread they were a tenth of the whole parse. Each
//! definition stands on its own line and most refer to no other alias, so
//! a long run of them is cut at line starts into one part per thread. The
//! main thread parses the first part itself and then takes the workers'
//! parts in order. A part that did not parse on its own (an error, a use of
//! an alias defined in another part, a redefinition of an alias of an
//! earlier part, an end elsewhere than at the next part) is parsed again by
//! the main thread, from its start, with everything after it, exactly as
//! the sequential parser would: errors and results are the same.

use super::{Outcome, TaskKind, MIN_PARALLEL_ALIAS_BYTES};
use crate::body::OperationState;
use crate::parser::lexer::{Token, TokenKind as T};
use crate::parser::{AliasTables, ParseResult, Parser};
use crate::Location;

/// Where a part of an alias run starts (a line start), or where the run
/// ends: byte offset, line number and the offset of that line's start.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct LineStart {
    offset: u32,
    line: u32,
    line_start: u32,
}

/// Cuts the run of lines that start with `#` or `!` at `start` (itself a
/// line start, on line `line`) into at most `parts` pieces of about equal
/// size, at line starts. Returns the starts of the pieces and, last, the end
/// of the run; fewer than three entries when the run is not worth cutting.
fn cut_alias_run(src: &[u8], start: usize, line: u32, parts: usize) -> Vec<LineStart> {
    let mut lines = vec![start];
    let mut at = start;
    // The run's end: the first line that does not belong to it, or the end
    // of the text (on the run's last line).
    let end = loop {
        match memchr::memchr(b'\n', &src[at..]) {
            Some(nl) => {
                at += nl + 1;
                if !matches!(src.get(at), Some(b'#' | b'!')) {
                    break LineStart {
                        offset: at as u32,
                        line: line + lines.len() as u32,
                        line_start: at as u32,
                    };
                }
                lines.push(at);
            }
            None => {
                break LineStart {
                    offset: src.len() as u32,
                    line: line + lines.len() as u32 - 1,
                    line_start: at as u32,
                }
            }
        }
    };
    let (run, end_offset) = (end.offset as usize - start, end.offset as usize);
    if run < MIN_PARALLEL_ALIAS_BYTES || parts < 2 || lines.len() < parts {
        return Vec::new();
    }
    let mut cuts: Vec<LineStart> = Vec::with_capacity(parts + 1);
    for k in 0..parts {
        let target = start + run * k / parts;
        let i = lines.partition_point(|&l| l < target);
        let Some(&offset) = lines.get(i) else { break };
        if cuts.last().is_some_and(|c| c.offset as usize >= offset) {
            continue;
        }
        cuts.push(LineStart {
            offset: offset as u32,
            line: line + i as u32,
            line_start: offset as u32,
        });
    }
    debug_assert!(cuts.last().is_none_or(|c| (c.offset as usize) < end_offset));
    cuts.push(end);
    cuts
}

impl<'a> Parser<'a> {
    /// At an alias definition: if it is the first of a parallel parse, at
    /// the start of a line, and a long run of definitions follows, parses
    /// them with the worker threads (see the module docs) and returns true,
    /// leaving the parser after the parts it took; the caller goes on from
    /// there as usual. Returns false, having done nothing, otherwise.
    pub(crate) fn parse_alias_run(&mut self) -> ParseResult<bool> {
        let first = self.tok.start;
        self.parse_alias_parts()?;
        Ok(self.tok.start != first)
    }

    fn parse_alias_parts(&mut self) -> ParseResult<()> {
        let Some(par) = self.par.as_ref() else { return Ok(()) };
        if self.tok.col != 1 || !self.aliases.attrs.is_empty() || !self.aliases.types.is_empty() {
            return Ok(());
        }
        let cuts = cut_alias_run(
            self.src.as_bytes(),
            self.tok.start as usize,
            self.tok.line,
            par.opts.threads,
        );
        if cuts.len() < 3 {
            return Ok(());
        }
        let mut tasks = Vec::with_capacity(cuts.len() - 2);
        for w in cuts[1..].windows(2) {
            let open = Token {
                kind: T::HashIdent,
                start: w[0].offset,
                end: w[0].offset,
                line: w[0].line,
                col: 1,
            };
            // Alias tasks make no op: the state is not used.
            let state = OperationState::new(self.ctx.op_name("builtin.module"), Location::Unknown);
            let Some(idx) = self.hand_out(open, w[1].offset, state, TaskKind::Aliases) else {
                return Ok(());
            };
            tasks.push(idx);
        }
        // Room for the whole run, made after the tasks took their (empty)
        // copy: rehashing the keys would read their text again.
        let lines = (cuts[cuts.len() - 1].line - cuts[0].line) as usize;
        let tables = self.aliases.to_mut();
        tables.attrs.reserve(lines);
        tables.depths.reserve(lines);
        if !self.parse_alias_defs_to(cuts[1].offset)? {
            return Ok(());
        }
        for (k, idx) in tasks.into_iter().enumerate() {
            let (ctx, src, file_name) = (self.ctx, self.src, self.file_name);
            let outcome = self.par_mut().result(idx, ctx, src, file_name);
            let merged = match outcome {
                Outcome::Aliases(Some(chunk)) => self.merge_alias_chunk(chunk),
                _ => false,
            };
            if !merged {
                // The parser stands at the start of this part.
                return Ok(());
            }
            let next = cuts[k + 2];
            self.lexer
                .reset(next.offset as usize, next.line, next.line_start as usize);
            self.bump();
        }
        Ok(())
    }

    /// A worker's part of an alias run: the definitions from the current
    /// token up to the line start `end`, parsed with no alias defined
    /// before them; `None` if that did not work out exactly.
    pub(super) fn parse_alias_chunk(&mut self, end: u32) -> Option<AliasTables<'a>> {
        // About one definition per 64 bytes (affine maps are longer).
        let room = (end - self.tok.start) as usize / 64;
        let tables = self.aliases.to_mut();
        tables.attrs.reserve(room);
        tables.depths.reserve(room);
        if !self.parse_alias_defs_to(end).ok()? || !self.deferred_locs.is_empty() {
            return None;
        }
        Some(std::mem::take(&mut self.aliases).into_owned())
    }

    /// Parses alias definitions from the current token up to offset `end`;
    /// true if they end exactly there, false (stopping) at a token that
    /// does not start one or past `end`.
    fn parse_alias_defs_to(&mut self, end: u32) -> ParseResult<bool> {
        while self.tok.start < end {
            if !matches!(self.tok.kind, T::HashIdent | T::BangIdent) || !self.next_is_equal() {
                return Ok(false);
            }
            self.parse_alias_def(self.tok.kind == T::HashIdent)?;
        }
        Ok(self.tok.start == end)
    }

    /// Adds the definitions of a worker's part to the parser's tables;
    /// false (adding nothing) if one of its names is already defined.
    fn merge_alias_chunk(&mut self, chunk: AliasTables<'a>) -> bool {
        let taken = chunk.attrs.keys().any(|k| self.aliases.attrs.contains_key(k))
            || chunk.types.keys().any(|k| self.aliases.types.contains_key(k));
        if taken {
            return false;
        }
        let tables = self.aliases.to_mut();
        tables.attrs.extend(chunk.attrs);
        tables.types.extend(chunk.types);
        tables.depths.extend(chunk.depths);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_of(n: usize) -> String {
        (0..n)
            .map(|i| format!("#map{i} = affine_map<(d0) -> (d0 + {i})>\n"))
            .collect()
    }

    #[test]
    fn cuts_fall_on_line_starts_with_their_line_numbers() {
        let text = format!("// c\n{}module {{\n}}\n", run_of(4000));
        let src = text.as_bytes();
        let cuts = cut_alias_run(src, 5, 2, 3);
        assert_eq!(cuts.len(), 4);
        assert_eq!(
            cuts[0],
            LineStart {
                offset: 5,
                line: 2,
                line_start: 5
            }
        );
        for c in &cuts {
            let before = &text[..c.offset as usize];
            assert!(before.ends_with('\n'));
            assert_eq!(before.matches('\n').count() as u32 + 1, c.line);
        }
        assert!(text[cuts[3].offset as usize..].starts_with("module"));
    }

    #[test]
    fn a_run_at_the_end_of_the_text_ends_there() {
        let text = format!("{}#last = affine_map<(d0) -> (d0)>", run_of(4000));
        let cuts = cut_alias_run(text.as_bytes(), 0, 1, 2);
        assert_eq!(cuts.len(), 3);
        let last_line = text.rfind('\n').unwrap() + 1;
        assert_eq!(
            cuts[2],
            LineStart {
                offset: text.len() as u32,
                line: 4001,
                line_start: last_line as u32
            }
        );
        let with_newline = format!("{text}\n");
        let cuts = cut_alias_run(with_newline.as_bytes(), 0, 1, 2);
        let len = with_newline.len() as u32;
        assert_eq!(
            cuts[2],
            LineStart {
                offset: len,
                line: 4002,
                line_start: len
            }
        );
    }

    #[test]
    fn short_runs_are_not_cut() {
        let text = format!("{}module {{}}\n", run_of(10));
        assert!(cut_alias_run(text.as_bytes(), 0, 1, 2).is_empty());
        let text = format!("{}module {{}}\n", run_of(4000));
        assert!(cut_alias_run(text.as_bytes(), 0, 1, 1).is_empty());
    }
}
