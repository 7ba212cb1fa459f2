use super::*;

#[test]
fn first_submission_leads() {
    let mut b = Leaderboard::new();
    assert!(b.submit("ana", 10));
    assert_eq!(b.leader(), Some(("ana", 10)));
}

#[test]
fn only_a_strictly_higher_score_takes_the_lead() {
    let mut b = Leaderboard::new();
    b.submit("ana", 10);
    assert!(!b.submit("bo", 10));
    assert!(!b.submit("cy", 3));
    assert!(b.submit("dee", 11));
    assert_eq!(b.leader(), Some(("dee", 11)));
}

#[test]
fn board_is_sorted_with_stable_ties() {
    let mut b = Leaderboard::new();
    for (p, s) in [("a", 5), ("b", 9), ("c", 5), ("d", 7), ("e", 9)] {
        b.submit(p, s);
    }
    assert_eq!(b.top(10), vec!["b", "e", "d", "a", "c"]);
    assert_eq!(b.top(2), vec!["b", "e"]);
}

#[test]
fn empty_board() {
    let b = Leaderboard::new();
    assert_eq!(b.leader(), None);
    assert!(b.top(3).is_empty());
}
