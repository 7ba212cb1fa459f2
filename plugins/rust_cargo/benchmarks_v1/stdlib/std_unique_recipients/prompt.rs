use std::collections::HashSet;

/// Cleans a mailing list: drops blank entries and repeated addresses, keeping
/// the first occurrence of each address in the original order. Addresses are
/// compared ignoring ASCII case and surrounding whitespace; the kept entries
/// are returned trimmed, with their original case.
pub fn unique_recipients(list: &[&str]) -> Vec<String> {
    let mut seen = HashSet::new();
