// Task: implement `Role` on a `u8` bit mask using `Perm::bit` from
// `crate::perm`: `Role::new(name)` grants nothing; `grant(p)` and
// `revoke(p)` change one permission; `allows(p)` tells whether it is granted,
// and `Perm::Admin` allows every permission; `union(&self, other, name)`
// returns a new role with the permissions of both; `granted()` lists the
// explicitly granted permissions in `Perm::ALL` order.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role {
    pub name: String,
}
