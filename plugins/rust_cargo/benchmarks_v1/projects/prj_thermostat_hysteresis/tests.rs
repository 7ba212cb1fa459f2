use crate::controller::{Controller, Mode};
use crate::sensor::Reading;
use crate::settings::Settings;

fn ctl() -> Controller {
    Controller::new(Settings { target: 210, band: 5 })
}

fn run(c: &mut Controller, temps: &[i32]) -> Vec<Mode> {
    temps.iter().map(|&t| c.update(Reading::ok(t))).collect()
}

#[test]
fn inside_the_band_stays_idle() {
    let mut c = ctl();
    assert_eq!(run(&mut c, &[210, 206, 214, 205, 215]), vec![Mode::Idle; 5]);
}

#[test]
fn heating_runs_until_the_upper_edge() {
    let mut c = ctl();
    assert_eq!(
        run(&mut c, &[204, 208, 212, 214, 215, 213]),
        vec![Mode::Heating, Mode::Heating, Mode::Heating, Mode::Heating, Mode::Idle, Mode::Idle]
    );
}

#[test]
fn cooling_runs_until_the_lower_edge() {
    let mut c = ctl();
    assert_eq!(
        run(&mut c, &[216, 212, 206, 205, 207]),
        vec![Mode::Cooling, Mode::Cooling, Mode::Cooling, Mode::Idle, Mode::Idle]
    );
}

#[test]
fn can_switch_directly_between_modes() {
    let mut c = ctl();
    assert_eq!(run(&mut c, &[200, 230, 190]), vec![Mode::Heating, Mode::Cooling, Mode::Heating]);
}

#[test]
fn faulty_readings_are_ignored() {
    let mut c = ctl();
    c.update(Reading::ok(200));
    assert_eq!(c.update(Reading::fault()), Mode::Heating);
    assert_eq!(c.update(Reading { tenths: 300, valid: false }), Mode::Heating);
    assert_eq!(c.mode(), Mode::Heating);
}
