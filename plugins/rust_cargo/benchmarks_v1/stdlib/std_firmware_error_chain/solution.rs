//! Errors of a firmware updater.
//!
//! Still to do in this module: `impl fmt::Display for UpdateError` with the
//! messages `device <id> is offline` and `bad firmware image for <device>`;
//! `impl Error for UpdateError`, whose `source()` is the `ChecksumMismatch`
//! for `BadImage` and `None` for `DeviceOffline`; and
//! `pub fn error_chain(err: &dyn Error) -> String`, which renders the error
//! followed by each of its causes (following `source()` until it is `None`),
//! joined by `": "`.

use std::error::Error;
use std::fmt;

/// A firmware image whose checksum does not match the manifest.
#[derive(Debug, PartialEq, Eq)]
pub struct ChecksumMismatch {
    pub expected: u32,
    pub actual: u32,
}

impl fmt::Display for ChecksumMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "checksum mismatch: expected {:08x}, got {:08x}", self.expected, self.actual)
    }
}

impl Error for ChecksumMismatch {}

/// The failure of a firmware update.
#[derive(Debug, PartialEq, Eq)]
pub enum UpdateError {
    /// The device with this id did not answer.
    DeviceOffline(String),
    /// The image for this device failed verification.
    BadImage { device: String, cause: ChecksumMismatch },
}

impl fmt::Display for UpdateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::DeviceOffline(id) => write!(f, "device {} is offline", id),
            UpdateError::BadImage { device, .. } => write!(f, "bad firmware image for {}", device),
        }
    }
}

impl Error for UpdateError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            UpdateError::DeviceOffline(_) => None,
            UpdateError::BadImage { cause, .. } => Some(cause),
        }
    }
}

/// Renders `err` and its chain of causes, joined by `": "`.
pub fn error_chain(err: &dyn Error) -> String {
    let mut rendered = err.to_string();
    let mut cause = err.source();
    while let Some(inner) = cause {
        rendered.push_str(": ");
        rendered.push_str(&inner.to_string());
        cause = inner.source();
    }
    rendered
}
