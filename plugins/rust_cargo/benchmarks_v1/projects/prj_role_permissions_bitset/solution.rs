// Task: implement `Role` on a `u8` bit mask using `Perm::bit` from
// `crate::perm`: `Role::new(name)` grants nothing; `grant(p)` and
// `revoke(p)` change one permission; `allows(p)` tells whether it is granted,
// and `Perm::Admin` allows every permission; `union(&self, other, name)`
// returns a new role with the permissions of both; `granted()` lists the
// explicitly granted permissions in `Perm::ALL` order.
use crate::perm::Perm;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role {
    pub name: String,
    mask: u8,
}

impl Role {
    pub fn new(name: &str) -> Role {
        Role { name: name.to_string(), mask: 0 }
    }

    pub fn grant(&mut self, p: Perm) {
        self.mask |= p.bit();
    }

    pub fn revoke(&mut self, p: Perm) {
        self.mask &= !p.bit();
    }

    fn has(&self, p: Perm) -> bool {
        self.mask & p.bit() != 0
    }

    pub fn allows(&self, p: Perm) -> bool {
        self.has(Perm::Admin) || self.has(p)
    }

    pub fn union(&self, other: &Role, name: &str) -> Role {
        Role { name: name.to_string(), mask: self.mask | other.mask }
    }

    pub fn granted(&self) -> Vec<Perm> {
        Perm::ALL.iter().copied().filter(|&p| self.has(p)).collect()
    }
}
