#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub id: u32,
    pub name: String,
    /// Unpaid fees in cents.
    pub owed_cents: u32,
}

impl Member {
    pub fn new(id: u32, name: &str) -> Member {
        Member { id, name: name.to_string(), owed_cents: 0 }
    }
}
