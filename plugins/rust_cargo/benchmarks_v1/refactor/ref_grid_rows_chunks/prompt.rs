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

    pub fn row_sums(&self) -> Vec<f32> {
        let mut sums = Vec::new();
        for r in 0..self.row_count() {
            let mut s = 0.0;
            for c in 0..self.cols {
                s += self.data[r * self.cols + c];
            }
            sums.push(s);
        }
        sums
    }

    /// The maximum of each column; empty when the grid has no rows.
    pub fn column_max(&self) -> Vec<f32> {
        if self.row_count() == 0 {
            return Vec::new();
        }
        let mut max = Vec::new();
        for c in 0..self.cols {
            let mut m = self.data[c];
            for r in 1..self.row_count() {
                if self.data[r * self.cols + c] > m {
                    m = self.data[r * self.cols + c];
                }
            }
            max.push(m);
        }
        max
    }
}
