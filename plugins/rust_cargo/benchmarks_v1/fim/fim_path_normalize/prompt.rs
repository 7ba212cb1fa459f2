/// Normalises a slash-separated path of a virtual file store. Empty segments
/// and `.` are dropped, and `..` removes the previous segment. An absolute
/// path (leading `/`) stays absolute and `..` at its root is ignored; a
/// relative path keeps the leading `..` segments it cannot resolve. An empty
/// result is `"/"` for an absolute path and `"."` for a relative one.
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                /*FILL*/
            }
            name => parts.push(name),
        }
    }
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{}", joined),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}
