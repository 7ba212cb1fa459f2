/// Which part of a release version to increase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bump {
    Major,
    Minor,
    Patch,
}

/// Bumps a `major.minor.patch` version string. A major bump resets minor and
/// patch to 0, a minor bump resets patch. While the major version is 0, a
/// major bump is treated as a minor bump. Returns `None` when `version` is not
/// three dot-separated numbers.
pub fn bump(version: &str, kind: Bump) -> Option<String> {
    let parts: Vec<u64> = version.split('.').map(|p| p.parse().ok()).collect::<Option<_>>()?;
    if parts.len() != 3 {
        return None;
    }
    let (mut major, mut minor, mut patch) = (parts[0], parts[1], parts[2]);
    if kind == Bump::Patch {
        patch += 1;
    } else if kind == Bump::Major && major > 0 {
        major += 1;
        minor = 0;
        patch = 0;
    } else {
        minor += 1;
        patch = 0;
    }
    Some(format!("{}.{}.{}", major, minor, patch))
}
