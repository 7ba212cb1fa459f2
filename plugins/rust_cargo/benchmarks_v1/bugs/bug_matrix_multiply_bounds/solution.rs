// Task: `Matrix` is a small dense integer matrix (row-major). `multiply` must
// return the matrix product as its doc comment says. The code compiles but
// has a bug. Fix it and return the whole corrected file.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<i64>,
}

impl Matrix {
    /// Builds a matrix from its rows; None if the rows differ in length.
    pub fn from_rows(rows: &[Vec<i64>]) -> Option<Matrix> {
        let cols = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != cols) {
            return None;
        }
        let data = rows.iter().flat_map(|r| r.iter().copied()).collect();
        Some(Matrix { rows: rows.len(), cols, data })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn get(&self, r: usize, c: usize) -> i64 {
        self.data[r * self.cols + c]
    }

    /// The product `self * other`, or None if `self.cols() != other.rows()`.
    pub fn multiply(&self, other: &Matrix) -> Option<Matrix> {
        if self.cols != other.rows {
            return None;
        }
        let mut data = vec![0; self.rows * other.cols];
        for r in 0..self.rows {
            for c in 0..other.cols {
                let mut sum = 0;
                for k in 0..self.cols {
                    sum += self.get(r, k) * other.get(k, c);
                }
                data[r * other.cols + c] = sum;
            }
        }
        Some(Matrix { rows: self.rows, cols: other.cols, data })
    }
}
