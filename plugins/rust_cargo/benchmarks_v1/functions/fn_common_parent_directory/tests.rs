use super::*;

#[test]
fn empty_list_has_no_answer() {
    assert_eq!(common_directory(&[]), None);
}

#[test]
fn single_file_gives_its_directory() {
    assert_eq!(common_directory(&["/etc/nginx/nginx.conf"]), Some("/etc/nginx".to_string()));
    assert_eq!(common_directory(&["/readme"]), Some("/".to_string()));
}

#[test]
fn shared_directory_of_several_files() {
    let paths = ["/var/log/app/a.log", "/var/log/app/b.log", "/var/log/db.log"];
    assert_eq!(common_directory(&paths), Some("/var/log".to_string()));
}

#[test]
fn components_are_compared_whole() {
    assert_eq!(common_directory(&["/usr/lib/x.so", "/usr/libexec/y"]), Some("/usr".to_string()));
    assert_eq!(common_directory(&["/home/ann/f", "/srv/ann/f"]), Some("/".to_string()));
}

#[test]
fn file_names_are_not_directories() {
    assert_eq!(common_directory(&["/a/b", "/a/b/c"]), Some("/a".to_string()));
    assert_eq!(common_directory(&["/data/x", "/data/x"]), Some("/data".to_string()));
}

#[test]
fn empty_components_are_ignored() {
    assert_eq!(common_directory(&["//opt//app/bin/run", "/opt/app/bin//stop"]), Some("/opt/app/bin".to_string()));
}
