// Task: a REST API pages through search results with `page_count` and `page`,
// as their doc comments say. The code compiles but has a bug. Fix it and
// return the whole corrected file.

/// How many pages of `per_page` items are needed for `total` items (the last
/// page may be partly filled). Zero items per page gives zero pages.
pub fn page_count(total: usize, per_page: usize) -> usize {
    if per_page == 0 {
        return 0;
    }
    (total + per_page - 1) / per_page
}

/// The items of page `index` (0-based). The last page may be shorter than
/// `per_page`; a page past the end, or zero items per page, is empty.
pub fn page<T>(items: &[T], index: usize, per_page: usize) -> &[T] {
    if per_page == 0 {
        return &[];
    }
    let start = index.saturating_mul(per_page);
    if start >= items.len() {
        return &[];
    }
    let end = start + per_page;
    &items[start..end]
}
