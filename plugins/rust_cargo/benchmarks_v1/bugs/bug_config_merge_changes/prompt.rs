// Task: `merge_config` layers configuration overrides on top of a base
// configuration and reports what changed, as its doc comment says. The file
// does not compile. Fix it and return the whole corrected file.
use std::collections::BTreeMap;

/// Applies `overrides` on top of `base`. Every key whose value changes is
/// reported as (key, old value, new value), in key order; a key new to `base`
/// is reported with an empty old value. Overrides that repeat the current
/// value are not reported.
pub fn merge_config(
    base: &mut BTreeMap<String, String>,
    overrides: &BTreeMap<String, String>,
) -> Vec<(String, String, String)> {
    let mut changes = Vec::new();
    for (key, value) in overrides {
        let old = base.get(key);
        base.insert(key.clone(), value.clone());
        match old {
            Some(old) if old == value => {}
            Some(old) => changes.push((key.clone(), old.clone(), value.clone())),
            None => changes.push((key.clone(), String::new(), value.clone())),
        }
    }
    changes
}
