/// A temperature sample in tenths of a degree Celsius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    pub tenths: i32,
    /// False when the sensor reported a fault for this sample.
    pub valid: bool,
}

impl Reading {
    pub fn ok(tenths: i32) -> Reading {
        Reading { tenths, valid: true }
    }

    pub fn fault() -> Reading {
        Reading { tenths: 0, valid: false }
    }
}
