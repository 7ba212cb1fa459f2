/// Counts the damaged zones on a warehouse floor plan.
///
/// Each string in `plan` is one row of tiles, one `char` per tile; `#` marks
/// a damaged tile and any other character an intact one. Damaged tiles that
/// share an edge (not merely a corner) belong to the same zone. Rows may have
/// different lengths; tiles beyond the end of a row do not exist.
pub fn count_damaged_zones(plan: &[&str]) -> usize {
    let grid: Vec<Vec<bool>> = plan.iter().map(|row| row.chars().map(|c| c == '#').collect()).collect();
    let mut seen: Vec<Vec<bool>> = grid.iter().map(|row| vec![false; row.len()]).collect();
    let mut zones = 0;
    for r in 0..grid.len() {
        for c in 0..grid[r].len() {
            if !grid[r][c] || seen[r][c] {
                continue;
            }
            zones += 1;
            seen[r][c] = true;
            let mut stack = vec![(r, c)];
            while let Some((row, col)) = stack.pop() {
                let mut neighbours = vec![(row + 1, col), (row, col + 1)];
                if row > 0 {
                    neighbours.push((row - 1, col));
                }
                if col > 0 {
                    neighbours.push((row, col - 1));
                }
                for (nr, nc) in neighbours {
                    let damaged = grid.get(nr).and_then(|line| line.get(nc)).copied().unwrap_or(false);
                    if damaged && !seen[nr][nc] {
                        seen[nr][nc] = true;
                        stack.push((nr, nc));
                    }
                }
            }
        }
    }
    zones
}
