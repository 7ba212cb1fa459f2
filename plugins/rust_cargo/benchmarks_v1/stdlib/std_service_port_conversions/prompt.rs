//! A validated TCP port for unprivileged services.
//!
//! Still to do in this module: `impl TryFrom<u32> for ServicePort` (with
//! `Error = PortError`): values below 1024 give `Privileged`, values above
//! 65535 give `OutOfRange`; `impl FromStr for ServicePort` (with
//! `Err = PortError`): the text is parsed as a decimal `u32` with
//! `str::parse`, and text that does not parse gives `NotANumber` holding the
//! text, otherwise the `TryFrom` rules apply; and
//! `impl From<ServicePort> for u16`.

use std::str::FromStr;

/// A TCP port in `1024..=65535`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ServicePort(u16);

/// Why a value is not a valid service port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PortError {
    Privileged(u32),
    OutOfRange(u32),
    NotANumber(String),
}

impl TryFrom<u32> for ServicePort {
