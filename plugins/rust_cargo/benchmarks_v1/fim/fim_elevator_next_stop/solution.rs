/// The direction an elevator car is travelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Idle,
}

/// Picks the car's next stop with the sweep rule. A request for the current
/// floor is served at once, keeping the direction. Otherwise a moving car
/// keeps its direction while there are requests ahead, serving the nearest
/// one, and turns around to the nearest request behind it when there are
/// none. An idle car goes to the nearest requested floor, the lower one on a
/// tie. Returns the floor and the direction of travel to it, or `None` when
/// there are no requests.
pub fn next_stop(current: i32, direction: Direction, requests: &[i32]) -> Option<(i32, Direction)> {
    if requests.contains(&current) {
        return Some((current, direction));
    }
    let up = requests.iter().copied().filter(|&f| f > current).min().map(|f| (f, Direction::Up));
    let down = requests.iter().copied().filter(|&f| f < current).max().map(|f| (f, Direction::Down));
    if direction == Direction::Up {
        up.or(down)
    } else if direction == Direction::Down {
        down.or(up)
    } else {
        match (up, down) {
            (Some(u), Some(d)) => {
                if u.0 - current < current - d.0 {
                    Some(u)
                } else {
                    Some(d)
                }
            }
            (u, d) => u.or(d),
        }
    }
}
