// Task: a sports club sorts its member roster, as the doc comments say. The
// file does not compile. Fix it and return the whole corrected file.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    pub team: String,
    pub joined: u32,
}

/// Sorts `members` in place by team, then by name, both ascending.
pub fn sort_roster(members: &mut [Member]) {
    members.sort_by_key(|m| (&m.team, &m.name));
}

/// The names of the members of `team`, longest-serving first (smallest
/// `joined`), ties by name.
pub fn team_names<'a>(members: &'a [Member], team: &str) -> Vec<&'a str> {
    let mut in_team: Vec<&Member> = members.iter().filter(|m| m.team == team).collect();
    in_team.sort_by_key(|m| (m.joined, &m.name));
    in_team.into_iter().map(|m| m.name.as_str()).collect()
}
