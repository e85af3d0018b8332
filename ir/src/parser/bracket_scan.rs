//! Bracket matching for the parallel parser: the main thread finds where a
//! function's region ends without parsing it, so that a worker can parse it.
//!
//! This scan runs over the whole text on the main thread, ahead of the
//! workers, so it is on the critical path of a parallel parse. It jumps from
//! one byte that matters (a bracket, a quote, a `/`) to the next 64 bytes at
//! a time with SSE2 on x86-64, counting the newlines it passes in
//! the same step; other targets look at each byte.
//!
//! A function body `{...}` is matched on braces alone ([`scan_braces`],
//! and [`scan_region_list`] for each region of a generic op): parentheses
//! and square brackets are on nearly every line of it (operand lists,
//! subscripts, maps, function types) and stopping at each made the scan
//! several times slower. In valid IR braces balance by themselves
//! outside strings and comments. Where a stray bracket fools the match, the
//! worker's parse is still the sequential parse of the same text from the
//! same `{`: it reports the same first error, or ends somewhere else, and
//! then the file is parsed again sequentially (see `parallel.rs`).

/// Finds the `)` closing a region list whose `(` ends at `i`: regions
/// `{...}` (each matched on braces alone, as [`scan_braces`]) separated by
/// commas, with white space around them. Returns the offset after the `)`,
/// the number of regions, and the line number and line start there; `None`
/// if the list is not like that (a comment between regions, unbalanced
/// braces), and the op is then parsed where it is.
///
/// Matching every bracket here instead stopped at each parenthesis of the
/// generic form (`"arith.addf"(%0, %1) : (f32, f32) -> f32`): the scan of
/// a generic-form file on the main thread took longer than its share of
/// the parse.
pub(crate) fn scan_region_list(
    src: &[u8],
    mut i: usize,
    mut line: u32,
    mut line_start: usize,
) -> Option<(usize, usize, u32, usize)> {
    let (mut regions, mut after_region) = (0, false);
    loop {
        while let Some(&c @ (b' ' | b'\t' | b'\r' | b'\n')) = src.get(i) {
            i += 1;
            if c == b'\n' {
                line += 1;
                line_start = i;
            }
        }
        match (src.get(i)?, after_region) {
            (b'{', false) => {
                (i, line, line_start) = scan_braces(src, i + 1, line, line_start)?;
                regions += 1;
                after_region = true;
            }
            (b',', true) => {
                i += 1;
                after_region = false;
            }
            (b')', true) => return Some((i + 1, regions, line, line_start)),
            (b')', false) if regions == 0 => return Some((i + 1, 0, line, line_start)),
            _ => return None,
        }
    }
}

/// Finds the `}` closing the `{` that ends at `i`, matching braces alone
/// (see the module docs). Returns the offset after it and the line number
/// and line start there; `None` if the braces do not balance.
pub(crate) fn scan_braces(src: &[u8], i: usize, line: u32, line_start: usize) -> Option<(usize, u32, usize)> {
    scan(src, i, line, line_start)
}

/// Whether the bracket scan must look at byte `c`: a brace, a quote or a
/// `/`.
#[inline]
fn is_special(c: u8) -> bool {
    matches!(c, b'{' | b'}' | b'"' | b'/')
}

/// Where the skip to the next special byte ended.
struct Skip {
    /// The special byte's offset, or `None` at the end of the text.
    at: Option<usize>,
    /// Newlines passed.
    newlines: u32,
    /// The offset after the last newline passed, if any.
    line_start: Option<usize>,
}

/// Skips from `i` to the first special byte, byte by byte.
fn skip_bytewise(src: &[u8], mut i: usize) -> Skip {
    let mut skip = Skip {
        at: None,
        newlines: 0,
        line_start: None,
    };
    while i < src.len() {
        let c = src[i];
        if is_special(c) {
            skip.at = Some(i);
            return skip;
        }
        i += 1;
        if c == b'\n' {
            skip.newlines += 1;
            skip.line_start = Some(i);
        }
    }
    skip
}

/// The special bytes and the newlines among the 16 bytes at `i`, as bit
/// masks (bit `k`: byte `i + k`).
///
/// # Safety
/// `i + 16 <= src.len()`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn masks16(src: &[u8], i: usize) -> (u64, u64) {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    // SAFETY: the caller keeps the 16 bytes loaded (unaligned) inside
    // `src`; the other intrinsics only compute on registers, with SSE2,
    // which every x86-64 target has.
    unsafe {
        let v = _mm_loadu_si128(src.as_ptr().add(i).cast::<__m128i>());
        let is = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
        let special = _mm_or_si128(_mm_or_si128(is(b'{'), is(b'}')), _mm_or_si128(is(b'"'), is(b'/')));
        (
            _mm_movemask_epi8(special) as u32 as u64,
            _mm_movemask_epi8(is(b'\n')) as u32 as u64,
        )
    }
}

/// Skips from `i` to the first special byte, 64 bytes at a time (then 16),
/// with SSE2.
#[cfg(target_arch = "x86_64")]
fn skip(src: &[u8], mut i: usize) -> Skip {
    let mut newlines = 0u32;
    let mut line_start = None;
    loop {
        let width = if i + 64 <= src.len() {
            64
        } else if i + 16 <= src.len() {
            16
        } else {
            break;
        };
        let (mut special, mut nl) = (0u64, 0u64);
        for k in (0..width).step_by(16) {
            // SAFETY: `i + k + 16 <= i + width <= src.len()`.
            let (s, n) = unsafe { masks16(src, i + k) };
            special |= s << k;
            nl |= n << k;
        }
        if special != 0 {
            // Only the newlines before the special byte.
            nl &= (1u64 << special.trailing_zeros()) - 1;
        }
        if nl != 0 {
            newlines += nl.count_ones();
            line_start = Some(i + 64 - nl.leading_zeros() as usize);
        }
        if special != 0 {
            return Skip {
                at: Some(i + special.trailing_zeros() as usize),
                newlines,
                line_start,
            };
        }
        i += width;
    }
    let tail = skip_bytewise(src, i);
    Skip {
        at: tail.at,
        newlines: newlines + tail.newlines,
        line_start: tail.line_start.or(line_start),
    }
}

/// Skips from `i` to the first special byte.
#[cfg(not(target_arch = "x86_64"))]
fn skip(src: &[u8], i: usize) -> Skip {
    skip_bytewise(src, i)
}

/// The brace matching of [`scan_braces`], outside strings and comments.
fn scan(src: &[u8], mut i: usize, mut line: u32, mut line_start: usize) -> Option<(usize, u32, usize)> {
    let mut depth = 1u32;
    loop {
        let s = skip(src, i);
        line += s.newlines;
        if let Some(start) = s.line_start {
            line_start = start;
        }
        let at = s.at?;
        let c = src[at];
        i = at + 1;
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((i, line, line_start));
                }
            }
            b'"' => loop {
                match src.get(i)? {
                    b'"' => {
                        i += 1;
                        break;
                    }
                    b'\\' => i += 2,
                    b'\n' => return None,
                    _ => i += 1,
                }
            },
            // A comment: the newline that ends it is counted by the next skip.
            b'/' if src.get(i) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |k| i + k);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{scan, scan_region_list, skip, skip_bytewise};

    /// The scan as it was written first, a byte at a time: the reference
    /// (parentheses and square brackets are plain text to it).
    fn reference(src: &[u8], mut i: usize, mut line: u32, mut line_start: usize) -> Option<(usize, u32, usize)> {
        let mut depth = 1u32;
        while i < src.len() {
            let c = src[i];
            i += 1;
            match c {
                b'\n' => {
                    line += 1;
                    line_start = i;
                }
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some((i, line, line_start));
                    }
                }
                b'"' => loop {
                    match src.get(i)? {
                        b'"' => {
                            i += 1;
                            break;
                        }
                        b'\\' => i += 2,
                        b'\n' => return None,
                        _ => i += 1,
                    }
                },
                b'/' if src.get(i) == Some(&b'/') => {
                    while i < src.len() && src[i] != b'\n' {
                        i += 1;
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Text made of the pieces the scan cares about, with runs of plain
    /// text of every length around the 16-byte steps.
    fn text(rng: &mut Rng, len: usize) -> Vec<u8> {
        const PIECES: &[&[u8]] = &[
            b"(",
            b")",
            b"[",
            b"]",
            b"{",
            b"}",
            b"\"",
            b"\"a\\\"b\"",
            b"\"x\\\\\"",
            b"//c)\n",
            b"/",
            b"\n",
            b"\n\n",
            b" ",
            b"%arg0",
            b"affine.load %A[%i, %j] : memref<4xf32>",
            b"\r\n",
        ];
        let mut v = Vec::new();
        while v.len() < len {
            let p = PIECES[(rng.next() % PIECES.len() as u64) as usize];
            v.extend_from_slice(p);
        }
        v
    }

    #[test]
    fn skip_matches_a_bytewise_skip() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let len = (rng.next() % 200) as usize;
            let src = text(&mut rng, len);
            for i in 0..=src.len() {
                let (a, b) = (skip(&src, i), skip_bytewise(&src, i));
                assert_eq!(
                    (a.at, a.newlines, a.line_start),
                    (b.at, b.newlines, b.line_start),
                    "{src:?} from {i}"
                );
            }
        }
    }

    #[test]
    fn scan_matches_the_reference() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut balanced = 0;
        for _ in 0..5000 {
            let mut src = b"x{".to_vec();
            let len = (rng.next() % 300) as usize;
            src.extend(text(&mut rng, len));
            let got = scan(&src, 2, 1, 0);
            assert_eq!(got, reference(&src, 2, 1, 0), "{:?}", String::from_utf8_lossy(&src));
            balanced += got.is_some() as usize;
        }
        assert!(balanced > 100, "the inputs exercise balanced braces too ({balanced})");
    }

    /// A generic op's region list: regions found by their braces, with
    /// strings, comments and brackets inside them; lines counted to the `)`.
    #[test]
    fn finds_the_end_of_a_region_list() {
        let src = b"\"t.f\"() ({\n  \"t.a\"() {s = \"}\"} : () -> (i32) // }\n}, {\n^bb0(%a: i32):\n}\n) : () -> ()";
        // The list's `)` starts the sixth line.
        let close = src.windows(2).position(|w| w == b"\n)").expect("end") + 1;
        assert_eq!(scan_region_list(src, 9, 1, 0), Some((close + 1, 2, 6, close)));
        assert_eq!(scan_region_list(b"() : x", 1, 1, 0), Some((2, 0, 1, 0)));
        for bad in [&b"({} {})"[..], b"({},)", b"({} // c\n)", b"(x)", b"({)", b"({}"] {
            assert_eq!(
                scan_region_list(bad, 1, 1, 0),
                None,
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn finds_the_end_of_a_function_body() {
        let src = b"{\n  %0 = \"t.op\"() {s = \"}\\\"{\"} : () -> i32 // }\n  \"t.r\"(%0) ({ }) : (i32) -> ()\n}\nrest";
        let close = src.iter().rposition(|&c| c == b'}').expect("closing brace");
        let last_line_start = src[..close].iter().rposition(|&c| c == b'\n').expect("newline") + 1;
        assert_eq!(super::scan_braces(src, 1, 1, 0), Some((close + 1, 4, last_line_start)));
    }
}
