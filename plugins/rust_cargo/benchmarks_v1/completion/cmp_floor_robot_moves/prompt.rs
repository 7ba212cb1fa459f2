/// A warehouse floor on a grid; `blocked` is row-major and `true` where a
/// shelf stands.
pub struct Floor {
    pub width: usize,
    pub height: usize,
    pub blocked: Vec<bool>,
}

impl Floor {
    fn is_free(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && !self.blocked[y * self.width + x]
    }

    /// The free cells a robot at `(x, y)` can step to, in the order north
    /// `(x, y - 1)`, east `(x + 1, y)`, south `(x, y + 1)`, west `(x - 1, y)`.
    /// Steps off the floor or onto a shelf are left out.
    pub fn moves(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        const STEPS: [(isize, isize); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
        STEPS
            .iter()
