use super::*;
use std::error::Error;
use std::fmt;

fn bad_image() -> UpdateError {
    UpdateError::BadImage { device: "pump-7".to_string(), cause: ChecksumMismatch { expected: 0xdeadbeef, actual: 0x1234 } }
}

#[test]
fn display_messages() {
    assert_eq!(UpdateError::DeviceOffline("valve-2".to_string()).to_string(), "device valve-2 is offline");
    assert_eq!(bad_image().to_string(), "bad firmware image for pump-7");
}

#[test]
fn source_is_the_checksum_failure() {
    let err = bad_image();
    let source = err.source().expect("BadImage has a source");
    assert_eq!(source.to_string(), "checksum mismatch: expected deadbeef, got 00001234");
    assert!(UpdateError::DeviceOffline("x".to_string()).source().is_none());
}

#[test]
fn chain_of_update_errors() {
    assert_eq!(error_chain(&bad_image()), "bad firmware image for pump-7: checksum mismatch: expected deadbeef, got 00001234");
    assert_eq!(error_chain(&UpdateError::DeviceOffline("d1".to_string())), "device d1 is offline");
}

#[derive(Debug)]
struct Rollout(UpdateError);

impl fmt::Display for Rollout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rollout aborted")
    }
}

impl Error for Rollout {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.0)
    }
}

#[test]
fn chain_follows_every_level() {
    let err = Rollout(bad_image());
    assert_eq!(
        error_chain(&err),
        "rollout aborted: bad firmware image for pump-7: checksum mismatch: expected deadbeef, got 00001234"
    );
    let boxed: Box<dyn Error> = Box::new(Rollout(UpdateError::DeviceOffline("d9".to_string())));
    assert_eq!(error_chain(boxed.as_ref()), "rollout aborted: device d9 is offline");
}
