//! The shape of a list of affine expressions of SSA ids: its text with each
//! SSA name replaced by the number of the distinct name it is, so that two
//! lists that differ only in the names they use (`%i + 1, %j` and
//! `%k + 1, %l`) have the same shape and parse to the same map.
//!
//! A parser that meets the same subscripts again and again (the accesses of
//! a generated or unrolled program) keys a memo of parsed maps on the shape;
//! see [`ssa_list_shape`].

use crate::lexer::ssa_name_end;
use std::ops::Range;

/// The byte that stands for an SSA name in a shape; the next byte is the
/// name's number. Text holding it has no shape.
const NAME_MARK: u8 = 0;

/// Most distinct names a shape numbers (one byte each).
const MAX_NAMES: usize = 255;

/// Computes the shape of the comma-separated affine expressions of SSA ids
/// at the start of `text`, up to and including the first `closing` (`]` or
/// `)`) outside parentheses, as [`crate::parse_affine_exprs_of_ssa_id_ranges`]
/// reads them.
///
/// Writes the shape to `key` and the byte range of the first occurrence of
/// each distinct SSA name (with the `%` and any `#n` suffix), in order of
/// first occurrence, to `names` (both cleared first). Returns the length of
/// the list's text, closing character included; `None` when the text is
/// not one simple line (it holds a newline, a control character, a comment
/// or string delimiter, non-ASCII text, more than 255 distinct names, or no
/// closing character), whose callers then parse it without a memo.
///
/// The shape is computed without parsing: a caller must check, the first
/// time it parses a shape, that the parse read the same names and stopped at
/// the same place, and memoize only then.
///
/// ```
/// let (mut key, mut names) = (Vec::new(), Vec::new());
/// let n = lf_affine::ssa_list_shape("%i + symbol(%n), %i] : x", ']', &mut key, &mut names);
/// assert_eq!((n, names), (Some(20), vec![0..2, 12..14]));
/// let mut other = Vec::new();
/// lf_affine::ssa_list_shape("%a + symbol(%b), %a]", ']', &mut other, &mut Vec::new());
/// assert_eq!(key, other);
/// ```
pub fn ssa_list_shape(text: &str, closing: char, key: &mut Vec<u8>, names: &mut Vec<Range<usize>>) -> Option<usize> {
    key.clear();
    names.clear();
    let closing = u8::try_from(closing).ok().filter(u8::is_ascii)?;
    let bytes = text.as_bytes();
    let mut depth = 0u32;
    let mut i = 0;
    loop {
        // Copy the run of plain text up to the next byte that matters.
        let run = i;
        while i < bytes.len() && CLASS[bytes[i] as usize] == PLAIN {
            i += 1;
        }
        key.extend_from_slice(&bytes[run..i]);
        let b = *bytes.get(i)?;
        match CLASS[b as usize] {
            NAME => {
                let end = ssa_name_end(bytes, i + 1)?;
                let name = &bytes[i..end];
                let slot = match names
                    .iter()
                    .position(|r| r.len() == name.len() && &bytes[r.clone()] == name)
                {
                    Some(s) => s,
                    None if names.len() < MAX_NAMES => {
                        names.push(i..end);
                        names.len() - 1
                    }
                    None => return None,
                };
                key.extend_from_slice(&[NAME_MARK, slot as u8]);
                i = end;
            }
            OPEN => {
                depth += 1;
                key.push(b);
                i += 1;
            }
            CLOSE if depth == 0 => {
                if b != closing {
                    return None;
                }
                key.push(b);
                return Some(i + 1);
            }
            CLOSE => {
                depth -= 1;
                key.push(b);
                i += 1;
            }
            _ => return None,
        }
    }
}

/// Byte classes of [`CLASS`].
const PLAIN: u8 = 0;
const NAME: u8 = 1;
const OPEN: u8 = 2;
const CLOSE: u8 = 3;
/// A byte that ends the shape (`None`).
const STOP: u8 = 4;

/// The class of each byte: what the scan does when it meets it.
static CLASS: [u8; 256] = {
    let mut c = [PLAIN; 256];
    let mut b = 0;
    while b < 256 {
        c[b] = match b as u8 {
            b'%' => NAME,
            b'(' | b'[' => OPEN,
            b')' | b']' => CLOSE,
            b'\t' => PLAIN,
            b'/' | b'"' | 0..=31 | 127..=255 => STOP,
            _ => PLAIN,
        };
        b += 1;
    }
    c
};

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str, closing: char) -> Option<(Vec<u8>, Vec<Range<usize>>, usize)> {
        let (mut key, mut names) = (Vec::new(), Vec::new());
        ssa_list_shape(text, closing, &mut key, &mut names).map(|n| (key, names, n))
    }

    #[test]
    fn names_are_numbered_by_first_occurrence() {
        let (key, names, n) = shape("%b * 2, %a#1 + %b, (%c) mod 4)", ')').unwrap();
        assert_eq!(names, vec![0..2, 8..12, 20..22]);
        assert_eq!(n, 30);
        let (other, _, _) = shape("%x * 2, %y + %x, (%z) mod 4)", ')').unwrap();
        assert_eq!(key, other);
        // A different pattern of names has a different shape.
        let (third, _, _) = shape("%x * 2, %y + %y, (%z) mod 4)", ')').unwrap();
        assert_ne!(key, third);
    }

    #[test]
    fn the_list_ends_at_the_first_closing_outside_parentheses() {
        assert_eq!(shape("(%i)] x]", ']').map(|s| s.2), Some(5));
        assert_eq!(shape("symbol(%n)) , )", ')').map(|s| s.2), Some(11));
        assert_eq!(shape("]", ']').map(|s| (s.1.len(), s.2)), Some((0, 1)));
    }

    #[test]
    fn digit_names_stop_at_the_first_non_digit_as_the_lexer() {
        let (_, names, _) = shape("%12ab + %x-y#3]", ']').unwrap();
        assert_eq!(names, vec![0..3, 8..14]);
    }

    #[test]
    fn unusual_text_has_no_shape() {
        assert!(shape("%i +\n 1]", ']').is_none());
        assert!(shape("%i // c\n]", ']').is_none());
        assert!(shape("%i + 1", ']').is_none());
        assert!(shape("%i)]", ']').is_none());
        assert!(shape("% i]", ']').is_none());
        assert!(shape("%i + 1]", 'é').is_none());
        assert!(shape("%i + \u{1}]", ']').is_none());
    }
}
