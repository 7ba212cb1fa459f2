/// Expands a printer page selection such as `"1-3, 5,8-9"` into the pages to
/// print, in the order given (duplicates kept): `[1, 2, 3, 5, 8, 9]`.
///
/// Items are separated by `,`, with optional whitespace around each item. An
/// item is a page number, or `a-b` with `a <= b`; pages are decimal numbers
/// starting at 1 that fit in `u32`. Returns `Err` with the first invalid item
/// (trimmed), which includes an empty item.
pub fn expand_pages(spec: &str) -> Result<Vec<u32>, String> {
    let mut pages = Vec::new();
    for item in spec.split(',').map(str::trim) {
        let range = parse_item(item).ok_or_else(|| item.to_string())?;
        pages.extend(range);
    }
    Ok(pages)
}

fn parse_item(item: &str) -> Option<std::ops::RangeInclusive<u32>> {
    let (first, last) = match item.split_once('-') {
        Some((a, b)) => (parse_page(a)?, parse_page(b)?),
        None => {
            let page = parse_page(item)?;
            (page, page)
        }
    };
    if first <= last {
        Some(first..=last)
    } else {
        None
    }
}

fn parse_page(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&page| page >= 1)
}
