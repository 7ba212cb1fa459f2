use super::*;

#[test]
fn drops_dots_and_empty_segments() {
    assert_eq!(normalize("/a/./b//c/"), "/a/b/c");
    assert_eq!(normalize("a//b"), "a/b");
}

#[test]
fn parent_segments_remove_the_previous_one() {
    assert_eq!(normalize("/a/./b/../c/"), "/a/c");
    assert_eq!(normalize("a/b/../../c"), "c");
}

#[test]
fn absolute_paths_stop_at_the_root() {
    assert_eq!(normalize("/../.."), "/");
    assert_eq!(normalize("/a/../../b"), "/b");
    assert_eq!(normalize("/"), "/");
}

#[test]
fn relative_paths_keep_unresolved_parents() {
    assert_eq!(normalize("a/b/../../.."), "..");
    assert_eq!(normalize("../x/../y"), "../y");
    assert_eq!(normalize("../../a"), "../../a");
    assert_eq!(normalize("a/../../b"), "../b");
}

#[test]
fn empty_relative_result_is_dot() {
    assert_eq!(normalize(""), ".");
    assert_eq!(normalize("./"), ".");
    assert_eq!(normalize("a/.."), ".");
}
