//! "Did you mean" suggestions: the nearest name by edit distance.

/// Levenshtein distance between two strings (in chars).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate nearest to `name`, if it is close enough to be a likely
/// typo (at most a third of the name's length away, at least 1 edit allowed,
/// or the candidate contains the name / the name contains the candidate).
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = name.chars().count();
    let limit = (len / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        let contained = || name.len() >= 3 && (c.contains(name) || name.contains(c));
        // The distance is at least the difference in length: past the
        // limit, only containment can make the candidate near, and the
        // distance (quadratic in the lengths: a 100k-character name against
        // every op) is not worth computing.
        let mut d = if len.abs_diff(c.chars().count()) > limit {
            limit + 1
        } else {
            edit_distance(name, c)
        };
        if d > limit && contained() {
            d = limit;
        }
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_suggestions() {
        assert_eq!(edit_distance("cse", "cse"), 0);
        assert_eq!(edit_distance("csee", "cse"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let names = ["cse", "canonicalize", "symbol-dce", "dce"];
        assert_eq!(nearest("canonicalise", names), Some("canonicalize"));
        assert_eq!(nearest("symbol-dc", names), Some("symbol-dce"));
        assert_eq!(nearest("xyzzy", names), None);
        assert_eq!(nearest("ce", names), Some("cse"));
        // Far longer or shorter: only containment counts.
        assert_eq!(nearest(&"x".repeat(100_000), names), None);
        assert_eq!(nearest("canonicalize-everything-now", names), Some("canonicalize"));
    }
}
