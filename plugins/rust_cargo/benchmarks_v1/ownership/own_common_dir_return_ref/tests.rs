use super::*;

#[test]
fn shared_directory() {
    assert_eq!(common_dir(&["src/net/tcp.rs", "src/net/udp.rs"]), "src/net/");
    assert_eq!(common_dir(&["src/net/tcp.rs", "src/netlink.rs", "src/main.rs"]), "src/");
}

#[test]
fn single_path_gives_its_directory() {
    assert_eq!(common_dir(&["docs/guide/intro.md"]), "docs/guide/");
    assert_eq!(common_dir(&["README"]), "");
}

#[test]
fn nothing_shared() {
    assert_eq!(common_dir(&["a/x", "b/x"]), "");
    assert_eq!(common_dir(&[]), "");
}

#[test]
fn result_outlives_the_slice_of_paths() {
    let owned = vec![String::from("répertoire/é/a.txt"), String::from("répertoire/é/b.txt")];
    let dir = {
        let refs: Vec<&str> = owned.iter().map(|s| s.as_str()).collect();
        common_dir(&refs)
    };
    assert_eq!(dir, "répertoire/é/");
}
