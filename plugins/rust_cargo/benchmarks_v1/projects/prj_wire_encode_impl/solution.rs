// Task: implement `crate::codec::Encode` and `crate::codec::Decode` for
// `Telemetry`, using the helpers in `crate::codec`. The wire layout is, in
// this order: device_id as u16 big-endian, sensor as a codec string (one
// length byte + UTF-8 bytes), reading as i32 big-endian, then alarm as one
// byte (0 or 1; any other value decodes to `CodecError::InvalidFlag(byte)`).
// Encoding a sensor name longer than 255 bytes fails with `TooLong` and must
// leave `out` unchanged. Decoding consumes exactly one message from the input.
use crate::codec::{read_i32, read_str, read_u16, take, write_str, CodecError, Decode, Encode};

#[derive(Debug, Clone, PartialEq)]
pub struct Telemetry {
    pub device_id: u16,
    pub sensor: String,
    pub reading: i32,
    pub alarm: bool,
}

impl Encode for Telemetry {
    fn encode(&self, out: &mut Vec<u8>) -> Result<(), CodecError> {
        let mut buf = Vec::with_capacity(8 + self.sensor.len());
        buf.extend_from_slice(&self.device_id.to_be_bytes());
        write_str(&mut buf, &self.sensor)?;
        buf.extend_from_slice(&self.reading.to_be_bytes());
        buf.push(u8::from(self.alarm));
        out.extend_from_slice(&buf);
        Ok(())
    }
}

impl Decode for Telemetry {
    fn decode(input: &mut &[u8]) -> Result<Self, CodecError> {
        let device_id = read_u16(input)?;
        let sensor = read_str(input)?;
        let reading = read_i32(input)?;
        let alarm = match take(input, 1)?[0] {
            0 => false,
            1 => true,
            other => return Err(CodecError::InvalidFlag(other)),
        };
        Ok(Telemetry { device_id, sensor, reading, alarm })
    }
}
