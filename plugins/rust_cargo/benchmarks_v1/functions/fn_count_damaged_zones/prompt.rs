/// Counts the damaged zones on a warehouse floor plan.
///
/// Each string in `plan` is one row of tiles, one `char` per tile; `#` marks
/// a damaged tile and any other character an intact one. Damaged tiles that
/// share an edge (not merely a corner) belong to the same zone. Rows may have
/// different lengths; tiles beyond the end of a row do not exist.
pub fn count_damaged_zones(plan: &[&str]) -> usize {
