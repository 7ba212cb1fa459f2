/// Expands a printer page selection such as `"1-3, 5,8-9"` into the pages to
/// print, in the order given (duplicates kept): `[1, 2, 3, 5, 8, 9]`.
///
/// Items are separated by `,`, with optional whitespace around each item. An
/// item is a page number, or `a-b` with `a <= b`; pages are decimal numbers
/// starting at 1 that fit in `u32`. Returns `Err` with the first invalid item
/// (trimmed), which includes an empty item.
pub fn expand_pages(spec: &str) -> Result<Vec<u32>, String> {
