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
    type Error = PortError;

    fn try_from(value: u32) -> Result<Self, Self::Error> {
        if value < 1024 {
            Err(PortError::Privileged(value))
        } else {
            u16::try_from(value).map(ServicePort).map_err(|_| PortError::OutOfRange(value))
        }
    }
}

impl FromStr for ServicePort {
    type Err = PortError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let value: u32 = text.parse().map_err(|_| PortError::NotANumber(text.to_string()))?;
        ServicePort::try_from(value)
    }
}

impl From<ServicePort> for u16 {
    fn from(port: ServicePort) -> u16 {
        port.0
    }
}
