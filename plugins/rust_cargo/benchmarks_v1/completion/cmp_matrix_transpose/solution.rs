/// A dense row-major matrix of `f64`.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f64>,
}

impl Matrix {
    /// The entry in row `r`, column `c`.
    pub fn get(&self, r: usize, c: usize) -> f64 {
        self.data[r * self.cols + c]
    }

    /// The transpose: a `cols x rows` matrix whose entry (c, r) is this
    /// matrix's entry (r, c).
    pub fn transpose(&self) -> Matrix {
        let data = (0..self.cols)
            .flat_map(|c| (0..self.rows).map(move |r| self.get(r, c)))
            .collect();
        Matrix { rows: self.cols, cols: self.rows, data }
    }
}
