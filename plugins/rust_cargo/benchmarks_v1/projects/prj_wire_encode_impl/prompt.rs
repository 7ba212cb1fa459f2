// Task: implement `crate::codec::Encode` and `crate::codec::Decode` for
// `Telemetry`, using the helpers in `crate::codec`. The wire layout is, in
// this order: device_id as u16 big-endian, sensor as a codec string (one
// length byte + UTF-8 bytes), reading as i32 big-endian, then alarm as one
// byte (0 or 1; any other value decodes to `CodecError::InvalidFlag(byte)`).
// Encoding a sensor name longer than 255 bytes fails with `TooLong` and must
// leave `out` unchanged. Decoding consumes exactly one message from the input.

#[derive(Debug, Clone, PartialEq)]
pub struct Telemetry {
    pub device_id: u16,
    pub sensor: String,
    pub reading: i32,
    pub alarm: bool,
}
