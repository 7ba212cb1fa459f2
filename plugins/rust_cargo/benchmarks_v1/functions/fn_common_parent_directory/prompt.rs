/// Returns the deepest directory that contains every file in `paths`, for
/// example `"/var/log"` for `["/var/log/app.log", "/var/log/db.log"]`.
///
/// Paths are absolute and `/`-separated, and each names a file: its last
/// component is the file name and never part of the result. Empty components
/// (from repeated or trailing slashes) are ignored, and directories are
/// compared component by component (`/usr/lib` does not contain
/// `/usr/libexec/x`). The result is `/` followed by the shared components
/// joined with `/`; it is `"/"` when nothing is shared. Returns `None` for an
/// empty list.
pub fn common_directory(paths: &[&str]) -> Option<String> {
