#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Perm {
    Read,
    Write,
    Delete,
    Invite,
    Billing,
    Admin,
}

impl Perm {
    pub const ALL: [Perm; 6] = [Perm::Read, Perm::Write, Perm::Delete, Perm::Invite, Perm::Billing, Perm::Admin];

    /// The bit that represents this permission in a mask.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}
