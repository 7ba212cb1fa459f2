use super::*;

#[test]
fn paths_and_children() {
    let root = Folder::new_root("home");
    let docs = Folder::add_child(&root, "docs");
    let tax = Folder::add_child(&docs, "tax");
    Folder::add_child(&root, "music");
    assert_eq!(tax.path(), "/home/docs/tax");
    assert_eq!(root.child_names(), vec!["docs", "music"]);
    assert_eq!(tax.parent().map(|p| p.name.clone()), Some("docs".to_string()));
}

#[test]
fn children_do_not_own_their_parent() {
    let root = Folder::new_root("r");
    let a = Folder::add_child(&root, "a");
    let _b = Folder::add_child(&root, "b");
    let _c = Folder::add_child(&a, "c");
    assert_eq!(Rc::strong_count(&root), 1);
    assert_eq!(Rc::strong_count(&a), 2);
}

#[test]
fn dropping_the_root_frees_it() {
    let root = Folder::new_root("r");
    let child = Folder::add_child(&root, "a");
    let weak_root = Rc::downgrade(&root);
    drop(root);
    assert!(weak_root.upgrade().is_none());
    assert!(child.parent().is_none());
    assert_eq!(child.path(), "/a");
}

#[test]
fn whole_tree_is_freed() {
    let root = Folder::new_root("r");
    let weak_leaf = Rc::downgrade(&Folder::add_child(&Folder::add_child(&root, "x"), "y"));
    assert!(weak_leaf.upgrade().is_some());
    drop(root);
    assert!(weak_leaf.upgrade().is_none());
}
