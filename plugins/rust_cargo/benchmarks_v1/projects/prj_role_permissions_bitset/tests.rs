use crate::perm::Perm;
use crate::role::Role;

#[test]
fn grant_and_revoke() {
    let mut r = Role::new("editor");
    assert!(!r.allows(Perm::Write));
    r.grant(Perm::Write);
    r.grant(Perm::Read);
    r.grant(Perm::Write);
    assert!(r.allows(Perm::Write) && r.allows(Perm::Read));
    r.revoke(Perm::Write);
    r.revoke(Perm::Delete);
    assert!(!r.allows(Perm::Write));
    assert_eq!(r.granted(), vec![Perm::Read]);
}

#[test]
fn admin_allows_everything_but_lists_only_itself() {
    let mut r = Role::new("root");
    r.grant(Perm::Admin);
    assert!(Perm::ALL.iter().all(|&p| r.allows(p)));
    assert_eq!(r.granted(), vec![Perm::Admin]);
}

#[test]
fn union_combines() {
    let mut a = Role::new("a");
    a.grant(Perm::Billing);
    a.grant(Perm::Read);
    let mut b = Role::new("b");
    b.grant(Perm::Invite);
    b.grant(Perm::Read);
    let c = a.union(&b, "c");
    assert_eq!(c.name, "c");
    assert_eq!(c.granted(), vec![Perm::Read, Perm::Invite, Perm::Billing]);
    assert_eq!(a.granted(), vec![Perm::Read, Perm::Billing]);
}

#[test]
fn new_role_is_empty() {
    let r = Role::new("guest");
    assert!(r.granted().is_empty());
    assert!(!r.allows(Perm::Read));
    assert_eq!(r, Role::new("guest"));
}
