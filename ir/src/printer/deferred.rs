//! Deferred alias numbering for the custom form without locations.
//!
//! MLIR numbers `#map`/`#set` aliases in the order a dry run of its printer
//! meets them, and defines them before the module. Instead of a dry run, a
//! deferred print writes a placeholder for each map or set, numbers them in
//! the order first written, and replaces the placeholders once the whole
//! text is printed, after the alias definitions.
//!
//! The name of an alias depends only on the maps and sets written before it,
//! so text can be resolved as soon as it is complete. A long print (a
//! million-op module) therefore need not hold its text in memory: given a
//! directory ([`crate::PrintOptions::spill_dir`]), the table of the whole
//! print writes resolved text to an unnamed temporary file there and copies
//! it to the output after the definitions.

use crate::Attribute;
use rustc_hash::FxHashMap;
use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::PathBuf;

/// Starts a placeholder for an alias that is numbered after printing; the
/// placeholder is `MARK_START`, the decimal index in the table's order (`AliasNames::order`),
/// `MARK_END`.
const MARK_START: char = '\u{1}';
const MARK_END: char = '\u{2}';

/// Held text beyond which a top table with a spill directory writes its
/// resolved text to the temporary file.
const SPILL_AFTER: usize = 4 << 20;

#[cfg(test)]
thread_local! {
    /// A smaller [`SPILL_AFTER`] for top tables made on this thread (tests).
    static SPILL_AFTER_FOR_TEST: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Bytes written to spill files so far (tests).
#[cfg(test)]
static SPILLED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Size of the pieces resolved text is written in: small enough that the
/// buffer stays in cache and costs few fresh pages (each a page fault).
const CHUNK: usize = 1 << 16;

/// The maps and sets a deferred print wrote, in the order first written.
#[derive(Default)]
pub(crate) struct Deferred {
    index: FxHashMap<Attribute, u32>,
    /// Each attribute with its alias prefix (`map` or `set`), in order, and
    /// when `top` its number among those of its prefix.
    names: AliasNames,
    /// Placeholders written (or taken over from a child print).
    placeholders: usize,
    /// Set when the numbering cannot be trusted: a placeholder count did
    /// not match (the marker occurred in printed text), or an op was printed
    /// whose alias order differs from its print order.
    pub(crate) unsure: bool,
    /// Whether this is the table of the whole print (which keeps the text
    /// of absorbed child prints as segments instead of copying it, and
    /// names each alias when first written).
    top: bool,
    /// The text so far, in order, when `top` (less what was spilled).
    segments: Vec<Segment>,
    /// Bytes of text in `segments`.
    held: usize,
    /// When `top`: how many maps and sets have a name.
    named: [u32; 2],
    /// Where resolved text goes when `top` and long.
    spill: Option<Spill>,
    /// Held text beyond which it is spilled.
    spill_after: usize,
}

/// Resolved text written to an unnamed temporary file.
struct Spill {
    dir: PathBuf,
    file: Option<File>,
    /// Placeholders replaced in the text written so far.
    marks: usize,
    /// Whether each of them had a name.
    valid: bool,
    /// A write error, reported when the text is written out.
    error: Option<io::Error>,
}

/// A piece of a deferred print's text, with the placeholders of a child
/// print still numbered in the child's table (`map` takes them to ours).
struct Segment {
    text: String,
    map: Option<Vec<u32>>,
}

impl Segment {
    /// The index in the top table of placeholder `i` of this segment.
    fn resolve(&self, i: u32) -> Option<u32> {
        match &self.map {
            None => Some(i),
            Some(m) => m.get(i as usize).copied(),
        }
    }
}

/// Writes the placeholder of index `i` (see [`MARK_START`]).
fn write_mark(out: &mut String, i: u32) {
    use std::fmt::Write;
    let _ = write!(out, "{MARK_START}{i}{MARK_END}");
}

/// A piece of deferred text: plain text, or a placeholder's index.
enum Piece<'t> {
    Text(&'t str),
    Mark(u32),
}

/// Calls `f` on each piece of `text`, in order; returns the number of
/// well-formed placeholders.
fn for_each_piece<'t>(text: &'t str, mut f: impl FnMut(Piece<'t>)) -> usize {
    let mut rest = text;
    let mut count = 0;
    while let Some(start) = rest.find(MARK_START) {
        f(Piece::Text(&rest[..start]));
        let after = &rest[start + 1..];
        let parsed = after
            .find(MARK_END)
            .and_then(|end| after[..end].parse::<u32>().ok().map(|i| (i, end)));
        match parsed {
            Some((i, end)) => {
                f(Piece::Mark(i));
                count += 1;
                rest = &after[end + 1..];
            }
            None => {
                f(Piece::Text(&rest[start..start + 1]));
                rest = after;
            }
        }
    }
    f(Piece::Text(rest));
    count
}

/// The names of a top table's aliases: each entry's prefix (`map`, `set`)
/// and number among those of its prefix (`#map`, `#map1`, ...).
#[derive(Default)]
struct AliasNames {
    order: Vec<(Attribute, &'static str)>,
    numbers: Vec<u32>,
}

impl AliasNames {
    /// Appends `#name` of entry `i` to `out`; false if there is none.
    fn write(&self, i: u32, out: &mut String) -> bool {
        let (Some(&(_, prefix)), Some(&n)) = (self.order.get(i as usize), self.numbers.get(i as usize)) else {
            return false;
        };
        out.push('#');
        out.push_str(prefix);
        if n > 0 {
            use std::fmt::Write;
            let _ = write!(out, "{n}");
        }
        true
    }

    fn len(&self) -> usize {
        self.numbers.len()
    }

    /// `name` of entry `i`, without `#`.
    fn name(&self, i: usize) -> String {
        let mut s = String::new();
        self.write(i as u32, &mut s);
        s.split_off(1)
    }
}

/// Writes `segments` with each placeholder replaced by `#name`; returns the
/// number of placeholders and whether each one had a name.
fn write_resolved(segments: &[Segment], names: &AliasNames, w: &mut dyn Write) -> io::Result<(usize, bool)> {
    let mut buf = String::with_capacity(CHUNK);
    let mut result = Ok(());
    let mut valid = true;
    let mut found = 0;
    for seg in segments {
        found += for_each_piece(&seg.text, |piece| {
            let s = match piece {
                Piece::Text(s) => s,
                Piece::Mark(i) => {
                    valid &= seg.resolve(i).is_some_and(|g| names.write(g, &mut buf));
                    ""
                }
            };
            if buf.len() + s.len() > CHUNK {
                if result.is_ok() {
                    result = w.write_all(buf.as_bytes()).and_then(|_| w.write_all(s.as_bytes()));
                }
                buf.clear();
            } else {
                buf.push_str(s);
            }
        });
    }
    result?;
    w.write_all(buf.as_bytes())?;
    Ok((found, valid))
}

impl Deferred {
    /// An empty table; `top` for the table of the whole print, which spills
    /// long text to a temporary file in `spill_dir` when given.
    pub(crate) fn new(top: bool, spill_dir: Option<PathBuf>) -> Deferred {
        #[cfg(test)]
        if let Some(n) = SPILL_AFTER_FOR_TEST.get() {
            return Deferred {
                spill_after: n,
                ..Deferred::new_with(top, spill_dir)
            };
        }
        Deferred::new_with(top, spill_dir)
    }

    fn new_with(top: bool, spill_dir: Option<PathBuf>) -> Deferred {
        Deferred {
            top,
            spill: spill_dir.filter(|_| top).map(|dir| Spill {
                dir,
                file: None,
                marks: 0,
                valid: true,
                error: None,
            }),
            spill_after: SPILL_AFTER,
            ..Deferred::default()
        }
    }

    /// The index of `a` in first-written order (numbering it when new).
    fn index_of(&mut self, a: Attribute, prefix: &'static str) -> u32 {
        let next = self.names.order.len() as u32;
        let i = *self.index.entry(a).or_insert(next);
        if i == next {
            self.names.order.push((a, prefix));
            if self.top {
                let n = &mut self.named[usize::from(prefix != "map")];
                self.names.numbers.push(*n);
                *n += 1;
            }
        }
        i
    }

    /// Writes the placeholder of `a` (numbering it when new).
    pub(crate) fn write_placeholder(&mut self, out: &mut String, a: Attribute, prefix: &'static str) {
        let i = self.index_of(a, prefix);
        self.placeholders += 1;
        write_mark(out, i);
    }

    /// Appends `text`, printed with the deferred table `child`, to `out`,
    /// renumbering its placeholders into this table (children are absorbed
    /// in print order, so first-written order is kept).
    pub(crate) fn absorb(&mut self, out: &mut String, text: String, child: Deferred) {
        if self.top && child.segments.is_empty() {
            // Keep the child's text as it is, with a map to our numbering.
            let map = child
                .names
                .order
                .iter()
                .map(|&(a, prefix)| self.index_of(a, prefix))
                .collect();
            self.placeholders += child.placeholders;
            self.unsure |= child.unsure;
            if !out.is_empty() {
                self.hold(std::mem::take(out), None);
            }
            self.hold(text, Some(map));
            self.spill_if_long();
            return;
        }
        let mut bad = child.unsure;
        let found = for_each_piece(&text, |piece| match piece {
            Piece::Text(s) => out.push_str(s),
            Piece::Mark(i) => match child.names.order.get(i as usize) {
                Some(&(a, prefix)) => write_mark(out, self.index_of(a, prefix)),
                None => bad = true,
            },
        });
        self.placeholders += found;
        if bad || found != child.placeholders {
            self.unsure = true;
        }
    }

    /// When `top`: takes over the text printed so far with this table's
    /// numbering (the printer's buffer, which is left empty), so that it
    /// can be spilled. Otherwise leaves it where it is.
    pub(crate) fn take_over(&mut self, out: &mut String) {
        if self.top && !out.is_empty() {
            // A copy of exactly its length: the buffer itself has room to grow.
            let text = out.as_str().to_owned();
            out.clear();
            self.hold(text, None);
            self.spill_if_long();
        }
    }

    fn hold(&mut self, text: String, map: Option<Vec<u32>>) {
        self.held += text.len();
        self.segments.push(Segment { text, map });
    }

    /// Writes the held text, resolved, to the temporary file when it is long
    /// (and a spill directory was given).
    fn spill_if_long(&mut self) {
        if self.held < self.spill_after || self.unsure {
            return;
        }
        let Some(spill) = self.spill.as_mut() else {
            return;
        };
        if spill.error.is_some() {
            return;
        }
        let file = match &mut spill.file {
            Some(f) => f,
            None => match tempfile::tempfile_in(&spill.dir) {
                Ok(f) => spill.file.insert(f),
                Err(_) => {
                    // No room for a file there: hold the text in memory.
                    self.spill = None;
                    return;
                }
            },
        };
        match write_resolved(&self.segments, &self.names, file) {
            Ok((found, valid)) => {
                #[cfg(test)]
                SPILLED.fetch_add(self.held, std::sync::atomic::Ordering::Relaxed);
                spill.marks += found;
                spill.valid &= valid;
            }
            Err(e) => spill.error = Some(e),
        }
        self.segments.clear();
        self.held = 0;
    }

    /// Ends the print with its `last` text: the alias definitions (maps,
    /// then sets, each numbered in first-written order) and the text to
    /// write after them; `None` when the numbering cannot be trusted (then
    /// print again the exact way).
    pub(crate) fn finish(mut self, last: String) -> Option<DeferredNames> {
        self.hold(last, None);
        if self.unsure {
            return None;
        }
        let mut top = Vec::with_capacity(self.names.len());
        for prefix in ["map", "set"] {
            for (i, &(a, p)) in self.names.order.iter().enumerate() {
                if p == prefix {
                    top.push((self.names.name(i), a));
                }
            }
        }
        Some(DeferredNames {
            top,
            names: self.names,
            placeholders: self.placeholders,
            segments: self.segments,
            spill: self.spill.filter(|s| s.file.is_some()),
        })
    }
}

/// The outcome of a deferred print (see [`Deferred::finish`]).
pub(crate) struct DeferredNames {
    /// The alias definitions, in the order they are printed.
    pub(crate) top: Vec<(String, Attribute)>,
    names: AliasNames,
    placeholders: usize,
    segments: Vec<Segment>,
    spill: Option<Spill>,
}

impl DeferredNames {
    /// Whether the text holds exactly the placeholders counted while
    /// printing, each with a name (false when the marker also occurred in
    /// the printed text).
    pub(crate) fn matches(&self) -> bool {
        let (mut valid, mut found) = match &self.spill {
            Some(s) => (s.valid, s.marks),
            None => (true, 0),
        };
        for seg in &self.segments {
            found += for_each_piece(&seg.text, |piece| {
                if let Piece::Mark(i) = piece {
                    valid &= seg.resolve(i).is_some_and(|g| (g as usize) < self.names.len());
                }
            });
        }
        valid && found == self.placeholders
    }

    /// Writes the text with each placeholder replaced by `#name` (after
    /// [`DeferredNames::matches`] said yes): first what was spilled, then
    /// what is held.
    pub(crate) fn write_text(self, w: &mut dyn Write) -> io::Result<()> {
        if let Some(spill) = self.spill {
            if let Some(e) = spill.error {
                return Err(e);
            }
            if let Some(mut file) = spill.file {
                file.rewind()?;
                let mut buf = vec![0u8; CHUNK];
                loop {
                    match file.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => w.write_all(&buf[..n])?,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                }
            }
        }
        write_resolved(&self.segments, &self.names, w).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::{SPILLED, SPILL_AFTER_FOR_TEST};
    use crate::{Context, PrintOptions};
    use std::sync::atomic::Ordering;

    /// A module of `n` modules using maps and sets, some shared between
    /// functions, so that aliases are numbered across them.
    fn module(n: usize) -> String {
        let mut s = String::from("module {\n");
        for i in 0..n {
            s.push_str("  module {\n    %arg0 = \"test.def\"() : () -> index\n");
            for j in 0..20 {
                let k = (i * 7 + j * 3) % 97;
                s.push_str(&format!(
                    "    %{j} = \"test.use\"(%arg0) {{m = affine_map<(d0) -> (d0 + {k})>, \
                     s = affine_set<(d0) : (d0 - {j} >= 0)>}} : (index) -> index\n"
                ));
            }
            s.push_str("  }\n");
        }
        s.push_str("}\n");
        s
    }

    /// Prints the module on `threads` threads, spilling text beyond
    /// `spill_after` bytes to `spill_dir` when given.
    fn print(src: &str, threads: usize, spill_dir: Option<std::path::PathBuf>, spill_after: usize) -> String {
        let ctx = Context::new();
        ctx.set_allow_unregistered_dialects(true);
        let m = crate::parse_source(&ctx, src, "t.mlir").expect("parses");
        let opts = PrintOptions {
            spill_dir,
            ..PrintOptions::default()
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        pool.install(|| {
            // The top table is made on the thread that prints.
            SPILL_AFTER_FOR_TEST.set(Some(spill_after));
            let text = crate::op_to_string(&ctx, &m.body, m.op, &opts);
            SPILL_AFTER_FOR_TEST.set(None);
            text
        })
    }

    /// Text spilled to a temporary file comes out the same as text held in
    /// memory, aliases numbered across the whole module, on one thread and
    /// on several.
    #[test]
    fn spilled_print_is_the_held_print() {
        // Over 1 MiB: a printer on one thread hands its text over per MiB.
        let src = module(1000);
        let dir = std::env::temp_dir();
        for threads in [1, 3] {
            let held = print(&src, threads, None, 1000);
            assert!(
                held.starts_with("#map = affine_map<(d0) -> (d0)>\n#map1 = "),
                "{}",
                &held[..200]
            );
            assert!(held.contains("#set19 = affine_set<(d0) : (d0 - 19 >= 0)>"));
            assert!(
                held.contains("{m = #map96, s = #set"),
                "maps of later functions use aliases"
            );
            let before = SPILLED.load(Ordering::Relaxed);
            let spilled = print(&src, threads, Some(dir.clone()), 1000);
            assert!(
                SPILLED.load(Ordering::Relaxed) - before > held.len() / 2,
                "most of the text was spilled"
            );
            assert_eq!(held, spilled, "{threads} threads");
        }
    }
}
