/// A dense row-major matrix of i64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<i64>,
}

impl Matrix {
    /// Builds a matrix from rows; None if the rows have different lengths.
    pub fn from_rows(rows: &[Vec<i64>]) -> Option<Matrix> {
        let cols = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != cols) {
            return None;
        }
        Some(Matrix { rows: rows.len(), cols, data: rows.concat() })
    }

    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix { rows, cols, data: vec![0; rows * cols] }
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

    pub fn set(&mut self, r: usize, c: usize, value: i64) {
        self.data[r * self.cols + c] = value;
    }
}
