//! A dense row-major matrix of `i64`, the storage of the constraint rows.

/// A dense row-major `i64` matrix with a fixed number of columns.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Matrix {
    cols: usize,
    data: Vec<i64>,
}

impl Matrix {
    /// An empty matrix with `cols` columns.
    pub(crate) fn new(cols: usize) -> Matrix {
        Matrix { cols, data: Vec::new() }
    }

    #[inline]
    pub(crate) fn rows(&self) -> usize {
        self.data.len().checked_div(self.cols).unwrap_or(0)
    }

    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[i64] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    #[inline]
    pub(crate) fn row_mut(&mut self, i: usize) -> &mut [i64] {
        &mut self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// The rows, in order.
    #[inline]
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &[i64]> + '_ {
        // `chunks_exact(0)` panics: a zero-column matrix has no rows.
        self.data.chunks_exact(self.cols.max(1))
    }

    pub(crate) fn push_row(&mut self, row: &[i64]) {
        assert_eq!(
            row.len(),
            self.cols,
            "constraint row has {} entries, expected {}",
            row.len(),
            self.cols
        );
        self.data.extend_from_slice(row);
    }

    /// The number of columns.
    #[inline]
    pub(crate) fn cols(&self) -> usize {
        self.cols
    }

    /// Removes row `i` and returns it.
    pub(crate) fn take_row(&mut self, i: usize) -> Vec<i64> {
        self.data.drain(i * self.cols..(i + 1) * self.cols).collect()
    }

    pub(crate) fn remove_row(&mut self, i: usize) {
        self.data.drain(i * self.cols..(i + 1) * self.cols);
    }

    pub(crate) fn clear(&mut self) {
        self.data.clear();
    }

    /// Keeps the rows for which `keep(index, row)` is true, in order.
    pub(crate) fn retain_rows(&mut self, mut keep: impl FnMut(usize, &[i64]) -> bool) {
        let c = self.cols;
        let mut out = 0;
        for i in 0..self.rows() {
            if keep(i, &self.data[i * c..(i + 1) * c]) {
                if out != i {
                    self.data.copy_within(i * c..(i + 1) * c, out * c);
                }
                out += 1;
            }
        }
        self.data.truncate(out * c);
    }

    /// Inserts `n` zero columns before column `pos`.
    pub(crate) fn insert_cols(&mut self, pos: usize, n: usize) {
        if n == 0 {
            return;
        }
        let (old, new) = (self.cols, self.cols + n);
        let mut data = Vec::with_capacity(self.rows() * new);
        for row in self.data.chunks_exact(old.max(1)) {
            data.extend_from_slice(&row[..pos]);
            data.extend(std::iter::repeat_n(0, n));
            data.extend_from_slice(&row[pos..]);
        }
        self.cols = new;
        self.data = data;
    }

    /// Appends the rows of `other` (with as many columns).
    pub(crate) fn append(&mut self, other: &Matrix) {
        assert_eq!(self.cols, other.cols, "appending rows of another width");
        self.data.extend_from_slice(&other.data);
    }

    /// A matrix of `cols` columns whose column `map[c]` holds column `c`
    /// of this one, the others zero; rows in the same order. A column
    /// mapped to `usize::MAX` is dropped (it must be zero).
    pub(crate) fn remap(&self, cols: usize, map: &[usize]) -> Matrix {
        debug_assert_eq!(map.len(), self.cols);
        let rows = self.rows();
        let mut data = vec![0; rows * cols];
        for (r, row) in self.data.chunks_exact(self.cols.max(1)).enumerate() {
            let out = &mut data[r * cols..(r + 1) * cols];
            for (&v, &c) in row.iter().zip(map) {
                if c == usize::MAX {
                    debug_assert_eq!(v, 0, "a dropped column holds a coefficient");
                } else {
                    out[c] = v;
                }
            }
        }
        Matrix { cols, data }
    }

    /// Removes columns `start..end` (in place: the rows move front to
    /// back).
    pub(crate) fn remove_cols(&mut self, start: usize, end: usize) {
        if start == end {
            return;
        }
        let (old, new) = (self.cols, self.cols - (end - start));
        let rows = self.rows();
        for r in 0..rows {
            let (src, dst) = (r * old, r * new);
            self.data.copy_within(src..src + start, dst);
            self.data.copy_within(src + end..src + old, dst + start);
        }
        self.data.truncate(rows * new);
        self.cols = new;
    }

    /// Room for `rows` more rows without reallocating.
    pub(crate) fn reserve_rows(&mut self, rows: usize) {
        self.data.reserve(rows * self.cols);
    }

    /// Rotates the columns `start..end` of every row left by `k`.
    pub(crate) fn rotate_cols_left(&mut self, start: usize, end: usize, k: usize) {
        if k == 0 || k == end - start {
            return;
        }
        let c = self.cols;
        for row in self.data.chunks_exact_mut(c.max(1)) {
            row[start..end].rotate_left(k);
        }
    }

    /// Reorders columns: new column `i` is old column `from[i]`.
    pub(crate) fn permute_cols(&mut self, from: &[usize]) {
        debug_assert_eq!(from.len(), self.cols);
        let c = self.cols;
        let mut tmp = vec![0; c];
        for r in 0..self.rows() {
            let row = &mut self.data[r * c..(r + 1) * c];
            for (i, &f) in from.iter().enumerate() {
                tmp[i] = row[f];
            }
            row.copy_from_slice(&tmp);
        }
    }
}
