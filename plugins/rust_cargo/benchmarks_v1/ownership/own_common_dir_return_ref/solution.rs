// Task: `common_dir` finds the deepest directory shared by a set of file paths,
// as its doc comment says. The file does not compile. Fix it and return the
// whole corrected file.

/// The longest prefix shared by all `paths`, cut back to just after its last
/// '/' so that it names a directory: "src/net/tcp.rs" and "src/net/udp.rs"
/// give "src/net/". Returns "" for no paths or when no directory is shared.
/// The result borrows from the input paths.
pub fn common_dir<'a>(paths: &[&'a str]) -> &'a str {
    let first = match paths.first() {
        Some(first) => *first,
        None => return "",
    };
    let mut prefix = first.to_string();
    for path in &paths[1..] {
        while !path.starts_with(prefix.as_str()) {
            prefix.pop();
        }
    }
    match prefix.rfind('/') {
        Some(i) => &first[..=i],
        None => "",
    }
}
