use crate::codec::{CodecError, Decode, Encode};
use crate::telemetry::Telemetry;

fn sample() -> Telemetry {
    Telemetry { device_id: 0x0102, sensor: "t1".to_string(), reading: -2, alarm: true }
}

#[test]
fn encodes_the_documented_layout() {
    let mut out = vec![0xEE];
    sample().encode(&mut out).unwrap();
    assert_eq!(out, vec![0xEE, 0x01, 0x02, 2, b't', b'1', 0xFF, 0xFF, 0xFF, 0xFE, 1]);
}

#[test]
fn round_trips_two_messages() {
    let second = Telemetry { device_id: 7, sensor: "humidité".to_string(), reading: 123_456, alarm: false };
    let mut out = Vec::new();
    sample().encode(&mut out).unwrap();
    second.encode(&mut out).unwrap();
    let mut input = &out[..];
    assert_eq!(Telemetry::decode(&mut input), Ok(sample()));
    assert_eq!(Telemetry::decode(&mut input), Ok(second));
    assert!(input.is_empty());
}

#[test]
fn truncated_input_is_reported() {
    let mut out = Vec::new();
    sample().encode(&mut out).unwrap();
    for cut in 0..out.len() {
        let mut input = &out[..cut];
        assert_eq!(Telemetry::decode(&mut input), Err(CodecError::Truncated), "cut at {}", cut);
    }
}

#[test]
fn invalid_flag_and_utf8() {
    let mut input: &[u8] = &[0, 1, 0, 0, 0, 0, 5, 2];
    assert_eq!(Telemetry::decode(&mut input), Err(CodecError::InvalidFlag(2)));
    let mut input: &[u8] = &[0, 1, 1, 0xFF, 0, 0, 0, 5, 0];
    assert_eq!(Telemetry::decode(&mut input), Err(CodecError::BadUtf8));
}

#[test]
fn too_long_sensor_leaves_output_untouched() {
    let t = Telemetry { device_id: 1, sensor: "x".repeat(256), reading: 0, alarm: false };
    let mut out = vec![9, 9];
    assert_eq!(t.encode(&mut out), Err(CodecError::TooLong));
    assert_eq!(out, vec![9, 9]);
}
