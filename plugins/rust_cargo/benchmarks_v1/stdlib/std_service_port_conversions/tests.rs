use super::*;

#[test]
fn valid_ports_from_numbers() {
    assert_eq!(ServicePort::try_from(8080u32).map(u16::from), Ok(8080));
    assert_eq!(ServicePort::try_from(1024u32).map(u16::from), Ok(1024));
    assert_eq!(ServicePort::try_from(65535u32).map(u16::from), Ok(65535));
}

#[test]
fn invalid_numbers() {
    assert_eq!(ServicePort::try_from(80u32), Err(PortError::Privileged(80)));
    assert_eq!(ServicePort::try_from(1023u32), Err(PortError::Privileged(1023)));
    assert_eq!(ServicePort::try_from(0u32), Err(PortError::Privileged(0)));
    assert_eq!(ServicePort::try_from(65536u32), Err(PortError::OutOfRange(65536)));
    assert_eq!(ServicePort::try_from(u32::MAX), Err(PortError::OutOfRange(u32::MAX)));
}

#[test]
fn parsing_text() {
    let port: ServicePort = "8443".parse().unwrap();
    assert_eq!(u16::from(port), 8443);
    assert_eq!("443".parse::<ServicePort>(), Err(PortError::Privileged(443)));
    assert_eq!("70000".parse::<ServicePort>(), Err(PortError::OutOfRange(70000)));
}

#[test]
fn text_that_is_not_a_number() {
    for bad in ["http", "", "-1", " 8080", "80.0", "4294967296"] {
        assert_eq!(bad.parse::<ServicePort>(), Err(PortError::NotANumber(bad.to_string())), "{:?}", bad);
    }
}

#[test]
fn ports_are_ordered() {
    let low = ServicePort::try_from(2000u32).unwrap();
    let high: ServicePort = "3000".parse().unwrap();
    assert!(low < high);
}
