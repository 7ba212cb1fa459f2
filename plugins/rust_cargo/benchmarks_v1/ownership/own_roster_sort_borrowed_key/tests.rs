use super::*;

fn m(name: &str, team: &str, joined: u32) -> Member {
    Member { name: name.to_string(), team: team.to_string(), joined }
}

fn roster() -> Vec<Member> {
    vec![m("Zoe", "red", 2019), m("Ali", "blue", 2021), m("Bea", "red", 2015), m("Cem", "blue", 2021), m("Abe", "red", 2019)]
}

#[test]
fn sorted_by_team_then_name() {
    let mut r = roster();
    sort_roster(&mut r);
    let order: Vec<(&str, &str)> = r.iter().map(|m| (m.team.as_str(), m.name.as_str())).collect();
    assert_eq!(order, vec![("blue", "Ali"), ("blue", "Cem"), ("red", "Abe"), ("red", "Bea"), ("red", "Zoe")]);
}

#[test]
fn team_names_by_seniority() {
    let r = roster();
    assert_eq!(team_names(&r, "red"), vec!["Bea", "Abe", "Zoe"]);
    assert_eq!(team_names(&r, "blue"), vec!["Ali", "Cem"]);
    assert!(team_names(&r, "green").is_empty());
}

#[test]
fn empty_roster() {
    let mut r: Vec<Member> = Vec::new();
    sort_roster(&mut r);
    assert!(r.is_empty());
}
