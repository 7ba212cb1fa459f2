use crate::rule::{Rule, Violation};

pub struct Policy {
    rules: Vec<Box<dyn Rule>>,
}

impl Policy {
    pub fn new(rules: Vec<Box<dyn Rule>>) -> Policy {
        Policy { rules }
    }

    /// All violations, rule by rule, in the order the rules were given.
    pub fn check(&self, password: &str) -> Vec<Violation> {
        self.rules.iter().flat_map(|r| r.check(password)).collect()
    }
}
