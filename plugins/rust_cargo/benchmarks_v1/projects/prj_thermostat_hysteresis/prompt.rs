// Task: the controller flips between modes on every small fluctuation.
// Change `update` so that it uses hysteresis with the settings' band:
// heating starts when the temperature falls below target - band and then
// keeps running until it reaches at least target + band; cooling starts
// above target + band and keeps running until it is at most target - band;
// otherwise the mode is Idle. Invalid readings (see `crate::sensor`) must not
// change the mode. `update` still returns the mode after the reading.
use crate::sensor::Reading;
use crate::settings::Settings;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Idle,
    Heating,
    Cooling,
}

pub struct Controller {
    pub settings: Settings,
    mode: Mode,
}

impl Controller {
    pub fn new(settings: Settings) -> Controller {
        Controller { settings, mode: Mode::Idle }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn update(&mut self, reading: Reading) -> Mode {
        let t = reading.tenths;
        self.mode = if t < self.settings.target {
            Mode::Heating
        } else if t > self.settings.target {
            Mode::Cooling
        } else {
            Mode::Idle
        };
        self.mode
    }
}
