use super::*;

#[test]
fn classes_by_hundreds() {
    assert_eq!(classify(100).0, StatusClass::Informational);
    assert_eq!(classify(199).0, StatusClass::Informational);
    assert_eq!(classify(200).0, StatusClass::Success);
    assert_eq!(classify(204).0, StatusClass::Success);
    assert_eq!(classify(301).0, StatusClass::Redirection);
    assert_eq!(classify(399).0, StatusClass::Redirection);
    assert_eq!(classify(404).0, StatusClass::ClientError);
    assert_eq!(classify(500).0, StatusClass::ServerError);
    assert_eq!(classify(599).0, StatusClass::ServerError);
}

#[test]
fn out_of_range_codes_are_invalid() {
    assert_eq!(classify(0), (StatusClass::Invalid, false));
    assert_eq!(classify(99), (StatusClass::Invalid, false));
    assert_eq!(classify(600), (StatusClass::Invalid, false));
    assert_eq!(classify(u16::MAX), (StatusClass::Invalid, false));
}

#[test]
fn retryable_codes() {
    assert_eq!(classify(429), (StatusClass::ClientError, true));
    assert_eq!(classify(502), (StatusClass::ServerError, true));
    assert_eq!(classify(503), (StatusClass::ServerError, true));
    assert_eq!(classify(504), (StatusClass::ServerError, true));
}

#[test]
fn other_errors_are_not_retryable() {
    assert_eq!(classify(400), (StatusClass::ClientError, false));
    assert_eq!(classify(500), (StatusClass::ServerError, false));
    assert_eq!(classify(505), (StatusClass::ServerError, false));
    assert_eq!(classify(200), (StatusClass::Success, false));
}
