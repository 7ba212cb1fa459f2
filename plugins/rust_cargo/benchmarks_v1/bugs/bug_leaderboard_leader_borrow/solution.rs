// Task: `Leaderboard` keeps the scores of an online game, as the doc comments
// say. The file does not compile. Fix it and return the whole corrected file.

/// Scores sorted from highest to lowest; equal scores keep submission order.
#[derive(Debug, Default)]
pub struct Leaderboard {
    scores: Vec<(String, u32)>,
}

impl Leaderboard {
    pub fn new() -> Leaderboard {
        Leaderboard::default()
    }

    /// Records a score. Returns true if the score is strictly higher than the
    /// previous leader's, or if the board was empty.
    pub fn submit(&mut self, player: &str, score: u32) -> bool {
        let previous_best = self.scores.first().map(|(_, best)| *best);
        let pos = self.scores.iter().position(|(_, s)| *s < score).unwrap_or(self.scores.len());
        self.scores.insert(pos, (player.to_string(), score));
        match previous_best {
            None => true,
            Some(best) => score > best,
        }
    }

    /// Names of the `n` best entries, best first.
    pub fn top(&self, n: usize) -> Vec<&str> {
        self.scores.iter().take(n).map(|(name, _)| name.as_str()).collect()
    }

    pub fn leader(&self) -> Option<(&str, u32)> {
        self.scores.first().map(|(name, score)| (name.as_str(), *score))
    }
}
