use super::*;

fn inc(id: u32, severity: u8, opened_at: u64, acknowledged: bool) -> Incident {
    Incident { id, severity, opened_at, acknowledged }
}

fn ids(incidents: &[Incident]) -> Vec<u32> {
    incidents.iter().map(|i| i.id).collect()
}

#[test]
fn unacknowledged_come_first() {
    let mut queue = vec![inc(1, 1, 100, true), inc(2, 4, 500, false)];
    triage(&mut queue);
    assert_eq!(ids(&queue), vec![2, 1]);
}

#[test]
fn severity_then_age() {
    let mut queue = vec![inc(1, 3, 100, false), inc(2, 1, 900, false), inc(3, 3, 50, false), inc(4, 2, 10, false)];
    triage(&mut queue);
    assert_eq!(ids(&queue), vec![2, 4, 3, 1]);
}

#[test]
fn id_breaks_full_ties() {
    let mut queue = vec![inc(9, 2, 100, true), inc(3, 2, 100, true), inc(5, 2, 100, true)];
    triage(&mut queue);
    assert_eq!(ids(&queue), vec![3, 5, 9]);
}

#[test]
fn mixed_queue() {
    let mut queue = vec![
        inc(10, 1, 300, true),
        inc(11, 5, 200, false),
        inc(12, 1, 400, false),
        inc(13, 1, 100, true),
        inc(14, 5, 100, false),
    ];
    triage(&mut queue);
    assert_eq!(ids(&queue), vec![12, 14, 11, 13, 10]);
}

#[test]
fn empty_queue() {
    let mut queue: Vec<Incident> = Vec::new();
    triage(&mut queue);
    assert!(queue.is_empty());
}
