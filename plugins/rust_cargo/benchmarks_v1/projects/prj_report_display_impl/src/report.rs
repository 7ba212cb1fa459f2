/// Monthly figures per department.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub title: String,
    /// (department, headcount, spend in whole euros)
    pub rows: Vec<(String, u32, u64)>,
}

impl Report {
    pub fn total_headcount(&self) -> u32 {
        self.rows.iter().map(|r| r.1).sum()
    }

    pub fn total_spend(&self) -> u64 {
        self.rows.iter().map(|r| r.2).sum()
    }
}
