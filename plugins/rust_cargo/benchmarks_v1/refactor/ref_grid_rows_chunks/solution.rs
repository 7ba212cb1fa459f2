// Task: stop doing index arithmetic on the flat buffer. Add
//   pub fn row(&self, r: usize) -> &[f32]                       (panics if r >= rows)
//   pub fn rows(&self) -> impl Iterator<Item = &[f32]> + '_     (built on `chunks`)
// and rewrite `row_sums` and `column_max` on top of them so that no
// `r * self.cols + c` indexing is left. Results must not change.

/// A dense row-major grid of f32 values (cols > 0).
pub struct Grid {
    cols: usize,
    data: Vec<f32>,
}

impl Grid {
    /// Builds a grid from row-major data; the length must be a multiple of `cols`.
    pub fn new(cols: usize, data: Vec<f32>) -> Grid {
        assert!(cols > 0 && data.len() % cols == 0);
        Grid { cols, data }
    }

    pub fn row_count(&self) -> usize {
        self.data.len() / self.cols
    }

    /// Row `r` as a slice; panics if `r` is out of range.
    pub fn row(&self, r: usize) -> &[f32] {
        assert!(r < self.row_count(), "row {} out of range", r);
        &self.data[r * self.cols..(r + 1) * self.cols]
    }

    pub fn rows(&self) -> impl Iterator<Item = &[f32]> + '_ {
        self.data.chunks(self.cols)
    }

    pub fn row_sums(&self) -> Vec<f32> {
        self.rows().map(|row| row.iter().sum()).collect()
    }

    /// The maximum of each column; empty when the grid has no rows.
    pub fn column_max(&self) -> Vec<f32> {
        let mut rows = self.rows();
        let mut max = match rows.next() {
            Some(first) => first.to_vec(),
            None => return Vec::new(),
        };
        for row in rows {
            for (m, &v) in max.iter_mut().zip(row) {
                if v > *m {
                    *m = v;
                }
            }
        }
        max
    }
}
